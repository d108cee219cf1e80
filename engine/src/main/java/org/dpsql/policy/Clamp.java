package org.dpsql.policy;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Public bounds {@code [lo, hi]} that each value of a numeric column is clamped to before SUM or
 * AVG, which bounds one row's contribution.
 *
 * <p>Guarantees: both bounds are exact decimals from the policy and {@code lo <= hi}.
 */
public record Clamp(BigDecimal lo, BigDecimal hi) {

  /** Checks {@code lo <= hi}. */
  public Clamp {
    Objects.requireNonNull(lo, "lo");
    Objects.requireNonNull(hi, "hi");
    if (lo.compareTo(hi) > 0) {
      throw new IllegalArgumentException("clamp lo " + lo + " > hi " + hi);
    }
  }

  /** The largest absolute value a clamped value can have: {@code max(|lo|, |hi|)}. */
  public BigDecimal maxAbs() {
    return lo.abs().max(hi.abs());
  }

  /** The width {@code hi - lo} of the interval. */
  public BigDecimal width() {
    return hi.subtract(lo);
  }

  /** {@code v} clamped into {@code [lo, hi]}. */
  public BigDecimal apply(BigDecimal v) {
    return v.max(lo).min(hi);
  }
}
