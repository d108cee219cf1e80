package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.special.Erf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tests of the reporting distributions {@link DiscreteLaplaceDistribution} and {@link DiscreteGaussianDistribution}. */
class NoiseDistributionsTest {

  /** The normalising constant: pmf sums to 1 within 1e-12, in the direct and the dual regime. */
  @ParameterizedTest
  @ValueSource(strings = {"0.01", "0.25", "1", "4", "25", "10000", "4000000"})
  void discreteGaussianPmfSumsToOne(String sigmaSquared) {
    DiscreteGaussianDistribution d = new DiscreteGaussianDistribution(Rational.parse(sigmaSquared));
    long bound = (long) (40 * Math.sqrt(Rational.parse(sigmaSquared).doubleValue())) + 10;
    double sum = StatisticalChecks.moment(d::pmf, 0, bound);
    assertEquals(1.0, sum, 1e-12, "sigma^2 " + sigmaSquared);
  }

  /** Variance at most sigma^2, close to it for sigma^2 >= 1, and equal to sum z^2 pmf(z). */
  @ParameterizedTest
  @ValueSource(strings = {"0.01", "0.25", "0.5", "1", "4", "25", "10000", "4000000"})
  void discreteGaussianVariance(String sigmaSquared) {
    double s2 = Rational.parse(sigmaSquared).doubleValue();
    DiscreteGaussianDistribution d = new DiscreteGaussianDistribution(Rational.parse(sigmaSquared));
    double v = d.variance();
    assertTrue(v <= s2, "variance " + v + " exceeds sigma^2 " + s2);
    long bound = (long) (40 * Math.sqrt(s2)) + 10;
    assertEquals(StatisticalChecks.moment(d::pmf, 2, bound), v, 1e-11 * Math.max(v, 1e-300));
    if (s2 >= 1) {
      assertEquals(s2, v, 1e-6 * s2);
    }
  }

  @Test
  void discreteGaussianKnownValues() {
    // sigma^2 = 1/4: C = sum exp(-2 z^2) = 1 + 2(e^-2 + e^-8 + e^-18 + ...).
    double c = 1 + 2 * (Math.exp(-2) + Math.exp(-8) + Math.exp(-18) + Math.exp(-32));
    DiscreteGaussianDistribution d = new DiscreteGaussianDistribution(Rational.of(1, 4));
    assertEquals(c, d.normaliser(), 1e-15);
    assertEquals(1 / c, d.pmf(0), 1e-15);
    double v = 2 * (Math.exp(-2) + 4 * Math.exp(-8) + 9 * Math.exp(-18) + 16 * Math.exp(-32)) / c;
    assertEquals(v, d.variance(), 1e-15);
    // The variance of N_Z(0, 1) is 1 - 2.1e-7 (visibly below sigma^2).
    double v1 = new DiscreteGaussianDistribution(Rational.ONE).variance();
    assertTrue(v1 < 1 - 1e-7 && v1 > 1 - 1e-6, "variance " + v1);
  }

