package org.dpsql.spatial;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;

/** Chi-square goodness-of-fit helpers for the spatial noise tests. */
final class SpatialStats {
  private SpatialStats() {}

  /**
   * p-value of integer samples against a distribution symmetric about 0 with the given pmf: one
   * bin per value {@code z} in {@code [-zmax, zmax]} with expected count at least 5, plus two
   * pooled tails (merged into their neighbours when their expected count is below 5). No
   * parameters are estimated, so the degrees of freedom are bins − 1.
   */
  static double symmetricPValue(long[] samples, LongToDoubleFunction pmf) {
    int n = samples.length;
    long zmax = 0;
    while (n * pmf.applyAsDouble(zmax + 1) >= 5) {
      zmax++;
    }
    double inner = 0;
    for (long z = -zmax; z <= zmax; z++) {
      inner += pmf.applyAsDouble(z);
    }
    double tail = Math.max(0, (1 - inner) / 2);
    int width = (int) (2 * zmax + 1);
    double[] expected = new double[width + 2];
    long[] observed = new long[width + 2];
    for (long z = -zmax; z <= zmax; z++) {
      expected[(int) (z + zmax) + 1] = n * pmf.applyAsDouble(z);
    }
    expected[0] = n * tail;
    expected[width + 1] = n * tail;
    for (long s : samples) {
      int idx = s < -zmax ? 0 : s > zmax ? width + 1 : (int) (s + zmax) + 1;
      observed[idx]++;
    }
    List<double[]> cells = new ArrayList<>();
    for (int i = 0; i < expected.length; i++) {
      cells.add(new double[] {expected[i], observed[i]});
    }
    if (n * tail < 5) {
      double[] up = cells.remove(cells.size() - 1);
      cells.get(cells.size() - 1)[0] += up[0];
      cells.get(cells.size() - 1)[1] += up[1];
      double[] low = cells.remove(0);
      cells.get(0)[0] += low[0];
      cells.get(0)[1] += low[1];
    }
    return pValue(cells);
  }

  /** p-value of category counts against probabilities (all expected counts must be >= 5). */
  static double categoricalPValue(long[] observed, double[] probabilities) {
    long n = 0;
    for (long o : observed) {
      n += o;
    }
    List<double[]> cells = new ArrayList<>();
    for (int i = 0; i < observed.length; i++) {
      if (n * probabilities[i] < 5) {
        throw new IllegalArgumentException("expected count below 5 in category " + i);
      }
      cells.add(new double[] {n * probabilities[i], observed[i]});
    }
    return pValue(cells);
  }

  private static double pValue(List<double[]> cells) {
    double stat = 0;
    for (double[] c : cells) {
      double d = c[1] - c[0];
      stat += d * d / c[0];
    }
    return 1 - new ChiSquaredDistribution(cells.size() - 1).cumulativeProbability(stat);
  }
}
