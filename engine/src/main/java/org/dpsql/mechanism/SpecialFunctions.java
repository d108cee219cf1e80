package org.dpsql.mechanism;

/** Floating-point special functions for reporting (never for sampling). */
final class SpecialFunctions {
  private static final double EPS = 1e-16;
  private static final double TINY = 1e-300;
  private static final double SQRT_PI = Math.sqrt(Math.PI);
  private static final int MAX_ITERATIONS = 10_000;

  private SpecialFunctions() {}

  /**
   * The complementary error function {@code erfc(x) = 2/sqrt(pi) * int_x^inf exp(-u^2) du}, with
   * relative error of a few ulps, via {@code erfc(x) = Q(1/2, x^2)} (regularised upper incomplete
   * gamma): power series for {@code x^2 < 3/2}, Lentz continued fraction beyond.
   */
  static double erfc(double x) {
    if (Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x < 0) {
      return 2 - erfc(-x);
    }
    if (x == 0) {
      return 1;
    }
    if (x > 27.3) {
      return 0; // exp(-x^2) underflows
    }
    final double a = 0.5;
    double y = x * x;
    double prefactor = Math.exp(-y) * x / SQRT_PI; // exp(-y) y^a / Gamma(a)
    if (y < a + 1) {
      // P(a, y) = prefactor * sum_{n>=0} y^n / (a (a+1) ... (a+n))
      double ap = a;
      double del = 1 / a;
      double sum = del;
      for (int i = 0; i < MAX_ITERATIONS; i++) {
        ap += 1;
        del *= y / ap;
        sum += del;
        if (Math.abs(del) < Math.abs(sum) * EPS) {
          break;
        }
      }
      return 1 - prefactor * sum;
    }
    // Q(a, y) = prefactor * 1/(y+1-a- 1(1-a)/(y+3-a- 2(2-a)/(y+5-a- ...))), modified Lentz.
    double b = y + 1 - a;
    double c = 1 / TINY;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < MAX_ITERATIONS; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      if (Math.abs(d) < TINY) {
        d = TINY;
      }
      c = b + an / c;
      if (Math.abs(c) < TINY) {
        c = TINY;
      }
      d = 1 / d;
      double del = d * c;
      h *= del;
      if (Math.abs(del - 1) < EPS) {
        break;
      }
    }
    return prefactor * h;
  }

  /** Validates a confidence level for {@code quantileAbs}. */
  static void checkConfidence(double confidence) {
    if (!(confidence >= 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in [0, 1): " + confidence);
    }
  }
}
