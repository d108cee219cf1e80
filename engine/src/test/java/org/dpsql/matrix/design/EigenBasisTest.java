package org.dpsql.matrix.design;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.PermutedWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.junit.jupiter.api.Test;

/** Closed-form, permuted, factored, Kronecker and dense eigenbases agree with the Gram matrices. */
class EigenBasisTest {

  @Test
  void allRangeGramIsNPlusOneTimesInverseOfSecondDifference() {
    int n = 40;
    double[][] g = new AllRangesWorkload(n).gram();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double gt = 2 * g[i][j] - (j > 0 ? g[i][j - 1] : 0) - (j < n - 1 ? g[i][j + 1] : 0);
        assertEquals(i == j ? n + 1 : 0, gt, 1e-9);
      }
    }
  }

  @Test
  void prefixGramIsInverseOfSecondDifferenceWithFreeFirstCell() {
    int n = 40;
    double[][] g = new PrefixWorkload(n).gram();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double diag = j == 0 ? 1 : 2;
        double gt = diag * g[i][j] - (j > 0 ? g[i][j - 1] : 0) - (j < n - 1 ? g[i][j + 1] : 0);
        assertEquals(i == j ? 1 : 0, gt, 1e-9);
      }
    }
  }

  @Test
  void sineBasisDiagonalisesAllRanges() {
    for (int n : new int[] {1, 2, 7, 64, 101}) {
      assertDiagonalises(new AllRangesWorkload(n), EigenBasis.allRanges(n), 1e-12);
    }
  }

  @Test
  void cosineBasisDiagonalisesPrefixes() {
    for (int n : new int[] {1, 2, 7, 64, 101}) {
      assertDiagonalises(new PrefixWorkload(n), EigenBasis.prefix(n), 1e-12);
    }
  }

  @Test
  void closedFormsMatchTheDenseSolver() {
    for (Workload w : List.of(new AllRangesWorkload(60), new PrefixWorkload(60))) {
      EigenBasis closed = EigenBasis.of(w);
      EigenBasis dense = EigenBasis.ofGram(w.gram());
      for (int i = 0; i < w.cells(); i++) {
        assertEquals(dense.eigenvalue(i), closed.eigenvalue(i), 1e-9 * dense.eigenvalue(0));
      }
    }
  }

  @Test
  void permutedWorkloadsUsePermutedEigenQueries() {
    int n = 33;
    Workload w = new PermutedWorkload(new AllRangesWorkload(n), PermutedWorkload.randomPermutation(n, 7));
    EigenBasis b = EigenBasis.of(w);
    assertTrue(b.kind().startsWith("permuted sine"));
    assertDiagonalises(w, b, 1e-12);
  }

  @Test
  void trivialFamilies() {
    assertDiagonalises(new IdentityWorkload(5), EigenBasis.of(new IdentityWorkload(5)), 1e-15);
    EigenBasis total = EigenBasis.of(new TotalWorkload(6));
    assertEquals(1, total.size());
    assertEquals(6, total.eigenvalue(0), 1e-12);
    assertEquals(6.0 / 6, total.svdb(EigenBasis.DEFAULT_TOLERANCE), 1e-12);
  }

  @Test
  void kroneckerAndFactoredBasesMatchDense() {
    int[] dims = {4, 4, 4};
    Workload marg = Workloads.marginals(dims, 2); // union of Kronecker products, rank-deficient
    EigenBasis f = EigenBasis.of(marg);
    assertTrue(f.kind().startsWith("factored"), f.kind());
    EigenBasis dense = EigenBasis.ofGram(marg.gram());
    int r = dense.rank(EigenBasis.DEFAULT_TOLERANCE);
    assertEquals(r, f.rank(EigenBasis.DEFAULT_TOLERANCE));
    for (int i = 0; i < r; i++) {
      assertEquals(dense.eigenvalue(i), f.eigenvalue(i), 1e-9 * dense.eigenvalue(0));
    }
    assertDiagonalises(marg, f, 1e-10);

    Workload k = KroneckerWorkload.of(new AllRangesWorkload(4), new PrefixWorkload(3), new TotalWorkload(2));
    EigenBasis kb = EigenBasis.of(k);
    assertDiagonalises(k, kb, 1e-12);

    double[][] rows = new double[5][20];
    SplittableRandom rnd = new SplittableRandom(3);
    for (double[] row : rows) {
      for (int j = 0; j < row.length; j++) {
        row[j] = rnd.nextInt(3) - 1;
      }
    }
    Workload shortW = new ExplicitWorkload(rows);
    EigenBasis sb = EigenBasis.of(shortW);
    assertEquals(5, sb.size());
    assertDiagonalises(shortW, sb, 1e-10);
  }

  @Test
  void denseSolverOnRandomSymmetricMatrices() {
    SplittableRandom rnd = new SplittableRandom(11);
    int n = 30;
    double[][] a = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        a[i][j] = a[j][i] = rnd.nextGaussian();
      }
    }
    SymmetricEigen e = SymmetricEigen.of(a);
    double[] v = e.values();
    for (int i = 1; i < n; i++) {
      assertTrue(v[i - 1] >= v[i]);
    }
    double[][] q = e.vectors();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double rec = 0;
        for (int t = 0; t < n; t++) {
          rec += v[t] * q[t][i] * q[t][j];
        }
        assertEquals(a[i][j], rec, 1e-10);
      }
    }
    double[][] notSym = {{1, 2}, {3, 4}};
    assertThrows(IllegalArgumentException.class, () -> SymmetricEigen.of(notSym));
  }

  /** {@code Q G Qᵀ = diag(σ)} and {@code Q Qᵀ = I} to the given relative accuracy. */
  static void assertDiagonalises(Workload w, EigenBasis b, double tol) {
    int n = w.cells();
    double[][] q = b.eigenQueries(0, b.size());
    double[][] gq = w.gramTimes(Dense.transpose(q)); // n × size
    double scale = Math.max(1, b.eigenvalue(0));
    for (int a = 0; a < q.length; a++) {
      for (int c = 0; c < q.length; c++) {
        double v = 0;
        double o = 0;
        for (int j = 0; j < n; j++) {
          v += q[a][j] * gq[j][c];
          o += q[a][j] * q[c][j];
        }
        assertEquals(a == c ? b.eigenvalue(a) : 0, v, tol * scale * Math.max(1, n / 10.0), "QGQᵀ at " + a + "," + c);
        assertEquals(a == c ? 1 : 0, o, 1e-10, "QQᵀ at " + a + "," + c);
      }
    }
  }
}
