package org.dpsql.adaptive;

import org.apache.commons.math3.distribution.ChiSquaredDistribution;

/** Statistical helpers for the SafeTab tests. */
final class Stats {
  private Stats() {}

  /** Pearson chi-square p-value of observed counts against expected counts (df = bins − 1). */
  static double chiSquarePValue(long[] observed, double[] expected) {
    double chi2 = 0;
    for (int i = 0; i < observed.length; i++) {
      double d = observed[i] - expected[i];
      chi2 += d * d / expected[i];
    }
    return 1 - new ChiSquaredDistribution(observed.length - 1).cumulativeProbability(chi2);
  }

  /** Exact discrete Laplace pmf with scale b: (1 − q)/(1 + q) q^|z|, q = e^{−1/b}. */
  static double laplacePmf(double scale, long z) {
    double q = Math.exp(-1 / scale);
    return (1 - q) / (1 + q) * Math.pow(q, Math.abs(z));
  }

  /** Exact discrete Gaussian pmf, normaliser summed directly. */
  static double gaussianPmf(double sigma2, long z) {
    double c = 1;
    for (int y = 1; y < 40 * Math.sqrt(sigma2) + 10; y++) {
      c += 2 * Math.exp(-(double) y * y / (2 * sigma2));
    }
    return Math.exp(-(double) z * z / (2 * sigma2)) / c;
  }

  /**
   * Chi-square goodness of fit of integer samples to a symmetric pmf: one bin per z in [−K, K] with
   * K the largest value whose expected count is ≥ 5, plus the two pooled tails (merged into the
   * extreme bins if their expectation is below 5).
   */
  static double chiSquareAgainstPmf(long[] samples, java.util.function.LongToDoubleFunction pmf) {
    int n = samples.length;
    long k = 0;
    while (n * pmf.applyAsDouble(k + 1) >= 5) {
      k++;
    }
    double inner = 0;
    for (long z = -k; z <= k; z++) {
      inner += pmf.applyAsDouble(z);
    }
    double tail = (1 - inner) / 2;
    boolean pooled = n * tail >= 5;
    int width = (int) (2 * k + 1);
    int bins = pooled ? width + 2 : width;
    long[] observed = new long[bins];
    double[] expected = new double[bins];
    int off = pooled ? 1 : 0;
    for (long z = -k; z <= k; z++) {
      expected[(int) (z + k) + off] = n * pmf.applyAsDouble(z);
    }
    if (pooled) {
      expected[0] = n * tail;
      expected[bins - 1] = n * tail;
    } else {
      expected[0] += n * tail;
      expected[bins - 1] += n * tail;
    }
    for (long s : samples) {
      int idx = s < -k ? 0 : s > k ? bins - 1 : (int) (s + k) + off;
      observed[idx]++;
    }
    return chiSquarePValue(observed, expected);
  }
}
