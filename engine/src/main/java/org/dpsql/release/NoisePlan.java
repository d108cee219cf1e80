package org.dpsql.release;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.Conversions;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.dpsql.mechanism.DiscreteGaussianMechanism;
import org.dpsql.mechanism.GeometricMechanism;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;

/**
 * How a query's privacy cost is spent: the cost charged to the connection's accountant and the
 * noise mechanism of each measurement.
 *
 * <p>The cost comes from the DP hint, else from the policy's {@code default_query}. It is split
 * equally over the query's {@code a} distinct measurements, each calibrated to its own sensitivity
 * (see {@link Measurement}). Guarantees, by basic (pure, approx) or additive (zCDP) composition:
 * <ul>
 *   <li>pure accounting, geometric: each measurement is (ε/a)-DP, the query ε-DP;</li>
 *   <li>approx accounting, discrete Gaussian: ρ = the largest ρ whose zCDP implies (ε,δ)-DP
 *       (Bun–Steinke Prop. 1.3), each measurement (ρ/a)-zCDP, the query ρ-zCDP and so (ε,δ)-DP;
 *       geometric: as for pure, charged (ε, 0);</li>
 *   <li>zCDP accounting, discrete Gaussian: each measurement (ρ/a)-zCDP; geometric: each
 *       measurement ε_m-DP with ε_m = √(2ρ/a) rounded down, hence (ε_m²/2 ≤ ρ/a)-zCDP.</li>
 * </ul>
 */
public record NoisePlan(Mechanism mechanism, PrivacyCost charge, List<NoiseMechanism> perMeasurement) {

  /** Calibrates the noise of a query's measurements. */
  public static NoisePlan calibrate(Accounting accounting, BudgetAmount defaultQuery,
      BigDecimal reportingDelta, DpHint hint, List<Measurement> measurements, int maxRowsPerUnit)
      throws SQLException {
    Mechanism family = family(accounting, hint.mechanism());
    int a = measurements.size();
    List<NoiseMechanism> noise = new ArrayList<>();
    PrivacyCost charge;
    switch (accounting) {
      case PURE -> {
        if (hint.delta() != null || hint.rho() != null) {
          throw SqlStates.badPrivacyParameter("this policy uses pure ε-DP accounting: "
              + "give only epsilon in the DP hint, e.g. DP(epsilon='0.1')");
        }
        BigDecimal eps = orDefault(hint.epsilon(), defaultQuery.epsilon(), "epsilon");
        charge = PrivacyCost.pure(eps);
        for (Measurement m : measurements) {
          noise.add(NoiseMechanism.of(new GeometricMechanism(
              Rational.of(eps).divide(a), m.sensitivity(maxRowsPerUnit))));
        }
      }
      case APPROX -> {
        if (hint.rho() != null) {
          throw SqlStates.badPrivacyParameter("this policy uses (ε,δ) accounting: give epsilon "
              + "and delta in the DP hint, not rho");
        }
        BigDecimal eps = orDefault(hint.epsilon(), defaultQuery.epsilon(), "epsilon");
        if (family == Mechanism.GEOMETRIC) {
          charge = PrivacyCost.approx(eps, BigDecimal.ZERO);
          for (Measurement m : measurements) {
            noise.add(NoiseMechanism.of(new GeometricMechanism(
                Rational.of(eps).divide(a), m.sensitivity(maxRowsPerUnit))));
          }
        } else {
          BigDecimal delta = orDefault(hint.delta(), defaultQuery.delta(), "delta");
          charge = PrivacyCost.approx(eps, delta);
          Rational rho = Rational.of(Conversions.epsilonToZcdpRho(eps, delta));
          for (Measurement m : measurements) {
            noise.add(NoiseMechanism.of(
                new DiscreteGaussianMechanism(rho.divide(a), m.sensitivity(maxRowsPerUnit))));
          }
        }
      }
      case ZCDP -> {
        BigDecimal rho;
        if (hint.rho() != null) {
          if (hint.epsilon() != null) {
            throw SqlStates.badPrivacyParameter("give either rho or epsilon in the DP hint, not both");
          }
          rho = hint.rho();
        } else if (hint.epsilon() != null) {
          BigDecimal delta = hint.delta() != null ? hint.delta() : reportingDelta;
          if (delta == null) {
            throw SqlStates.badPrivacyParameter("this policy uses zCDP accounting and has no delta: "
                + "give rho in the DP hint (e.g. DP(rho='0.05')), or epsilon with delta");
          }
          rho = Conversions.epsilonToZcdpRho(hint.epsilon(), delta);
        } else {
          rho = orDefault(null, defaultQuery.rho(), "rho");
        }
        charge = PrivacyCost.zcdp(rho);
        for (Measurement m : measurements) {
          Rational share = Rational.of(rho).divide(a);
          if (family == Mechanism.GEOMETRIC) {
            noise.add(NoiseMechanism.of(new GeometricMechanism(
                sqrtTwiceDown(share), m.sensitivity(maxRowsPerUnit))));
          } else {
            noise.add(NoiseMechanism.of(
                new DiscreteGaussianMechanism(share, m.sensitivity(maxRowsPerUnit))));
          }
        }
      }
      default -> throw new IllegalStateException(accounting.name());
    }
    return new NoisePlan(family, charge, noise);
  }

  private static Mechanism family(Accounting accounting, Mechanism requested) throws SQLException {
    return switch (requested) {
      case AUTO -> accounting == Accounting.PURE ? Mechanism.GEOMETRIC : Mechanism.DISCRETE_GAUSSIAN;
      case GEOMETRIC, LAPLACE -> Mechanism.GEOMETRIC;
      case GAUSSIAN, DISCRETE_GAUSSIAN -> {
        if (accounting == Accounting.PURE) {
          throw SqlStates.badPrivacyParameter("mechanism '" + requested.sqlName()
              + "' gives (ε,δ)/zCDP guarantees, but this policy uses pure ε-DP accounting; "
              + "use mechanism='geometric'");
        }
        yield Mechanism.DISCRETE_GAUSSIAN;
      }
      default -> throw SqlStates.notSupported("mechanism '" + requested.sqlName()
          + "' is not available for GROUP BY aggregates; use 'geometric', 'discrete_gaussian' "
          + "or 'auto'");
    };
  }

  private static BigDecimal orDefault(BigDecimal hinted, BigDecimal fallback, String what)
      throws SQLException {
    if (hinted != null) {
      return hinted;
    }
    if (fallback == null) {
      throw SqlStates.badPrivacyParameter("no " + what + " for this query: the policy's "
          + "default_query has none; give it in the DP hint");
    }
    return fallback;
  }

  /** The largest 15-digit decimal e with e²/2 ≤ share: an e-DP mechanism is then share-zCDP. */
  static Rational sqrtTwiceDown(Rational share) {
    BigDecimal x = new BigDecimal(share.num().shiftLeft(1))
        .divide(new BigDecimal(share.den()), new MathContext(40, RoundingMode.DOWN));
    MathContext mc = new MathContext(15, RoundingMode.DOWN);
    BigDecimal e = x.sqrt(mc);
    while (e.multiply(e).compareTo(x) > 0) {
      e = e.subtract(e.ulp());
    }
    return Rational.of(e);
  }
}
