package org.dpsql.accounting;

import java.util.Objects;

/**
 * Conversions of Rényi DP, zCDP and pure DP guarantees to (ε, δ)-DP, and the choice of the tightest
 * valid one.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>{@link #epsilonAtOrder}: if a mechanism is (α, τ)-RDP then it is (ε, δ)-DP with {@code ε =
 *       τ + (ln(1/δ) + (α−1) ln(1 − 1/α) − ln α)/(α − 1)} (Canonne, Kamath &amp; Steinke 2020,
 *       Prop. 12; SafeTab paper Lemma 4, eq. 6). This holds for <em>every</em> α &gt; 1, so any α
 *       the optimiser returns yields a valid bound; optimisation only affects tightness.
 *   <li>{@link #optimalEpsilon}: the minimum of eq. 6 over α ∈ [1.001, 10^6] (log-spaced scan then
 *       golden-section refinement), which for a ρα curve is the paper's eq. 7.
 *   <li>{@link #gridEpsilon}: the minimum over a given grid, e.g. {@link #paperAlphaGrid()} =
 *       {1.01, 1.02, …, 10.00} as in the paper's Appendix F.2.
 *   <li>{@link #zcdpAnalytic}: {@code ρ + 2√(ρ ln(1/δ))} (eq. 8), always ≥ the numeric conversion.
 *   <li>{@link #tightest}: the smallest ε among all the conversions valid for the guarantees given.
 * </ul>
 *
 * <p>Numerics: every returned ε computed from a curve is inflated by a relative 10⁻¹⁰ plus an
 * absolute 10⁻¹² to dominate double rounding in the closed forms; negative values (possible for
 * tiny τ and large δ) are clamped to 0, which is still valid. Stateless.
 */
public final class TightConversion {
  private static final double MIN_ALPHA_MINUS_ONE = 1e-3;
  private static final double MAX_ALPHA_MINUS_ONE = 1e6;
  private static final int SCAN_POINTS = 400;
  private static final double RELATIVE_MARGIN = 1e-10;
  private static final double ABSOLUTE_MARGIN = 1e-12;

  private TightConversion() {}

  /**
   * Eq. 6 at one order, without safety margin: the (ε, δ) implied by (α, τ)-RDP.
   *
   * @param tau τ = ε(α) ≥ 0 (may be +∞)
   * @param alpha α &gt; 1
   * @param delta δ ∈ (0, 1)
   */
  public static double epsilonAtOrder(double tau, double alpha, double delta) {
    RenyiCurve.requireOrder(alpha);
    requireDelta(delta);
    if (!(tau >= 0)) {
      throw new IllegalArgumentException("tau must be >= 0, got " + tau);
    }
    double am1 = alpha - 1;
    return tau + (-Math.log(delta) + am1 * Math.log1p(-1 / alpha) - Math.log(alpha)) / am1;
  }

  /**
   * The (ε, δ) guarantee of a mechanism satisfying {@code curve}, minimised over α (see class
   * comment).
   *
   * @param delta δ ∈ (0, 1)
   */
  public static ApproxDpBound optimalEpsilon(RenyiCurve curve, double delta) {
    return optimal(curve, delta, ApproxDpBound.Method.RDP_NUMERIC);
  }

  /**
   * The (ε, δ) guarantee of a mechanism satisfying {@code curve}, minimised over the given orders.
   *
   * @param alphas orders, each &gt; 1; at least one
   * @param delta δ ∈ (0, 1)
   */
  public static ApproxDpBound gridEpsilon(RenyiCurve curve, double delta, double[] alphas) {
    Objects.requireNonNull(curve, "curve");
    Objects.requireNonNull(alphas, "alphas");
    requireDelta(delta);
    if (alphas.length == 0) {
      throw new IllegalArgumentException("the alpha grid is empty");
    }
    double best = Double.POSITIVE_INFINITY;
    double bestAlpha = alphas[0];
    for (double a : alphas) {
      double e = epsilonAtOrder(curve.epsilon(a), a, delta);
      if (e < best) {
        best = e;
        bestAlpha = a;
      }
    }
    return new ApproxDpBound(withMargin(best), delta, ApproxDpBound.Method.RDP_GRID, bestAlpha);
  }

  /** The paper's grid {1.01, 1.02, …, 9.99, 10.00} (900 orders, computed as i/100 exactly). */
  public static double[] paperAlphaGrid() {
    double[] grid = new double[900];
    for (int i = 0; i < grid.length; i++) {
      grid[i] = (101 + i) / 100.0;
    }
    return grid;
  }

  /**
   * ρ-zCDP → (ε, δ) by eq. 8, {@code ρ + 2√(ρ ln(1/δ))} (delegates to {@link
   * Conversions#zcdpToEpsilon}).
   */
  public static ApproxDpBound zcdpAnalytic(double rho, double delta) {
    return new ApproxDpBound(
        Conversions.zcdpToEpsilon(rho, delta),
        delta,
        ApproxDpBound.Method.ZCDP_ANALYTIC,
        Double.NaN);
  }

