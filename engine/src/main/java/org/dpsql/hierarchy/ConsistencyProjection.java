package org.dpsql.hierarchy;

/**
 * The post-processing step of a TopDown mechanism: maps the noisy counts {@code x} of the children
 * of a released node to non-negative integers summing to that node's released value {@code c}.
 *
 * <p>Contract: for every {@code x} of length {@code b >= 1} and {@code c >= 0}, {@link #project}
 * returns a new array {@code y} of length {@code b} with {@code y_i >= 0} and {@code Σ y_i = c}. It
 * reads nothing but its arguments (so it is post-processing and costs no privacy).
 */
public interface ConsistencyProjection {

  /**
   * Non-negative integers summing to {@code c}, close to {@code x} in the implementation's sense.
   *
   * @throws IllegalArgumentException if {@code x} is empty or {@code c < 0}
   */
  long[] project(long[] x, long c);

  /** A short name for reports (e.g. {@code "IntOpt"}). */
  String name();
}
