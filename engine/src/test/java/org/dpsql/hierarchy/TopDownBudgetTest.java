package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

class TopDownBudgetTest {
  private static final Rational RHO = Rational.parse("0.0132");

  @Test
  void paperBudgetHasSigmaSquaredTOverRho() {
    for (int t : new int[] {1, 6, 8, 16}) {
      TopDownBudget b = TopDownBudget.paper(RHO, t);
      assertFalse(b.isPerturbed(0), "bounded: public root");
      assertEquals(Rational.ZERO, b.levelRho(0));
      for (int l = 1; l <= t; l++) {
        assertEquals(2, b.squaredSensitivity(l), "bounded, one record: Δ² = 2");
        assertEquals(RHO.divide(t), b.levelRho(l), "ρ/T per level");
        // Algorithm 1 line 6: N_Z(0, T/ρ)
        assertEquals(Rational.of(t).divide(RHO), b.sigmaSquared(l));
      }
      assertEquals(RHO, b.totalRho(), "split sums to the charged rho exactly");
    }
  }

  @Test
  void unboundedUniformMatchesAppendixB() {
    // Algorithm 3: σ² = T/ρ' everywhere incl. the root, total (m²/T + Δ²)ρ'/2 = ρ.
    int t = 6;
    TopDownBudget b =
        TopDownBudget.of(RHO, t, Neighbouring.UNBOUNDED, Contribution.ONE, BudgetSplit.uniform());
    assertTrue(b.isPerturbed(0));
    assertEquals(1, b.squaredSensitivity(0));
    Rational sigma2 = b.sigmaSquared(0);
    for (int l = 1; l <= t; l++) {
      assertEquals(1, b.squaredSensitivity(l), "unbounded, one record: Δ² = 1");
      assertEquals(sigma2, b.sigmaSquared(l), "equal σ² on every perturbed level");
    }
    // σ² = (m² + T·Δ²)/(2ρ) = 7/(2ρ)
    assertEquals(Rational.of(7).divide(RHO.multiply(2)), sigma2);
    Rational rhoPrime = Rational.of(t).divide(sigma2); // the paper's parameter: σ² = T/ρ'
    Rational paperTotal = Rational.of(1).divide(t).add(Rational.ONE).multiply(rhoPrime).divide(2);
    assertEquals(RHO, paperTotal, "Theorem B.1 cost equals the charged rho");
    assertEquals(RHO, b.totalRho());
  }

  @Test
  void sensitivityForMultipleRecords() {
    Contribution distinct = new Contribution(3, true);
    Contribution any = new Contribution(3, false);
    assertEquals(6, distinct.squaredL2Sensitivity(Neighbouring.BOUNDED, true));
    assertEquals(18, distinct.squaredL2Sensitivity(Neighbouring.BOUNDED, false));
    assertEquals(3, distinct.squaredL2Sensitivity(Neighbouring.UNBOUNDED, true));
    assertEquals(9, distinct.squaredL2Sensitivity(Neighbouring.UNBOUNDED, false));
    assertEquals(18, any.squaredL2Sensitivity(Neighbouring.BOUNDED, true));
    assertEquals(9, any.squaredL2Sensitivity(Neighbouring.UNBOUNDED, true));
    assertEquals(9, any.squaredRootSensitivity());
    assertThrows(IllegalArgumentException.class, () -> new Contribution(0, true));

    int t = 4;
    TopDownBudget b =
        TopDownBudget.of(RHO, t, Neighbouring.BOUNDED, distinct, BudgetSplit.uniform());
    // equal σ² = ΣΔ²/(2ρ) = (3·18 + 6)/(2ρ)
    Rational sigma2 = Rational.of(60).divide(RHO.multiply(2));
    for (int l = 1; l <= t; l++) {
      assertEquals(sigma2, b.sigmaSquared(l));
      // and each level's cost Δ_ℓ²/(2σ²) is its share
      assertEquals(
          Rational.of(b.squaredSensitivity(l)).divide(sigma2.multiply(2)), b.levelRho(l));
    }
    assertEquals(RHO, b.totalRho());
  }

