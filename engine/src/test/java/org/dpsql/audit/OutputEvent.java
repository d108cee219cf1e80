package org.dpsql.audit;

import java.util.Arrays;

/**
 * An output event on one released value: {@code value >= threshold} or {@code value <= threshold}.
 * A NULL release (an AVG over a non-positive noisy count) is represented by {@code -∞}, the
 * smallest output, so events cover the whole output space.
 */
record OutputEvent(double threshold, boolean atLeast) {

  /** Whether {@code value} is in the event. */
  boolean contains(double value) {
    return atLeast ? value >= threshold : value <= threshold;
  }

  /** How many values of {@code sorted} (ascending) are in the event. */
  long count(double[] sorted) {
    if (atLeast) {
      return sorted.length - firstIndexAtLeast(sorted, threshold);
    }
    return firstIndexAbove(sorted, threshold);
  }

  private static int firstIndexAtLeast(double[] sorted, double t) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static int firstIndexAbove(double[] sorted, double t) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** A sorted copy of {@code values}. */
  static double[] sorted(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    return s;
  }

  @Override
  public String toString() {
    return "value " + (atLeast ? ">= " : "<= ") + (threshold == Double.NEGATIVE_INFINITY ? "NULL"
        : threshold);
  }
}
