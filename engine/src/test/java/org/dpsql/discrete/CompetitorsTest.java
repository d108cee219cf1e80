package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

class CompetitorsTest {

  private static BigDecimal bd(double d) {
    return new BigDecimal(Double.toString(d));
  }

  @Test
  void wrappedGeometricMatchesBruteForceFolding() {
    int n = 8;
    double alpha = 0.7;
    double[] f = Competitors.wrappedGeometricMasses(n, alpha);
    for (int eta = 0; eta <= n; eta++) {
      double s = 0;
      for (int j = -200; j <= 200; j++) {
        s += (1 - alpha) / (1 + alpha) * Math.pow(alpha, Math.abs(eta + j * (n + 1)));
      }
      assertEquals(s, f[eta], 1e-15);
    }
  }

  /**
   * With alpha = e^-eps0 the wrapped geometric is eps0-DP for {+-1}; its exact smallest eps at
   * delta = 0 is the largest neighbouring log-ratio, ln((1 + a^9)/(a + a^8)) = 0.3171 < -ln 0.7.
   */
  @Test
  void wrappedGeometricExactEpsilon() {
    double a = 0.7;
    NoisePmf f = Competitors.wrappedGeometric(8, a);
    BigDecimal eps = PdpChecker.epsilonFor(f, Neighbourhood.addRemoveOne(8), BigDecimal.ZERO);
    double expected = Math.log((1 + Math.pow(a, 9)) / (a + Math.pow(a, 8)));
    assertEquals(expected, eps.doubleValue(), 2e-9);
    assertTrue(eps.doubleValue() < -Math.log(a));
    assertTrue(PdpChecker.satisfies(f, Neighbourhood.addRemoveOne(8), eps, BigDecimal.ZERO));
  }

  @Test
  void wrappedDiscreteGaussianMatchesEngineDistribution() {
    int n = 8;
    DiscreteGaussianDistribution g = new DiscreteGaussianDistribution(Rational.of(338, 100));
    double[] f = Competitors.wrappedDiscreteGaussianMasses(n, 3.38);
    for (int eta = 0; eta <= n; eta++) {
      double s = 0;
      for (int j = -30; j <= 30; j++) {
        s += g.pmf(eta + (long) j * (n + 1));
      }
      assertEquals(s, f[eta], 1e-14);
    }
    NoisePmf q = Competitors.wrappedDiscreteGaussian(n, 3.38);
    assertEquals(f[0], q.mass(0), 1e-15);
  }

  /** Item 13: the data-independent mechanism with ER 0.3, n = 7 is [0.7, 0.3/7 x7]. */
  @Test
  void dataIndependentMechanism() {
    NoisePmf f = Competitors.dataIndependent(7, 0.3);
    double[] expected = {0.7, 0.3 / 7, 0.3 / 7, 0.3 / 7, 0.3 / 7, 0.3 / 7, 0.3 / 7, 0.3 / 7};
    assertArrayEquals(expected, f.masses(), 1e-15);
    assertEquals(0.3, f.errorRate(), 1e-15);
    // delta = 0 iff e^eps >= 0.7 / (0.3/7) = 49/3; below, delta = f(0) = 0.7.
    BigDecimal eps = PdpChecker.epsilonFor(f, Neighbourhood.addRemoveOne(7), BigDecimal.ZERO);
    assertEquals(Math.log(49.0 / 3), eps.doubleValue(), 2e-9);
    assertEquals(0.7, PdpChecker.delta(f, Neighbourhood.addRemoveOne(7), bd(2.7)).doubleValue(), 1e-15);
    assertThrows(IllegalArgumentException.class, () -> Competitors.dataIndependent(7, 1.2));
  }

  @Test
  void foldedNoiseMatchesEngineDistributions() {
    int n = 6;
    // Discrete Laplace with scale 1: alpha = e^-1.
    DiscreteLaplaceDistribution lap = new DiscreteLaplaceDistribution(Rational.ONE);
    double[] p = Competitors.foldedTwoSidedGeometric(n, Math.exp(-1));
    for (int z = -n + 1; z < n; z++) {
      assertEquals(lap.pmf(z), p[z + n], 1e-15);
    }
    assertEquals(lap.tailAbs(n - 1) / 2, p[0], 1e-15);
    assertEquals(lap.tailAbs(n - 1) / 2, p[2 * n], 1e-15);
    DiscreteGaussianDistribution g = new DiscreteGaussianDistribution(Rational.of(338, 100));
    double[] q = Competitors.foldedDiscreteGaussian(n, 3.38);
    for (int z = -n + 1; z < n; z++) {
      assertEquals(g.pmf(z), q[z + n], 1e-15);
    }
    assertEquals(g.tailAbs(n - 1) / 2, q[0], 1e-15);
    double s = 0;
    for (double v : q) {
      s += v;
    }
    assertEquals(1, s, 1e-14);
  }

