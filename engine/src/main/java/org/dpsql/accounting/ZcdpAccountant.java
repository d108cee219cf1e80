package org.dpsql.accounting;

import java.math.BigDecimal;
import java.time.Clock;

/**
 * An {@link Accountant} for ρ-zero-concentrated DP.
 *
 * <p>Guarantees: ρ adds exactly, and so does the δ of mechanisms that are only δ-approximately
 * ρ-zCDP (private partition selection); costs and the total carry no ε. Having spent ρ and δ_a,
 * the connection is δ_a-approximately ρ-zCDP, hence (ε', δ_a + δ')-DP for the ε' of ρ at δ'
 * (Bun and Steinke 2016, Prop. 1.3 applied to the conditioned distributions). ε is therefore
 * reported at δ' = the configured δ minus the spent δ_a, so that the whole reported guarantee is
 * (ε, configured δ)-DP; the total δ_a a connection may spend is half the configured δ (see the
 * session), so δ' never falls below half of it. The conversion is the tightest valid one ({@link
 * #epsilonAt}): the smaller of the
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

  /** The ε of ρ at the reporting δ less the δ already spent (see the class comment). */
  private Double epsilonOf(BigDecimal rho) {
    if (reportingDelta == null) {
      return null;
    }
    BigDecimal spentDelta = spent().delta();
    if (spentDelta.signum() == 0) {
      return epsilonAt(rho.doubleValue(), reportingDelta.doubleValue(), logInverseDelta);
    }
    BigDecimal left = reportingDelta.subtract(spentDelta);
    return epsilonAt(rho.doubleValue(), left.doubleValue(), Conversions.logInverse(left));
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
