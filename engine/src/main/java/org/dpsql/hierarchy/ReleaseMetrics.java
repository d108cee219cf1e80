package org.dpsql.hierarchy;

import java.util.Objects;

/**
 * Per-level utility of a released tree against the true one (Section 3 "Errors" and Section 5
 * "Quality of the DP Dataset"), over the full public domain of each level (nodes absent from a
 * sparse level count as 0).
 *
 * <ul>
 *   <li>maximum absolute error (eq. 2): {@code max_u |released(u) − true(u)|};
 *   <li>false positives: {@code |{u : released(u) > 0 ∧ true(u) = 0}|};
 *   <li>false discovery rate: false positives / {@code |{u : released(u) > 0}|} (0 when nothing is
 *       released), reported as a fraction (the paper multiplies by 100%);
 *   <li>false negatives: {@code |{u : released(u) <= 0 ∧ true(u) > 0}|}.
 * </ul>
 *
 * <p>Guarantee: exact integer counts computed by one merge of the two sorted sparse levels.
 *
 * @param level the tree level
 * @param maxAbsoluteError the maximum absolute error over the level
 * @param positives the number of released nodes with a positive value
 * @param falsePositives released positive but truly zero
 * @param falseNegatives truly positive but released non-positive
 */
public record ReleaseMetrics(
    int level, long maxAbsoluteError, long positives, long falsePositives, long falseNegatives) {

  /** False discovery rate as a fraction in [0, 1]. */
  public double falseDiscoveryRate() {
    return positives == 0 ? 0.0 : (double) falsePositives / positives;
  }

  /** The metrics of one level. */
  public static ReleaseMetrics of(HierarchicalCounts truth, HierarchicalCounts released, int level) {
    Objects.requireNonNull(truth, "truth");
    Objects.requireNonNull(released, "released");
    if (truth.depth() != released.depth()) {
      throw new IllegalArgumentException(
          "depths differ: " + truth.depth() + " vs " + released.depth());
    }
    SparseLevel t = truth.level(level);
    SparseLevel r = released.level(level);
    int i = 0;
    int j = 0;
    long maxErr = 0;
    long pos = 0;
    long fp = 0;
    long fn = 0;
    while (i < t.size() || j < r.size()) {
      long tv;
      long rv;
      if (j >= r.size() || (i < t.size() && t.id(i) < r.id(j))) {
        tv = t.value(i++);
        rv = 0;
      } else if (i >= t.size() || r.id(j) < t.id(i)) {
        tv = 0;
        rv = r.value(j++);
      } else {
        tv = t.value(i++);
        rv = r.value(j++);
      }
      maxErr = Math.max(maxErr, Math.abs(Math.subtractExact(rv, tv)));
      if (rv > 0) {
        pos++;
        if (tv == 0) {
          fp++;
        }
      } else if (tv > 0) {
        fn++;
      }
    }
    return new ReleaseMetrics(level, maxErr, pos, fp, fn);
  }

  /** The metrics of every level {@code 0..T}. */
  public static ReleaseMetrics[] perLevel(HierarchicalCounts truth, HierarchicalCounts released) {
    ReleaseMetrics[] out = new ReleaseMetrics[truth.depth() + 1];
    for (int l = 0; l <= truth.depth(); l++) {
      out[l] = of(truth, released, l);
    }
    return out;
  }
}
