package org.dpsql.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * The discrete Gaussian mechanism of Canonne, Kamath and Steinke (2020): releases {@code f(D) + Z}
 * with {@code Z ~ N_Z(0, σ²)}, {@code σ² = Δ² / (2ρ)} (an exact rational), sampled exactly by {@link
 * ExactSamplers#discreteGaussian}.
 *
 * <p>Guarantee: if {@code f} maps datasets to integers (or integer vectors, released with {@link
 * #release(long[], RandomBits)}, noise drawn independently per coordinate) and its L2 sensitivity is
 * at most {@code Δ} — {@code ||f(D) - f(D')||_2 <= Δ} for every pair of neighbouring datasets — then
 * the release satisfies {@code ρ}-zero-concentrated differential privacy (CKS Theorem 4): {@code
 * D_α(M(D) || M(D')) <= α Δ²/(2σ²) = α ρ} for every Rényi order {@code α > 1}. Consequently, for
 * every {@code δ in (0, 1)} it is {@code (ρ + 2 sqrt(ρ ln(1/δ)), δ)}-differentially private
 * (Bun–Steinke 2016, Proposition 1.3). This holds exactly (no floating-point sampling) provided the
 * {@link RandomBits} is uniform and unpredictable ({@link SecureRandomBits}). Immutable and
 * thread-safe.
 */
public final class DiscreteGaussianMechanism {
  /** Relative safety margin by which {@link #rhoForApproxDp} undershoots the exact root. */
  private static final double RHO_MARGIN = 1e-9;
  /** Significant decimal digits of the rational returned by {@link #rhoForApproxDp}. */
  private static final int RHO_DIGITS = 12;

  private final Rational rho;
  private final long l2Sensitivity;
  private final Rational sigmaSquared;
  private final DiscreteGaussianDistribution noise;

  /**
   * A mechanism with zCDP parameter {@code rho} for queries of L2 sensitivity at most {@code
   * l2Sensitivity}; the noise variance parameter is {@code σ² = Δ² / (2ρ)}, exactly.
   *
   * @throws IllegalArgumentException if {@code rho <= 0} or {@code l2Sensitivity <= 0}
   */
  public DiscreteGaussianMechanism(Rational rho, long l2Sensitivity) {
    Objects.requireNonNull(rho, "rho");
    if (rho.signum() <= 0) {
      throw new IllegalArgumentException("rho must be positive: " + rho);
    }
    if (l2Sensitivity <= 0) {
      throw new IllegalArgumentException("L2 sensitivity must be positive: " + l2Sensitivity);
    }
    this.rho = rho;
    this.l2Sensitivity = l2Sensitivity;
    this.sigmaSquared = Rational.of(l2Sensitivity).square().divide(rho.multiply(2));
    this.noise = new DiscreteGaussianDistribution(sigmaSquared);
  }

  /** The zCDP parameter ρ. */
  public Rational rho() {
    return rho;
  }

  /** The L2 sensitivity bound Δ. */
  public long l2Sensitivity() {
    return l2Sensitivity;
  }

  /** The noise variance parameter {@code σ² = Δ² / (2ρ)}, exactly. */
  public Rational sigmaSquared() {
    return sigmaSquared;
  }

  /** The distribution of the noise added to each coordinate, for error reporting. */
  public DiscreteGaussianDistribution noise() {
    return noise;
  }

  /**
   * Returns {@code exact + Z} with fresh noise {@code Z}.
   *
   * @throws ArithmeticException if the noisy value does not fit in a {@code long}; whether this
   *     happens depends on {@code exact}, so callers must keep exact values far inside the {@code
   *     long} range (e.g. {@code |exact| <= 2^62}); use {@link #release(BigInteger, RandomBits)} for
   *     unbounded values.
   */
  public long release(long exact, RandomBits r) {
    return Math.addExact(exact, ExactSamplers.discreteGaussian(r, sigmaSquared).longValueExact());
  }

  /** Returns {@code exact + Z} with fresh noise {@code Z}, without any range limit. */
  public BigInteger release(BigInteger exact, RandomBits r) {
    return exact.add(ExactSamplers.discreteGaussian(r, sigmaSquared));
  }

  /**
   * Releases an integer vector with independent noise per coordinate; ρ-zCDP when the vector's L2
   * sensitivity is at most Δ. Overflow as for {@link #release(long, RandomBits)}.
   */
  public long[] release(long[] exact, RandomBits r) {
    long[] out = new long[exact.length];
    for (int i = 0; i < exact.length; i++) {
      out[i] = release(exact[i], r);
    }
    return out;
  }

  /**
   * The largest ρ, rounded down, such that ρ-zCDP implies {@code (epsilon, delta)}-DP by the
   * standard conversion (Bun–Steinke 2016, Proposition 1.3): {@code ρ + 2 sqrt(ρ ln(1/δ)) <= ε},
   * i.e. {@code ρ = (sqrt(ε + ln(1/δ)) - sqrt(ln(1/δ)))²}.
   *
   * <p>The root is computed in the cancellation-free form {@code ε² / (sqrt(ε + L) + sqrt(L))²},
   * {@code L = ln(1/δ)}, then lowered by a relative {@code 1e-9} (far more than the floating-point
   * error) and rounded down to 12 significant decimal digits, so the returned rational satisfies
   * the inequality strictly and is within a relative {@code 2e-9} of the exact largest value.
   *
   * @param epsilon {@code > 0}, finite
   * @param delta in {@code (0, 1)}
   * @throws IllegalArgumentException if a parameter is out of range
   */
  public static Rational rhoForApproxDp(double epsilon, double delta) {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite: " + epsilon);
    }
    checkDelta(delta);
    double l = -Math.log(delta);
    double root = epsilon / (Math.sqrt(epsilon + l) + Math.sqrt(l));
    double rho = root * root * (1 - RHO_MARGIN);
    if (!(rho > 0)) {
      throw new IllegalArgumentException(
          "epsilon " + epsilon + " is too small for delta " + delta + " to give a positive rho");
    }
    BigDecimal down = new BigDecimal(rho).round(new MathContext(RHO_DIGITS, RoundingMode.FLOOR));
    return Rational.of(down);
  }

  /**
   * The ε for which ρ-zCDP implies {@code (ε, delta)}-DP by the standard conversion: {@code ρ + 2
   * sqrt(ρ ln(1/δ))} (Bun–Steinke 2016, Proposition 1.3). Floating point, for reporting.
   *
   * @param rho {@code >= 0}
   * @param delta in {@code (0, 1)}
   */
  public static double epsilonForApproxDp(Rational rho, double delta) {
    if (rho.signum() < 0) {
      throw new IllegalArgumentException("rho must be non-negative: " + rho);
    }
    checkDelta(delta);
    double r = rho.doubleValue();
    return r + 2 * Math.sqrt(r * -Math.log(delta));
  }

  private static void checkDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1): " + delta);
    }
  }

  @Override
  public String toString() {
    return "DiscreteGaussianMechanism[rho=" + rho + ", l2Sensitivity=" + l2Sensitivity + "]";
  }
}
