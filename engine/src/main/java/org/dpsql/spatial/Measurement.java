package org.dpsql.spatial;

import java.util.Objects;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;

/**
 * One released noisy count of a node: {@code count + Z}, {@code Z} exact discrete Laplace with
 * scale {@code 1/ε} (the geometric mechanism for a count, L1 sensitivity 1 under add/remove of one
 * record, so the measurement is ε-DP).
 *
 * <p>Guarantee: immutable; {@link #variance()} is the exact noise variance {@code 2q/(1−q)²},
 * {@code q = e^(−ε)}, evaluated in floating point for weighting only (post-processing).
 *
 * @param noisyCount the released value
 * @param epsilon the budget spent on it, positive
 */
public record Measurement(long noisyCount, Rational epsilon) {

  /** @throws IllegalArgumentException if {@code epsilon <= 0} */
  public Measurement {
    Objects.requireNonNull(epsilon, "epsilon");
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("measurement budget must be positive: " + epsilon);
    }
  }

  /** The variance of the noise of this measurement. */
  public double variance() {
    return new DiscreteLaplaceDistribution(epsilon.reciprocal()).variance();
  }
}
