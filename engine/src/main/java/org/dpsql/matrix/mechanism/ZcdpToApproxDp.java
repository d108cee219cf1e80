package org.dpsql.matrix.mechanism;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.dpsql.mechanism.Rational;

/**
 * The tight conversion from ρ-zCDP to (ε, δ)-DP of Canonne, Kamath and Steinke ("The Discrete
 * Gaussian for Differential Privacy", NeurIPS 2020, §2.3, Corollary 13; also Asoodeh et al.): a
 * ρ-zCDP mechanism is (ε, δ)-DP for
 *
 * <pre>
 *   δ = inf_{α > 1}  exp((α−1)(αρ − ε)) / (α − 1) · (1 − 1/α)^α .
 * </pre>
 *
 * It holds for <em>every</em> ρ-zCDP mechanism (it uses only the Rényi divergence bound {@code
 * D_α ≤ αρ}), in particular for the multivariate discrete Gaussian, and is never worse than the
 * Bun–Steinke bound {@code ε = ρ + 2√(ρ ln(1/δ))}, which is also provided for comparison.
 *
 * <p>Guarantee (soundness of the numerics): the expression is a valid upper bound on δ for
 * <em>any</em> fixed {@code α > 1}, so an imperfect search over α only loosens δ; {@link
 * #largestRho} lowers its bisection result by a relative {@code 1e-9} (orders of magnitude above
 * the floating-point error of evaluating the expression, whose logarithm is computed to a few ulps)
 * and rounds it down to 12 significant digits, then re-checks it, so the returned ρ certainly
 * satisfies {@code δ(ρ, ε) ≤ δ}; {@link #epsilon} rounds up likewise.
 */
public final class ZcdpToApproxDp {
  private static final double MARGIN = 1e-9;
  private static final int BISECTIONS = 200;

  private ZcdpToApproxDp() {}

  /**
   * The δ such that ρ-zCDP implies (ε, δ)-DP by the CKS bound, at the (numerically) optimal α.
   *
   * @param rho ρ ≥ 0, finite
   * @param epsilon ε ≥ 0, finite
   */
  public static double delta(double rho, double epsilon) {
    if (!(rho >= 0) || Double.isInfinite(rho)) {
      throw new IllegalArgumentException("rho must be finite and >= 0: " + rho);
    }
    if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be finite and >= 0: " + epsilon);
    }
    if (rho == 0) {
      return 0;
    }
    // log δ(α) is convex in α with derivative (2α−1)ρ − ε + ln(1 − 1/α), increasing in α.
    double lo = 1 + 1e-12;
    double hi = (epsilon + 1) / (2 * rho) + 2;
    for (int i = 0; i < BISECTIONS && hi - lo > 1e-15 * hi; i++) {
      double a = 0.5 * (lo + hi);
      double derivative = (2 * a - 1) * rho - epsilon + Math.log1p(-1 / a);
      if (derivative < 0) {
        lo = a;
      } else {
        hi = a;
      }
    }
    double a = 0.5 * (lo + hi);
    return Math.min(1, Math.exp(logDelta(rho, epsilon, a)));
  }

  /** {@code ln δ} at order {@code α}: {@code (α−1)(αρ−ε) + α ln(1−1/α) − ln(α−1)}. */
  static double logDelta(double rho, double epsilon, double alpha) {
    return (alpha - 1) * (alpha * rho - epsilon) + alpha * Math.log1p(-1 / alpha) - Math.log(alpha - 1);
  }

  /**
   * The smallest ε (rounded up) such that ρ-zCDP implies (ε, δ)-DP by the CKS bound.
   *
   * @param rho ρ ≥ 0, finite
   * @param delta δ in (0, 1)
   */
  public static double epsilon(double rho, double delta) {
    checkDelta(delta);
    if (rho == 0) {
      return 0;
    }
    double lo = 0;
    double hi = bunSteinkeEpsilon(rho, delta); // always sufficient: the CKS bound is tighter
    for (int i = 0; i < BISECTIONS && hi - lo > 1e-14 * hi; i++) {
      double mid = 0.5 * (lo + hi);
      if (delta(rho, mid) <= delta * (1 - MARGIN)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /**
   * The largest ρ, rounded down to 12 significant digits, such that ρ-zCDP implies (ε, δ)-DP by the
   * CKS bound; verified before it is returned.
   *
   * @param epsilon ε > 0, finite
   * @param delta δ in (0, 1)
   * @throws IllegalArgumentException if a parameter is out of range
   */
  public static Rational largestRho(double epsilon, double delta) {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite: " + epsilon);
    }
    checkDelta(delta);
    double target = delta * (1 - MARGIN);
    double lo = bunSteinkeRho(epsilon, delta) * (1 - 1e-6); // feasible: Bun–Steinke is looser
    if (delta(lo, epsilon) > target) {
      lo = 0;
    }
    double hi = epsilon + 1; // infeasible for every δ < 1 (δ(ε+1, ε) > ... checked below)
    while (delta(hi, epsilon) <= target) {
      hi *= 2;
    }
    for (int i = 0; i < BISECTIONS && hi - lo > 1e-15 * hi; i++) {
      double mid = 0.5 * (lo + hi);
      if (delta(mid, epsilon) <= target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    double rho = lo * (1 - MARGIN);
    if (!(rho > 0)) {
      throw new IllegalArgumentException(
          "epsilon " + epsilon + " is too small for delta " + delta + " to give a positive rho");
    }
    Rational r = Rational.of(new BigDecimal(rho).round(new MathContext(12, RoundingMode.FLOOR)));
    if (delta(r.doubleValue(), epsilon) > delta) {
      throw new IllegalStateException("rho calibration failed its own check: " + r);
    }
    return r;
  }

  /** Bun–Steinke (2016, Prop. 1.3): ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP. */
  public static double bunSteinkeEpsilon(double rho, double delta) {
    checkDelta(delta);
    return rho + 2 * Math.sqrt(rho * -Math.log(delta));
  }

  /** The largest ρ with {@code ρ + 2√(ρ ln(1/δ)) ≤ ε}: {@code ε² / (√(ε + L) + √L)²}, L = ln(1/δ). */
  public static double bunSteinkeRho(double epsilon, double delta) {
    checkDelta(delta);
    double l = -Math.log(delta);
    double root = epsilon / (Math.sqrt(epsilon + l) + Math.sqrt(l));
    return root * root;
  }

  private static void checkDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1): " + delta);
    }
  }
}
