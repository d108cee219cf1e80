package org.dpsql.matrix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.mechanism.LatticeStrategy;
import org.junit.jupiter.api.Test;

/**
 * The workload's own rows held sparsely ({@link SparseRows}, {@link DirectStrategy}) against dense
 * computations at small sizes: the rows equal {@link Workload#matrix()} for every family, the
 * sensitivities are the exact column maxima of the dense (weighted) matrix, the lattice strategy is
 * the matrix itself, and the stated error bound is at least the exact least-squares error and
 * equal to it when the rows are independent.
 */
class DirectStrategyTest {

  private static List<Workload> families() {
    SplittableRandom r = new SplittableRandom(33);
    int[][] pred = new int[9][];
    for (int i = 0; i < pred.length; i++) {
      pred[i] = java.util.stream.IntStream.range(0, 12).filter(j -> r.nextBoolean()).toArray();
      if (pred[i].length == 0) {
        pred[i] = new int[] {i};
      }
    }
    double[][] explicit = {{1, 0, 2, -1}, {0, 3, 0, 0}, {1, 1, 1, 1}};
    return List.of(new SparseWorkload(12, pred), new IdentityWorkload(7), new TotalWorkload(7),
        new PrefixWorkload(9), new AllRangesWorkload(6),
        KroneckerWorkload.of(new PrefixWorkload(4), new TotalWorkload(3)),
        Workloads.marginals(new int[] {4, 3, 5}, 2), Workloads.marginals(new int[] {6, 3}, 1),
        Workloads.rangeMarginals(new int[] {5, 4}, 1),
        new PermutedWorkload(new AllRangesWorkload(6), PermutedWorkload.randomPermutation(6, 5)),
        new ExplicitWorkload(explicit),
        new UnionWorkload(List.of(new IdentityWorkload(5), new PrefixWorkload(5))));
  }

  @Test
  void sparseRowsAreTheWorkloadsRows() {
    for (Workload w : families()) {
      SparseRows s = SparseRows.of(w, Long.MAX_VALUE);
      double[][] dense = w.matrix();
      double[][] got = s.toDense();
      assertEquals(dense.length, got.length, w.toString());
      for (int i = 0; i < dense.length; i++) {
        assertArrayEquals(dense[i], got[i], 0, w + " row " + i);
      }
    }
  }

  @Test
  void nonIntegerOrTooManyNonZerosAreNotListed() {
    assertNull(SparseRows.of(new ExplicitWorkload(new double[][] {{0.5, 1}}), 100));
    assertNull(SparseRows.of(new AllRangesWorkload(20), 100)); // 1,540 non-zeros
    assertNull(DirectStrategy.forWorkload(new PrefixWorkload(20), false, 100)); // 210
  }

  @Test
  void sensitivitiesAreTheExactColumnMaximaOfTheDenseWeightedRows() {
    for (Workload w : families()) {
      for (boolean l1 : new boolean[] {false, true}) {
        DirectStrategy a = DirectStrategy.forWorkload(w, l1, Long.MAX_VALUE);
        double[][] dense = a.matrix();
        // the strategy is W with one positive integer weight per row
        double[][] rows = w.matrix();
        double errorSum = 0;
        for (int i = 0; i < rows.length; i++) {
          double c = 0;
          for (int j = 0; j < rows[i].length; j++) {
            if (rows[i][j] != 0) {
              c = dense[i][j] / rows[i][j];
              break;
            }
          }
          assertTrue(c >= 1 && c == Math.rint(c), w + " row " + i + " weight " + c);
          for (int j = 0; j < rows[i].length; j++) {
            assertEquals(c * rows[i][j], dense[i][j], 0, w + " row " + i);
          }
          errorSum += 1 / (c * c);
        }
        assertEquals(errorSum, a.errorSum(), 1e-12 * errorSum);
        long s2 = 0;
        long s1 = 0;
        for (int j = 0; j < w.cells(); j++) {
          long sq = 0;
          long abs = 0;
          for (double[] row : dense) {
            sq += (long) (row[j] * row[j]);
            abs += (long) Math.abs(row[j]);
          }
          s2 = Math.max(s2, sq);
          s1 = Math.max(s1, abs);
        }
        assertEquals(s2, a.maxColumnSumOfSquares(), w.toString());
        assertEquals(s1, a.maxColumnAbsSum(), w.toString());
        // on the lattice as it is: 2^0, the same integers, the same sensitivities
        LatticeStrategy lattice = LatticeStrategy.round(a);
        assertEquals(0, lattice.bits());
        assertEquals(java.math.BigInteger.valueOf(s2), lattice.maxColumnSumOfSquares());
        assertEquals(java.math.BigInteger.valueOf(s1), lattice.maxColumnAbsSum());
        assertArrayEquals(dense[0], lattice.factors().get(0).toDoubleArray()[0], 0);
      }
    }
  }

  @Test
  void theBoundIsAtLeastTheExactErrorAndEqualForIndependentRows() {
    for (Workload w : families()) {
      DirectStrategy a = DirectStrategy.forWorkload(w, false, Long.MAX_VALUE);
      double exact = ErrorAnalysis.traceGramTimesPseudoInverse(w, a);
      assertTrue(exact <= a.errorSum() * (1 + 1e-9), w + ": " + exact + " > " + a.errorSum());
    }
    // independent rows: hour totals over hours × kinds, and the re-weighted marginals of 6 × 3
    // minus one kind total (the dependent one): each answer is its own measurement
    Workload hours = Workloads.marginal(new int[] {6, 3}, 0);
    DirectStrategy a = DirectStrategy.forWorkload(hours, false, Long.MAX_VALUE);
    assertEquals(a.errorSum(), ErrorAnalysis.traceGramTimesPseudoInverse(hours, a), 1e-9);
    double[][] m = Workloads.marginals(new int[] {6, 3}, 1).matrix();
    Workload independent = new ExplicitWorkload(java.util.Arrays.copyOf(m, m.length - 1));
    DirectStrategy b = DirectStrategy.forWorkload(independent, false, Long.MAX_VALUE);
    assertEquals(b.errorSum(), ErrorAnalysis.traceGramTimesPseudoInverse(independent, b),
        1e-9 * b.errorSum());
  }

  @Test
  void marginalsAreReweightedByTheirGroupSizes() {
    // 1-way marginals of 2,880 × 3: hour totals (2,880 queries, column norm 1) weighted
    // (2880)^(1/4), kind totals (3) weighted 3^(1/4): 89 : 16 after rounding 7-bit ratios
    DirectStrategy a = DirectStrategy.forWorkload(Workloads.marginals(new int[] {2880, 3}, 1),
        false, Long.MAX_VALUE);
    assertTrue(a.name().contains("weights [89, 16]"), a.name());
    assertEquals(89 * 89 + 16 * 16, a.maxColumnSumOfSquares());
    assertTrue(a.totalL2Bound() < 2 * 2883 * 0.54, "re-weighting gains: " + a.totalL2Bound());
  }
}