  @Test
  void clampedRowsAreDistributions() {
    int n = 8;
    double[][] rows = Competitors.clampedRows(Competitors.foldedTwoSidedGeometric(n, 0.7), n);
    for (double[] row : rows) {
      double s = 0;
      for (double v : row) {
        s += v;
      }
      assertEquals(1, s, 1e-14);
    }
    // f(0|q) = P(Z <= -q) = alpha^q / (1 + alpha) for q >= 1.
    assertEquals(Math.pow(0.7, 3) / 1.7, rows[3][0], 1e-15);
  }

  /**
   * Item 13 / Figs. 6-7 (qualitative), n = 8, alpha = 0.7, sigma^2 = 3.38, add/remove-one
   * neighbours: on a grid of eps, the clamped mechanisms have at least the delta of the modulo
   * (wrapped) mechanism with the same noise, strictly more at some eps. The wrapped PMF also has a
   * smaller (circular) MSE than the clamped mechanism's worst-case MSE, so the optimal modulo PMF
   * at that MSE (min-delta MILP, left to the MILP designer) has delta no larger than the wrapped
   * one: clamped >= wrapped >= optimal modulo. Clamping is post-processing of a pure-DP geometric
   * (delta = 0 for eps >= -ln alpha survives), while the clamped Gaussian keeps delta > 0 well
   * beyond the eps at which the wrapped Gaussian reaches delta = 0 (clamping hurts it most).
   */
  @Test
  void clampingIncreasesDelta() {
    int n = 8;
    Neighbourhood m = Neighbourhood.addRemoveOne(n);
    double[] geo = Competitors.foldedTwoSidedGeometric(n, 0.7);
    double[] gau = Competitors.foldedDiscreteGaussian(n, 3.38);
    NoisePmf wGeo = Competitors.wrappedGeometric(n, 0.7);
    NoisePmf wGau = Competitors.wrappedDiscreteGaussian(n, 3.38);
    double worstGeo = 0;
    double worstGau = 0;
    for (int q = 0; q <= n; q++) {
      worstGeo = Math.max(worstGeo, Competitors.clampedMse(geo, n, q));
      worstGau = Math.max(worstGau, Competitors.clampedMse(gau, n, q));
    }
    assertTrue(wGeo.circularMse() <= worstGeo, wGeo.circularMse() + " vs " + worstGeo);
    assertTrue(wGau.circularMse() <= worstGau, wGau.circularMse() + " vs " + worstGau);
    int strictGeo = 0;
    int strictGau = 0;
    for (int i = 1; i <= 60; i++) {
      double eps = 0.05 * i;
      double cGeo = Competitors.clampedDelta(geo, n, eps, m);
      double cGau = Competitors.clampedDelta(gau, n, eps, m);
      double dGeo = PdpChecker.delta(wGeo, m, bd(eps)).doubleValue();
      double dGau = PdpChecker.delta(wGau, m, bd(eps)).doubleValue();
      assertTrue(cGeo >= dGeo - 1e-12, "geometric eps=" + eps);
      assertTrue(cGau >= dGau - 1e-12, "gaussian eps=" + eps);
      strictGeo += cGeo > dGeo + 1e-3 ? 1 : 0;
      strictGau += cGau > dGau + 1e-3 ? 1 : 0;
      if (eps >= -Math.log(0.7)) {
        assertEquals(0, cGeo, 0);
      }
    }
    assertTrue(strictGeo > 0 && strictGau > 0);
    assertEquals(0, PdpChecker.delta(wGau, m, bd(1.0)).signum());
    assertTrue(Competitors.clampedDelta(gau, n, 1.0, m) > 0.08);
    assertEquals(0.0843, Competitors.clampedDiscreteGaussianDelta(n, 3.38, 1.0, m), 1e-4);
    assertEquals(0.5882, Competitors.clampedGeometricDelta(n, 0.7, 0.3, m), 1e-4);
  }

  @Test
  void clampedDeltaUsesIntegerDifferences() {
    int n = 8;
    double[] geo = Competitors.foldedTwoSidedGeometric(n, 0.7);
    // {1, 8} mod 9 is read as q' = q +- 1, identical to the explicit integer differences.
    assertEquals(
        Competitors.clampedDelta(geo, n, 0.2, new int[] {1, -1}),
        Competitors.clampedDelta(geo, n, 0.2, Neighbourhood.addRemoveOne(n)), 0);
    assertThrows(IllegalArgumentException.class, () -> Competitors.clampedDelta(geo, 7, 0.2, Neighbourhood.addRemoveOne(8)));
  }
}
