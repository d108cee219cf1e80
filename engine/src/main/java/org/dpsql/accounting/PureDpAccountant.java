package org.dpsql.accounting;

import java.time.Clock;

/**
 * An {@link Accountant} for pure ε-DP under basic composition.
 *
 * <p>Guarantees: ε adds exactly; costs and the total may only carry ε (δ = ρ = 0).
 */
final class PureDpAccountant extends AbstractAccountant {
  PureDpAccountant(PrivacyCost total, Clock clock) {
    super(Accounting.PURE, total, clock);
  }
}
