package org.dpsql.matrix;

/**
 * The {@code n} prefix (CDF) queries {@code [1, i]} over {@code n} ordered cells: {@code (WᵀW)_{ij} =
 * n − max(i,j) + 1} (1-based), with an {@code O(n k)} Gram product.
 */
public final class PrefixWorkload extends OneDimensionalWorkload {

  /** The prefixes of {@code n ≥ 1} cells. */
  public PrefixWorkload(int n) {
    super(n);
  }

  @Override
  public long queries() {
    return n;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    double[][] g = new double[n][n];
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= n; j++) {
        g[i - 1][j - 1] = n - Math.max(i, j) + 1;
      }
    }
    return g;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    for (int i = 1; i <= n; i++) {
      d[i - 1] = n - i + 1;
    }
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    // (Gx)_i = (n+1-i) Σ_{j≤i} x_j + Σ_{j>i} (n+1-j) x_j
    int k = x.length == 0 ? 0 : x[0].length;
    double[][] out = new double[n][k];
    for (int c = 0; c < k; c++) {
      double[] suffix = new double[n + 2];
      for (int j = n; j >= 1; j--) {
        suffix[j] = suffix[j + 1] + (double) (n + 1 - j) * x[j - 1][c];
      }
      double prefix = 0;
      for (int i = 1; i <= n; i++) {
        prefix += x[i - 1][c];
        out[i - 1][c] = (n + 1 - i) * prefix + suffix[i + 1];
      }
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    double[][] w = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        w[i][j] = 1;
      }
    }
    return w;
  }

  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    double[] out = new double[n];
    double s = 0;
    for (int i = 0; i < n; i++) {
      s += x[i];
      out[i] = s;
    }
    return out;
  }

  @Override
  public String toString() {
    return "Prefix(" + n + ")";
  }
}