  /** The direct and the approximate (erfc) tails agree across the regime boundary. */
  @Test
  void discreteGaussianQuantileAcrossRegimes() {
    DiscreteGaussianDistribution direct = new DiscreteGaussianDistribution(Rational.of(1_000_000));
    DiscreteGaussianDistribution approx = new DiscreteGaussianDistribution(Rational.of(1_000_001));
    for (double c : new double[] {0.5, 0.9, 0.95, 0.99, 0.999999}) {
      assertTrue(Math.abs(direct.quantileAbs(c) - approx.quantileAbs(c)) <= 1, "confidence " + c);
      assertEquals(direct.tailAbs(1500), approx.tailAbs(1500), 1e-3 * direct.tailAbs(1500));
    }
    // Continuous limit: the 95% half-width is 1.959964 sigma.
    DiscreteGaussianDistribution big = new DiscreteGaussianDistribution(Rational.parse("1e24"));
    assertEquals(1.959964e12, big.quantileAbs(0.95), 1e7);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.25", "1", "4", "25", "10000"})
  void discreteGaussianQuantileIsSmallestCovering(String sigmaSquared) {
    DiscreteGaussianDistribution d = new DiscreteGaussianDistribution(Rational.parse(sigmaSquared));
    for (double c : new double[] {0.1, 0.5, 0.9, 0.95, 0.99, 0.999}) {
      long m = d.quantileAbs(c);
      assertTrue(coverage(d::pmf, m) >= c - 1e-12, "coverage at " + m);
      if (m > 0) {
        assertTrue(coverage(d::pmf, m - 1) < c + 1e-12, "not minimal at " + m);
      }
    }
    assertEquals(0, d.quantileAbs(0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.5", "1", "3", "10", "1000"})
  void discreteLaplaceClosedForms(String scale) {
    Rational t = Rational.parse(scale);
    DiscreteLaplaceDistribution d = new DiscreteLaplaceDistribution(t);
    long bound = (long) (t.doubleValue() * 800) + 50;
    assertEquals(1.0, StatisticalChecks.moment(d::pmf, 0, bound), 1e-12);
    double q = Math.exp(-1 / t.doubleValue());
    assertEquals(2 * q / ((1 - q) * (1 - q)), d.variance(), 1e-9 * d.variance());
    assertEquals(StatisticalChecks.moment(d::pmf, 2, bound), d.variance(), 1e-10 * d.variance());
    for (double c : new double[] {0.1, 0.5, 0.9, 0.95, 0.99, 0.999}) {
      long m = d.quantileAbs(c);
      assertTrue(coverage(d::pmf, m) >= c - 1e-12);
      if (m > 0) {
        assertTrue(coverage(d::pmf, m - 1) < c + 1e-12);
      }
    }
  }

  @Test
  void discreteLaplaceLargeAndTinyScales() {
    DiscreteLaplaceDistribution big = new DiscreteLaplaceDistribution(Rational.parse("1e12"));
    assertEquals(2e24, big.variance(), 1e24 * 1e-9);
    // P[|Z| > m] = 2 q^(m+1) / (1 + q) ≈ exp(-(m+1)/t) for large t, so m ≈ t ln(1/0.05).
    assertEquals(1e12 * Math.log(20), big.quantileAbs(0.95), 1e3);
    DiscreteLaplaceDistribution tiny = new DiscreteLaplaceDistribution(Rational.parse("1e-7"));
    assertEquals(1.0, tiny.pmf(0));
    assertEquals(0.0, tiny.variance());
    assertEquals(0, tiny.quantileAbs(0.999));
  }

  @Test
  void rejectsInvalidParameters() {
    assertThrows(IllegalArgumentException.class, () -> new DiscreteLaplaceDistribution(Rational.ZERO));
    assertThrows(
        IllegalArgumentException.class, () -> new DiscreteGaussianDistribution(Rational.of(-1)));
    DiscreteLaplaceDistribution d = new DiscreteLaplaceDistribution(Rational.ONE);
    assertThrows(IllegalArgumentException.class, () -> d.quantileAbs(1.0));
    assertThrows(IllegalArgumentException.class, () -> d.quantileAbs(-0.1));
    assertThrows(IllegalArgumentException.class, () -> d.quantileAbs(Double.NaN));
  }

  @Test
  void erfcMatchesCommonsMath() {
    for (double x = -3; x <= 27; x += 0.173) {
      double expected = Erf.erfc(x);
      assertEquals(expected, SpecialFunctions.erfc(x), 1e-13 * expected, "x=" + x);
    }
    assertEquals(1.0, SpecialFunctions.erfc(0));
    assertEquals(0.0, SpecialFunctions.erfc(40));
  }

  private static double coverage(java.util.function.LongToDoubleFunction pmf, long m) {
    double sum = 0;
    for (long z = m; z >= 1; z--) {
      sum += 2 * pmf.applyAsDouble(z);
    }
    return sum + pmf.applyAsDouble(0);
  }
}
