package org.dpsql.mechanism;

import java.math.BigInteger;
import java.util.Objects;

/**
 * The two-sided geometric (discrete Laplace) mechanism of Ghosh, Roughgarden and Sundararajan:
 * releases {@code f(D) + Z} with {@code Z ~ DiscreteLaplace(scale = Δ/ε)}, sampled exactly by
 * {@link ExactSamplers#discreteLaplace}.
 *
 * <p>Guarantee: if {@code f} maps datasets to integers (or integer vectors, released with {@link
 * #release(long[], RandomBits)}, noise drawn independently per coordinate) and its L1 sensitivity is
 * at most {@code Δ} — {@code ||f(D) - f(D')||_1 <= Δ} for every pair of neighbouring datasets — then
 * the release is {@code ε}-differentially private (pure DP, {@code δ = 0}): for every output
 * {@code y}, {@code P[M(D) = y] <= e^ε P[M(D') = y]}, because {@code P[Z = z] / P[Z = z'] <=
 * exp(|z - z'| ε / Δ)}. This holds exactly (no floating-point sampling) provided the {@link
 * RandomBits} is uniform and unpredictable ({@link SecureRandomBits}). Immutable and thread-safe.
 */
public final class GeometricMechanism {
  private final Rational epsilon;
  private final long l1Sensitivity;
  private final Rational scale;
  private final DiscreteLaplaceDistribution noise;

  /**
   * A mechanism with privacy parameter {@code epsilon} for queries of L1 sensitivity at most {@code
   * l1Sensitivity}; the noise scale is {@code l1Sensitivity / epsilon}, exactly.
   *
   * @throws IllegalArgumentException if {@code epsilon <= 0} or {@code l1Sensitivity <= 0}
   */
  public GeometricMechanism(Rational epsilon, long l1Sensitivity) {
    Objects.requireNonNull(epsilon, "epsilon");
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be positive: " + epsilon);
    }
    if (l1Sensitivity <= 0) {
      throw new IllegalArgumentException("L1 sensitivity must be positive: " + l1Sensitivity);
    }
    this.epsilon = epsilon;
    this.l1Sensitivity = l1Sensitivity;
    this.scale = Rational.of(l1Sensitivity).divide(epsilon);
    this.noise = new DiscreteLaplaceDistribution(scale);
  }

  /** The privacy parameter ε. */
  public Rational epsilon() {
    return epsilon;
  }

  /** The L1 sensitivity bound Δ. */
  public long l1Sensitivity() {
    return l1Sensitivity;
  }

  /** The noise scale {@code Δ / ε}, exactly. */
  public Rational scale() {
    return scale;
  }

  /** The distribution of the noise added to each coordinate, for error reporting. */
  public DiscreteLaplaceDistribution noise() {
    return noise;
  }

  /**
   * Returns {@code exact + Z} with fresh noise {@code Z}.
   *
   * @throws ArithmeticException if the noisy value does not fit in a {@code long}. Whether this
   *     happens depends on {@code exact}, so callers must keep exact values far inside the {@code
   *     long} range (e.g. {@code |exact| <= 2^62}, where overflow needs {@code |Z| > 2^62}, which
   *     has probability below {@code exp(-2^62 / scale)}); use {@link #release(BigInteger,
   *     RandomBits)} for unbounded values.
   */
  public long release(long exact, RandomBits r) {
    return Math.addExact(exact, ExactSamplers.discreteLaplace(r, scale).longValueExact());
  }

  /** Returns {@code exact + Z} with fresh noise {@code Z}, without any range limit. */
  public BigInteger release(BigInteger exact, RandomBits r) {
    return exact.add(ExactSamplers.discreteLaplace(r, scale));
  }

  /**
   * Releases an integer vector with independent noise per coordinate; ε-DP when the vector's L1
   * sensitivity is at most Δ. Overflow as for {@link #release(long, RandomBits)}.
   */
  public long[] release(long[] exact, RandomBits r) {
    long[] out = new long[exact.length];
    for (int i = 0; i < exact.length; i++) {
      out[i] = release(exact[i], r);
    }
    return out;
  }

  @Override
  public String toString() {
    return "GeometricMechanism[epsilon=" + epsilon + ", l1Sensitivity=" + l1Sensitivity + "]";
  }
}
