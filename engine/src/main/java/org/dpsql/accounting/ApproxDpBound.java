package org.dpsql.accounting;

import java.util.Objects;

/**
 * An (ε, δ)-DP guarantee obtained by converting another guarantee, with how it was obtained.
 *
 * <p>Guarantees: ε ≥ 0 is finite or {@code +∞}, δ ∈ [0, 1); the mechanism the conversion was
 * applied to satisfies (ε, δ)-DP (each {@link Method} is a proven conversion, see {@link
 * TightConversion}). {@code alpha} is the Rényi order used, or NaN when none was.
 *
 * @param epsilon ε
 * @param delta δ
 * @param method the conversion that produced the bound
 * @param alpha the Rényi order at which the bound was evaluated, or NaN
 */
public record ApproxDpBound(double epsilon, double delta, Method method, double alpha) {

  /** How a bound was obtained. */
  public enum Method {
    /** The pure ε itself (valid for δ = 0 and hence every δ). */
    PURE,
    /** ρ-zCDP → (ρ + 2√(ρ ln(1/δ)), δ) (Bun &amp; Steinke 2016, Prop. 1.3; SafeTab eq. 8). */
    ZCDP_ANALYTIC,
    /** ρ-zCDP → eq. 7 of the SafeTab paper: eq. 6 at ε(α) = ρα, minimised over α. */
    ZCDP_NUMERIC,
    /** RDP curve → eq. 6 (Canonne, Kamath &amp; Steinke 2020, Prop. 12) minimised over α. */
    RDP_NUMERIC,
    /** RDP curve → eq. 6 minimised over a given finite grid of α (the paper's procedure). */
    RDP_GRID
  }

  /**
   * Validates the fields.
   *
   * @throws IllegalArgumentException if ε is negative or NaN, or δ is outside [0, 1)
   */
  public ApproxDpBound {
    Objects.requireNonNull(method, "method");
    if (!(epsilon >= 0)) {
      throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
    }
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), got " + delta);
    }
  }
}
