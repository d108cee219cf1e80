package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.SingularValueDecomposition;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.SparseWorkload;
import org.junit.jupiter.api.Test;

/**
 * The wide (row-Gram) and monomial (diagonal) representations of {@link FactorInverse} agree with
 * the pseudo-inverse computed by an SVD of {@code ÂᵀÂ} (Commons Math), to {@code 1e-9} relative.
 */
class LeastSquaresShapesTest {

  private static void assertAgreesWithSvd(double[][] a, double[] w, boolean inRowSpace) {
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("A", a));
    LeastSquares ls = LeastSquares.of(s);
    double[][] exact = s.asStrategy().matrix();
    RealMatrix g = new Array2DRowRealMatrix(Matrices.multiply(Matrices.transpose(exact), exact));
    RealMatrix pinv = new SingularValueDecomposition(g).getSolver().getInverse();
    double[] expected = pinv.operate(w);
    double[] got = ls.gramPinvTimes(w);
    double scale = 0;
    for (double v : expected) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int j = 0; j < w.length; j++) {
      assertEquals(expected[j], got[j], 1e-9 * scale, "G⁺w at " + j);
    }
    double[] projected = g.multiply(pinv).operate(w);
    double[] p = ls.projectOntoRowSpace(w);
    for (int j = 0; j < w.length; j++) {
      assertEquals(projected[j], p[j], 1e-9, "Pw at " + j);
    }
    assertEquals(inRowSpace, ls.inRowSpace(w));
  }

  @Test
  void wideFactorMatchesTheSvd() {
    SplittableRandom r = new SplittableRandom(4);
    int p = 6;
    int n = 40;
    double[][] a = new double[p][n];
    for (double[] row : a) {
      for (int j = 0; j < n; j++) {
        row[j] = r.nextDouble() - 0.5;
      }
    }
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("A", a));
    double[] inside = s.realTransposeTimes(new double[] {1, -2, 0.5, 0, 3, 1});
    assertAgreesWithSvd(a, inside, true);
    double[] outside = new double[n];
    outside[3] = 1;
    assertAgreesWithSvd(a, outside, false);
    assertEquals(p, LeastSquares.of(s).rank());
  }

  @Test
  void rankDeficientWideFactorAndWorkloadCheck() {
    // rows: ranges [0,10), [10,20), [0,20) over 50 cells: rank 2
    double[][] a = new double[3][50];
    for (int j = 0; j < 20; j++) {
      a[j < 10 ? 0 : 1][j] = 1;
      a[2][j] = 1;
    }
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("ranges", a));
    LeastSquares ls = LeastSquares.of(s);
    assertEquals(2, ls.rank());
    int[] first20 = new int[20];
    for (int j = 0; j < 20; j++) {
      first20[j] = j;
    }
    ls.requireInRowSpace(new SparseWorkload(50, new int[][] {first20}));
    assertFalse(ls.inRowSpace(unit(50, 30)));
    double[] w = new double[50];
    java.util.Arrays.fill(w, 0, 20, 1);
    assertAgreesWithSvd(a, w, true);
    // a one-query sparse workload's trace(W G⁺ Wᵀ) is that query's quadratic form
    SparseWorkload total = new SparseWorkload(50, new int[][] {first20});
    assertEquals(ls.quadraticForm(w), ls.traceGramPinv(total), 1e-12);
  }

  @Test
  void monomialFactorIsDiagonal() {
    double[][] a = new double[5][5];
    int[] perm = {3, 0, 4, 1, 2};
    for (int i = 0; i < 5; i++) {
      a[i][perm[i]] = 0.5 + i;
    }
    double[] w = {1, 2, 3, 4, 5};
    assertAgreesWithSvd(a, w, true);
    assertTrue(LeastSquares.of(LatticeStrategy.round(new ExplicitStrategy("D", a))).fullColumnRank());
  }

  private static double[] unit(int n, int j) {
    double[] e = new double[n];
    e[j] = 1;
    return e;
  }
}
