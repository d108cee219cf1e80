package org.dpsql.matrix.hdmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.junit.jupiter.api.Test;

class KroneckerPIdentityOptimizerTest {

  private static KroneckerPIdentityOptimizer optimizer(long seed) {
    return new KroneckerPIdentityOptimizer(
        new PIdentityOptimizer(0, 2, seed, PIdentityOptimizer.defaultSolver()), 10);
  }

  /**
   * W = AllRanges(12) ⊗ Prefix(10): the Kronecker objective equals the product of the factor
   * objectives, the dense ||A||₁²·trace(G(AᵀA)⁻¹) on the 120 cells (1e-9), and ErrorAnalysis; the
   * strategy has L1 sensitivity 1.
   */
  @Test
  void productObjectiveIsProductOfFactors() {
    Workload w = KroneckerWorkload.of(new AllRangesWorkload(12), new PrefixWorkload(10));
    ScoredStrategy s = optimizer(1).optimize(w);
    List<Strategy> factors = s.strategy().kroneckerFactors();
    assertEquals(2, factors.size());
    double product = KroneckerPIdentityOptimizer.factorValue(new AllRangesWorkload(12), factors.get(0))
        * KroneckerPIdentityOptimizer.factorValue(new PrefixWorkload(10), factors.get(1));
    assertEquals(product, s.objective(), 1e-12 * product);
    double dense = Naive.objective(w.gram(), s.strategy().matrix());
    assertEquals(dense, s.objective(), 1e-9 * dense);
    assertEquals(dense, ErrorAnalysis.totalSquaredErrorL1(w, s.strategy()), 1e-9 * dense);
    assertEquals(1, s.strategy().sensitivityL1(), 1e-12);
    assertEquals(1, Naive.l1(s.strategy().matrix()), 1e-12);
    assertTrue(s.objective() < w.frobeniusSquared());
    System.out.printf("AllRanges(12)⊗Prefix(10): Kronecker p-Identity / identity error ratio %.4f%n",
        s.objective() / w.frobeniusSquared());
  }

  /**
   * Union of products (all 1-way range marginals of 6×5×4 plus the 2-way range marginal on the
   * first two attributes): the alternating optimisation returns Σⱼ Πᵢ tᵢⱼ, equal to the dense
   * objective on the 120 cells (1e-9), and beats the identity.
   */
  @Test
  void unionOfProductsMatchesDenseObjective() {
    int[] dims = {6, 5, 4};
    Workload w = new UnionWorkload(List.of(
        Workloads.rangeMarginals(dims, 1), Workloads.rangeMarginal(dims, 0, 1)));
    ScoredStrategy s = optimizer(2).optimize(w);
    double dense = Naive.objective(w.gram(), s.strategy().matrix());
    assertEquals(dense, s.objective(), 1e-9 * dense);
    assertEquals(1, s.strategy().sensitivityL1(), 1e-12);
    assertTrue(s.objective() < w.frobeniusSquared());
    System.out.printf("range marginals on 6x5x4: Kronecker p-Identity / identity error ratio %.4f%n",
        s.objective() / w.frobeniusSquared());
  }

  @Test
  void rejectsMismatchedUnion() {
    Workload w = new UnionWorkload(List.of(
        KroneckerWorkload.of(new AllRangesWorkload(4), new AllRangesWorkload(3)),
        KroneckerWorkload.of(new AllRangesWorkload(3), new AllRangesWorkload(4))));
    assertThrows(IllegalArgumentException.class, () -> optimizer(0).optimize(w));
  }
}
