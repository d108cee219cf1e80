package org.dpsql.spatial;

import java.math.BigInteger;
import java.util.Objects;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The randomness of the spatial mechanisms. Production code uses {@link #exact(RandomBits)}, which
 * delegates to the exact samplers of {@code org.dpsql.mechanism} (no floating point). {@link
 * #off()} is a <em>test-only</em> hook that adds no noise and makes every private choice the
 * noiseless one, so that tests can check the deterministic parts (answering, split search) exactly;
 * it is package-private and never reachable from the public API.
 */
interface NoiseSource {

  /** A sample of the discrete Laplace distribution with the given scale, {@code P[z] ∝ exp(-|z|/scale)}. */
  BigInteger discreteLaplace(Rational scale);

  /**
   * An index {@code i} drawn with probability proportional to {@code exp(epsilon * u[i] / (2 *
   * sensitivity))} (the exponential mechanism).
   */
  int exponentialMechanism(long[] utilities, Rational epsilon, long sensitivity);

  /** Noise from the exact samplers over the given bits. */
  static NoiseSource exact(RandomBits bits) {
    Objects.requireNonNull(bits, "bits");
    return new NoiseSource() {
      @Override
      public BigInteger discreteLaplace(Rational scale) {
        return ExactSamplers.discreteLaplace(bits, scale);
      }

      @Override
      public int exponentialMechanism(long[] utilities, Rational epsilon, long sensitivity) {
        return ExponentialMechanism.sample(bits, utilities, epsilon, sensitivity);
      }
    };
  }

  /** Test-only: zero noise, and the exponential mechanism returns the first maximiser. */
  static NoiseSource off() {
    return new NoiseSource() {
      @Override
      public BigInteger discreteLaplace(Rational scale) {
        return BigInteger.ZERO;
      }

      @Override
      public int exponentialMechanism(long[] utilities, Rational epsilon, long sensitivity) {
        int best = 0;
        for (int i = 1; i < utilities.length; i++) {
          if (utilities[i] > utilities[best]) {
            best = i;
          }
        }
        return best;
      }
    };
  }
}
