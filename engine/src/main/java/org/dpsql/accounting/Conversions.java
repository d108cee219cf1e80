package org.dpsql.accounting;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * Conversions between pure DP, approximate DP and zero-concentrated DP.
 *
 * <p>Guarantees: every conversion is sound in the direction of privacy — a mechanism satisfying
 * the input guarantee also satisfies the output guarantee — and where rounding is needed the result
 * is rounded towards the conservative side. Sources: M. Bun and T. Steinke, "Concentrated
 * Differential Privacy: Simplifications, Extensions, and Lower Bounds", TCC 2016
 * (arXiv:1605.02065).
 */
public final class Conversions {

  /** Significant digits kept by {@link #epsilonToZcdpRho}. */
  private static final MathContext RHO_DIGITS = new MathContext(12, RoundingMode.DOWN);

  /**
   * Relative safety margin applied to the double-precision ρ before it is rounded down, larger by
   * orders of magnitude than the few-ulp error of its evaluation, so the rounded-down result never
   * exceeds the exact real value.
   */
  private static final double RHO_SAFETY = 1e-13;

  private static final double LN_10 = Math.log(10.0);

  private Conversions() {}

  /**
   * The ε at which a ρ-zCDP mechanism is (ε,δ)-DP: {@code ε = ρ + 2√(ρ ln(1/δ))}.
   *
   * <p>Source: Bun &amp; Steinke 2016, Proposition 1.3.
   *
   * @param rho ρ ≥ 0, finite
   * @param delta δ in (0, 1)
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static double zcdpToEpsilon(double rho, double delta) {
    requireNonNegativeFinite(rho, "rho");
    if (!(delta > 0.0 && delta < 1.0)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    return zcdpToEpsilonAtLogInverseDelta(rho, -Math.log(delta));
  }

  /**
   * The ρ of the zCDP guarantee implied by pure ε-DP: {@code ρ = ε²/2}.
   *
   * <p>Source: Bun &amp; Steinke 2016, Proposition 1.4 (an ε-DP mechanism is ε²/2-zCDP). For
   * charging a zCDP accountant prefer the exact {@link #pureToZcdpRho(BigDecimal)}.
   *
   * @param eps ε ≥ 0, finite
   * @throws IllegalArgumentException if {@code eps} is negative, NaN or infinite
   */
  public static double pureToZcdp(double eps) {
    requireNonNegativeFinite(eps, "eps");
    return eps * eps / 2.0;
  }

  /**
   * The exact ρ = ε²/2 of the zCDP guarantee implied by pure ε-DP (Bun &amp; Steinke 2016,
   * Proposition 1.4), with no rounding, so charging it never under-counts the cost.
   *
   * @param eps ε ≥ 0
   * @throws IllegalArgumentException if {@code eps} is negative
   */
  public static BigDecimal pureToZcdpRho(BigDecimal eps) {
    Objects.requireNonNull(eps, "eps");
    if (eps.signum() < 0) {
      throw new IllegalArgumentException("eps must be >= 0, got " + eps.toPlainString());
    }
    // Halving a terminating decimal terminates: exact.
    return eps.multiply(eps).divide(BigDecimal.valueOf(2));
  }

  /**
   * The largest ρ whose zCDP guarantee implies (ε,δ)-DP, i.e. the largest ρ with {@code ρ +
   * 2√(ρ ln(1/δ)) ≤ ε}: {@code ρ = (√(ε+L) − √L)²} with {@code L = ln(1/δ)}, rounded DOWN to 12
   * significant digits so that the (ε,δ) guarantee still holds.
   *
   * <p>Source: solving Bun &amp; Steinke 2016, Proposition 1.3 for ρ (a quadratic in √ρ). It is
   * evaluated as {@code ε² / (√(ε+L) + √L)²}, which has no cancellation.
   *
   * @param eps ε ≥ 0
   * @param delta δ in (0, 1); for δ = 0 no positive ρ suffices — use {@link #pureToZcdpRho} for
   *     converting a pure mechanism instead
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static BigDecimal epsilonToZcdpRho(BigDecimal eps, BigDecimal delta) {
    Objects.requireNonNull(eps, "eps");
    if (eps.signum() < 0) {
      throw new IllegalArgumentException("eps must be >= 0, got " + eps.toPlainString());
    }
    double logInverseDelta = logInverse(delta);
    if (eps.signum() == 0) {
      return BigDecimal.ZERO;
    }
    double e = eps.doubleValue();
    if (Double.isInfinite(e)) {
      throw new IllegalArgumentException("eps is too large: " + eps.toPlainString());
    }
    double root = e / (Math.sqrt(e + logInverseDelta) + Math.sqrt(logInverseDelta));
    double rho = root * root * (1.0 - RHO_SAFETY);
    if (rho == 0.0) {
      return BigDecimal.ZERO; // underflow: ρ = 0 is always sound
    }
    return new BigDecimal(rho).round(RHO_DIGITS).stripTrailingZeros();
  }

  /** {@code ρ + 2√(ρ L)}, with {@code L = ln(1/δ)} already computed. */
  static double zcdpToEpsilonAtLogInverseDelta(double rho, double logInverseDelta) {
    return rho + 2.0 * Math.sqrt(rho * logInverseDelta);
  }

  /**
   * {@code ln(1/δ)} for a decimal δ in (0, 1), accurate even when δ is below the double range.
   *
   * @throws IllegalArgumentException if δ is not in (0, 1)
   */
  static double logInverse(BigDecimal delta) {
    Objects.requireNonNull(delta, "delta");
    if (delta.signum() <= 0 || delta.compareTo(BigDecimal.ONE) >= 0) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta.toPlainString());
    }
    // δ = m · 10^k with 1 ≤ m < 10, so ln(1/δ) = −ln m − k ln 10.
    int k = delta.precision() - delta.scale() - 1;
    double m = delta.scaleByPowerOfTen(-k).doubleValue();
    return -Math.log(m) - k * LN_10;
  }

  private static void requireNonNegativeFinite(double value, String name) {
    if (!(value >= 0.0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " must be finite and >= 0, got " + value);
    }
  }
}
