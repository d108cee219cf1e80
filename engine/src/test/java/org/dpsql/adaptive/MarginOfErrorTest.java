package org.dpsql.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * The exact 95% MOE against the paper's closed forms and against simulation. Significance: the
 * coverage comparisons allow 4 binomial standard deviations (two-sided 6e-5).
 */
class MarginOfErrorTest {

  @Test
  void exactGeometricMoeIsTheCeilingOfEquation36() {
    for (double b : new double[] {0.5, 1, 2.3366, 3.3, 7.5, 17.02, 100}) {
      double x = b * Math.log(40 / (1 + Math.exp(1 / b)));
      long exact = MarginOfError.geometric(Rational.ofDouble(b));
      assertEquals((long) Math.ceil(x), exact, "b=" + b);
      assertEquals((long) Math.floor(x), MarginOfError.paperGeometric(b));
    }
  }

  @Test
  void equation36UndercoversAtCorollary2() {
    // ε = 0.428 ≥ ln 20/7 (Corollary 2 for MOE 6): eq. 36 says MOE 6, the exact MOE is 7.
    NoisyCount c = new NoisyCount(BaseMechanism.GEOMETRIC, Rational.parse("0.428"));
    assertEquals(6, MarginOfError.paperGeometric(1 / 0.428));
    assertEquals(7, c.marginOfError95());
    int n = 20_000;
    SeededRandomBits bits = new SeededRandomBits(99);
    int within6 = 0;
    int within7 = 0;
    for (int i = 0; i < n; i++) {
      long z = c.release(0, bits);
      within6 += Math.abs(z) <= 6 ? 1 : 0;
      within7 += Math.abs(z) <= 7 ? 1 : 0;
    }
    double p6 = 1 - c.tailAbs(6);
    double p7 = 1 - c.tailAbs(7);
    System.out.printf(
        "geometric eps=0.428: P[|Z|<=6] exact %.4f empirical %.4f; P[|Z|<=7] exact %.4f empirical"
            + " %.4f%n",
        p6, within6 / (double) n, p7, within7 / (double) n);
    assertTrue(p6 < 0.95 && p7 >= 0.95);
    assertEquals(p6, within6 / (double) n, 4 * Math.sqrt(p6 * (1 - p6) / n));
    assertEquals(p7, within7 / (double) n, 4 * Math.sqrt(p7 * (1 - p7) / n));
    assertTrue(
        within6 / (double) n < 0.95 - 4 * Math.sqrt(0.95 * 0.05 / n), "eq. 36's MOE undercovers");
  }

  @Test
  void floorOfOnePointNineSixSigmaIsNotAlwaysA95PercentMoe() {
    // At the σ of Corollary 4 it agrees with the exact quantile ...
    for (long moe : new long[] {6, 11, 50}) {
      double sigma2 = 1 / (2 * MoeCalibration.corollary4Rho(moe));
      assertEquals(moe, MarginOfError.paperDiscreteGaussian(sigma2));
      assertEquals(moe, MarginOfError.discreteGaussian(Rational.ofDouble(sigma2)));
    }
    // ... but at σ² = 12.4 (1.96σ = 6.90) it says 6 while P[|Z| ≤ 6] < 0.95: the exact MOE is 7.
    Rational s2 = Rational.parse("12.4");
    NoisyCount c = new NoisyCount(BaseMechanism.DISCRETE_GAUSSIAN, s2.multiply(2).reciprocal());
    assertEquals(s2, c.noiseParameter());
    assertEquals(6, MarginOfError.paperDiscreteGaussian(12.4));
    assertEquals(7, c.marginOfError95());
    double p6 = 1 - c.tailAbs(6);
    System.out.printf("discrete Gaussian sigma^2=12.4: P[|Z|<=6] = %.4f%n", p6);
    assertTrue(p6 < 0.95);
  }
}