  /** ρ-zCDP → (ε, δ) by eq. 7: eq. 6 on the curve ρα, minimised over α. */
  public static ApproxDpBound zcdpNumeric(double rho, double delta) {
    return optimal(RenyiCurve.zcdp(rho), delta, ApproxDpBound.Method.ZCDP_NUMERIC);
  }

  /**
   * The tightest (smallest ε) valid (ε, δ) bound for a mechanism known to satisfy every guarantee
   * given (null = not known): pure ε-DP (which gives ε itself, and its curve {@link
   * RenyiCurve#pureDp}), an RDP curve, and ρ-zCDP (analytic and numeric).
   *
   * @param delta δ ∈ (0, 1)
   * @param pureEpsilon the pure ε, or null
   * @param curve an RDP curve, or null
   * @param zcdpRho the zCDP ρ, or null
   * @throws IllegalArgumentException if no guarantee is given or an argument is out of range
   */
  public static ApproxDpBound tightest(
      double delta, Double pureEpsilon, RenyiCurve curve, Double zcdpRho) {
    requireDelta(delta);
    if (pureEpsilon == null && curve == null && zcdpRho == null) {
      throw new IllegalArgumentException("at least one guarantee (pure, RDP or zCDP) is needed");
    }
    ApproxDpBound best = null;
    if (pureEpsilon != null) {
      if (!(pureEpsilon >= 0)) {
        throw new IllegalArgumentException("pure epsilon must be >= 0, got " + pureEpsilon);
      }
      best =
          better(
              best, new ApproxDpBound(pureEpsilon, delta, ApproxDpBound.Method.PURE, Double.NaN));
      best = better(best, optimalEpsilon(RenyiCurve.pureDp(pureEpsilon), delta));
    }
    if (curve != null) {
      best = better(best, optimalEpsilon(curve, delta));
    }
    if (zcdpRho != null) {
      best = better(best, zcdpAnalytic(zcdpRho, delta));
      best = better(best, zcdpNumeric(zcdpRho, delta));
    }
    return best;
  }

  private static ApproxDpBound better(ApproxDpBound a, ApproxDpBound b) {
    return a == null || b.epsilon() < a.epsilon() ? b : a;
  }

  private static ApproxDpBound optimal(RenyiCurve curve, double delta, ApproxDpBound.Method m) {
    Objects.requireNonNull(curve, "curve");
    requireDelta(delta);
    double lo = Math.log(MIN_ALPHA_MINUS_ONE);
    double hi = Math.log(MAX_ALPHA_MINUS_ONE);
    double step = (hi - lo) / (SCAN_POINTS - 1);
    int bestIndex = 0;
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i < SCAN_POINTS; i++) {
      double e = objective(curve, lo + i * step, delta);
      if (e < best) {
        best = e;
        bestIndex = i;
      }
    }
    double bestX = lo + bestIndex * step;
    if (Double.isFinite(best)) {
      // Golden-section search on the bracket around the best scan point (unimodal in practice;
      // if not, the result is still a valid, if less tight, bound since every α is valid).
      double a = lo + Math.max(0, bestIndex - 1) * step;
      double b = lo + Math.min(SCAN_POINTS - 1, bestIndex + 1) * step;
      double invPhi = (Math.sqrt(5) - 1) / 2;
      double c = b - invPhi * (b - a);
      double d = a + invPhi * (b - a);
      double fc = objective(curve, c, delta);
      double fd = objective(curve, d, delta);
      for (int it = 0; it < 100 && b - a > 1e-12; it++) {
        if (fc < fd) {
          b = d;
          d = c;
          fd = fc;
          c = b - invPhi * (b - a);
          fc = objective(curve, c, delta);
        } else {
          a = c;
          c = d;
          fc = fd;
          d = a + invPhi * (b - a);
          fd = objective(curve, d, delta);
        }
      }
      if (fc < best) {
        best = fc;
        bestX = c;
      }
      if (fd < best) {
        best = fd;
        bestX = d;
      }
    }
    return new ApproxDpBound(withMargin(best), delta, m, 1 + Math.exp(bestX));
  }

  /** Eq. 6 at α = 1 + e^x. */
  private static double objective(RenyiCurve curve, double x, double delta) {
    double alpha = 1 + Math.exp(x);
    double tau = curve.epsilon(alpha);
    if (Double.isNaN(tau)) {
      return Double.POSITIVE_INFINITY;
    }
    return epsilonAtOrder(tau, alpha, delta);
  }

  private static double withMargin(double eps) {
    if (Double.isInfinite(eps)) {
      return eps;
    }
    return Math.max(0.0, eps + Math.abs(eps) * RELATIVE_MARGIN + ABSOLUTE_MARGIN);
  }

  private static void requireDelta(double delta) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
  }
}
