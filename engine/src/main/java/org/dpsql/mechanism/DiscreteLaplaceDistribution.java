package org.dpsql.mechanism;

import java.util.Objects;

/**
 * The discrete Laplace (two-sided geometric) distribution with scale {@code t}: {@code P[Z = z] =
 * (1 - q)/(1 + q) * q^|z|} with {@code q = exp(-1/t)}, the noise of {@link GeometricMechanism} and
 * of {@link ExactSamplers#discreteLaplace}.
 *
 * <p>Guarantee: the closed forms below are evaluated in floating point for <em>reporting only</em>
 * (error estimates, confidence intervals); they are accurate to a few ulps, using {@code expm1} so
 * that scales up to 10^15 and beyond lose no precision. Nothing here is used for sampling.
 * Immutable and thread-safe.
 */
public final class DiscreteLaplaceDistribution {
  private final Rational scale;
  private final double inverseScale; // 1/t
  private final double q; // exp(-1/t)
  private final double oneMinusQ; // 1 - q, computed as -expm1(-1/t)

  /**
   * The distribution with the given scale.
   *
   * @throws IllegalArgumentException if {@code scale <= 0}
   */
  public DiscreteLaplaceDistribution(Rational scale) {
    Objects.requireNonNull(scale, "scale");
    if (scale.signum() <= 0) {
      throw new IllegalArgumentException("scale must be positive: " + scale);
    }
    this.scale = scale;
    this.inverseScale = scale.reciprocal().doubleValue();
    this.q = Math.exp(-inverseScale);
    this.oneMinusQ = -Math.expm1(-inverseScale);
  }

  /** The scale {@code t}, exactly. */
  public Rational scale() {
    return scale;
  }

  /** {@code P[Z = z]}. */
  public double pmf(long z) {
    return oneMinusQ / (1 + q) * Math.exp(-Math.abs((double) z) * inverseScale);
  }

  /** The variance {@code 2q / (1 - q)^2}, {@code q = exp(-1/t)} (the mean is 0). */
  public double variance() {
    return oneMinusQ == 0 ? Double.POSITIVE_INFINITY : 2 * q / (oneMinusQ * oneMinusQ);
  }

  /** The standard deviation, {@code sqrt(variance())}. */
  public double standardDeviation() {
    return Math.sqrt(variance());
  }

  /** {@code P[|Z| > m] = 2 q^(m+1) / (1 + q)} for {@code m >= 0}. */
  public double tailAbs(long m) {
    if (m < 0) {
      return 1;
    }
    return 2 * Math.exp(-((double) m + 1) * inverseScale) / (1 + q);
  }

  /**
   * The smallest {@code m >= 0} with {@code P[|Z| <= m] >= confidence}, so {@code [x - m, x + m]}
   * covers the exact value of a release {@code x} with probability at least {@code confidence}.
   *
   * @param confidence in {@code [0, 1)}
   * @throws IllegalArgumentException if {@code confidence} is outside {@code [0, 1)}
   */
  public long quantileAbs(double confidence) {
    SpecialFunctions.checkConfidence(confidence);
    double alpha = 1 - confidence; // need tailAbs(m) <= alpha
    // tailAbs(m) <= alpha  <=>  m + 1 >= t * ln(2 / (alpha (1 + q)))
    double estimate = Math.ceil(Math.log(2 / (alpha * (1 + q))) / inverseScale) - 1;
    if (estimate >= Long.MAX_VALUE / 2.0) {
      return Long.MAX_VALUE;
    }
    long m = Math.max(0, (long) estimate);
    // Correct for rounding in the closed-form inversion.
    while (m > 0 && tailAbs(m - 1) <= alpha) {
      m--;
    }
    while (tailAbs(m) > alpha) {
      m++;
    }
    return m;
  }

  @Override
  public String toString() {
    return "DiscreteLaplace[scale=" + scale + "]";
  }
}
