package org.dpsql.matrix.hdmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.junit.jupiter.api.Test;

class PureDpStrategySelectorTest {

  private static PureDpStrategySelector selector(long seed) {
    return new PureDpStrategySelector(
        new PIdentityOptimizer(0, 2, seed, PIdentityOptimizer.defaultSolver()),
        MarginalsOptimizer.defaults(seed),
        new WeightedBasisOptimizer(new BoundedLbfgs(10, 200, 1e-8, 5, 0), 64, 1024),
        16);
  }

  /**
   * All ranges over 64 cells: every baseline (identity, hierarchical b = 2..16, wavelet), the
   * p-Identity and the weighted designs are evaluated; every candidate's objective equals
   * ErrorAnalysis.totalSquaredErrorL1 on its explicit matrix (1e-8); the best is the minimum and
   * beats the identity; the selection is deterministic for the seed.
   */
  @Test
  void allRanges64() {
    Workload w = new AllRangesWorkload(64);
    PureDpStrategySelector.Selection s = selector(5).select(w);
    assertEquals(1 + 15 + 1 + 1 + 2, s.candidates().size(), s.candidates().toString());
    for (ScoredStrategy c : s.candidates()) {
      double check = ErrorAnalysis.totalSquaredErrorL1(w, c.strategy());
      assertEquals(check, c.objective(), 1e-8 * check, c.strategy().name());
      assertTrue(s.best().objective() <= c.objective());
      System.out.printf("  %-45s RMSE ratio to identity %.4f%n", c.strategy().name(),
          Math.sqrt(c.objective() / w.frobeniusSquared()));
    }
    assertTrue(s.candidate("Hierarchical(64, b=16)").isPresent());
    assertTrue(s.candidate("Wavelet(64)").isPresent());
    assertTrue(s.best().objective() < w.frobeniusSquared());
    assertTrue(s.best().strategy().name().startsWith("PIdentity"), s.best().toString());
    assertEquals(1, s.best().strategy().sensitivityL1(), 1e-12);
    PureDpStrategySelector.Selection again = selector(5).select(w);
    assertEquals(s.best().objective(), again.best().objective(), 0);
    assertEquals(s.best().strategy().name(), again.best().strategy().name());
  }

  /** The identity workload: nothing beats the identity, which is selected with objective n. */
  @Test
  void identityWorkloadSelectsIdentity() {
    PureDpStrategySelector.Selection s = selector(1).select(new IdentityWorkload(32));
    assertEquals(32, s.best().objective(), 1e-9);
    assertEquals("Identity(32)", s.best().strategy().name());
  }

  /**
   * AllRanges(48) ⊗ Prefix(6): the selection is the product of per-factor selections, its
   * objective equals the dense objective of the 288-cell product strategy (1e-9) and beats the
   * identity (thanks to the first factor; for Prefix(6) the identity is best).
   */
  @Test
  void kroneckerWorkloadFactorises() {
    Workload w = KroneckerWorkload.of(new AllRangesWorkload(48), new PrefixWorkload(6));
    PureDpStrategySelector.Selection s = selector(2).select(w);
    double dense = Naive.objective(w.gram(), s.best().strategy().matrix());
    assertEquals(dense, s.best().objective(), 1e-9 * dense);
    double f1 = selector(2).select(new AllRangesWorkload(48)).best().objective();
    double f2 = selector(2).select(new PrefixWorkload(6)).best().objective();
    assertEquals(f1 * f2, s.best().objective(), 1e-9 * f1 * f2);
    assertTrue(s.best().objective() < w.frobeniusSquared());
    System.out.printf("AllRanges(48)⊗Prefix(6): best %s, RMSE ratio to identity %.4f%n",
        s.best().strategy().name(), Math.sqrt(s.best().objective() / w.frobeniusSquared()));
  }

  /**
   * 1-way range marginals of 8×8 (a union of products): same-family Kronecker baselines, the
   * Kronecker p-Identity and (not applicable) marginals; the best's objective equals the dense
   * objective (1e-8). All 1-way marginals of 3×4×5: the marginals candidate applies and wins.
   */
  @Test
  void unionsOfProducts() {
    Workload ranges = Workloads.rangeMarginals(new int[] {8, 8}, 1);
    PureDpStrategySelector.Selection s = selector(3).select(ranges);
    double dense = ErrorAnalysis.totalSquaredErrorL1(ranges, s.best().strategy());
    assertEquals(dense, s.best().objective(), 1e-8 * dense);
    assertTrue(s.best().objective() < ranges.frobeniusSquared());
    System.out.printf("1-way range marginals 8x8: best %s, RMSE ratio to identity %.4f%n",
        s.best().strategy().name(), Math.sqrt(s.best().objective() / ranges.frobeniusSquared()));

    Workload marg = Workloads.marginals(new int[] {3, 4, 5}, 1);
    PureDpStrategySelector.Selection m = selector(3).select(marg);
    assertTrue(m.best().strategy() instanceof MarginalsStrategy, m.best().toString());
    assertEquals(ErrorAnalysis.totalSquaredErrorL1(marg, m.best().strategy()), m.best().objective(),
        1e-6 * m.best().objective());
  }
}
