package org.dpsql.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.dpsql.accounting.GeometricRdp;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.accounting.RenyiCurve;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

/** Per-group budget ρ_i/s, the γ split, level sums, the spec's Rényi curve and MOE calibration. */
class BudgetArithmeticTest {
  static AdaptiveTabulationSpec spec(BaseMechanism m) {
    List<Integer> years = AgeBinning.singleYears(115);
    return new AdaptiveTabulationSpec(
        m,
        List.of(
            PopulationLevel.of(
                "Nation", new BigDecimal("4.27"), 9, List.of("US"), List.of("a", "b")),
            PopulationLevel.of(
                "State", new BigDecimal("1.2"), 8, List.of("S1", "S2"), List.of("a")),
            PopulationLevel.of("County", new BigDecimal("0.59"), 3, List.of("C1"), List.of("a"))),
        new BigDecimal("0.1"),
        10,
        100,
        1000,
        List.of("M", "F"),
        AgeBinning.census(years));
  }

  @Test
  void perGroupBudgetGammaSplitAndLevelSum() {
    AdaptiveTabulationSpec spec = spec(BaseMechanism.GEOMETRIC);
    PopulationLevel state = spec.level("State");
    assertEquals(Rational.of(3, 20), AdaptiveTabulationSpec.groupBudget(state)); // 1.2/8
    assertEquals(Rational.of(3, 200), spec.stepOneBudget(state)); // γ·1.2/8
    assertEquals(Rational.of(27, 200), spec.stepTwoBudget(state)); // (1−γ)·1.2/8
    for (PopulationLevel l : spec.levels()) {
      Rational g = AdaptiveTabulationSpec.groupBudget(l);
      assertEquals(g, spec.stepOneBudget(l).add(spec.stepTwoBudget(l)));
      assertEquals(Rational.of(l.budget()), g.multiply(l.stability()));
    }
    assertEquals(PrivacyCost.pure(new BigDecimal("6.06")), spec.totalCost());
    assertEquals(
        PrivacyCost.zcdp(new BigDecimal("6.06")),
        spec(BaseMechanism.DISCRETE_GAUSSIAN).totalCost());
  }

  @Test
  void specRenyiCurveIsTheSumOfLevelCurves() {
    AdaptiveTabulationSpec geo = spec(BaseMechanism.GEOMETRIC);
    AdaptiveTabulationSpec dg = spec(BaseMechanism.DISCRETE_GAUSSIAN);
    for (double alpha : new double[] {1.01, 2, 4.9, 8.76, 100}) {
      double manual = 0;
      for (PopulationLevel l : geo.levels()) {
        double b = l.budget().doubleValue() / l.stability();
        double adaptive =
            GeometricRdp.ofEpsilon(0.1 * b).epsilon(alpha)
                + GeometricRdp.ofEpsilon(0.9 * b).epsilon(alpha);
        manual += l.stability() * Math.max(adaptive, GeometricRdp.ofEpsilon(b).epsilon(alpha));
      }
      assertEquals(manual, geo.renyiCurve().epsilon(alpha), 1e-12 * manual);
      assertTrue(geo.renyiCurve().epsilon(alpha) <= 6.06 + 1e-12, "RDP never exceeds the pure ε");
      assertEquals(6.06 * alpha, dg.renyiCurve().epsilon(alpha), 1e-12);
      // additive over levels
      RenyiCurve sum = RenyiCurve.zero();
      for (PopulationLevel l : geo.levels()) {
        sum = sum.plus(geo.levelRenyiCurve(l));
      }
      assertEquals(sum.epsilon(alpha), geo.renyiCurve().epsilon(alpha), 1e-12);
    }
  }

  @Test
  void calibrationMeetsTheTargetMoeExactly() {
    for (long moe : new long[] {1, 6, 11, 50}) {
      double eps = MoeCalibration.exactGeometricEpsilon(moe);
      assertEquals(moe, MarginOfError.geometric(Rational.ofDouble(1 / (eps * (1 + 1e-9)))));
      assertEquals(
          moe + 1, MarginOfError.geometric(Rational.ofDouble(1 / (eps * (1 - 1e-6)))), "minimal");
      // Corollary 2 gives one more than its target
      assertEquals(
          moe + 1,
          MarginOfError.geometric(Rational.ofDouble(1 / MoeCalibration.corollary2Epsilon(moe))));
      double rho = MoeCalibration.exactDiscreteGaussianRho(moe);
      assertTrue(MarginOfError.discreteGaussian(Rational.ofDouble(1 / (2 * rho))) <= moe);
      assertTrue(
          MarginOfError.discreteGaussian(Rational.ofDouble(1 / (2 * rho * (1 - 1e-6)))) > moe,
          "minimal");
      // Corollary 4 meets its target, with more ρ than necessary
      assertEquals(
          moe,
          MarginOfError.discreteGaussian(
              Rational.ofDouble(1 / (2 * MoeCalibration.corollary4Rho(moe)))));
      assertTrue(MoeCalibration.corollary4Rho(moe) >= rho);
      System.out.printf(
          "MOE %d: eps exact %.5f vs Corollary 2 %.5f; rho exact %.6f vs Corollary 4 %.6f%n",
          moe, eps, MoeCalibration.corollary2Epsilon(moe), rho, MoeCalibration.corollary4Rho(moe));
    }
  }

  @Test
  void levelBudgetRoundsUpSoTheTargetStillHolds() {
    BigDecimal total =
        MoeCalibration.levelBudget(MoeCalibration.corollary4Rho(6), 9, new BigDecimal("0.1"), 3);
    assertEquals(new BigDecimal("0.534"), total); // 0.5333… rounded up
    BigDecimal eps =
        MoeCalibration.levelBudget(
            MoeCalibration.exactGeometricEpsilon(6), 9, new BigDecimal("0.1"), 3);
    PopulationLevel level = PopulationLevel.of("L", eps, 9, List.of("g"), List.of("c"));
    List<Integer> years = AgeBinning.singleYears(115);
    AdaptiveTabulationSpec spec =
        new AdaptiveTabulationSpec(
            BaseMechanism.GEOMETRIC,
            List.of(level),
            new BigDecimal("0.1"),
            1,
            2,
            3,
            List.of("M", "F"),
            AgeBinning.census(years));
    assertEquals(
        6, new NoisyCount(BaseMechanism.GEOMETRIC, spec.stepTwoBudget(level)).marginOfError95());
    assertEquals(
        new BigDecimal("0.9"), MoeCalibration.stepTwoBudget(BigDecimal.ONE, new BigDecimal("0.1")));
  }
}
