package org.dpsql.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Objects;

/**
 * An exact rational number {@code num / den}, the parameter type of every sampler and mechanism.
 *
 * <p>Guarantee: instances are always normalised — {@code den > 0} and {@code gcd(|num|, den) = 1}
 * (zero is {@code 0/1}) — so {@link #equals} is numeric equality, and all arithmetic and comparisons
 * are exact. Immutable and thread-safe. Only {@link #doubleValue()} rounds.
 *
 * @param num the numerator (carries the sign)
 * @param den the denominator, positive
 */
public record Rational(BigInteger num, BigInteger den) implements Comparable<Rational> {

  /** Zero. */
  public static final Rational ZERO = new Rational(BigInteger.ZERO, BigInteger.ONE);
  /** One. */
  public static final Rational ONE = new Rational(BigInteger.ONE, BigInteger.ONE);

  /**
   * Creates {@code num / den} in lowest terms.
   *
   * @throws ArithmeticException if {@code den} is zero
   * @throws NullPointerException if either argument is null
   */
  public Rational {
    Objects.requireNonNull(num, "num");
    Objects.requireNonNull(den, "den");
    if (den.signum() == 0) {
      throw new ArithmeticException("zero denominator");
    }
    if (den.signum() < 0) {
      num = num.negate();
      den = den.negate();
    }
    BigInteger g = num.gcd(den);
    if (!g.equals(BigInteger.ONE)) { // g > 0 because den != 0
      num = num.divide(g);
      den = den.divide(g);
    }
  }

  /** The integer {@code n}. */
  public static Rational of(long n) {
    return new Rational(BigInteger.valueOf(n), BigInteger.ONE);
  }

  /** The rational {@code n / d}; throws {@link ArithmeticException} if {@code d == 0}. */
  public static Rational of(long n, long d) {
    return new Rational(BigInteger.valueOf(n), BigInteger.valueOf(d));
  }

  /** The rational {@code n / d}; throws {@link ArithmeticException} if {@code d == 0}. */
  public static Rational of(BigInteger n, BigInteger d) {
    return new Rational(n, d);
  }

  /** The exact value of a decimal. */
  public static Rational of(BigDecimal x) {
    BigInteger unscaled = x.unscaledValue();
    int scale = x.scale();
    if (scale <= 0) {
      return new Rational(unscaled.multiply(BigInteger.TEN.pow(-scale)), BigInteger.ONE);
    }
    return new Rational(unscaled, BigInteger.TEN.pow(scale));
  }

  /**
   * Parses a decimal string exactly: {@code "0.1"} is 1/10, {@code "1e-7"} is 1/10^7, {@code "3"}
   * is 3. Accepts the syntax of {@link BigDecimal#BigDecimal(String)}, surrounding white space
   * trimmed.
   *
   * @throws NumberFormatException if {@code decimal} is not a decimal number
   */
  public static Rational parse(String decimal) {
    Objects.requireNonNull(decimal, "decimal");
    return of(new BigDecimal(decimal.trim()));
  }

  /**
   * The exact value of the shortest decimal that rounds to {@code x} ({@link Double#toString}),
   * so {@code ofDouble(0.1)} is exactly 1/10.
   *
   * @throws IllegalArgumentException if {@code x} is NaN or infinite
   */
  public static Rational ofDouble(double x) {
    if (!Double.isFinite(x)) {
      throw new IllegalArgumentException("not a finite number: " + x);
    }
    return of(new BigDecimal(Double.toString(x)));
  }

  /** {@code this + o}. */
  public Rational add(Rational o) {
    if (den.equals(o.den)) {
      return new Rational(num.add(o.num), den);
    }
    return new Rational(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den));
  }

  /** {@code this - o}. */
  public Rational subtract(Rational o) {
    return add(o.negate());
  }

  /** {@code this * o}. */
  public Rational multiply(Rational o) {
    return new Rational(num.multiply(o.num), den.multiply(o.den));
  }

  /** {@code this * k}. */
  public Rational multiply(long k) {
    return new Rational(num.multiply(BigInteger.valueOf(k)), den);
  }

  /**
   * {@code this / o}.
   *
   * @throws ArithmeticException if {@code o} is zero
   */
  public Rational divide(Rational o) {
    if (o.signum() == 0) {
      throw new ArithmeticException("division by zero");
    }
    return new Rational(num.multiply(o.den), den.multiply(o.num));
  }

  /**
   * {@code this / k}.
   *
   * @throws ArithmeticException if {@code k} is zero
   */
  public Rational divide(long k) {
    if (k == 0) {
      throw new ArithmeticException("division by zero");
    }
    return new Rational(num, den.multiply(BigInteger.valueOf(k)));
  }

  /** {@code -this}. */
  public Rational negate() {
    return new Rational(num.negate(), den);
  }

  /** {@code |this|}. */
  public Rational abs() {
    return num.signum() < 0 ? negate() : this;
  }

  /**
   * {@code 1 / this}.
   *
   * @throws ArithmeticException if this is zero
   */
  public Rational reciprocal() {
    return ONE.divide(this);
  }

  /** {@code this * this}. */
  public Rational square() {
    return new Rational(num.multiply(num), den.multiply(den));
  }

  /** -1, 0 or 1 as this is negative, zero or positive. */
  public int signum() {
    return num.signum();
  }

  /** Whether the denominator is 1. */
  public boolean isInteger() {
    return den.equals(BigInteger.ONE);
  }

  /** The largest integer {@code <= this}. */
  public BigInteger floor() {
    // BigInteger.divide truncates toward zero; den > 0, so adjust negative non-integers down.
    BigInteger[] qr = num.divideAndRemainder(den);
    return qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
  }

  /** The smallest integer {@code >= this}. */
  public BigInteger ceil() {
    BigInteger[] qr = num.divideAndRemainder(den);
    return qr[1].signum() > 0 ? qr[0].add(BigInteger.ONE) : qr[0];
  }

  /** Exact numeric comparison. */
  @Override
  public int compareTo(Rational o) {
    if (den.equals(o.den)) {
      return num.compareTo(o.num);
    }
    return num.multiply(o.den).compareTo(o.num.multiply(den));
  }

  /** The nearest double (to within one unit in the last place); for reporting only. */
  public double doubleValue() {
    if (isInteger()) {
      return num.doubleValue(); // correctly rounded
    }
    return new BigDecimal(num).divide(new BigDecimal(den), MathContext.DECIMAL128).doubleValue();
  }

  /** {@code "num"} for integers, {@code "num/den"} otherwise. */
  @Override
  public String toString() {
    return isInteger() ? num.toString() : num + "/" + den;
  }
}
