package org.dpsql.matrix;

/**
 * All {@code n(n+1)/2} contiguous range queries {@code [a, b]} over {@code n} ordered cells, never
 * materialised for strategy selection: {@code (WᵀW)_{ij} = min(i,j)·(n − max(i,j) + 1)} (1-based;
 * seed 001 spec §2.11), and {@code (WᵀW)X} costs {@code O(n k)} by prefix sums.
 */
public final class AllRangesWorkload extends OneDimensionalWorkload {

  /** All ranges over {@code n ≥ 1} cells. */
  public AllRangesWorkload(int n) {
    super(n);
  }

  @Override
  public long queries() {
    return (long) n * (n + 1) / 2;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    double[][] g = new double[n][n];
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= n; j++) {
        g[i - 1][j - 1] = (double) Math.min(i, j) * (n - Math.max(i, j) + 1);
      }
    }
    return g;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    for (int i = 1; i <= n; i++) {
      d[i - 1] = (double) i * (n - i + 1);
    }
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    // (Gx)_i = (n+1-i) Σ_{j≤i} j x_j + i Σ_{j>i} (n+1-j) x_j  (1-based)
    int k = x.length == 0 ? 0 : x[0].length;
    double[][] out = new double[n][k];
    for (int c = 0; c < k; c++) {
      double[] suffix = new double[n + 2];
      for (int j = n; j >= 1; j--) {
        suffix[j] = suffix[j + 1] + (double) (n + 1 - j) * x[j - 1][c];
      }
      double prefix = 0;
      for (int i = 1; i <= n; i++) {
        prefix += (double) i * x[i - 1][c];
        out[i - 1][c] = (n + 1 - i) * prefix + (double) i * suffix[i + 1];
      }
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(queries(), n);
    double[][] w = new double[(int) queries()][n];
    int r = 0;
    for (int a = 0; a < n; a++) {
      for (int b = a; b < n; b++) {
        for (int j = a; j <= b; j++) {
          w[r][j] = 1;
        }
        r++;
      }
    }
    return w;
  }

  /** Answers in the order of {@link #matrix()}: {@code [a, b]} for a = 0.., b = a..n−1. */
  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    Matrices.requireExplicit(queries(), 1);
    double[] prefix = new double[n + 1];
    for (int i = 0; i < n; i++) {
      prefix[i + 1] = prefix[i] + x[i];
    }
    double[] out = new double[(int) queries()];
    int r = 0;
    for (int a = 0; a < n; a++) {
      for (int b = a; b < n; b++) {
        out[r++] = prefix[b + 1] - prefix[a];
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "AllRanges(" + n + ")";
  }
}
