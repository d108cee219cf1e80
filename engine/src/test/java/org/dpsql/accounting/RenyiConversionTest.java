package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** RDP / zCDP / pure → (ε, δ) conversions and the choice of the tightest. */
class RenyiConversionTest {

  /** Brute-force minimum of eq. 6 over a dense grid of α − 1 ∈ [10^-3, 10^6] (log-spaced). */
  static double denseMinimum(RenyiCurve curve, double delta) {
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= 200_000; i++) {
      double alpha = 1 + Math.pow(10, -3 + 9.0 * i / 200_000);
      best = Math.min(best, TightConversion.epsilonAtOrder(curve.epsilon(alpha), alpha, delta));
    }
    return best;
  }

  @Test
  void numericZcdpConversionIsNeverLooserThanAnalytic() {
    for (double rho : new double[] {1e-4, 0.01, 0.1, 1.41, 10}) {
      for (double delta : new double[] {1e-3, 1e-6, 1e-10}) {
        double analytic = TightConversion.zcdpAnalytic(rho, delta).epsilon();
        ApproxDpBound numeric = TightConversion.zcdpNumeric(rho, delta);
        assertTrue(numeric.epsilon() <= analytic, rho + " " + delta);
        assertEquals(Conversions.zcdpToEpsilon(rho, delta), analytic, 0);
      }
    }
  }

  @Test
  void optimiserFindsTheMinimumOfEquation6() {
    RenyiCurve[] curves = {
      RenyiCurve.zcdp(1.41),
      RenyiCurve.zcdp(0.001),
      GeometricRdp.ofEpsilon(0.5).times(9).plus(GeometricRdp.ofEpsilon(0.05).times(9)),
      RenyiCurve.pureDp(3)
    };
    for (RenyiCurve c : curves) {
      double dense = denseMinimum(c, 1e-10);
      ApproxDpBound opt = TightConversion.optimalEpsilon(c, 1e-10);
      // Sound: never below what the formula gives at its own α; tight: within 1e-6 of the dense
      // min.
      assertTrue(
          opt.epsilon()
              >= TightConversion.epsilonAtOrder(c.epsilon(opt.alpha()), opt.alpha(), 1e-10));
      assertEquals(dense, opt.epsilon(), 1e-6 * Math.max(1, dense));
    }
  }

  @Test
  void equation6AtAKnownPoint() {
    // ρ = 1.41, δ = 1e-10, α = 4.9: 1.41·4.9 + (ln 1e10 + 3.9 ln(1 − 1/4.9) − ln 4.9)/3.9
    double expected =
        1.41 * 4.9 + (23.025850929940457 + 3.9 * Math.log(1 - 1 / 4.9) - Math.log(4.9)) / 3.9;
    assertEquals(expected, TightConversion.epsilonAtOrder(1.41 * 4.9, 4.9, 1e-10), 1e-12);
    assertEquals(12.1773, expected, 5e-5);
  }

  @Test
  void pureEpsilonImpliesHalfEpsilonSquaredZcdp() {
    // Cross-check: the tightest conversion of an ε-DP mechanism is at most the one via ε²/2-zCDP
    // and
    // at most ε itself; the geometric curve lies below ε²α/2 at every order.
    for (double eps : new double[] {0.1, 1, 5}) {
      double viaZcdp = TightConversion.zcdpNumeric(eps * eps / 2, 1e-8).epsilon();
      ApproxDpBound t = TightConversion.tightest(1e-8, eps, GeometricRdp.ofEpsilon(eps), null);
      assertTrue(t.epsilon() <= Math.min(eps, viaZcdp) + 1e-9);
      for (double alpha = 1.01; alpha < 100; alpha *= 1.3) {
        assertTrue(GeometricRdp.ofEpsilon(eps).epsilon(alpha) <= alpha * eps * eps / 2);
      }
    }
    // For a small ε at δ = 1e-10 no RDP conversion beats ε itself: the pure bound is chosen.
    assertEquals(
        ApproxDpBound.Method.PURE, TightConversion.tightest(1e-10, 0.05, null, null).method());
  }

  @Test
  void tightestPicksTheSmallestValidBound() {
    ApproxDpBound t = TightConversion.tightest(1e-10, 15.29, null, 1.41);
    assertEquals(ApproxDpBound.Method.ZCDP_NUMERIC, t.method());
    assertEquals(12.1773, t.epsilon(), 1e-3);
    assertThrows(
        IllegalArgumentException.class, () -> TightConversion.tightest(1e-10, null, null, null));
    assertThrows(
        IllegalArgumentException.class,
        () -> TightConversion.optimalEpsilon(RenyiCurve.zcdp(1), 0));
  }

  @Test
  void paperGridHas900OrdersFrom1p01To10() {
    double[] g = TightConversion.paperAlphaGrid();
    assertEquals(900, g.length);
    assertEquals(1.01, g[0], 0);
    assertEquals(4.9, g[389], 0);
    assertEquals(10.0, g[899], 0);
  }
}
