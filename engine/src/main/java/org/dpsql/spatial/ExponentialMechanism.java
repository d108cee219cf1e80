package org.dpsql.spatial;

import java.util.Objects;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The exponential mechanism (McSherry and Talwar) over a finite candidate set with integer
 * utilities, sampled exactly: returns index {@code i} with probability exactly {@code exp(ε u_i /
 * (2Δ)) / Σ_j exp(ε u_j / (2Δ))}.
 *
 * <p>Guarantee: if every utility {@code u_i} changes by at most {@code Δ} between neighbouring
 * datasets, the output is ε-differentially private. Sampling is by rejection: propose {@code i}
 * uniformly, accept with probability {@code exp(-ε (u_max - u_i) / (2Δ))}, drawn by {@link
 * ExactSamplers#bernoulliExpMinus} on an exact rational; the accepted index has exactly the target
 * distribution whatever the normaliser {@code u_max}, and no floating point is involved. The
 * expected number of proposals is at most the number of candidates. Running time is random and
 * must not be exposed.
 */
public final class ExponentialMechanism {
  private ExponentialMechanism() {}

  /**
   * Samples an index.
   *
   * @param utilities integer utilities, at least one
   * @param epsilon the privacy parameter, positive
   * @param sensitivity the utility sensitivity Δ, positive
   * @throws IllegalArgumentException if there is no candidate or a parameter is not positive
   */
  public static int sample(RandomBits bits, long[] utilities, Rational epsilon, long sensitivity) {
    Objects.requireNonNull(bits, "bits");
    Objects.requireNonNull(utilities, "utilities");
    Objects.requireNonNull(epsilon, "epsilon");
    if (utilities.length == 0) {
      throw new IllegalArgumentException("the exponential mechanism needs at least one candidate");
    }
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be positive: " + epsilon);
    }
    if (sensitivity <= 0) {
      throw new IllegalArgumentException("sensitivity must be positive: " + sensitivity);
    }
    if (utilities.length == 1) {
      return 0;
    }
    long max = Long.MIN_VALUE;
    for (long u : utilities) {
      max = Math.max(max, u);
    }
    Rational rate = epsilon.divide(2 * sensitivity); // ε / (2Δ)
    while (true) {
      int i = (int) bits.uniformBelow(utilities.length);
      long gap = Math.subtractExact(max, utilities[i]);
      if (gap == 0 || ExactSamplers.bernoulliExpMinus(bits, rate.multiply(gap))) {
        return i;
      }
    }
  }
}
