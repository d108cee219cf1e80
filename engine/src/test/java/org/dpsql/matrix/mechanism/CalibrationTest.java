package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.Strategies;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

/**
 * Noise calibrations: the exact zCDP and pure-DP lattice parameters, the tight zCDP → (ε, δ)
 * conversion used for (ε, δ) releases, and the continuous-Gaussian calibrations (analytic and
 * classical) kept for comparison.
 *
 * <p>Reference values were recomputed independently in Python/SciPy: the analytic σ by {@code
 * brentq} on {@code norm.cdf(Δ/(2σ) − εσ/Δ) − e^ε norm.cdf(−Δ/(2σ) − εσ/Δ) − δ}; the CKS ρ by
 * bisection on the same δ(ρ, ε) formula with α found by bisection on its derivative.
 */
class CalibrationTest {
  // {ε, δ, analytic σ (Δ = 1), CKS ρ}
  private static final double[][] REFERENCE = {
    {0.1, 1e-5, 30.7495661320, 0.000432993729402},
    {0.5, 1e-5, 7.0318266756, 0.00850553059118},
    {1, 1e-5, 3.7306316348, 0.0305565951976},
    {2, 1e-5, 1.9938124456, 0.108256363823},
    {0.1, 1e-9, 50.2098182630, 0.000177138447185},
    {0.5, 1e-9, 10.6738968151, 0.00395319114122},
    {1, 1e-9, 5.4952661572, 0.0149730576736},
    {2, 1e-9, 2.8445470735, 0.0561305017965},
  };

  @Test
  void zcdpSigmaIsExactlySensitivityOverTwoRho() {
    LatticeStrategy s = LatticeStrategy.round(Strategies.fourier(16), 20);
    Rational rho = Rational.of(1, 7);
    NoiseCalibration c = NoiseCalibration.of(s, NoiseSpec.zcdp(rho));
    assertEquals(NoiseCalibration.Kind.DISCRETE_GAUSSIAN, c.kind());
    // real-scale σ² = ‖Â‖₂² / (2ρ), lattice σ_Z² = S₂ / (2ρ), both exact
    assertEquals(s.sensitivityL2Squared().divide(rho.multiply(2)), c.realScaleParameter());
    assertEquals(Rational.of(s.maxColumnSumOfSquares(), BigInteger.ONE).divide(rho.multiply(2)), c.latticeParameter());
    assertEquals(rho, c.budget());
    // unit variance ≈ σ² (the discrete Gaussian variance is below σ² by a negligible amount here)
    double sigma2 = c.realScaleParameter().doubleValue();
    assertTrue(c.unitVariance() <= sigma2 && c.unitVariance() > sigma2 * (1 - 1e-12));
    // ‖Fourier‖₂ = 1 (orthonormal columns), so σ² ≈ 1/(2ρ) = 3.5
    assertEquals(3.5, sigma2, 3.5 * 1e-5);
  }

  @Test
  void pureDpScaleIsExactlyL1SensitivityOverEpsilon() {
    LatticeStrategy s = LatticeStrategy.round(Strategies.hierarchical(8, 2), 20);
    Rational eps = Rational.of(1, 2);
    NoiseCalibration c = NoiseCalibration.of(s, NoiseSpec.pureDp(eps));
    assertEquals(NoiseCalibration.Kind.DISCRETE_LAPLACE, c.kind());
    assertEquals(Rational.of(8), c.realScaleParameter()); // ‖A‖₁ = 4, t = 4 / (1/2)
    assertEquals(Rational.of(8L << 20), c.latticeParameter());
    // variance 2q/(1−q)² of the lattice noise, scaled: ≈ 2 t² for large t_Z
    assertEquals(2 * 64, c.unitVariance(), 2 * 64 * 1e-6);
  }

  @Test
  void approxDpUsesTheLargestRhoOfTheTightConversion() {
    for (double[] ref : REFERENCE) {
      double eps = ref[0];
      double delta = ref[1];
      Rational rho = ZcdpToApproxDp.largestRho(eps, delta);
      double r = rho.doubleValue();
      assertEquals(ref[3], r, 1e-8 * ref[3], "rho for " + eps + ", " + delta);
      assertTrue(ZcdpToApproxDp.delta(r, eps) <= delta, "calibrated rho must satisfy the bound");
      assertTrue(ZcdpToApproxDp.delta(r * (1 + 1e-6), eps) > delta, "and be tight to 1e-6");
      assertTrue(r >= ZcdpToApproxDp.bunSteinkeRho(eps, delta), "never worse than Bun–Steinke");
      NoiseSpec spec = NoiseSpec.approxDp(eps, delta);
      LatticeStrategy s = LatticeStrategy.round(Strategies.identity(4));
      NoiseCalibration c = NoiseCalibration.of(s, spec);
      assertEquals(rho, c.budget());
      assertEquals(Rational.ONE.divide(rho.multiply(2)), c.realScaleParameter());
    }
  }

