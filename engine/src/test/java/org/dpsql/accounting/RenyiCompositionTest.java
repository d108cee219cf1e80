package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Sequential and generalized parallel composition of RDP, zCDP and pure DP; the RDP accountant. */
class RenyiCompositionTest {
  private static final double[] ORDERS = {1.001, 1.5, 2, 3.7, 10, 64, 1e4};

  @Test
  void sequentialCompositionAddsAtEveryOrder() {
    RenyiCurve a = GeometricRdp.ofEpsilon(0.3);
    RenyiCurve b = RenyiCurve.zcdp(0.05);
    RenyiCurve c = new GeometricRdp(0.1, 3);
    RenyiCurve sum = a.plus(b).plus(c);
    for (double alpha : ORDERS) {
      assertEquals(
          a.epsilon(alpha) + b.epsilon(alpha) + c.epsilon(alpha), sum.epsilon(alpha), 1e-15);
    }
  }

  @Test
  void generalizedParallelCompositionScalesByTheDegree() {
    RenyiCurve perGroup = GeometricRdp.ofEpsilon(0.2);
    RenyiCurve level = GeneralizedParallelComposition.renyi(perGroup, 9);
    for (double alpha : ORDERS) {
      assertEquals(9 * perGroup.epsilon(alpha), level.epsilon(alpha), 1e-15);
    }
    assertEquals(
        0,
        new BigDecimal("4.27")
            .compareTo(
                GeneralizedParallelComposition.pureEpsilon(new BigDecimal("0.47444444444444444"), 9)
                    .setScale(2, java.math.RoundingMode.HALF_UP)));
    assertEquals(
        new BigDecimal("1.8"),
        GeneralizedParallelComposition.pureEpsilon(new BigDecimal("0.2"), 9));
    assertEquals(
        new BigDecimal("0.534"),
        GeneralizedParallelComposition.zcdpRho(new BigDecimal("0.0534"), 10).stripTrailingZeros());
    assertThrows(
        IllegalArgumentException.class,
        () -> GeneralizedParallelComposition.zcdpRho(BigDecimal.ONE, 0));
    assertThrows(
        IllegalArgumentException.class,
        () -> GeneralizedParallelComposition.pureEpsilon(new BigDecimal("-1"), 2));
  }

  @Test
  void zcdpCurveIsLinearAndPureCurveIsCapped() {
    RenyiCurve z = RenyiCurve.zcdp(0.25);
    RenyiCurve p = RenyiCurve.pureDp(1.0);
    for (double alpha : ORDERS) {
      assertEquals(0.25 * alpha, z.epsilon(alpha), 1e-15);
      assertEquals(Math.min(1.0, alpha / 2), p.epsilon(alpha), 1e-15);
    }
    assertEquals(
        2 * 1.0 / (2 * 2.0), RenyiCurve.discreteGaussian(2.0, 1).epsilon(2), 1e-15); // αΔ²/(2σ²)
    RenyiCurve m = RenyiCurve.max(z, p);
    assertEquals(Math.max(0.25 * 3, 1.0), m.epsilon(3), 0);
  }

  @Test
  void accountantComposesAndRefusesWithoutCharging() throws Exception {
    RenyiAccountant acc = new RenyiAccountant(1.0, 1e-6);
    RenyiCurve q = RenyiCurve.zcdp(0.005);
    acc.charge(q, "first");
    double afterOne = acc.spentEpsilon();
    assertEquals(TightConversion.zcdpNumeric(0.005, 1e-6).epsilon(), afterOne, 1e-12);
    acc.charge(q, "second");
    assertEquals(TightConversion.zcdpNumeric(0.01, 1e-6).epsilon(), acc.spentEpsilon(), 1e-9);
    assertTrue(acc.spentEpsilon() < 2 * afterOne, "RDP composition is sub-additive in epsilon");
    // A charge that would overflow is refused and changes nothing.
    BudgetExceededException e =
        assertThrows(
            BudgetExceededException.class, () -> acc.charge(RenyiCurve.zcdp(1), "too much"));
    assertTrue(e.getMessage().contains("Nothing was charged"), e.getMessage());
    assertEquals(2, acc.ledger().size());
    assertEquals(TightConversion.zcdpNumeric(0.01, 1e-6).epsilon(), acc.spentEpsilon(), 1e-9);
    for (double alpha : ORDERS) {
      assertEquals(0.01 * alpha, acc.spentCurve().epsilon(alpha), 1e-12);
    }
    assertThrows(IllegalArgumentException.class, () -> new RenyiAccountant(1, 0));
  }
}
