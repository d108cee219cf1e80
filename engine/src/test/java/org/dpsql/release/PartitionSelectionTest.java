package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * The privacy and utility of {@link PartitionSelection}: its threshold against the exact tail of
 * its noise, the empirical release rate of a group one unit alone holds against δ (one-sided
 * binomial test at significance 10⁻⁶: z = 4.75), the release of groups many units hold, and the
 * charge.
 */
class PartitionSelectionTest {
  /** One-sided z at significance 1e-6. */
  private static final double Z = 4.75;

  /** The exact probability that the geometric selection releases a group of {@code units}. */
  private static double geometricRelease(double epsilon, int g, long threshold, long units) {
    double a = Math.exp(-epsilon / g);
    long t = threshold - units; // P[Z >= t]
    return t <= 0 ? 1 - Math.pow(a, 1 - t) / (1 + a) : Math.pow(a, t) / (1 + a);
  }

  @Test
  void geometricThresholdIsTheSmallestThatKeepsOneUnitsGroupsWithinDelta() {
    for (double eps : new double[] {0.1, 0.5, 1, 3}) {
      for (int g : new int[] {1, 2, 5}) {
        for (String d : new String[] {"1e-5", "1e-9", "0.01"}) {
          double delta = Double.parseDouble(d);
          PartitionSelection s = PartitionSelection.geometric(BigDecimal.valueOf(eps),
              new BigDecimal(d), g);
          long tau = s.threshold();
          double p = geometricRelease(eps, g, tau, 1);
          assertTrue(g * p <= delta * (1 + 1e-9), eps + "/" + g + "/" + d + ": " + g * p);
          // one less would not do
          assertTrue(g * geometricRelease(eps, g, tau - 1, 1) > delta || tau == 1,
              eps + "/" + g + "/" + d + ": τ not the smallest");
          assertEquals(g * p, s.releaseBound(), 1e-9 * g * p);
          assertEquals(PrivacyCost.approx(BigDecimal.valueOf(eps), new BigDecimal(d)), s.charge());
        }
      }
    }
    // the textbook form: τ = 1 + (g/ε) ln(g/(δ(1+a))) rounded up
    PartitionSelection s = PartitionSelection.geometric(BigDecimal.ONE, new BigDecimal("1e-6"), 1);
    assertEquals(1 + (long) Math.ceil(Math.log(1 / (1e-6 * (1 + Math.exp(-1))))), s.threshold());
  }

  @Test
  void aGroupOneUnitAloneHoldsIsReleasedAtMostWithProbabilityDelta() {
    // a large δ, so that the rate is measurable: 40,000 draws, expected ≤ 2,000 releases
    int n = 40_000;
    for (String kind : new String[] {"geometric", "gaussian"}) {
      BigDecimal delta = new BigDecimal("0.05");
      PartitionSelection s = kind.equals("geometric")
          ? PartitionSelection.geometric(new BigDecimal("0.7"), delta, 1)
          : PartitionSelection.gaussian(new BigDecimal("0.3"), delta, 1);
      SeededRandomBits random = new SeededRandomBits(kind.length());
      int released = 0;
      for (int i = 0; i < n; i++) {
        if (s.releases(1, random)) {
          released++;
        }
      }
      double mean = n * 0.05;
      double limit = mean + Z * Math.sqrt(mean * 0.95);
      assertTrue(released <= limit, kind + ": " + released + " releases > " + limit);
      if (kind.equals("geometric")) {
        // and the rate is the exact one (two-sided, same significance)
        double p = geometricRelease(0.7, 1, s.threshold(), 1);
        double sd = Math.sqrt(n * p * (1 - p));
        assertTrue(Math.abs(released - n * p) <= Z * sd, released + " vs " + n * p);
      }
    }
  }

  @Test
  void groupsManyUnitsHoldAreReleased() {
    PartitionSelection s = PartitionSelection.geometric(BigDecimal.ONE, new BigDecimal("1e-6"), 1);
    SeededRandomBits random = new SeededRandomBits(3);
    long tau = s.threshold();
    // at τ + 20 units the miss probability is a^21/(1+a) ≈ 5e-10 per draw
    for (int i = 0; i < 10_000; i++) {
      assertTrue(s.releases(tau + 20, random));
    }
    // at τ about half are released (P[Z ≥ 0] = 1/(1+a) ≈ 0.73)
    int half = 0;
    for (int i = 0; i < 10_000; i++) {
      half += s.releases(tau, random) ? 1 : 0;
    }
    double p = 1 / (1 + Math.exp(-1));
    assertEquals(10_000 * p, half, Z * Math.sqrt(10_000 * p * (1 - p)));
    PartitionSelection g = PartitionSelection.gaussian(new BigDecimal("0.5"),
        new BigDecimal("1e-9"), 3);
    for (int i = 0; i < 10_000; i++) {
      assertTrue(g.releases(g.threshold() + 40, random)); // σ = √3: 23σ above
    }
  }

  @Test
  void gaussianThresholdFollowsTheSubGaussianTailAndChargesRhoAndDelta() {
    PartitionSelection s = PartitionSelection.gaussian(new BigDecimal("0.01"),
        new BigDecimal("1e-11"), 1);
    double sigma2 = 1 / (2 * 0.01);
    long t = s.threshold() - 1;
    assertTrue(Math.exp(-t * (double) t / (2 * sigma2)) <= 1e-11);
    assertTrue(Math.exp(-(t - 1) * (double) (t - 1) / (2 * sigma2)) > 1e-11, "the smallest");
    assertEquals(new PrivacyCost(BigDecimal.ZERO, new BigDecimal("1e-11"),
        new BigDecimal("0.01")), s.charge());
    // g groups per unit: σ² = g/(2ρ), and the union bound over g groups
    PartitionSelection g = PartitionSelection.gaussian(new BigDecimal("0.01"),
        new BigDecimal("1e-11"), 4);
    assertTrue(g.threshold() > s.threshold());
    assertTrue(g.releaseBound() <= 1e-11);
  }
}
