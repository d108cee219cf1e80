package org.dpsql.matrix.hdmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.junit.jupiter.api.Test;

class MarginalsOptimizerTest {

  private static double[] randomWeights(int d, SplittableRandom r) {
    double[] t = new double[1 << d];
    for (int i = 0; i < t.length; i++) {
      t[i] = 0.05 + r.nextDouble();
    }
    return t;
  }

  /** The explicit rows, their Gram and the L1 norms of a marginals strategy agree with its closed forms. */
  @Test
  void strategyMatrixGramAndNorms() {
    SplittableRandom r = new SplittableRandom(31);
    int[] dims = {3, 2, 4};
    MarginalsStrategy a = new MarginalsStrategy(dims, randomWeights(3, r));
    double[][] m = a.matrix();
    assertEquals(a.rows(), m.length);
    assertEquals(1 + 3 + 2 + 4 + 6 + 12 + 8 + 24, m.length);
    double[][] g = a.gram();
    double[][] ng = Naive.gramOf(m);
    for (int i = 0; i < 24; i++) {
      for (int j = 0; j < 24; j++) {
        assertEquals(ng[i][j], g[i][j], 1e-12);
      }
    }
    assertEquals(Naive.l1(m), a.sensitivityL1(), 1e-12);
  }

  /**
   * The O(d 2^d) closed form equals the dense ||A||₁²·trace(G(AᵀA)⁻¹) (1e-9) for several
   * marginal-type workloads and random positive weights (full-rank strategies).
   */
  @Test
  void closedFormMatchesDense() {
    SplittableRandom r = new SplittableRandom(32);
    int[] dims = {3, 4, 2};
    List<Workload> workloads = List.of(
        Workloads.marginals(dims, 2),
        Workloads.marginals(dims, 1),
        new UnionWorkload(List.of(Workloads.marginals(dims, 0), Workloads.marginal(dims, 0, 2))),
        Workloads.marginal(dims, 0, 1, 2));
    for (Workload w : workloads) {
      MarginalsStrategy a = new MarginalsStrategy(dims, randomWeights(3, r));
      double closed = MarginalsOptimizer.objective(w, a).orElseThrow();
      double dense = Naive.objective(w, a);
      assertEquals(dense, closed, 1e-9 * dense, w.toString());
    }
  }

  /** Gradient of the closed form vs central differences (relative 1e-6 of max |∇f|). */
  @Test
  void gradientMatchesCentralDifferences() {
    SplittableRandom r = new SplittableRandom(33);
    int[] dims = {3, 4, 2, 5};
    Workload w = new UnionWorkload(List.of(Workloads.marginals(dims, 2), Workloads.marginals(dims, 1)));
    BoundedLbfgs.Objective f = MarginalsOptimizer.objective(MarginalsAlgebra.spectrum(w).orElseThrow());
    double[] x = randomWeights(4, r);
    double[] g = new double[x.length];
    f.evaluate(x, g);
    double scale = 0;
    for (double v : g) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < x.length; i++) {
      double h = 1e-6;
      double[] xp = x.clone();
      double[] xm = x.clone();
      xp[i] += h;
      xm[i] -= h;
      double fd = (f.evaluate(xp, null) - f.evaluate(xm, null)) / (2 * h);
      assertEquals(fd, g[i], 1e-6 * scale, "entry " + i);
    }
  }

  /**
   * A single marginal is answered optimally by itself: error = its number of queries r, which is
   * also the singular value bound svdb = r (so nothing, L1 or L2, does better). The optimiser
   * reaches r to 1e-6 relative.
   */
  @Test
  void singleMarginalIsOptimal() {
    int[] dims = {4, 3, 5};
    Workload w = Workloads.marginal(dims, 0, 2);
    ScoredStrategy s = MarginalsOptimizer.defaults(1).optimize(w).orElseThrow();
    assertEquals(20, s.objective(), 20e-6);
    assertEquals(20, ErrorAnalysis.svdb(w), 1e-9);
  }

  /**
   * All 1-way marginals on 4×4×4: the optimum puts weight 1/3 on each 1-way marginal, error 90 vs
   * the identity's 192 (ratio 0.469). The objective equals ErrorAnalysis (pseudo-inverse) on the
   * explicit rank-deficient strategy (1e-6) and its L1 sensitivity is 1.
   */
  @Test
  void oneWayMarginalsOptimised() {
    int[] dims = {4, 4, 4};
    Workload w = Workloads.marginals(dims, 1);
    ScoredStrategy s = MarginalsOptimizer.defaults(2).optimize(w).orElseThrow();
    double viaErrorAnalysis = ErrorAnalysis.totalSquaredErrorL1(w, s.strategy());
    assertEquals(viaErrorAnalysis, s.objective(), 1e-6 * viaErrorAnalysis);
    assertEquals(1, s.strategy().sensitivityL1(), 1e-12);
    assertEquals(90, s.objective(), 90e-6);
    double[] weights = ((MarginalsStrategy) s.strategy()).weights();
    for (int mask : new int[] {1, 2, 4}) {
      assertEquals(1.0 / 3, weights[mask], 1e-4);
    }
    System.out.printf("all 1-way marginals on 4x4x4: marginals/identity error ratio %.4f (%s)%n",
        s.objective() / w.frobeniusSquared(), s.strategy().name());
  }

  /**
   * All 2-way marginals on 4×4×4: the identity (weight 1 on the full marginal) is the best
   * weighted-marginals strategy under L1 (a scipy L-BFGS-B search over the 8 weights with 20 random
   * starts found the same 192); the optimiser must not return anything worse.
   */
  @Test
  void twoWayMarginalsNotWorseThanIdentity() {
    int[] dims = {4, 4, 4};
    Workload w = Workloads.marginals(dims, 2);
    ScoredStrategy s = MarginalsOptimizer.defaults(2).optimize(w).orElseThrow();
    assertTrue(s.objective() <= w.frobeniusSquared() * (1 + 1e-9), s.objective() + " > 192");
    assertEquals(ErrorAnalysis.totalSquaredErrorL1(w, s.strategy()), s.objective(), 1e-6 * s.objective());
    System.out.printf("all 2-way marginals on 4x4x4: marginals/identity error ratio %.4f (%s)%n",
        s.objective() / w.frobeniusSquared(), s.strategy().name());
  }

  @Test
  void appliesOnlyToIdentityTotalProducts() {
    assertTrue(MarginalsOptimizer.applies(Workloads.marginals(new int[] {2, 3}, 1)));
    assertFalse(MarginalsOptimizer.applies(Workloads.rangeMarginals(new int[] {4, 3}, 1)));
    assertFalse(MarginalsOptimizer.defaults(0).optimize(new AllRangesWorkload(8)).isPresent());
    assertThrows(IllegalArgumentException.class, () -> new MarginalsStrategy(new int[] {2}, new double[] {0, 0}));
    assertThrows(IllegalArgumentException.class, () -> new MarginalsStrategy(new int[] {2}, new double[] {1}));
  }
}
