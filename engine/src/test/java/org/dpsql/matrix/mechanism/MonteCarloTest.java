package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed 001 §6 item 15: with a fixed data vector, the empirical total squared error {@code Σᵢ(wᵢx̂ −
 * wᵢx)²} averaged over 10⁴ seeded runs matches {@code v · trace(W(ÂᵀÂ)⁺Wᵀ)} within 3%, and the
 * answers are unbiased.
 *
 * <p>Tolerance derivation: per run {@code T = zᵀMz} with {@code z} the real-scale noise ({@code p}
 * i.i.d. coordinates of variance {@code v}) and {@code M = Â⁺ᵀWᵀWÂ⁺}; {@code E T = v tr M} and
 * {@code Var T = v²(2 tr M² + κ Σᵢ Mᵢᵢ²)} with {@code κ} the excess kurtosis of the noise (0 for the
 * discrete Gaussian at these scales, 3 for the Laplace). Since {@code Â⁺Â⁺ᵀ = G⁺}: {@code tr M =
 * tr(G_W G⁺)} and {@code tr M² = tr((G_W G⁺)²)}. The test computes the relative standard deviation of the
 * mean of R runs, {@code sd/(v tr M)}, checks that 3% is at least 4 of them (so a correct mechanism
 * fails with probability below 1e-4 under the normal approximation of the mean), and then checks the
 * 3%. Unbiasedness: each cell's mean error is within 4.5 of its standard deviations {@code √(v
 * G⁺ⱼⱼ/R)} (Bonferroni over the cells: false-alarm probability below {@code n · 6.8e-6}).
 */
@Tag("slow")
class MonteCarloTest {
  private static final int RUNS = 10_000;

  private static long[] data(int n) {
    SplittableRandom r = new SplittableRandom(99);
    long[] x = new long[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextInt(5000);
    }
    return x;
  }

  private static void check(MatrixMechanism m, NoiseSpec spec, Workload w, double excessKurtosis, long seed) {
    final int N = w.cells();
    long[] x = data(N);
    double[] xd = new double[N];
    for (int i = 0; i < N; i++) {
      xd[i] = x[i];
    }
    double[] truth = w.answer(xd);
    LeastSquares ls = m.inference();
    double v = m.calibrate(spec).unitVariance();
    double trace = ls.traceGramPinv(w);
    // independent cross-check of the trace through ErrorAnalysis on Â
    double viaErrorAnalysis = ErrorAnalysis.traceGramTimesPseudoInverse(w, m.strategy().asStrategy());
    assertEquals(viaErrorAnalysis, trace, 1e-9 * trace);
    // tr M² and Σ Mᵢᵢ² for the tolerance
    double[][] gPinv = new double[N][];
    for (int j = 0; j < N; j++) {
      double[] e = new double[N];
      e[j] = 1;
      gPinv[j] = ls.gramPinvTimes(e); // symmetric: row j = column j
    }
    double[][] gw = w.gram();
    double[][] prod = org.dpsql.matrix.Matrices.multiply(gw, gPinv);
    double trM2 = 0;
    for (int i = 0; i < N; i++) {
      for (int j = 0; j < N; j++) {
        trM2 += prod[i][j] * prod[j][i];
      }
    }
    // Mᵢᵢ = (Â⁺ᵀ G_W Â⁺)ᵢᵢ, from the explicit Â⁺ (p × n transpose)
    double[][] ahat = m.strategy().asStrategy().matrix();
    int p = ahat.length;
    double[][] pinvT = new double[p][]; // row i = (Â⁺)ᵀ row = G⁺ âᵢ
    for (int i = 0; i < p; i++) {
      pinvT[i] = ls.gramPinvTimes(ahat[i]);
    }
    double sumMii2 = 0;
    for (int i = 0; i < p; i++) {
      double[] g = flatten(w.gramTimes(column(pinvT[i])));
      double mii = 0;
      for (int j = 0; j < N; j++) {
        mii += pinvT[i][j] * g[j];
      }
      sumMii2 += mii * mii;
    }
    double relSd = Math.sqrt((2 * trM2 + excessKurtosis * sumMii2) / RUNS) / trace;
    assertTrue(0.03 >= 4 * relSd, "3% must be at least 4 standard deviations, sd = " + relSd);

    SeededRandomBits r = new SeededRandomBits(seed);
    double sumSquared = 0;
    double[] meanError = new double[N];
    double meanTotalError = 0;
    long start = System.nanoTime();
    for (int run = 0; run < RUNS; run++) {
      Estimate est = m.run(x, spec, r);
      double[] xhat = est.cells();
      double[] ans = w.answer(xhat);
      for (int i = 0; i < ans.length; i++) {
        double d = ans[i] - truth[i];
        sumSquared += d * d;
      }
      double total = 0;
      for (int j = 0; j < N; j++) {
        meanError[j] += (xhat[j] - x[j]) / RUNS;
        total += xhat[j] - x[j];
      }
      meanTotalError += total / RUNS;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    double empirical = sumSquared / RUNS;
    double theory = v * trace;
    double ratio = empirical / theory;
    double worstZ = 0;
    for (int j = 0; j < N; j++) {
      worstZ = Math.max(worstZ, Math.abs(meanError[j]) / Math.sqrt(v * gPinv[j][j] / RUNS));
    }
    double[] ones = new double[N];
    java.util.Arrays.fill(ones, 1);
    double totalZ = Math.abs(meanTotalError) / Math.sqrt(v * ls.quadraticForm(ones) / RUNS);
    System.out.printf(
        "MC %s, %s, %s: empirical %.2f vs v·trace %.2f, ratio %.4f (tolerance 0.03 = %.1f sd); "
            + "max |cell bias| %.2f sd, total bias %.2f sd; %d runs in %.2f s%n",
        m.strategy().name(), w, m.calibrate(spec).kind(), empirical, theory, ratio, 0.03 / relSd,
        worstZ, totalZ, RUNS, seconds);
    assertEquals(1.0, ratio, 0.03);
    assertTrue(worstZ < 4.5, "cell bias " + worstZ + " sd");
    assertTrue(totalZ < 4.5, "total bias " + totalZ + " sd");
  }

  private static double[][] column(double[] v) {
    double[][] c = new double[v.length][1];
    for (int i = 0; i < v.length; i++) {
      c[i][0] = v[i];
    }
    return c;
  }

  private static double[] flatten(double[][] c) {
    double[] v = new double[c.length];
    for (int i = 0; i < c.length; i++) {
      v[i] = c[i][0];
    }
    return v;
  }

  @Test
  void gaussianHierarchicalOnAllRanges() {
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.hierarchical(16, 2)));
    check(m, NoiseSpec.zcdp(Rational.of(1, 2)), new AllRangesWorkload(16), 0, 2024);
  }

  @Test
  void gaussianFourierOnMarginalsThroughApproxDp() {
    // irrational strategy entries: exercises the fine lattice (k = 20 + 2 bits); one-way marginals
    // of a 4 x 8 domain (rank-deficient workload, union of Kronecker products)
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.fourier(32)));
    check(m, NoiseSpec.approxDp(1, 1e-6), Workloads.marginals(new int[] {4, 8}, 1), 0, 2025);
  }

  @Test
  void laplaceWaveletOnAllRanges() {
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.wavelet(32)));
    check(m, NoiseSpec.pureDp(Rational.ONE), new AllRangesWorkload(32), 3, 2026);
  }
}
