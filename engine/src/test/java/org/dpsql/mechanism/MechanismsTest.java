package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Tests of {@link GeometricMechanism} and {@link DiscreteGaussianMechanism}. */
class MechanismsTest {

  @Test
  void geometricScaleIsSensitivityOverEpsilonExactly() {
    assertEquals(Rational.of(30), new GeometricMechanism(Rational.parse("0.1"), 3).scale());
    assertEquals(Rational.of(15, 2), new GeometricMechanism(Rational.of(2, 3), 5).scale());
    GeometricMechanism m = new GeometricMechanism(Rational.parse("0.5"), 1);
    assertEquals(Rational.of(2), m.scale());
    assertEquals(Rational.of(2), m.noise().scale());
    assertEquals(Rational.parse("0.5"), m.epsilon());
    assertEquals(1, m.l1Sensitivity());
  }

  /** Privacy loss: for Δ = 1, pmf(z)/pmf(z+1) <= e^ε (within 1e-12 relative) on [-50, 50]. */
  @ParameterizedTest
  @CsvSource({"0.5, 1", "0.1, 1", "1, 1", "2, 1", "0.7, 3"})
  void geometricPrivacyLossIsBoundedByEpsilon(String eps, long sensitivity) {
    GeometricMechanism m = new GeometricMechanism(Rational.parse(eps), sensitivity);
    double bound = Math.exp(Double.parseDouble(eps));
    double max = 0;
    for (long z = -50; z <= 50; z++) {
      // Outputs y of neighbouring inputs x, x + Δ: noise z versus z + Δ (and reverse).
      double ratio = m.noise().pmf(z) / m.noise().pmf(z + sensitivity);
      assertTrue(ratio <= bound * (1 + 1e-12), "z=" + z + " ratio " + ratio);
      assertTrue(1 / ratio <= bound * (1 + 1e-12), "z=" + z + " ratio " + ratio);
      max = Math.max(max, ratio);
    }
    assertEquals(bound, max, 1e-12 * bound, "the bound is attained");
  }

  @Test
  void geometricReleaseIsNoisyAndUnbiased() {
    GeometricMechanism m = new GeometricMechanism(Rational.ONE, 1);
    RandomBits r = new SeededRandomBits(11);
    int n = 20_000;
    double sum = 0;
    int unchanged = 0;
    for (int i = 0; i < n; i++) {
      long y = m.release(1000, r);
      sum += y;
      if (y == 1000) {
        unchanged++;
      }
    }
    double se = Math.sqrt(m.noise().variance() / n);
    assertEquals(1000, sum / n, 5 * se);
    // P[Z = 0] = (1-q)/(1+q) = 0.4621 for scale 1.
    double p0 = m.noise().pmf(0);
    assertEquals(p0, (double) unchanged / n, 5 * Math.sqrt(p0 * (1 - p0) / n));
    assertArrayEquals(
        m.release(new long[] {1, 2, 3}, new SeededRandomBits(12)),
        m.release(new long[] {1, 2, 3}, new SeededRandomBits(12)));
    BigInteger huge = BigInteger.TEN.pow(30);
    assertTrue(m.release(huge, r).subtract(huge).abs().compareTo(BigInteger.valueOf(100)) < 0);
  }

  @Test
  void releaseOverflowIsReportedNotWrapped() {
    GeometricMechanism m = new GeometricMechanism(Rational.ONE, 1);
    RandomBits r = new SeededRandomBits(13);
    int overflows = 0;
    for (int i = 0; i < 200; i++) {
      try {
        long y = m.release(Long.MAX_VALUE, r);
        assertTrue(y <= Long.MAX_VALUE && y > Long.MAX_VALUE - 100);
      } catch (ArithmeticException e) {
        overflows++;
      }
    }
    assertTrue(overflows > 0 && overflows < 200, "overflows " + overflows);
  }

  @Test
  void discreteGaussianSigmaSquaredIsExact() {
    DiscreteGaussianMechanism m = new DiscreteGaussianMechanism(Rational.parse("0.05"), 2);
    assertEquals(Rational.of(40), m.sigmaSquared()); // 4 / 0.1
    assertEquals(Rational.of(3, 2), new DiscreteGaussianMechanism(Rational.of(1, 3), 1).sigmaSquared());
    assertEquals(
        Rational.of(49, 2), new DiscreteGaussianMechanism(Rational.ONE, 7).sigmaSquared());
    assertEquals(Rational.of(40), m.noise().sigmaSquared());
    assertEquals(Rational.parse("0.05"), m.rho());
    assertEquals(2, m.l2Sensitivity());
  }