  @Test
  void weightedSplitsSumExactlyAndMinimiseTheirObjective() {
    int t = 6;
    for (Neighbouring nb : Neighbouring.values()) {
      for (BudgetSplit split :
          new BudgetSplit[] {
            BudgetSplit.zoomIn(), BudgetSplit.weighted(1, 5, 4, 3, 2, 1, 0.5), BudgetSplit.uniform()
          }) {
        TopDownBudget b = TopDownBudget.of(RHO, t, nb, new Contribution(2, true), split);
        assertEquals(RHO, b.totalRho(), split + " " + nb);
        for (int l = 0; l <= t; l++) {
          if (b.isPerturbed(l)) {
            // σ_ℓ² = Δ_ℓ²/(2ρ_ℓ) exactly
            assertEquals(
                Rational.of(b.squaredSensitivity(l)).divide(b.levelRho(l).multiply(2)),
                b.sigmaSquared(l));
          }
        }
        if (split != BudgetSplit.uniform()) {
          double[] a = split.errorWeights(t);
          double best = BudgetSplit.objective(a, b.sigmaSquaredPerLevel());
          // Moving budget between any two perturbed levels (keeping Σρ) never helps.
          for (int i = 0; i <= t; i++) {
            for (int j = 0; j <= t; j++) {
              if (i == j || !b.isPerturbed(i) || !b.isPerturbed(j)) {
                continue;
              }
              for (double f : new double[] {0.9, 0.99, 1.01, 1.1}) {
                double[] rho = new double[t + 1];
                for (int l = 0; l <= t; l++) {
                  rho[l] = b.levelRho(l).doubleValue();
                }
                double moved = rho[i] * (f - 1);
                rho[i] += moved;
                rho[j] -= moved;
                if (rho[j] <= 0) {
                  continue;
                }
                double obj = 0;
                for (int l = 0; l <= t; l++) {
                  if (b.isPerturbed(l)) {
                    obj += a[l] * Math.sqrt(b.squaredSensitivity(l) / (2 * rho[l]));
                  }
                }
                assertTrue(obj >= best * (1 - 1e-9), "perturbed split is better: " + obj + " < " + best);
              }
            }
          }
        }
      }
    }
    // zoom-in gives coarse levels more budget
    TopDownBudget z =
        TopDownBudget.of(RHO, t, Neighbouring.BOUNDED, Contribution.ONE, BudgetSplit.zoomIn());
    for (int l = 2; l <= t; l++) {
      assertTrue(z.levelRho(l - 1).compareTo(z.levelRho(l)) > 0);
    }
  }

  @Test
  void approxDpConversionIsConservative() {
    BigDecimal delta = new BigDecimal("1e-8");
    for (String e : new String[] {"0.1", "1", "10"}) {
      Rational rho = TopDownBudget.rhoForApproxDp(new BigDecimal(e), delta);
      double r = rho.doubleValue();
      double eps = r + 2 * Math.sqrt(r * Math.log(1e8));
      assertTrue(eps <= Double.parseDouble(e), "ρ must imply (ε, δ)");
      // and be the largest such ρ up to the documented rounding to 4 significant digits
      double exact = Math.pow(Math.sqrt(Double.parseDouble(e) + Math.log(1e8)) - Math.sqrt(Math.log(1e8)), 2);
      assertTrue(r <= exact && r >= exact * (1 - 1e-3), "rho " + r + " vs exact " + exact);
      assertTrue(rho.num().toString().length() <= 4, "4 significant digits: " + rho);
    }
    assertThrows(
        IllegalArgumentException.class, () -> TopDownBudget.rhoForApproxDp(BigDecimal.ZERO, delta));
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> TopDownBudget.paper(Rational.ZERO, 3));
    assertThrows(IllegalArgumentException.class, () -> TopDownBudget.paper(RHO, 0));
    assertThrows(IllegalArgumentException.class, () -> BudgetSplit.weighted(1, -1));
    assertThrows(
        IllegalArgumentException.class,
        () -> TopDownBudget.of(RHO, 3, Neighbouring.BOUNDED, Contribution.ONE, BudgetSplit.weighted(1, 1)));
    assertThrows(
        IllegalArgumentException.class,
        () -> TopDownBudget.of(RHO, 2, Neighbouring.BOUNDED, Contribution.ONE, BudgetSplit.weighted(1, 0, 1)));
    assertThrows(IllegalArgumentException.class, () -> TopDownBudget.paper(RHO, 3).sigmaSquared(0));
  }
}
