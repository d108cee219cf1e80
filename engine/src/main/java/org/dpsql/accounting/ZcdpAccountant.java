package org.dpsql.accounting;

import java.math.BigDecimal;
import java.time.Clock;

/**
 * An {@link Accountant} for ρ-zero-concentrated DP.
 *
 * <p>Guarantees: ρ adds exactly; costs and the total may only carry ρ (ε = δ = 0). ε is reported
 * at the configured δ as {@code ρ + 2√(ρ ln(1/δ))} (Bun &amp; Steinke 2016, Prop. 1.3), or not at
 * all ({@code null}) when no δ was configured.
 */
final class ZcdpAccountant extends AbstractAccountant {

  /** The reporting δ, or null. */
  private final BigDecimal reportingDelta;

  /** {@code ln(1/reportingDelta)}; unused when {@link #reportingDelta} is null. */
  private final double logInverseDelta;

  ZcdpAccountant(PrivacyCost total, BigDecimal reportingDelta, Clock clock) {
    super(Accounting.ZCDP, total, clock);
    this.reportingDelta = reportingDelta;
    this.logInverseDelta =
        reportingDelta == null ? Double.NaN : Conversions.logInverse(reportingDelta);
  }

  @Override
  public Double epsilonSpentAtDelta() {
    return epsilonOf(spent().rho());
  }

  @Override
  public Double epsilonTotalAtDelta() {
    return epsilonOf(total().rho());
  }

  private Double epsilonOf(BigDecimal rho) {
    if (reportingDelta == null) {
      return null;
    }
    return Conversions.zcdpToEpsilonAtLogInverseDelta(rho.doubleValue(), logInverseDelta);
  }
}
