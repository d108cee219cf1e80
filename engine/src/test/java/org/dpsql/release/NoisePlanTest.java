package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Optional;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.Conversions;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.policy.Clamp;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;
import org.junit.jupiter.api.Test;

/** Sensitivities of the measurements and the split of a query's budget over them. */
class NoisePlanTest {
  private static ColumnPolicy measure(String name, int type, String lo, String hi) {
    return new ColumnPolicy(name, type, Optional.empty(), Optional.empty(),
        Optional.of(new Clamp(new BigDecimal(lo), new BigDecimal(hi))));
  }

  private static final ColumnPolicy FARE = measure("FARE", Types.DECIMAL, "0", "100");
  private static final List<Measurement> THREE = List.of(
      Measurement.countStar(), Measurement.count(FARE), Measurement.sum(FARE));

  private static NoisePlan.Shape shape(List<Measurement> ms, int k) {
    return new NoisePlan.Shape(ms, k, 4, null);
  }

  @Test
  void sumResolutionAndPerRowBound() {
    Measurement intSum = Measurement.sum(measure("N", Types.INTEGER, "0", "100"));
    assertEquals(0, BigDecimal.ONE.compareTo(intSum.resolution()));
    assertEquals(100, intSum.perRowBound());
    Measurement decSum = Measurement.sum(FARE);
    assertEquals(0, new BigDecimal("0.001").compareTo(decSum.resolution()), "six significant digits");
    assertEquals(100_000, decSum.perRowBound());
    Measurement negative = Measurement.sum(measure("X", Types.DOUBLE, "-5", "2.5"));
    assertEquals(0, new BigDecimal("0.00001").compareTo(negative.resolution()));
    assertEquals(500_000, negative.perRowBound(), "the bound of largest magnitude");
    assertEquals(10 * 100_000, decSum.sensitivity(10), "k rows per unit");
    assertEquals(7, Measurement.countStar().sensitivity(7));
  }

  @Test
  void pureSplitsEpsilonEquallyOverMeasurements() throws SQLException {
    NoisePlan plan = NoisePlan.calibrate(Accounting.PURE, new BudgetAmount(new BigDecimal("0.3"), null, null),
        null, DpHint.NONE, shape(THREE, 10));
    assertEquals(Mechanism.GEOMETRIC, plan.mechanism());
    assertEquals(PrivacyCost.pure(new BigDecimal("0.3")), plan.charge());
    // each measurement: epsilon 0.1 and sensitivity k * c -> scale = k * c / 0.1
    assertEquals(new DiscreteLaplaceDistribution(Rational.of(100)).variance(),
        plan.perMeasurement().get(0).variance(), 1e-9);
    assertEquals(new DiscreteLaplaceDistribution(Rational.of(10_000_000)).variance(),
        plan.perMeasurement().get(2).variance(), 1e-3 * new DiscreteLaplaceDistribution(Rational.of(10_000_000)).variance());
  }

  @Test
  void zcdpSplitsRhoAndGeometricSpendsEpsilonSquaredOverTwo() throws SQLException {
    BudgetAmount def = new BudgetAmount(null, null, new BigDecimal("0.06"));
    NoisePlan dg = NoisePlan.calibrate(Accounting.ZCDP, def, null, DpHint.NONE, shape(THREE, 1));
    assertEquals(PrivacyCost.zcdp(new BigDecimal("0.06")), dg.charge());
    // rho 0.02 per measurement, sensitivity 1: sigma^2 = 1 / 0.04 = 25
    assertEquals(new DiscreteGaussianDistribution(Rational.of(25)).variance(),
        dg.perMeasurement().get(0).variance(), 1e-9);

    NoisePlan geo = NoisePlan.calibrate(Accounting.ZCDP, def, null,
        new DpHint(null, null, null, Mechanism.GEOMETRIC, null), shape(THREE, 1));
    Rational eps = NoisePlan.sqrtTwiceDown(Rational.parse("0.02"));
    assertTrue(eps.multiply(eps).divide(2).compareTo(Rational.parse("0.02")) <= 0, "never over budget");
    assertEquals(0.2, eps.doubleValue(), 1e-12);
    assertEquals(new DiscreteLaplaceDistribution(eps.reciprocal()).variance(),
        geo.perMeasurement().get(0).variance(), 1e-9);
    Rational odd = NoisePlan.sqrtTwiceDown(Rational.of(1, 3));
    assertTrue(odd.multiply(odd).divide(2).compareTo(Rational.of(1, 3)) <= 0);
    assertEquals(Math.sqrt(2.0 / 3), odd.doubleValue(), 1e-13);
  }

  @Test
  void approxConvertsToTheLargestRhoThatImpliesEpsilonDelta() throws SQLException {
    BudgetAmount def = new BudgetAmount(new BigDecimal("1"), new BigDecimal("1e-6"), null);
    NoisePlan plan = NoisePlan.calibrate(Accounting.APPROX, def, null, DpHint.NONE,
        shape(List.of(Measurement.countStar()), 1));
    assertEquals(PrivacyCost.approx(BigDecimal.ONE, new BigDecimal("1e-6")), plan.charge());
    BigDecimal rho = Conversions.epsilonToZcdpRho(BigDecimal.ONE, new BigDecimal("1e-6"));
    assertTrue(Conversions.zcdpToEpsilon(rho.doubleValue(), 1e-6) <= 1.0);
    double sigma2 = 1 / (2 * rho.doubleValue());
    assertEquals(new DiscreteGaussianDistribution(Rational.ofDouble(sigma2)).variance(),
        plan.perMeasurement().get(0).variance(), 1e-6 * sigma2);
  }

  @Test
  void refusesParametersTheAccountingCannotUse() {
    BudgetAmount pure = new BudgetAmount(BigDecimal.ONE, null, null);
    SQLException e = assertThrows(SQLException.class, () -> NoisePlan.calibrate(Accounting.PURE, pure, null,
        new DpHint(null, null, new BigDecimal("0.1"), Mechanism.AUTO, null), shape(THREE, 1)));
    assertEquals("XDP05", e.getSQLState());
    e = assertThrows(SQLException.class, () -> NoisePlan.calibrate(Accounting.PURE, pure, null,
        new DpHint(null, null, null, Mechanism.GAUSSIAN, null), shape(THREE, 1)));
    assertEquals("XDP05", e.getSQLState());
    e = assertThrows(SQLException.class, () -> NoisePlan.calibrate(Accounting.ZCDP,
        new BudgetAmount(null, null, BigDecimal.ONE), null,
        new DpHint(BigDecimal.ONE, null, null, Mechanism.AUTO, null), shape(THREE, 1)));
    assertEquals("XDP05", e.getSQLState(), "epsilon under zCDP needs a delta");
    e = assertThrows(SQLException.class, () -> NoisePlan.calibrate(Accounting.ZCDP,
        new BudgetAmount(null, null, BigDecimal.ONE), null,
        new DpHint(null, null, null, Mechanism.TOPDOWN, null), shape(THREE, 1)));
    assertEquals("XDP03", e.getSQLState());
  }
}
