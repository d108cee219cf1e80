package org.dpsql.mechanism;

import java.util.Objects;

/**
 * The discrete Gaussian distribution {@code N_Z(0, sigma^2)}: {@code P[Z = z] = exp(-z^2 / (2
 * sigma^2)) / C} over the integers, the noise of {@link DiscreteGaussianMechanism} and of {@link
 * ExactSamplers#discreteGaussian}.
 *
 * <p>Guarantee: values are computed in floating point for <em>reporting only</em> (error estimates,
 * confidence intervals); nothing here is used for sampling. Immutable and thread-safe.
 *
 * <ul>
 *   <li>Normalising constant {@code C}: for {@code sigma^2 <= 10^6} by direct summation of {@code
 *       exp(-z^2/(2 sigma^2))} until the terms fall below {@code e^-100} of the centre (so {@code
 *       pmf} sums to 1 to double precision). Beyond, by the Poisson summation (Jacobi theta)
 *       identity {@code C = sigma sqrt(2 pi) (1 + 2 sum_{k>=1} exp(-2 pi^2 sigma^2 k^2))}: the
 *       continuous normaliser plus its (here negligible) correction, accurate to double precision.
 *   <li>{@link #variance()}: exact to double precision by summing a series to convergence — the
 *       direct series {@code sum z^2 pmf(z)} for {@code sigma^2 < 1/2}, otherwise its Poisson dual
 *       {@code sigma^2 (1 + 2 sum_k (1 - 4 pi^2 sigma^2 k^2) e_k) / (1 + 2 sum_k e_k)} with {@code
 *       e_k = exp(-2 pi^2 sigma^2 k^2)}, which converges in two or three terms and shows that the
 *       variance is strictly below {@code sigma^2}. The reported value never exceeds {@code sigma^2}.
 *   <li>Tails and {@link #quantileAbs}: exact suffix sums for {@code sigma^2 <= 10^6}; beyond, the
 *       midpoint-rule integral {@code int_{m+1/2}^inf} (via {@code erfc}) with its first
 *       Euler–Maclaurin correction, whose relative error is {@code O(1/sigma^4)} — an approximation
 *       acceptable for reporting only.
 * </ul>
 */
public final class DiscreteGaussianDistribution {
  /** Largest sigma^2 for which the series is summed term by term. */
  static final double DIRECT_LIMIT = 1e6;
  /** Terms are summed while z^2/(2 sigma^2) <= this, i.e. down to e^-100 of the centre. */
  private static final double CUTOFF_EXPONENT = 100;

  private final Rational sigmaSquared;
  private final double s2;
  private final double normaliser;
  private final double variance;
  /** For the direct regime: tail[m] = sum_{z > m} exp(-z^2/(2 s2)), m = 0..length-1; else null. */
  private final double[] tail;

  /**
   * The distribution with variance parameter {@code sigmaSquared}.
   *
   * @throws IllegalArgumentException if {@code sigmaSquared <= 0}
   */
  public DiscreteGaussianDistribution(Rational sigmaSquared) {
    Objects.requireNonNull(sigmaSquared, "sigmaSquared");
    if (sigmaSquared.signum() <= 0) {
      throw new IllegalArgumentException("sigma^2 must be positive: " + sigmaSquared);
    }
    this.sigmaSquared = sigmaSquared;
    this.s2 = sigmaSquared.doubleValue();
    if (s2 <= DIRECT_LIMIT) {
      int zmax = (int) Math.ceil(Math.sqrt(2 * CUTOFF_EXPONENT * s2)) + 1;
      double[] w = new double[zmax + 1];
      for (int z = 0; z <= zmax; z++) {
        w[z] = Math.exp(-((double) z * z) / (2 * s2));
      }
      // Suffix sums from the smallest terms inward (accurate for positive terms).
      tail = new double[zmax + 1];
      double acc = 0;
      for (int m = zmax; m >= 0; m--) {
        tail[m] = acc; // sum_{z > m}
        acc += w[m];
      }
      normaliser = w[0] + 2 * tail[0];
      if (s2 < 0.5) {
        double second = 0;
        for (int z = zmax; z >= 1; z--) {
          second += (double) z * z * w[z];
        }
        variance = Math.min(s2, 2 * second / normaliser);
      } else {
        variance = dualVariance(s2);
      }
    } else {
      tail = null;
      normaliser = Math.sqrt(2 * Math.PI * s2) * (1 + 2 * dualSum(s2, false));
      variance = dualVariance(s2);
    }
  }

  /** sum_{k>=1} e_k or sum_{k>=1} (1 - 4 pi^2 s2 k^2) e_k, with e_k = exp(-2 pi^2 s2 k^2). */
  private static double dualSum(double s2, boolean secondMoment) {
    double sum = 0;
    for (int k = 1; ; k++) {
      double exponent = 2 * Math.PI * Math.PI * s2 * k * k;
      if (exponent > 745) { // exp underflows to 0
        return sum;
      }
      double e = Math.exp(-exponent);
      double term = secondMoment ? (1 - 2 * exponent) * e : e;
      sum += term;
      if (Math.abs(term) <= 1e-17 * Math.abs(1 + 2 * sum)) {
        return sum;
      }
    }
  }

  private static double dualVariance(double s2) {
    double ratio = (1 + 2 * dualSum(s2, true)) / (1 + 2 * dualSum(s2, false));
    return Math.min(s2, s2 * ratio);
  }

  /** The variance parameter {@code sigma^2}, exactly. */
  public Rational sigmaSquared() {
    return sigmaSquared;
  }

  /** The normalising constant {@code C = sum_z exp(-z^2 / (2 sigma^2))}. */
  public double normaliser() {
    return normaliser;
  }

  /** {@code P[Z = z]}. */
  public double pmf(long z) {
    double x = z;
    return Math.exp(-(x * x) / (2 * s2)) / normaliser;
  }

  /** The variance {@code E[Z^2]} (the mean is 0); at most {@code sigma^2}. */
  public double variance() {
    return variance;
  }

  /** The standard deviation, {@code sqrt(variance())}. */
  public double standardDeviation() {
    return Math.sqrt(variance);
  }

  /** {@code P[|Z| > m]}; see the class comment for how it is computed. */
  public double tailAbs(long m) {
    if (m < 0) {
      return 1;
    }
    if (tail != null) {
      return m < tail.length ? 2 * tail[(int) m] / normaliser : 0;
    }
    // Midpoint rule plus first Euler–Maclaurin correction:
    // sum_{z>m} f(z) ≈ int_{m+1/2}^inf f - f'(m+1/2)/24, f(x) = exp(-x^2/(2 s2)).
    double x = m + 0.5;
    double sigma = Math.sqrt(s2);
    double integral = sigma * Math.sqrt(Math.PI / 2) * SpecialFunctions.erfc(x / (sigma * Math.sqrt(2)));
    double correction = x / s2 * Math.exp(-(x * x) / (2 * s2)) / 24;
    return Math.min(1, 2 * (integral + correction) / normaliser);
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
    if (tail != null) {
      // tail is non-increasing: find the first index whose scaled value is <= alpha.
      int lo = 0;
      int hi = tail.length; // tailAbs(tail.length) == 0 <= alpha
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (tailAbs(mid) <= alpha) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
    long lo = 0;
    long hi = (long) Math.min(Long.MAX_VALUE / 2.0, Math.ceil(40 * Math.sqrt(s2))); // tail ~ 0
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (tailAbs(mid) <= alpha) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  @Override
  public String toString() {
    return "DiscreteGaussian[sigma^2=" + sigmaSquared + "]";
  }
}
