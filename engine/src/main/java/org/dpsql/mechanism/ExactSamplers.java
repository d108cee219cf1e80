package org.dpsql.mechanism;

import java.math.BigInteger;
import java.util.Objects;

/**
 * Exact samplers for Bernoulli, discrete Laplace and discrete Gaussian distributions, following
 * Canonne, Kamath and Steinke, "The Discrete Gaussian for Differential Privacy" (NeurIPS 2020),
 * Algorithms 1–3.
 *
 * <p>Guarantee: given a {@link RandomBits} that produces independent uniform words, every method
 * returns a sample from <em>exactly</em> the stated distribution. All computation is on integers
 * and rationals ({@link BigInteger}, {@link Rational}) with exact comparisons; no floating point is
 * used, so there is no rounding artefact that could leak information (cf. Mironov, CCS 2012). The
 * expected number of loop iterations per call is bounded by a constant independent of the
 * parameters (each iteration costs time polynomial in their bit length), so large scales such as
 * 10^12 sample in microseconds, as small ones do. Running time is random, not constant-time;
 * callers must not expose it. Stateless and thread-safe as far as the {@code RandomBits} is.
 */
public final class ExactSamplers {
  private ExactSamplers() {}

  /**
   * Returns {@code true} with probability exactly {@code p}.
   *
   * @param p a probability, {@code 0 <= p <= 1}
   * @throws IllegalArgumentException if {@code p} is outside {@code [0, 1]}
   */
  public static boolean bernoulli(RandomBits r, Rational p) {
    Objects.requireNonNull(r, "r");
    if (p.signum() < 0 || p.compareTo(Rational.ONE) > 0) {
      throw new IllegalArgumentException("probability must be in [0, 1]: " + p);
    }
    return bernoulli(r, p.num(), p.den());
  }

  /**
   * Returns {@code true} with probability exactly {@code exp(-gamma)} (CKS Algorithm 1, with the
   * reduction for {@code gamma > 1}: {@code floor(gamma)} independent trials of {@code exp(-1)}
   * followed by one of {@code exp(-(gamma - floor(gamma)))}).
   *
   * @param gamma {@code gamma >= 0}
   * @throws IllegalArgumentException if {@code gamma < 0}
   */
  public static boolean bernoulliExpMinus(RandomBits r, Rational gamma) {
    Objects.requireNonNull(r, "r");
    if (gamma.signum() < 0) {
      throw new IllegalArgumentException("gamma must be non-negative: " + gamma);
    }
    return bernoulliExpMinus(r, gamma.num(), gamma.den());
  }

  /**
   * Returns {@code Z} with {@code P[Z = z] = (1 - q) / (1 + q) * q^|z|}, {@code q = exp(-1/scale)},
   * i.e. {@code P[Z = z] ∝ exp(-|z| / scale)} (CKS Algorithm 2).
   *
   * @param scale {@code scale > 0}
   * @throws IllegalArgumentException if {@code scale <= 0}
   */
  public static BigInteger discreteLaplace(RandomBits r, Rational scale) {
    Objects.requireNonNull(r, "r");
    if (scale.signum() <= 0) {
      throw new IllegalArgumentException("scale must be positive: " + scale);
    }
    return discreteLaplace(r, scale.num(), scale.den());
  }

  /**
   * Integer-scale convenience for {@link #discreteLaplace(RandomBits, Rational)}.
   *
   * @param scale {@code scale > 0}
   */
  public static BigInteger discreteLaplace(RandomBits r, long scale) {
    return discreteLaplace(r, Rational.of(scale));
  }

