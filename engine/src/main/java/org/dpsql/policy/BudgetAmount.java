package org.dpsql.policy;

import java.math.BigDecimal;

/**
 * An amount of privacy budget in the units of one accounting: {@code epsilon} (pure), {@code
 * epsilon} and {@code delta} (approx), or {@code rho} with an optional reporting {@code delta}
 * (zCDP).
 *
 * <p>Guarantees: components are exact decimals taken from the policy text (never rounded through
 * {@code double}); a component the accounting does not use is {@code null}; every present
 * component is positive and {@code delta} lies in the open interval (0, 1). The loader has already
 * checked which components the accounting requires.
 */
public record BudgetAmount(BigDecimal epsilon, BigDecimal delta, BigDecimal rho) {

  /** Checks the ranges; the loader reports friendlier messages before this can fail. */
  public BudgetAmount {
    if (epsilon != null && epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be > 0, got " + epsilon);
    }
    if (rho != null && rho.signum() <= 0) {
      throw new IllegalArgumentException("rho must be > 0, got " + rho);
    }
    if (delta != null && (delta.signum() <= 0 || delta.compareTo(BigDecimal.ONE) >= 0)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    if (epsilon == null && rho == null) {
      throw new IllegalArgumentException("a budget amount needs epsilon or rho");
    }
  }

  /**
   * Whether every component present in both this amount and {@code other} is at most the one in
   * {@code other}.
   */
  public boolean fitsWithin(BudgetAmount other) {
    return le(epsilon, other.epsilon) && le(delta, other.delta) && le(rho, other.rho);
  }

  private static boolean le(BigDecimal a, BigDecimal b) {
    return a == null || b == null || a.compareTo(b) <= 0;
  }
}
