package org.dpsql.matrix.hdmm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Workload;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class PIdentityOptimizerTest {

  /** One start at HDMM's stopping rule (scipy L-BFGS-B ftol = 1e-4). */
  private static PIdentityOptimizer hdmmLike(long seed) {
    return new PIdentityOptimizer(0, 1, seed, new BoundedLbfgs(10, 2000, 1e-4, 1, 0));
  }

  /**
   * Θ = 0 (the identity) is feasible, so the optimised p-Identity must not be worse than the
   * identity on any workload; on these random 0/1 and Gaussian workloads every random start ends
   * at or below trace(WᵀW). The returned objective equals the dense ||A||₁²·trace(G(AᵀA)⁻¹).
   */
  @Test
  void neverWorseThanIdentityOnRandomWorkloads() {
    SplittableRandom r = new SplittableRandom(21);
    for (int trial = 0; trial < 12; trial++) {
      int n = 6 + r.nextInt(20);
      Workload w = Naive.randomWorkload(3 + r.nextInt(2 * n), n, trial % 2 == 0, r);
      PIdentityOptimizer opt = new PIdentityOptimizer(1 + r.nextInt(3), 2, trial, BoundedLbfgs.withMaxIterations(500));
      PIdentityOptimizer.Result res = opt.optimize(w);
      double identity = w.frobeniusSquared();
      assertEquals(identity, res.identityObjective(), 1e-9 * identity);
      // a start can only end above the identity by the Θ cap's margin (see MAX_THETA)
      for (double v : res.startObjectives()) {
        assertTrue(v <= identity * (1 + 1e-3), "trial " + trial + ": " + v + " > " + identity);
      }
      assertTrue(res.best().objective() <= identity);
      // Woodbury vs dense: agree to 1e-6 even when a row has drifted to the Θ cap (cancellation)
      double dense = Naive.objective(w, res.pIdentity());
      assertEquals(dense, res.objective(), 1e-6 * dense);
      System.out.printf("random workload %2d (n=%d): p-Identity/identity error ratio %.4f%n",
          trial, n, res.objective() / identity);
    }
  }

  /**
   * On random interval workloads (3n random ranges over 40–56 cells) the identity is not optimal
   * and the p-Identity with p = 4 must improve on it by at least 1% (ratios are printed). (For all
   * ranges over n ≤ 16 cells the identity is the best p-Identity, so tiny domains are avoided.)
   */
  @Test
  void strictlyBetterThanIdentityOnRandomRanges() {
    SplittableRandom r = new SplittableRandom(22);
    for (int trial = 0; trial < 6; trial++) {
      int n = 40 + r.nextInt(17);
      double[][] w = new double[3 * n][n];
      for (double[] row : w) {
        int a = r.nextInt(n);
        int b = r.nextInt(n);
        for (int j = Math.min(a, b); j <= Math.max(a, b); j++) {
          row[j] = 1;
        }
      }
      Workload wl = new org.dpsql.matrix.ExplicitWorkload(w);
      PIdentityOptimizer.Result res = PIdentityOptimizer.defaults(trial).withP(4).optimize(wl);
      double ratio = res.objective() / res.identityObjective();
      System.out.printf("random ranges %d (n=%d): p-Identity/identity error ratio %.4f%n", trial, n, ratio);
      assertTrue(ratio < 0.99, "ratio " + ratio);
    }
  }

  /** The identity workload is optimally answered by the identity: best() returns it exactly. */
  @Test
  void identityWorkloadKeepsIdentity() {
    Workload w = new IdentityWorkload(20);
    PIdentityOptimizer.Result res = hdmmLike(3).optimize(w);
    assertTrue(res.objective() >= 20 - 1e-9);
    assertEquals(20, res.best().objective(), 0);
    assertEquals("Identity(20)", res.best().strategy().name());
  }

  /** L1 sensitivity of the optimised strategy is exactly its max column L1 norm, = 1 (1e-12). */
  @Test
  void optimisedStrategyHasUnitL1Sensitivity() {
    PIdentityStrategy a = hdmmLike(4).optimize(new PrefixWorkload(48)).pIdentity();
    double[][] m = a.matrix();
    assertEquals(Naive.l1(m), a.sensitivityL1(), 1e-15);
    assertEquals(1, a.sensitivityL1(), 1e-12);
    for (double c : a.columnNormsL1()) {
      assertEquals(1, c, 1e-12);
    }
    for (double[] row : a.theta()) {
      for (double v : row) {
        assertTrue(v >= 0);
      }
    }
  }

  /** Same seed, same result (bit for bit); another seed starts elsewhere. */
  @Test
  void deterministicForSeed() {
    Workload w = new AllRangesWorkload(40);
    PIdentityOptimizer.Result a = hdmmLike(7).optimize(w);
    PIdentityOptimizer.Result b = hdmmLike(7).optimize(w);
    assertEquals(a.objective(), b.objective(), 0);
    double[][] ta = a.pIdentity().theta();
    double[][] tb = b.pIdentity().theta();
    for (int i = 0; i < ta.length; i++) {
      assertArrayEquals(ta[i], tb[i], 0);
    }
  }

  /**
   * All ranges over 256 cells: the p-Identity (p = 16, one start, HDMM's stopping rule) has RMSE
   * well below the identity's. Measured ≈ 0.615–0.626 (scipy's L-BFGS-B on the same objective:
   * 0.617–0.620); asserted ≤ 0.65. Also checked against the dense formula and ErrorAnalysis.
   */
  @Test
  void allRanges256RatioWellBelowOne() {
    Workload w = new AllRangesWorkload(256);
    long t0 = System.nanoTime();
    PIdentityOptimizer.Result res = hdmmLike(1).optimize(w);
    double secs = (System.nanoTime() - t0) / 1e9;
    double ratio = Math.sqrt(res.objective() / res.identityObjective());
    System.out.printf(
        "all ranges n=256: p-Identity RMSE/identity RMSE = %.4f (objective %.6g, %d iterations, %.2f s)%n",
        ratio, res.objective(), res.iterations(), secs);
    assertTrue(ratio < 0.65, "ratio " + ratio);
    double viaErrorAnalysis = ErrorAnalysis.totalSquaredErrorL1(w, res.pIdentity());
    assertEquals(viaErrorAnalysis, res.objective(), 1e-7 * viaErrorAnalysis);
  }

  /**
   * HDMM's headline 1-D figure: all ranges over 1024 cells, identity 18.49 vs HDMM 7.89 (ratio
   * 0.427). One start with the default solver must reach a ratio ≤ 0.427 (measured 0.4241–0.4243
   * for seeds 0 and 1).
   */
  @Test
  @Tag("slow")
  void allRanges1024BeatsHdmmPublishedRatio() {
    Workload w = new AllRangesWorkload(1024);
    long t0 = System.nanoTime();
    PIdentityOptimizer.Result res = PIdentityOptimizer.defaults(1).withStarts(1).optimize(w);
    double secs = (System.nanoTime() - t0) / 1e9;
    ScoredStrategy best = res.best();
    ScoredStrategy identity = new ScoredStrategy(org.dpsql.matrix.Strategies.identity(1024), res.identityObjective());
    double eps = Math.sqrt(2); // HDMM's normalisation, see HdmmNormalisationTest
    double rmse = best.rootMeanSquaredError(eps, w.queries());
    double idRmse = identity.rootMeanSquaredError(eps, w.queries());
    System.out.printf("all ranges n=1024: p-Identity RMSE %.3f vs identity %.3f, ratio %.4f (HDMM: 7.89/18.49"
        + " = 0.427), %d iterations, %.1f s%n", rmse, idRmse, rmse / idRmse, res.iterations(), secs);
    assertTrue(rmse / idRmse <= 0.427, "ratio " + rmse / idRmse);
  }
}