  /**
   * Returns {@code Z} with {@code P[Z = z] ∝ exp(-z^2 / (2 sigmaSquared))} over the integers (CKS
   * Algorithm 3): discrete Laplace proposals with integer scale {@code t = floor(sigma) + 1}
   * accepted with probability {@code exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))}, {@code t} computed
   * exactly as one plus the largest integer whose square is at most {@code sigmaSquared}.
   *
   * @param sigmaSquared the variance parameter, {@code > 0}
   * @throws IllegalArgumentException if {@code sigmaSquared <= 0}
   */
  public static BigInteger discreteGaussian(RandomBits r, Rational sigmaSquared) {
    Objects.requireNonNull(r, "r");
    if (sigmaSquared.signum() <= 0) {
      throw new IllegalArgumentException("sigma^2 must be positive: " + sigmaSquared);
    }
    BigInteger n = sigmaSquared.num();
    BigInteger d = sigmaSquared.den();
    BigInteger t = gaussianProposalScale(sigmaSquared);
    // gamma = (|Y| - sigma^2/t)^2 / (2 sigma^2) = (|Y| d t - n)^2 / (2 n d t^2)
    BigInteger dt = d.multiply(t);
    BigInteger gammaDen = n.multiply(dt).multiply(t).shiftLeft(1);
    while (true) {
      BigInteger y = discreteLaplace(r, t, BigInteger.ONE);
      BigInteger a = y.abs().multiply(dt).subtract(n);
      if (bernoulliExpMinus(r, a.multiply(a), gammaDen)) {
        return y;
      }
    }
  }

  /** {@code floor(sqrt(sigmaSquared)) + 1}, exactly. */
  static BigInteger gaussianProposalScale(Rational sigmaSquared) {
    // floor(sqrt(x)) = floor(sqrt(floor(x))) for x >= 0, since k^2 <= x iff k^2 <= floor(x).
    return sigmaSquared.floor().sqrt().add(BigInteger.ONE);
  }

  // ---------------------------------------------------------------------------------------------
  // Internals on raw (not necessarily normalised) numerator/denominator pairs, d > 0.

  /** True with probability n/d; requires d > 0. */
  private static boolean bernoulli(RandomBits r, BigInteger n, BigInteger d) {
    if (n.signum() <= 0) {
      return false;
    }
    if (n.compareTo(d) >= 0) {
      return true;
    }
    if (d.bitLength() < Long.SIZE) {
      return r.uniformBelow(d.longValue()) < n.longValue();
    }
    return r.uniformBelow(d).compareTo(n) < 0;
  }

  /** True with probability exp(-n/d); requires n >= 0, d > 0. */
  private static boolean bernoulliExpMinus(RandomBits r, BigInteger n, BigInteger d) {
    if (n.compareTo(d) <= 0) {
      return bernoulliExpMinusAtMostOne(r, n, d);
    }
    // exp(-gamma) = exp(-1)^floor(gamma) * exp(-(gamma - floor(gamma))); stop at the first failure.
    BigInteger[] qr = n.divideAndRemainder(d);
    for (BigInteger k = qr[0]; k.signum() > 0; k = k.subtract(BigInteger.ONE)) {
      if (!bernoulliExpMinusAtMostOne(r, BigInteger.ONE, BigInteger.ONE)) {
        return false;
      }
    }
    return bernoulliExpMinusAtMostOne(r, qr[1], d);
  }

  /**
   * True with probability exp(-n/d) for 0 <= n/d <= 1 (CKS Algorithm 1): draw Bernoulli(gamma/k)
   * for k = 1, 2, ... until the first failure at K; P[K odd] = sum_j (-gamma)^j / j! = exp(-gamma).
   */
  private static boolean bernoulliExpMinusAtMostOne(RandomBits r, BigInteger n, BigInteger d) {
    long k = 1;
    while (bernoulli(r, n, d.multiply(BigInteger.valueOf(k)))) {
      k++;
    }
    return (k & 1) == 1;
  }

  /** Discrete Laplace with scale t/s, t, s > 0 (CKS Algorithm 2). */
  private static BigInteger discreteLaplace(RandomBits r, BigInteger t, BigInteger s) {
    while (true) {
      BigInteger u = r.uniformBelow(t);
      if (!bernoulliExpMinusAtMostOne(r, u, t)) {
        continue;
      }
      // Now U has P[U = u] ∝ exp(-u/t) on [0, t); V ~ Geometric(1 - exp(-1)).
      long v = 0;
      while (bernoulliExpMinusAtMostOne(r, BigInteger.ONE, BigInteger.ONE)) {
        v++;
      }
      // X = U + tV has P[X = x] ∝ exp(-x/t) on the naturals; Y = floor(X/s) ∝ exp(-y s/t).
      BigInteger x = u.add(t.multiply(BigInteger.valueOf(v)));
      BigInteger y = x.divide(s);
      boolean negative = (r.nextLong() & 1) == 1;
      if (negative && y.signum() == 0) {
        continue; // reject -0 so that 0 is not counted twice
      }
      return negative ? y.negate() : y;
    }
  }
}
