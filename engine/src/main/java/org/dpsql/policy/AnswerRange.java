package org.dpsql.policy;

/**
 * A public range {@code [lo, hi]} of integers that every COUNT/SUM answer of a table lies in
 * (policy key {@code answer_range}), declared by the data owner. It lets the {@code optimal_pmf}
 * mechanism release answers modulo {@code hi - lo + 1}. An exact answer outside the range is
 * clamped into it before noise (a 1-Lipschitz map, so sensitivity does not grow): a wrong range
 * biases answers but never weakens privacy.
 */
public record AnswerRange(long lo, long hi) {
  /** The largest range the optimal-PMF designers accept. */
  public static final long MAX_SIZE = 100_000;

  public AnswerRange {
    if (lo >= hi) {
      throw new IllegalArgumentException("answer_range needs lo < hi, got [" + lo + ", " + hi + "]");
    }
    if (hi - lo > MAX_SIZE) {
      throw new IllegalArgumentException("answer_range is limited to " + MAX_SIZE + " values, got "
          + (hi - lo + 1));
    }
  }

  /** n: answers are mapped to {@code [0..n]}. */
  public int n() {
    return (int) (hi - lo);
  }
}
