package org.dpsql.mechanism;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;

/** Goodness-of-fit and moment helpers shared by the statistical tests. */
final class StatisticalChecks {
  private StatisticalChecks() {}

  /**
   * Chi-square goodness-of-fit p-value of integer samples from a distribution symmetric and
   * unimodal about 0 with the given pmf. One bin per {@code z} whose expected count is at least 5
   * (a contiguous range {@code [-zmax, zmax]}), plus the two pooled tails {@code z < -zmax} and
   * {@code z > zmax}; a pooled tail whose expected count is below 5 is merged into its neighbouring
   * bin so that the chi-square approximation stays valid. No parameters are estimated, so the
   * degrees of freedom are the number of bins minus one.
   */
  static double chiSquarePValue(long[] samples, LongToDoubleFunction pmf) {
    int n = samples.length;
    long zmax = 0;
    while (n * pmf.applyAsDouble(zmax + 1) >= 5) {
      zmax++;
    }
    if (n * pmf.applyAsDouble(0) < 5) {
      throw new IllegalArgumentException("too few samples for any bin");
    }
    double tailMass = 0; // P[Z > zmax], summed outward (small terms) for accuracy
    for (long z = zmax + 1; ; z++) {
      double p = pmf.applyAsDouble(z);
      tailMass += p;
      if (p < 1e-300 || p < 1e-18 * tailMass) {
        break;
      }
    }
    int width = (int) (2 * zmax + 1);
    double[] expected = new double[width + 2]; // [0] lower tail, [1..width] bins, [width+1] upper
    long[] observed = new long[width + 2];
    for (long z = -zmax; z <= zmax; z++) {
      expected[(int) (z + zmax) + 1] = n * pmf.applyAsDouble(z);
    }
    expected[0] = n * tailMass;
    expected[width + 1] = n * tailMass;
    for (long s : samples) {
      int idx = s < -zmax ? 0 : s > zmax ? width + 1 : (int) (s + zmax) + 1;
      observed[idx]++;
    }
    List<double[]> cells = new ArrayList<>(); // {expected, observed}
    boolean mergeTails = n * tailMass < 5;
    for (int i = 0; i < expected.length; i++) {
      cells.add(new double[] {expected[i], observed[i]});
    }
    if (mergeTails) {
      double[] upper = cells.remove(cells.size() - 1);
      cells.get(cells.size() - 1)[0] += upper[0];
      cells.get(cells.size() - 1)[1] += upper[1];
      double[] lower = cells.remove(0);
      cells.get(0)[0] += lower[0];
      cells.get(0)[1] += lower[1];
    }
    if (cells.size() < 2) {
      return 1.0; // a single cell carries no information
    }
    double stat = 0;
    for (double[] c : cells) {
      double diff = c[1] - c[0];
      stat += diff * diff / c[0];
    }
    return pValue(stat, cells.size() - 1);
  }

  /** Chi-square p-value for equal-probability bins. */
  static double uniformChiSquarePValue(long[] counts) {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    double e = (double) n / counts.length;
    double stat = 0;
    for (long c : counts) {
      stat += (c - e) * (c - e) / e;
    }
    return pValue(stat, counts.length - 1);
  }

  static double pValue(double statistic, int degreesOfFreedom) {
    return 1 - new ChiSquaredDistribution(degreesOfFreedom).cumulativeProbability(statistic);
  }

  /** {@code E[Z^k]} for even {@code k} and a symmetric pmf, summed over {@code |z| <= bound}. */
  static double moment(LongToDoubleFunction pmf, int k, long bound) {
    double sum = 0;
    for (long z = bound; z >= 1; z--) { // small terms first
      sum += 2 * Math.pow(z, k) * pmf.applyAsDouble(z);
    }
    return k == 0 ? sum + pmf.applyAsDouble(0) : sum;
  }
}
