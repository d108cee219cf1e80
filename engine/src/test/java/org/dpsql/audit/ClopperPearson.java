package org.dpsql.audit;

import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * Exact (Clopper–Pearson) one-sided confidence bounds for a binomial proportion: for k successes
 * in n trials, {@link #lower} is the Beta(k, n − k + 1) quantile at {@code a} and {@link #upper}
 * the Beta(k + 1, n − k) quantile at {@code 1 − a}, so that each bound fails to cover the true p
 * with probability at most {@code a}, whatever p is (the interval is conservative: the coverage
 * is at least, not exactly, 1 − a).
 */
final class ClopperPearson {
  /** Accuracy of the inverse Beta CDF: far below any bound's own width at the sizes used. */
  private static final double INVERSE_ACCURACY = 1e-12;

  private ClopperPearson() {}

  /** A lower bound on p that holds with probability at least {@code 1 - a}. */
  static double lower(long k, long n, double a) {
    check(k, n, a);
    if (k == 0) {
      return 0.0;
    }
    return new BetaDistribution(null, k, n - k + 1, INVERSE_ACCURACY).inverseCumulativeProbability(a);
  }

  /** An upper bound on p that holds with probability at least {@code 1 - a}. */
  static double upper(long k, long n, double a) {
    check(k, n, a);
    if (k == n) {
      return 1.0;
    }
    return new BetaDistribution(null, k + 1, n - k, INVERSE_ACCURACY)
        .inverseCumulativeProbability(1 - a);
  }

  private static void check(long k, long n, double a) {
    if (n <= 0 || k < 0 || k > n || !(a > 0 && a < 0.5)) {
      throw new IllegalArgumentException("k " + k + ", n " + n + ", a " + a);
    }
  }
}
