package org.dpsql.hierarchy;

import java.util.Map;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;

/** Chi-square goodness of fit for integer samples (tests only). */
final class Stats {
  private Stats() {}

  /**
   * P-value of Pearson's chi-square test of {@code counts} (value → frequency, {@code n} samples)
   * against {@code pmf}: one bin per value with expected count >= 5 in the central range, the two
   * tails pooled into one bin each.
   */
  static double chiSquarePValue(Map<Long, Long> counts, long n, LongToDoubleFunction pmf) {
    // central range: values with n·pmf >= 5, symmetric search from 0 outwards over the mode region
    long lo = 0;
    long hi = 0;
    while (n * pmf.applyAsDouble(lo - 1) >= 5) {
      lo--;
    }
    while (n * pmf.applyAsDouble(hi + 1) >= 5) {
      hi++;
    }
    double stat = 0;
    int bins = 0;
    double pCentral = 0;
    long observedCentral = 0;
    for (long v = lo; v <= hi; v++) {
      double e = n * pmf.applyAsDouble(v);
      long o = counts.getOrDefault(v, 0L);
      stat += (o - e) * (o - e) / e;
      pCentral += pmf.applyAsDouble(v);
      observedCentral += o;
      bins++;
    }
    long observedLow = 0;
    long observedHigh = 0;
    for (Map.Entry<Long, Long> en : counts.entrySet()) {
      if (en.getKey() < lo) {
        observedLow += en.getValue();
      } else if (en.getKey() > hi) {
        observedHigh += en.getValue();
      }
    }
    double pLow = 0;
    for (long v = lo - 1; v > lo - 100_000 && pmf.applyAsDouble(v) > 1e-300; v--) {
      pLow += pmf.applyAsDouble(v);
    }
    double pHigh = Math.max(0, 1 - pCentral - pLow);
    for (double[] tail : new double[][] {{pLow, observedLow}, {pHigh, observedHigh}}) {
      double e = n * tail[0];
      if (e >= 1) {
        stat += (tail[1] - e) * (tail[1] - e) / e;
        bins++;
      }
    }
    if (observedCentral + observedLow + observedHigh != n) {
      throw new IllegalStateException("counts do not add up");
    }
    return 1 - new ChiSquaredDistribution(bins - 1).cumulativeProbability(stat);
  }
}
