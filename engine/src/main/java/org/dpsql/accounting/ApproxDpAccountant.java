package org.dpsql.accounting;

import java.time.Clock;

/**
 * An {@link Accountant} for approximate (ε,δ)-DP under basic composition.
 *
 * <p>Guarantees: ε adds and δ adds, exactly; costs and the total may only carry ε and δ (ρ = 0).
 */
final class ApproxDpAccountant extends AbstractAccountant {
  ApproxDpAccountant(PrivacyCost total, Clock clock) {
    super(Accounting.APPROX, total, clock);
  }
}
