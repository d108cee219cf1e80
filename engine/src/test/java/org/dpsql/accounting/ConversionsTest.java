package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConversionsTest {

  @Test
  void zcdpToEpsilonMatchesHandComputation() {
    // ln(1e6) = 13.815510557964274; 0.5 + 2·√(0.5·13.815510557964274) = 5.756521769756932
    assertEquals(5.756521769756932, Conversions.zcdpToEpsilon(0.5, 1e-6), 1e-12);
    assertEquals(5.7565, Conversions.zcdpToEpsilon(0.5, 1e-6), 1e-4);
    assertEquals(0.0, Conversions.zcdpToEpsilon(0.0, 1e-6));
  }

  @Test
  void pureToZcdpIsHalfTheSquare() {
    assertEquals(0.5, Conversions.pureToZcdp(1.0));
    assertEquals(0.005, Conversions.pureToZcdp(0.1), 1e-18);
    assertEquals(2.0, Conversions.pureToZcdp(2.0));
    assertEquals(0.0, Conversions.pureToZcdp(0.0));
  }

  @Test
  void pureToZcdpRhoIsExact() {
    assertEquals(
        0, new BigDecimal("0.005").compareTo(Conversions.pureToZcdpRho(new BigDecimal("0.1"))));
    assertEquals(
        0, new BigDecimal("0.405").compareTo(Conversions.pureToZcdpRho(new BigDecimal("0.9"))));
    assertEquals(0, BigDecimal.ZERO.compareTo(Conversions.pureToZcdpRho(BigDecimal.ZERO)));
  }

  @Test
  void epsilonToZcdpRhoMatchesClosedForm() {
    // (√(ε+L) − √L)² computed at 40 digits: 0.017468904769123377824...
    BigDecimal rho = Conversions.epsilonToZcdpRho(BigDecimal.ONE, new BigDecimal("1e-6"));
    assertEquals(0, new BigDecimal("0.0174689047691").compareTo(rho), rho.toPlainString());
    assertTrue(rho.precision() <= 12, rho.toPlainString());
  }

  @ParameterizedTest
  @CsvSource({
    "1, 1e-6",
    "0.1, 1e-9",
    "1, 1e-5",
    "0.01, 1e-10",
    "3, 1e-7",
    "10, 0.01",
    "0.000001, 1e-6",
    "50, 1e-12",
    "1, 1e-400",
  })
  void epsilonToZcdpRhoRoundTripsToAtMostEpsilon(String epsText, String deltaText) {
    BigDecimal eps = new BigDecimal(epsText);
    BigDecimal delta = new BigDecimal(deltaText);
    BigDecimal rho = Conversions.epsilonToZcdpRho(eps, delta);
    assertTrue(rho.signum() > 0, rho.toPlainString());
    assertTrue(rho.precision() <= 12, rho.toPlainString());
    double logInverseDelta = Conversions.logInverse(delta);
    double back = Conversions.zcdpToEpsilonAtLogInverseDelta(rho.doubleValue(), logInverseDelta);
    if (delta.doubleValue() > 0) {
      assertEquals(back, Conversions.zcdpToEpsilon(rho.doubleValue(), delta.doubleValue()), 1e-12);
    }
    assertTrue(back <= eps.doubleValue(), () -> back + " > " + eps);
    assertEquals(eps.doubleValue(), back, 1e-9);
  }

  @Test
  void epsilonToZcdpRhoOfZeroIsZero() {
    BigDecimal rho = Conversions.epsilonToZcdpRho(BigDecimal.ZERO, new BigDecimal("1e-6"));
    assertEquals(0, BigDecimal.ZERO.compareTo(rho));
  }

  @Test
  void logInverseHandlesTinyDeltas() {
    assertEquals(Math.log(1e6), Conversions.logInverse(new BigDecimal("1e-6")), 1e-12);
    assertEquals(-Math.log(0.5), Conversions.logInverse(new BigDecimal("0.5")), 1e-15);
    assertEquals(400 * Math.log(10), Conversions.logInverse(new BigDecimal("1e-400")), 1e-9);
  }

  @Test
  void rejectsInvalidArguments() {
    assertThrows(IllegalArgumentException.class, () -> Conversions.zcdpToEpsilon(-0.1, 1e-6));
    assertThrows(IllegalArgumentException.class, () -> Conversions.zcdpToEpsilon(Double.NaN, 1e-6));
    assertThrows(IllegalArgumentException.class, () -> Conversions.zcdpToEpsilon(0.5, 0.0));
    assertThrows(IllegalArgumentException.class, () -> Conversions.zcdpToEpsilon(0.5, 1.0));
    assertThrows(IllegalArgumentException.class, () -> Conversions.pureToZcdp(-1.0));
    assertThrows(
        IllegalArgumentException.class, () -> Conversions.pureToZcdp(Double.POSITIVE_INFINITY));
    assertThrows(
        IllegalArgumentException.class,
        () -> Conversions.pureToZcdpRho(new BigDecimal("-0.1")));
    assertThrows(
        IllegalArgumentException.class,
        () -> Conversions.epsilonToZcdpRho(new BigDecimal("-1"), new BigDecimal("1e-6")));
    assertThrows(
        IllegalArgumentException.class,
        () -> Conversions.epsilonToZcdpRho(BigDecimal.ONE, BigDecimal.ZERO));
    assertThrows(
        IllegalArgumentException.class,
        () -> Conversions.epsilonToZcdpRho(BigDecimal.ONE, BigDecimal.ONE));
  }
}
