package org.dpsql.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/**
 * The audit's statistics, checked without any database: Clopper–Pearson bounds against their
 * closed forms and their exact coverage, and the whole lower-bound procedure on exactly sampled
 * two-sided geometric noise, where the true privacy loss is known.
 */
class PrivacyLossBoundTest {

  @Test
  void clopperPearsonMatchesClosedFormsAtTheEdges() {
    // 0 of n: upper = 1 - a^(1/n); n of n: lower = a^(1/n)
    assertEquals(1 - Math.pow(0.025, 1.0 / 10), ClopperPearson.upper(0, 10, 0.025), 1e-9);
    assertEquals(Math.pow(0.025, 1.0 / 200), ClopperPearson.lower(200, 200, 0.025), 1e-9);
    assertEquals(0.0, ClopperPearson.lower(0, 10, 0.025));
    assertEquals(1.0, ClopperPearson.upper(10, 10, 0.025));
  }

  @Test
  void clopperPearsonCoversAtLeastItsLevelExactly() {
    // exact coverage for several p: sum of the binomial mass of every k whose bound misses p
    int n = 60;
    double a = 0.025;
    for (double p : new double[] {0.01, 0.1, 0.3, 0.5, 0.77, 0.95}) {
      BinomialDistribution b = new BinomialDistribution(n, p);
      double missLower = 0;
      double missUpper = 0;
      for (int k = 0; k <= n; k++) {
        if (ClopperPearson.lower(k, n, a) > p) {
          missLower += b.probability(k);
        }
        if (ClopperPearson.upper(k, n, a) < p) {
          missUpper += b.probability(k);
        }
      }
      assertTrue(missLower <= a + 1e-12, "lower bound misses p = " + p + " with " + missLower);
      assertTrue(missUpper <= a + 1e-12, "upper bound misses p = " + p + " with " + missUpper);
    }
  }

  /** Two-sided geometric noise P[Z = z] ∝ exp(-ε|z|), sampled exactly by inversion. */
  private static double[] geometric(double shift, double eps, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double q = Math.exp(-eps);
    double[] out = new double[n];
    for (int i = 0; i < n; i++) {
      // |Z| = 0 with probability (1 - q) / (1 + q), else a geometric magnitude with a random sign
      double u = r.nextDouble();
      long z;
      if (u < (1 - q) / (1 + q)) {
        z = 0;
      } else {
        long m = 1 + (long) Math.floor(Math.log(r.nextDouble()) / Math.log(q));
        z = r.nextBoolean() ? m : -m;
      }
      out[i] = shift + z;
    }
    return out;
  }

  @Test
  void anEpsilonDpPairStaysBelowEpsilonAndATwiceLeakierPairIsFlagged() {
    double eps = 1.5;
    int n = 3000;
    // sensitivity 1, noise at eps: the true privacy loss is exactly eps
    PrivacyLossBound.Choice c = PrivacyLossBound.chooseEvent(geometric(0, eps, 1000, 1),
        geometric(1, eps, 1000, 2), 0, 0.05);
    PrivacyLossBound.Estimate honest = PrivacyLossBound.evaluate(c, geometric(0, eps, n, 3),
        geometric(1, eps, n, 4), 0, 0.05);
    assertTrue(honest.epsilonLow() <= eps, "honest " + honest);
    assertTrue(honest.epsilonLow() >= 0.8 * eps, "tight " + honest);
    // a shift of 2 under the same noise: true loss 2 eps
    PrivacyLossBound.Choice b = PrivacyLossBound.chooseEvent(geometric(0, eps, 1000, 5),
        geometric(2, eps, 1000, 6), 0, 0.05);
    PrivacyLossBound.Estimate broken = PrivacyLossBound.evaluate(b, geometric(0, eps, n, 7),
        geometric(2, eps, n, 8), 0, 0.05);
    assertTrue(broken.epsilonLow() > eps, "broken " + broken);
    assertTrue(broken.epsilonLow() <= 2 * eps, "broken " + broken);
  }

  @Test
  void deltaIsSubtractedFromTheNumerator() {
    // 50 of 100 against 10 of 100: the bound with delta is ln((lower - delta) / upper)
    double lower = ClopperPearson.lower(50, 100, 0.025);
    double upper = ClopperPearson.upper(10, 100, 0.025);
    assertEquals(Math.log((lower - 0.1) / upper),
        PrivacyLossBound.bound(50, 100, 10, 100, 0.1, 0.05), 1e-12);
    assertEquals(Double.NEGATIVE_INFINITY, PrivacyLossBound.bound(1, 100, 10, 100, 0.5, 0.05));
  }

  @Test
  void eventsCountSortedSamplesAndNullIsTheSmallestOutput() {
    double[] s = OutputEvent.sorted(new double[] {3, Double.NEGATIVE_INFINITY, 1, 2, 2});
    assertEquals(3, new OutputEvent(2, true).count(s));
    assertEquals(4, new OutputEvent(2, false).count(s));
    assertEquals(1, new OutputEvent(Double.NEGATIVE_INFINITY, false).count(s));
  }
}
