package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class PrivacyCostTest {

  private static BigDecimal d(String s) {
    return new BigDecimal(s);
  }

  @Test
  void factoriesZeroTheUnusedComponents() {
    BigDecimal zero = BigDecimal.ZERO;
    assertEquals(new PrivacyCost(d("0.1"), zero, zero), PrivacyCost.pure(d("0.1")));
    assertEquals(
        new PrivacyCost(d("0.1"), d("1e-7"), zero), PrivacyCost.approx(d("0.1"), d("1e-7")));
    assertEquals(new PrivacyCost(zero, zero, d("0.05")), PrivacyCost.zcdp(d("0.05")));
    assertTrue(PrivacyCost.ZERO.isZero());
    assertFalse(PrivacyCost.pure(d("0.1")).isZero());
    assertTrue(PrivacyCost.pure(d("0.000")).isZero());
  }

  @Test
  void plusAndMinusAreExact() {
    PrivacyCost sum = PrivacyCost.pure(d("0.1")).plus(PrivacyCost.pure(d("0.2")));
    assertEquals(0, sum.epsilon().compareTo(d("0.3")));
    assertEquals(PrivacyCost.pure(d("0.3")), sum);
    assertEquals(
        PrivacyCost.pure(d("0.1")), PrivacyCost.pure(d("0.3")).minus(PrivacyCost.pure(d("0.2"))));
    PrivacyCost a =
        PrivacyCost.approx(d("0.5"), d("1e-7")).plus(PrivacyCost.approx(d("0.25"), d("2e-7")));
    assertEquals(PrivacyCost.approx(d("0.75"), d("3e-7")), a);
    assertEquals(PrivacyCost.ZERO, a.minus(a));
  }

  @Test
  void minusBelowZeroIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> PrivacyCost.pure(d("0.1")).minus(PrivacyCost.pure(d("0.2"))));
  }

  @Test
  void plusReachingDeltaOneIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> PrivacyCost.approx(d("1"), d("0.5")).plus(PrivacyCost.approx(d("1"), d("0.5"))));
  }

  @Test
  void equalityIsNumerical() {
    PrivacyCost a = PrivacyCost.pure(d("0.1"));
    PrivacyCost b = PrivacyCost.pure(d("0.100"));
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, PrivacyCost.pure(d("0.2")));
    assertNotEquals(PrivacyCost.pure(d("0.1")), PrivacyCost.zcdp(d("0.1")));
  }

  @Test
  void rejectsNegativeComponents() {
    assertThrows(IllegalArgumentException.class, () -> PrivacyCost.pure(d("-0.1")));
    assertThrows(IllegalArgumentException.class, () -> PrivacyCost.approx(d("0.1"), d("-1e-9")));
    assertThrows(IllegalArgumentException.class, () -> PrivacyCost.zcdp(d("-0.0001")));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PrivacyCost(BigDecimal.ZERO, BigDecimal.ZERO, d("-1")));
  }

  @Test
  void rejectsDeltaAtOrAboveOne() {
    assertThrows(IllegalArgumentException.class, () -> PrivacyCost.approx(d("0.1"), d("1")));
    assertThrows(IllegalArgumentException.class, () -> PrivacyCost.approx(d("0.1"), d("1.0000")));
    assertThrows(IllegalArgumentException.class, () -> PrivacyCost.approx(d("0.1"), d("2")));
    PrivacyCost.approx(d("0.1"), d("0.999999")); // just below 1 is fine
  }

  @Test
  void rejectsNulls() {
    assertThrows(NullPointerException.class, () -> PrivacyCost.pure(null));
    assertThrows(NullPointerException.class, () -> PrivacyCost.approx(d("1"), null));
    assertThrows(NullPointerException.class, () -> PrivacyCost.zcdp(null));
  }

  @Test
  void toStringShowsTheNonZeroComponents() {
    assertEquals("ε=0.1", PrivacyCost.pure(d("0.1")).toString());
    assertEquals("ε=0.1, δ=1e-7", PrivacyCost.approx(d("0.1"), d("1e-7")).toString());
    assertEquals("ε=0.1, δ=1e-7", PrivacyCost.approx(d("0.10"), d("0.0000001")).toString());
    assertEquals("ρ=0.05", PrivacyCost.zcdp(d("0.05")).toString());
    assertEquals("ε=2.5, δ=1.5e-10", PrivacyCost.approx(d("2.5"), d("1.5e-10")).toString());
    assertEquals("ε=5", PrivacyCost.pure(d("5.000")).toString());
    assertEquals("ε=100", PrivacyCost.pure(d("1E+2")).toString());
    assertEquals("ε=0.001", PrivacyCost.pure(d("0.001")).toString());
    assertEquals("0", PrivacyCost.ZERO.toString());
  }
}
