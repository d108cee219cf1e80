package org.dpsql.matrix;

import java.util.Arrays;

/**
 * A workload of predicate (0/1) queries stored sparsely: query {@code i} sums the cells listed in
 * {@code rows[i]} (sorted, distinct). This is what SQL filters and GROUP BY cells become; a
 * marginal over a large domain costs memory proportional to its non-zeros, not {@code m·n}.
 */
public final class SparseWorkload implements Workload {
  private final int n;
  private final int[][] rows;

  /** The predicate queries {@code rows} over {@code n} cells (copied and checked). */
  public SparseWorkload(int n, int[][] rows) {
    if (n < 1 || rows.length == 0) {
      throw new IllegalArgumentException("a workload needs at least one query and one cell");
    }
    this.n = n;
    this.rows = new int[rows.length][];
    for (int i = 0; i < rows.length; i++) {
      int[] r = rows[i].clone();
      for (int j = 0; j < r.length; j++) {
        if (r[j] < 0 || r[j] >= n || (j > 0 && r[j] <= r[j - 1])) {
          throw new IllegalArgumentException(
              "query " + i + ": cells must be sorted, distinct and in [0, " + n + ")");
        }
      }
      this.rows[i] = r;
    }
  }

  /** The cells of query {@code i} (a copy). */
  public int[] row(int i) {
    return rows[i].clone();
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long queries() {
    return rows.length;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    double[][] g = new double[n][n];
    for (int[] r : rows) {
      for (int a : r) {
        double[] ga = g[a];
        for (int b : r) {
          ga[b] += 1;
        }
      }
    }
    return g;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    for (int[] r : rows) {
      for (int a : r) {
        d[a] += 1;
      }
    }
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    int k = x.length == 0 ? 0 : x[0].length;
    double[][] out = new double[n][k];
    double[] s = new double[k];
    for (int[] r : rows) {
      Arrays.fill(s, 0);
      for (int a : r) {
        for (int c = 0; c < k; c++) {
          s[c] += x[a][c];
        }
      }
      for (int a : r) {
        for (int c = 0; c < k; c++) {
          out[a][c] += s[c];
        }
      }
    }
    return out;
  }

  @Override
  public double[] answer(double[] v) {
    if (v.length != n) {
      throw new IllegalArgumentException("expected " + n + " cells, got " + v.length);
    }
    double[] out = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      double s = 0;
      for (int a : rows[i]) {
        s += v[a];
      }
      out[i] = s;
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(rows.length, n);
    double[][] w = new double[rows.length][n];
    for (int i = 0; i < rows.length; i++) {
      for (int a : rows[i]) {
        w[i][a] = 1;
      }
    }
    return w;
  }

  @Override
  public String toString() {
    return "Predicates(" + rows.length + "x" + n + ")";
  }
}
