package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.Duration;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statistical and functional tests of {@link ExactSamplers}. Every test uses a fixed seed, so it is
 * deterministic; the significance levels below state how often a <em>correct</em> sampler would
 * fail if the seed were chosen at random.
 */
class ExactSamplersTest {
  private static final int N = 100_000;

  private static long[] laplaceSamples(Rational scale, long seed, int n) {
    RandomBits r = new SeededRandomBits(seed);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = ExactSamplers.discreteLaplace(r, scale).longValueExact();
    }
    return out;
  }

  private static long[] gaussianSamples(Rational sigmaSquared, long seed, int n) {
    RandomBits r = new SeededRandomBits(seed);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = ExactSamplers.discreteGaussian(r, sigmaSquared).longValueExact();
    }
    return out;
  }

  /**
   * Chi-square goodness of fit of 10^5 discrete Laplace samples against the exact pmf, at
   * significance 0.001: deterministic with the fixed seed; for a random seed a correct sampler
   * fails with probability 0.001.
   */
  @ParameterizedTest
  @ValueSource(strings = {"0.5", "1", "3", "10"})
  void discreteLaplaceFitsPmf(String scale) {
    DiscreteLaplaceDistribution dist = new DiscreteLaplaceDistribution(Rational.parse(scale));
    long[] samples = laplaceSamples(Rational.parse(scale), 1001, N);
    double p = StatisticalChecks.chiSquarePValue(samples, dist::pmf);
    assertTrue(p > 0.001, "chi-square p-value " + p + " for scale " + scale);
  }

  /**
   * Chi-square goodness of fit of 10^5 discrete Gaussian samples against the exact pmf, at
   * significance 0.001: deterministic with the fixed seed; for a random seed a correct sampler
   * fails with probability 0.001.
   */
  @ParameterizedTest
  @ValueSource(strings = {"0.25", "1", "4", "25"})
  void discreteGaussianFitsPmf(String sigmaSquared) {
    DiscreteGaussianDistribution dist =
        new DiscreteGaussianDistribution(Rational.parse(sigmaSquared));
    long[] samples = gaussianSamples(Rational.parse(sigmaSquared), 2002, N);
    double p = StatisticalChecks.chiSquarePValue(samples, dist::pmf);
    assertTrue(p > 0.001, "chi-square p-value " + p + " for sigma^2 " + sigmaSquared);
  }

  /** The goodness-of-fit check has power: a 10% error in the scale is rejected decisively. */
  @Test
  void goodnessOfFitDetectsWrongParameters() {
    long[] lap = laplaceSamples(Rational.parse("1.1"), 1001, N);
    DiscreteLaplaceDistribution lapDist = new DiscreteLaplaceDistribution(Rational.ONE);
    assertTrue(StatisticalChecks.chiSquarePValue(lap, lapDist::pmf) < 1e-6);
    long[] gauss = gaussianSamples(Rational.parse("4.4"), 2002, N);
    DiscreteGaussianDistribution gaussDist = new DiscreteGaussianDistribution(Rational.of(4));
    assertTrue(StatisticalChecks.chiSquarePValue(gauss, gaussDist::pmf) < 1e-6);
  }

  /** Sample mean within 5 standard errors of 0, sample variance within 5 of the exact variance. */
  @ParameterizedTest
  @ValueSource(strings = {"0.5", "1", "3", "10"})
  void discreteLaplaceMoments(String scale) {
    DiscreteLaplaceDistribution dist = new DiscreteLaplaceDistribution(Rational.parse(scale));
    long bound = (long) (Rational.parse(scale).doubleValue() * 800) + 50;
    checkMoments(laplaceSamples(Rational.parse(scale), 3003, N), dist::pmf, dist.variance(), bound);
  }

  /** Sample mean within 5 standard errors of 0, sample variance within 5 of the exact variance. */
  @ParameterizedTest
  @ValueSource(strings = {"0.25", "1", "4", "25"})
  void discreteGaussianMoments(String sigmaSquared) {
    DiscreteGaussianDistribution dist =
        new DiscreteGaussianDistribution(Rational.parse(sigmaSquared));
    long bound = (long) (Math.sqrt(Rational.parse(sigmaSquared).doubleValue()) * 40) + 10;
    checkMoments(
        gaussianSamples(Rational.parse(sigmaSquared), 4004, N), dist::pmf, dist.variance(), bound);
  }

  private static void checkMoments(
      long[] samples, LongToDoubleFunction pmf, double variance, long bound) {
    int n = samples.length;
    double sum = 0;
    for (long s : samples) {
      sum += s;
    }
    double mean = sum / n;
    double ss = 0;
    for (long s : samples) {
      ss += (s - mean) * (s - mean);
    }
    double sampleVariance = ss / (n - 1);
    double fourth = StatisticalChecks.moment(pmf, 4, bound);
    double seMean = Math.sqrt(variance / n);
    double seVariance = Math.sqrt((fourth - variance * variance) / n);
    assertTrue(Math.abs(mean) <= 5 * seMean, "mean " + mean + ", standard error " + seMean);
    assertTrue(
        Math.abs(sampleVariance - variance) <= 5 * seVariance,
        "variance " + sampleVariance + " vs exact " + variance + ", standard error " + seVariance);
  }

  /** Frequency of {@code true} within 5 standard errors of {@code exp(-gamma)} over 10^5 trials. */
  @ParameterizedTest
  @ValueSource(strings = {"0", "0.5", "1", "2.5", "7"})
  void bernoulliExpMinusFrequency(String gamma) {
    RandomBits r = new SeededRandomBits(5005);
    Rational g = Rational.parse(gamma);
    int hits = 0;
    for (int i = 0; i < N; i++) {
      if (ExactSamplers.bernoulliExpMinus(r, g)) {
        hits++;
      }
    }
    double p = Math.exp(-g.doubleValue());
    double se = Math.sqrt(p * (1 - p) / N);
    double freq = (double) hits / N;
    if (g.signum() == 0) {
      assertEquals(N, hits, "exp(-0) = 1 must always succeed");
    } else {
      assertTrue(Math.abs(freq - p) <= 5 * se, "frequency " + freq + " vs " + p + " (se " + se + ")");
    }
  }

  /** Frequency within 5 standard errors of p, including a denominator beyond the long range. */
  @Test
  void bernoulliFrequency() {
    RandomBits r = new SeededRandomBits(6006);
    Rational[] ps = {
      Rational.of(1, 3),
      Rational.parse("0.999"),
      Rational.of(BigInteger.TWO.pow(100).divide(BigInteger.valueOf(7)), BigInteger.TWO.pow(100))
    };
    for (Rational p : ps) {
      int hits = 0;
      for (int i = 0; i < N; i++) {
        if (ExactSamplers.bernoulli(r, p)) {
          hits++;
        }
      }
      double pd = p.doubleValue();
      double se = Math.sqrt(pd * (1 - pd) / N);
      assertTrue(Math.abs((double) hits / N - pd) <= 5 * se, "p=" + p + " hits=" + hits);
    }
    for (int i = 0; i < 100; i++) {
      assertFalse(ExactSamplers.bernoulli(r, Rational.ZERO));
      assertTrue(ExactSamplers.bernoulli(r, Rational.ONE));
    }
  }

  /** Large scales sample quickly and with the right spread (2000 samples, std within 20%). */
  @Test
  void largeScalesAreFastAndCorrectlySpread() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          Rational scale = Rational.parse("1e12");
          RandomBits r = new SeededRandomBits(7007);
          double[] lap = new double[2000];
          for (int i = 0; i < lap.length; i++) {
            lap[i] = ExactSamplers.discreteLaplace(r, scale).doubleValue();
          }
          double expected = new DiscreteLaplaceDistribution(scale).standardDeviation();
          assertEquals(Math.sqrt(2) * 1e12, expected, 1e3);
          assertWithin(std(lap), expected, 0.2);

          Rational sigmaSquared = Rational.parse("1e24");
          double[] gauss = new double[2000];
          for (int i = 0; i < gauss.length; i++) {
            gauss[i] = ExactSamplers.discreteGaussian(r, sigmaSquared).doubleValue();
          }
          double expectedG = new DiscreteGaussianDistribution(sigmaSquared).standardDeviation();
          assertEquals(1e12, expectedG, 1);
          assertWithin(std(gauss), expectedG, 0.2);
        });
  }

  /** Non-integer and very small scales, where the rejection steps dominate, stay exact. */
  @Test
  void tinyAndFractionalParameters() {
    RandomBits r = new SeededRandomBits(8008);
    for (int i = 0; i < 1000; i++) {
      // P[Z != 0] = 2q/(1+q) with q = exp(-10^7): never observed.
      assertEquals(BigInteger.ZERO, ExactSamplers.discreteLaplace(r, Rational.parse("1e-7")));
      assertEquals(BigInteger.ZERO, ExactSamplers.discreteGaussian(r, Rational.parse("1e-9")));
    }
    long[] samples = laplaceSamples(Rational.of(7, 3), 8009, 20_000);
    DiscreteLaplaceDistribution dist = new DiscreteLaplaceDistribution(Rational.of(7, 3));
    assertTrue(StatisticalChecks.chiSquarePValue(samples, dist::pmf) > 0.001);
  }

  @Test
  void proposalScaleIsExact() {
    assertEquals(BigInteger.valueOf(3), ExactSamplers.gaussianProposalScale(Rational.of(4)));
    assertEquals(BigInteger.valueOf(2), ExactSamplers.gaussianProposalScale(Rational.of(399, 100)));
    assertEquals(BigInteger.ONE, ExactSamplers.gaussianProposalScale(Rational.of(1, 4)));
    BigInteger e12 = BigInteger.TEN.pow(12);
    assertEquals(
        e12.add(BigInteger.ONE), ExactSamplers.gaussianProposalScale(Rational.of(e12.pow(2), BigInteger.ONE)));
    assertEquals(
        e12,
        ExactSamplers.gaussianProposalScale(
            Rational.of(e12.pow(2).subtract(BigInteger.ONE), BigInteger.ONE)));
  }

  @Test
  void rejectsInvalidParameters() {
    RandomBits r = new SeededRandomBits(1);
    assertThrows(IllegalArgumentException.class, () -> ExactSamplers.bernoulli(r, Rational.of(-1, 2)));
    assertThrows(IllegalArgumentException.class, () -> ExactSamplers.bernoulli(r, Rational.of(3, 2)));
    assertThrows(
        IllegalArgumentException.class, () -> ExactSamplers.bernoulliExpMinus(r, Rational.of(-1)));
    assertThrows(
        IllegalArgumentException.class, () -> ExactSamplers.discreteLaplace(r, Rational.ZERO));
    assertThrows(IllegalArgumentException.class, () -> ExactSamplers.discreteLaplace(r, -3));
    assertThrows(
        IllegalArgumentException.class, () -> ExactSamplers.discreteGaussian(r, Rational.of(-1)));
  }

  @Test
  void sameSeedSameSamples() {
    assertEquals(
        java.util.Arrays.toString(gaussianSamples(Rational.of(10), 9, 100)),
        java.util.Arrays.toString(gaussianSamples(Rational.of(10), 9, 100)));
  }

  private static double std(double[] xs) {
    double mean = 0;
    for (double x : xs) {
      mean += x / xs.length;
    }
    double ss = 0;
    for (double x : xs) {
      ss += (x - mean) * (x - mean);
    }
    return Math.sqrt(ss / (xs.length - 1));
  }

  private static void assertWithin(double actual, double expected, double relative) {
    assertTrue(
        Math.abs(actual - expected) <= relative * expected,
        "got " + actual + ", expected " + expected + " within " + relative);
  }
}
