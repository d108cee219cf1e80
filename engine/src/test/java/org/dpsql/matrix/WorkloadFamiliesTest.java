package org.dpsql.matrix;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Every closed-form family agrees with its explicit rows: Gram, Gram product, diagonal, size. */
class WorkloadFamiliesTest {

  private static final double TOL = 1e-9;

  private static List<Workload> families() {
    int[] dims = {3, 4, 2};
    return List.of(
        new AllRangesWorkload(7),
        new PrefixWorkload(6),
        new IdentityWorkload(5),
        new TotalWorkload(4),
        Workloads.randomPredicates(9, 6, 3),
        KroneckerWorkload.of(new AllRangesWorkload(3), new PrefixWorkload(4)),
        Workloads.marginals(dims, 2),
        Workloads.rangeMarginals(dims, 1),
        Workloads.marginals(dims, 0),
        new PermutedWorkload(new AllRangesWorkload(6), PermutedWorkload.randomPermutation(6, 11)),
        new SparseWorkload(5, new int[][] {{0, 2}, {1, 2, 3, 4}, {}, {4}}),
        KroneckerWorkload.of(new AllRangesWorkload(3), new TotalWorkload(2), new PrefixWorkload(3)));
  }

  @Test
  void gramMatchesExplicitRows() {
    for (Workload w : families()) {
      double[][] rows = w.matrix();
      assertEquals(w.queries(), rows.length, w + " query count");
      double[][] expected = Matrices.multiply(Matrices.transpose(rows), rows);
      double[][] gram = w.gram();
      for (int i = 0; i < expected.length; i++) {
        assertArrayEquals(expected[i], gram[i], TOL, w + " Gram row " + i);
      }
      double[] diag = w.gramDiagonal();
      for (int i = 0; i < diag.length; i++) {
        assertEquals(expected[i][i], diag[i], TOL, w + " diagonal " + i);
      }
    }
  }

  @Test
  void gramTimesMatchesDenseProduct() {
    SplittableRandom r = new SplittableRandom(5);
    for (Workload w : families()) {
      double[][] x = new double[w.cells()][3];
      for (double[] row : x) {
        for (int c = 0; c < 3; c++) {
          row[c] = r.nextDouble(-1, 1);
        }
      }
      double[][] expected = Matrices.multiply(w.gram(), x);
      double[][] fast = w.gramTimes(x);
      for (int i = 0; i < expected.length; i++) {
        assertArrayEquals(expected[i], fast[i], 1e-8, w + " row " + i);
      }
    }
  }

  @Test
  void answersMatchExplicitRowsTimesTheVector() {
    SplittableRandom r = new SplittableRandom(9);
    for (Workload w : families()) {
      double[] x = new double[w.cells()];
      for (int i = 0; i < x.length; i++) {
        x[i] = r.nextInt(-5, 20);
      }
      double[][] rows = w.matrix();
      double[] got = w.answer(x);
      assertEquals(rows.length, got.length, w + " answer count");
      for (int i = 0; i < rows.length; i++) {
        double want = 0;
        for (int j = 0; j < x.length; j++) {
          want += rows[i][j] * x[j];
        }
        assertEquals(want, got[i], 1e-9, w + " answer " + i);
      }
    }
  }

  @Test
  void allRangesClosedFormSpectrumMatchesDenseSolve() {
    AllRangesWorkload w = new AllRangesWorkload(40);
    double[] closed = ErrorAnalysis.eigenvalues(w).clone();
    double[] dense = ErrorAnalysis.eigenvalues(new ExplicitWorkload(w.matrix())).clone();
    java.util.Arrays.sort(closed);
    java.util.Arrays.sort(dense);
    assertArrayEquals(dense, closed, 1e-8 * closed[closed.length - 1]);
  }

  @Test
  void allRangesCountsAndSensitivity() {
    AllRangesWorkload w = new AllRangesWorkload(2048);
    assertEquals(2048L * 2049 / 2, w.queries());
    // the middle cell is in the most ranges: i (n - i + 1) at i = 1024
    assertEquals(Math.sqrt(1024.0 * 1025), w.sensitivityL2(), 1e-9);
    assertThrows(IllegalStateException.class, w::matrix);
  }

  @Test
  void unionRejectsMismatchedCells() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new UnionWorkload(List.of(new IdentityWorkload(3), new IdentityWorkload(4))));
    assertEquals(true, e.getMessage().contains("same cells"));
  }
}
