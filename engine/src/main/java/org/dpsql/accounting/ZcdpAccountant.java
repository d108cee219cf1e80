package org.dpsql.accounting;

import java.math.BigDecimal;
import java.time.Clock;

/**
 * An {@link Accountant} for ρ-zero-concentrated DP.
 *
 * <p>Guarantees: ρ adds exactly; costs and the total may only carry ρ (ε = δ = 0). ε is reported
 * at the configured δ as the tightest valid conversion ({@link #epsilonAt}): the smaller of the
 * analytic {@code ρ + 2√(ρ ln(1/δ))} (Bun &amp; Steinke 2016, Prop. 1.3) and the numerically
 * optimised {@code inf_α [ρα + (ln(1/δ) + (α−1) ln(1 − 1/α) − ln α)/(α − 1)]} (Canonne, Kamath
 * &amp; Steinke 2020, Prop. 12; {@link TightConversion#zcdpNumeric}), both valid for every ρ-zCDP
 * mechanism; or not at all ({@code null}) when no δ was configured.
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
    return epsilonAt(rho.doubleValue(), reportingDelta.doubleValue(), logInverseDelta);
  }

  /**
   * The smallest valid ε at which a ρ-zCDP mechanism is (ε, δ)-DP: the minimum of the analytic
   * conversion and the optimised Rényi conversion (which carries its own safety margin against
   * rounding). When δ is below the double range only the analytic form (computed from {@code
   * ln(1/δ)}) is used.
   */
  static double epsilonAt(double rho, double delta, double logInverseDelta) {
    double analytic = Conversions.zcdpToEpsilonAtLogInverseDelta(rho, logInverseDelta);
    if (!(delta > 0 && delta < 1) || rho == 0) {
      return analytic;
    }
    return Math.min(analytic, TightConversion.zcdpNumeric(rho, delta).epsilon());
  }
}