  /**
   * The ρ-zCDP guarantee, checked numerically: the Rényi divergence of order α between the noise
   * and the noise shifted by Δ is at most αρ (with equality for α = 2 and integer shifts).
   */
  @ParameterizedTest
  @CsvSource({"0.5, 1", "0.05, 1", "0.1, 3", "1, 2"})
  void discreteGaussianRenyiDivergenceIsBounded(String rho, long sensitivity) {
    DiscreteGaussianMechanism m = new DiscreteGaussianMechanism(Rational.parse(rho), sensitivity);
    DiscreteGaussianDistribution noise = m.noise();
    double r = Double.parseDouble(rho);
    long bound = (long) (40 * noise.standardDeviation()) + 10 * sensitivity;
    for (double alpha : new double[] {1.5, 2, 3, 10}) {
      double sum = 0;
      for (long z = -bound; z <= bound; z++) {
        double p = noise.pmf(z);
        double q = noise.pmf(z - sensitivity);
        if (p > 0 && q > 0) {
          sum += Math.exp(alpha * Math.log(p) + (1 - alpha) * Math.log(q));
        }
      }
      double divergence = Math.log(sum) / (alpha - 1);
      assertTrue(divergence <= alpha * r * (1 + 1e-9), "alpha " + alpha + ": " + divergence);
      if (alpha == 2) {
        assertEquals(alpha * r, divergence, 1e-9 * alpha * r);
      }
    }
  }

  @Test
  void discreteGaussianReleaseIsUnbiased() {
    DiscreteGaussianMechanism m = new DiscreteGaussianMechanism(Rational.parse("0.02"), 1);
    RandomBits r = new SeededRandomBits(21);
    int n = 20_000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += m.release(-500, r);
    }
    assertEquals(-500, sum / n, 5 * Math.sqrt(m.noise().variance() / n));
    assertEquals(3, m.release(new long[] {1, 2, 3}, r).length);
  }

  @Test
  void rhoForApproxDpMatchesHandComputedValue() {
    // (sqrt(1 + ln 1e5) - sqrt(ln 1e5))^2 = 0.0208199383395354611... (50-digit Decimal arithmetic)
    Rational exact1 = Rational.parse("0.020819938339535461116");
    Rational rho1 = DiscreteGaussianMechanism.rhoForApproxDp(1.0, 1e-5);
    assertTrue(rho1.compareTo(exact1) < 0, "must round down: " + rho1);
    assertEquals(exact1.doubleValue(), rho1.doubleValue(), 3e-9 * exact1.doubleValue());
    assertTrue(DiscreteGaussianMechanism.epsilonForApproxDp(rho1, 1e-5) <= 1.0);

    Rational exact2 = Rational.parse("0.0038186266020275830161");
    Rational rho2 = DiscreteGaussianMechanism.rhoForApproxDp(0.5, 1e-7);
    assertTrue(rho2.compareTo(exact2) < 0);
    assertEquals(exact2.doubleValue(), rho2.doubleValue(), 3e-9 * exact2.doubleValue());
    assertTrue(DiscreteGaussianMechanism.epsilonForApproxDp(rho2, 1e-7) <= 0.5);
  }

  @Test
  void rhoForApproxDpRoundTripsBelowEpsilon() {
    for (double eps : new double[] {1e-4, 0.01, 0.1, 1, 5, 50}) {
      for (double delta : new double[] {1e-15, 1e-9, 1e-6, 0.01, 0.5}) {
        Rational rho = DiscreteGaussianMechanism.rhoForApproxDp(eps, delta);
        double back = DiscreteGaussianMechanism.epsilonForApproxDp(rho, delta);
        assertTrue(back <= eps, eps + "," + delta + " -> " + rho + " -> " + back);
        assertTrue(back >= eps * (1 - 1e-8), "too conservative: " + back + " for " + eps);
      }
    }
  }

  @Test
  void rejectsInvalidParameters() {
    assertThrows(IllegalArgumentException.class, () -> new GeometricMechanism(Rational.ZERO, 1));
    assertThrows(
        IllegalArgumentException.class, () -> new GeometricMechanism(Rational.of(-1, 10), 1));
    assertThrows(IllegalArgumentException.class, () -> new GeometricMechanism(Rational.ONE, 0));
    assertThrows(
        IllegalArgumentException.class, () -> new DiscreteGaussianMechanism(Rational.ZERO, 1));
    assertThrows(
        IllegalArgumentException.class, () -> new DiscreteGaussianMechanism(Rational.ONE, -2));
    assertThrows(
        IllegalArgumentException.class, () -> DiscreteGaussianMechanism.rhoForApproxDp(0, 1e-5));
    assertThrows(
        IllegalArgumentException.class,
        () -> DiscreteGaussianMechanism.rhoForApproxDp(Double.NaN, 1e-5));
    assertThrows(
        IllegalArgumentException.class, () -> DiscreteGaussianMechanism.rhoForApproxDp(1, 0));
    assertThrows(
        IllegalArgumentException.class, () -> DiscreteGaussianMechanism.rhoForApproxDp(1, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> DiscreteGaussianMechanism.epsilonForApproxDp(Rational.of(-1), 0.1));
  }
}
