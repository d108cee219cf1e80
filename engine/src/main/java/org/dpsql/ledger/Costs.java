package org.dpsql.ledger;

import java.math.BigDecimal;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;

/** Exact component-wise comparisons of privacy costs used by the durable accountants. */
final class Costs {
  private Costs() {}

  /** Most decimal places, and most digits before the point, of a cost the ledger records. */
  static final int MAX_DIGITS = 1000;

  /**
   * Whether every component has at most {@value #MAX_DIGITS} decimal places and at most {@value
   * #MAX_DIGITS} digits before the point. Exact sums of other values (ρ = 1e-999999999 next to
   * 0.02) would need as many digits as the exponent says, which the ledger neither stores nor
   * computes; such a cost is refused before any arithmetic.
   */
  static boolean recordable(PrivacyCost c) {
    return recordable(c.epsilon()) && recordable(c.delta()) && recordable(c.rho());
  }

  private static boolean recordable(BigDecimal v) {
    if (v.signum() == 0) {
      return true;
    }
    BigDecimal s = v.stripTrailingZeros();
    return s.scale() <= MAX_DIGITS && (long) s.precision() - s.scale() <= MAX_DIGITS;
  }

  /** Whether {@code a ≤ b} in every component. */
  static boolean fits(PrivacyCost a, PrivacyCost b) {
    return a.epsilon().compareTo(b.epsilon()) <= 0
        && a.delta().compareTo(b.delta()) <= 0
        && a.rho().compareTo(b.rho()) <= 0;
  }

  /** Whether {@code spent + cost ≤ total} in every component, without building the sum. */
  static boolean fitsAfter(PrivacyCost spent, PrivacyCost cost, PrivacyCost total) {
    return spent.epsilon().add(cost.epsilon()).compareTo(total.epsilon()) <= 0
        && spent.delta().add(cost.delta()).compareTo(total.delta()) <= 0
        && spent.rho().add(cost.rho()).compareTo(total.rho()) <= 0;
  }

  /** {@code a − b} component-wise, each component clamped at zero. */
  static PrivacyCost headroom(PrivacyCost a, PrivacyCost b) {
    return new PrivacyCost(clamp(a.epsilon().subtract(b.epsilon())),
        clamp(a.delta().subtract(b.delta())), clamp(a.rho().subtract(b.rho())));
  }

  /** The component-wise minimum. */
  static PrivacyCost min(PrivacyCost a, PrivacyCost b) {
    return new PrivacyCost(a.epsilon().min(b.epsilon()), a.delta().min(b.delta()),
        a.rho().min(b.rho()));
  }

  private static BigDecimal clamp(BigDecimal v) {
    return v.signum() < 0 ? BigDecimal.ZERO : v;
  }

  /**
   * Checks that {@code cost} has no non-zero component {@code accounting} does not use.
   *
   * @throws IllegalArgumentException if it has
   */
  static void requireOnlyUsedComponents(Accounting accounting, PrivacyCost cost, String what) {
    boolean bad = (!accounting.usesEpsilon() && cost.epsilon().signum() != 0)
        || (!accounting.usesDelta() && cost.delta().signum() != 0)
        || (!accounting.usesRho() && cost.rho().signum() != 0);
    if (bad) {
      throw new IllegalArgumentException("The " + what + " " + cost + " has a component that "
          + accounting.policyName() + " accounting does not use");
    }
  }
}
