package org.dpsql.accounting;

import java.util.Objects;

/**
 * A Rényi differential privacy (RDP) curve: for every order α &gt; 1, an upper bound ε(α) on the
 * Rényi divergence {@code D_α(M(x) ‖ M(x'))} over all pairs of neighbouring datasets (Mironov,
 * "Rényi Differential Privacy", CSF 2017). A mechanism "satisfies the curve" when it is (α,
 * ε(α))-RDP for every α &gt; 1.
 *
 * <p>Guarantees of the combinators (each returns a curve that the combined mechanism satisfies):
 *
 * <ul>
 *   <li>{@link #plus}: adaptive sequential composition adds the curves order by order (Mironov
 *       2017, Prop. 1; SafeTab paper Lemma 3).
 *   <li>{@link #times}: {@code k·ε(α)}; with an integer {@code k} this is the generalized parallel
 *       composition of mechanisms on a set family of maximum degree {@code k} (SafeTab paper Lemma
 *       12; see {@link GeneralizedParallelComposition}), and also the k-fold sequential
 *       composition.
 *   <li>{@link #max}: the pointwise maximum, satisfied by a mechanism that runs one of two branches
 *       chosen by a data-independent rule (the two branches of SafeTab's Algorithm 2).
 * </ul>
 *
 * <p>Curves are evaluated in double precision; implementations must return a value that is an upper
 * bound up to floating-point error of a few ulps, and conversions to (ε, δ) ({@link
 * TightConversion}) add a safety margin that dominates that error. Implementations are immutable.
 */
@FunctionalInterface
public interface RenyiCurve {

  /**
   * The bound ε(α) ≥ 0 at order α; may be {@code +∞}.
   *
   * @param alpha the order, α &gt; 1 and finite
   * @throws IllegalArgumentException if α is not finite and &gt; 1
   */
  double epsilon(double alpha);

  /** Sequential composition: {@code α ↦ this(α) + other(α)}. */
  default RenyiCurve plus(RenyiCurve other) {
    Objects.requireNonNull(other, "other");
    RenyiCurve self = this;
    return alpha -> self.epsilon(alpha) + other.epsilon(alpha);
  }

  /**
   * {@code α ↦ k·this(α)}: k-fold composition, or generalized parallel composition with degree k.
   *
   * @param k a finite factor ≥ 0
   * @throws IllegalArgumentException if k is negative or not finite
   */
  default RenyiCurve times(double k) {
    if (!(k >= 0) || Double.isInfinite(k)) {
      throw new IllegalArgumentException("factor must be finite and >= 0, got " + k);
    }
    RenyiCurve self = this;
    return alpha -> k == 0 ? 0.0 : k * self.epsilon(alpha);
  }

  /** The pointwise maximum of two curves (a data-independent choice between two mechanisms). */
  static RenyiCurve max(RenyiCurve a, RenyiCurve b) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    return alpha -> Math.max(a.epsilon(alpha), b.epsilon(alpha));
  }

  /** The curve of a mechanism that reveals nothing: ε(α) = 0. */
  static RenyiCurve zero() {
    return alpha -> {
      requireOrder(alpha);
      return 0.0;
    };
  }

  /**
   * The curve ε(α) = ρα of a ρ-zCDP mechanism (Bun &amp; Steinke 2016, Def. 1.1), e.g. the discrete
   * Gaussian with σ² = Δ²/(2ρ) on a query of sensitivity Δ (Canonne, Kamath &amp; Steinke 2020,
   * Thm. 4).
   *
   * @param rho ρ ≥ 0, finite
   * @throws IllegalArgumentException if ρ is negative or not finite
   */
  static RenyiCurve zcdp(double rho) {
    if (!(rho >= 0) || Double.isInfinite(rho)) {
      throw new IllegalArgumentException("rho must be finite and >= 0, got " + rho);
    }
    return alpha -> {
      requireOrder(alpha);
      return rho * alpha;
    };
  }

  /**
   * The curve of the discrete Gaussian mechanism {@code N_Z(σ²)} on an integer query of L2
   * sensitivity {@code Δ}: ε(α) = αΔ²/(2σ²) (Canonne, Kamath &amp; Steinke 2020, Thm. 4: it is
   * Δ²/(2σ²)-zCDP).
   *
   * @param sigmaSquared σ² &gt; 0
   * @param sensitivity Δ ≥ 0
   */
  static RenyiCurve discreteGaussian(double sigmaSquared, double sensitivity) {
    if (!(sigmaSquared > 0) || Double.isInfinite(sigmaSquared)) {
      throw new IllegalArgumentException("sigma^2 must be finite and > 0, got " + sigmaSquared);
    }
    if (!(sensitivity >= 0) || Double.isInfinite(sensitivity)) {
      throw new IllegalArgumentException("sensitivity must be finite and >= 0, got " + sensitivity);
    }
    return zcdp(sensitivity * sensitivity / (2 * sigmaSquared));
  }

  /**
   * A curve satisfied by every pure ε-DP mechanism: ε(α) = min(ε, αε²/2). Both terms are standard:
   * {@code D_α ≤ D_∞ ≤ ε}, and ε-DP implies ε²/2-zCDP (Bun &amp; Steinke 2016, Prop. 1.4). For the
   * geometric mechanism prefer its exact curve {@link GeometricRdp}, which is smaller.
   *
   * @param eps ε ≥ 0, finite
   */
  static RenyiCurve pureDp(double eps) {
    if (!(eps >= 0) || Double.isInfinite(eps)) {
      throw new IllegalArgumentException("eps must be finite and >= 0, got " + eps);
    }
    return alpha -> {
      requireOrder(alpha);
      return Math.min(eps, alpha * eps * eps / 2);
    };
  }

  /**
   * Checks an order.
   *
   * @throws IllegalArgumentException if α is not finite and &gt; 1
   */
  static void requireOrder(double alpha) {
    if (!(alpha > 1) || Double.isInfinite(alpha)) {
      throw new IllegalArgumentException("Renyi order alpha must be finite and > 1, got " + alpha);
    }
  }
}