  @Test
  void conversionReproducesIndependentValues() {
    // seed 002 spec Table 2 check: ρ = 1.41, δ = 1e-10 gives ε = 12.177 (numeric), 12.806 (Bun–Steinke)
    assertEquals(12.1773092186, ZcdpToApproxDp.epsilon(1.41, 1e-10), 1e-8);
    assertEquals(12.80586763896739, ZcdpToApproxDp.bunSteinkeEpsilon(1.41, 1e-10), 1e-10);
    assertEquals(0.00514318406386, ZcdpToApproxDp.delta(0.5, 3.0), 1e-12);
    assertEquals(0, ZcdpToApproxDp.delta(0, 1));
    assertThrows(IllegalArgumentException.class, () -> ZcdpToApproxDp.largestRho(1, 0));
    assertThrows(IllegalArgumentException.class, () -> ZcdpToApproxDp.largestRho(0, 1e-5));
    assertThrows(IllegalArgumentException.class, () -> NoiseSpec.approxDp(1, 1));
  }

  @Test
  void analyticGaussianMatchesRecomputedValuesAndIsTight() {
    for (double[] ref : REFERENCE) {
      double eps = ref[0];
      double delta = ref[1];
      double sigma = AnalyticGaussian.sigma(eps, delta, 1);
      assertEquals(ref[2], sigma, 1e-8 * ref[2], "analytic sigma for " + eps + ", " + delta);
      assertTrue(AnalyticGaussian.delta(sigma, eps, 1) <= delta, "rounded up: satisfies the bound");
      assertTrue(AnalyticGaussian.delta(sigma * (1 - 1e-7), eps, 1) > delta, "and is tight");
      // linear in the sensitivity
      assertEquals(3.5 * sigma, AnalyticGaussian.sigma(eps, delta, 3.5), 1e-8 * sigma);
    }
  }

  @Test
  void classicalBoundIsNeverBelowTheAnalyticOneForEpsilonAtMostOne() {
    for (double delta : new double[] {1e-3, 1e-5, 1e-7, 1e-9, 1e-12}) {
      for (double eps = 0.01; eps <= 1.0 + 1e-12; eps += 0.03) {
        double classical = AnalyticGaussian.classicalSigma(eps, delta, 1);
        double analytic = AnalyticGaussian.sigma(eps, delta, 1);
        assertTrue(classical >= analytic, eps + ", " + delta + ": " + classical + " < " + analytic);
        // the classical σ is itself (ε, δ)-DP for the continuous Gaussian (Dwork–Roth Thm A.1)
        assertTrue(AnalyticGaussian.delta(classical, eps, 1) <= delta);
      }
    }
  }

  @Test
  void costOfRigourTable() {
    // σ at Δ = 1 under each (ε, δ) calibration; the rigorous one for discrete noise is "zCDP (CKS)".
    System.out.println("   eps   delta | classical  analytic  zCDP(BS)  zCDP(CKS) | CKS/analytic");
    for (double[] ref : REFERENCE) {
      double eps = ref[0];
      double delta = ref[1];
      double classical = AnalyticGaussian.classicalSigma(eps, delta, 1);
      double analytic = AnalyticGaussian.sigma(eps, delta, 1);
      double bs = Math.sqrt(1 / (2 * ZcdpToApproxDp.bunSteinkeRho(eps, delta)));
      double cks = Math.sqrt(1 / (2 * ZcdpToApproxDp.largestRho(eps, delta).doubleValue()));
      System.out.printf("%6.2f %7.0e | %9.4f %9.4f %9.4f %9.4f | %.4f%n",
          eps, delta, classical, analytic, bs, cks, cks / analytic);
      assertTrue(cks >= analytic, "the zCDP route cannot beat the exact continuous calibration");
      assertTrue(cks <= bs, "CKS conversion is at least as tight as Bun–Steinke");
      assertTrue(cks / analytic < 1.12, "measured cost of rigour stays below 12% in σ");
    }
  }

  @Test
  void calibrationUsesTheRoundedStrategy() {
    double[][] a = {{0.3, 0.1}, {0.2, 0.7}};
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("a", a), 20);
    NoiseCalibration c = NoiseCalibration.of(s, NoiseSpec.zcdp(Rational.of(1, 2)));
    // σ² = ‖Â‖₂² exactly (ρ = 1/2), with ‖Â‖₂² from the integer numerators
    assertEquals(s.sensitivityL2Squared(), c.realScaleParameter());
    assertEquals(0.1 * 0.1 + 0.7 * 0.7, c.realScaleParameter().doubleValue(), 1e-6);
  }
}
