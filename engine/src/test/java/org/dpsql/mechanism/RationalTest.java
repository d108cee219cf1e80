package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class RationalTest {

  @Test
  void normalises() {
    Rational r = Rational.of(6, -4);
    assertEquals(BigInteger.valueOf(-3), r.num());
    assertEquals(BigInteger.valueOf(2), r.den());
    assertEquals(Rational.of(-3, 2), r);
    assertEquals(Rational.of(-3, 2).hashCode(), r.hashCode());
    assertEquals(Rational.ZERO, Rational.of(0, -7));
    assertEquals(BigInteger.ONE, Rational.of(0, -7).den());
    assertThrows(ArithmeticException.class, () -> Rational.of(1, 0));
    assertEquals("-3/2", r.toString());
    assertEquals("5", Rational.of(10, 2).toString());
  }

  @Test
  void parsesDecimalsExactly() {
    assertEquals(Rational.of(1, 10), Rational.parse("0.1"));
    assertEquals(Rational.of(1, 10_000_000), Rational.parse("1e-7"));
    assertEquals(Rational.of(-5, 2), Rational.parse(" -2.50 "));
    assertEquals(Rational.of(1000), Rational.parse("1E+3"));
    assertEquals(Rational.of(3), Rational.parse("3"));
    assertEquals(
        Rational.of(BigInteger.TEN.pow(24), BigInteger.ONE), Rational.parse("1e24"));
    assertThrows(NumberFormatException.class, () -> Rational.parse("abc"));
    assertThrows(NumberFormatException.class, () -> Rational.parse(""));
  }

  @Test
  void convertsDoublesViaShortestDecimal() {
    assertEquals(Rational.of(1, 10), Rational.ofDouble(0.1));
    assertEquals(Rational.of(1, 10_000_000), Rational.ofDouble(1e-7));
    assertEquals(Rational.of(-3, 4), Rational.ofDouble(-0.75));
    assertEquals(Rational.ZERO, Rational.ofDouble(-0.0));
    assertThrows(IllegalArgumentException.class, () -> Rational.ofDouble(Double.NaN));
    assertThrows(
        IllegalArgumentException.class, () -> Rational.ofDouble(Double.POSITIVE_INFINITY));
  }

  @Test
  void arithmeticIsExact() {
    Rational a = Rational.of(1, 3);
    Rational b = Rational.of(1, 6);
    assertEquals(Rational.of(1, 2), a.add(b));
    assertEquals(Rational.of(1, 6), a.subtract(b));
    assertEquals(Rational.of(1, 18), a.multiply(b));
    assertEquals(Rational.of(2), a.divide(b));
    assertEquals(Rational.of(2, 3), a.multiply(2));
    assertEquals(Rational.of(1, 9), a.divide(3));
    assertEquals(Rational.of(1, 9), a.square());
    assertEquals(Rational.of(3), a.reciprocal());
    assertEquals(Rational.of(1, 3), a.negate().abs());
    assertEquals(Rational.ONE, Rational.parse("0.1").multiply(10));
    assertThrows(ArithmeticException.class, () -> a.divide(Rational.ZERO));
    assertThrows(ArithmeticException.class, () -> a.divide(0));
    assertThrows(ArithmeticException.class, () -> Rational.ZERO.reciprocal());
  }

  @Test
  void comparesExactly() {
    // 0.1 + 0.2 == 0.3 exactly (unlike double).
    assertEquals(0, Rational.parse("0.1").add(Rational.parse("0.2")).compareTo(Rational.parse("0.3")));
    assertTrue(Rational.of(1, 3).compareTo(Rational.parse("0.333333333333333333")) > 0);
    assertTrue(Rational.of(-1, 2).compareTo(Rational.of(-1, 3)) < 0);
    assertEquals(-1, Rational.of(-1, 2).signum());
    assertEquals(0, Rational.ZERO.signum());
    assertEquals(1, Rational.of(5, 7).signum());
  }

  @Test
  void floorAndCeil() {
    assertEquals(BigInteger.valueOf(3), Rational.of(7, 2).floor());
    assertEquals(BigInteger.valueOf(-4), Rational.of(-7, 2).floor());
    assertEquals(BigInteger.valueOf(-4), Rational.of(-4).floor());
    assertEquals(BigInteger.valueOf(4), Rational.of(7, 2).ceil());
    assertEquals(BigInteger.valueOf(-3), Rational.of(-7, 2).ceil());
    assertEquals(BigInteger.valueOf(5), Rational.of(5).ceil());
    assertTrue(Rational.of(5).isInteger());
    assertFalse(Rational.of(5, 2).isInteger());
  }

  @Test
  void doubleValue() {
    assertEquals(1.0 / 3, Rational.of(1, 3).doubleValue());
    assertEquals(0.1, Rational.parse("0.1").doubleValue());
    assertEquals(1e24, Rational.parse("1e24").doubleValue());
    assertEquals(-2.5, Rational.of(-5, 2).doubleValue());
    assertEquals(1e-300, Rational.parse("1e-300").doubleValue());
  }
}
