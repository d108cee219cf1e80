package org.dpsql.matrix.hdmm;

/** Plain-Java dense kernels for the small ({@code p × p}) and thin ({@code p × n}) matrices of this package. */
final class SmallDense {
  private SmallDense() {}

  /** {@code A B} with the row-oriented (i, k, j) loop order. */
  static double[][] multiply(double[][] a, double[][] b) {
    int r = a.length;
    int inner = b.length;
    int c = inner == 0 ? 0 : b[0].length;
    double[][] out = new double[r][c];
    for (int i = 0; i < r; i++) {
      double[] oi = out[i];
      double[] ai = a[i];
      for (int k = 0; k < inner; k++) {
        double v = ai[k];
        if (v == 0) {
          continue;
        }
        double[] bk = b[k];
        for (int j = 0; j < c; j++) {
          oi[j] += v * bk[j];
        }
      }
    }
    return out;
  }

  /**
   * The lower Cholesky factor {@code L} of a symmetric positive definite {@code a} ({@code a = L
   * Lᵀ}), or {@code null} if a pivot is not positive.
   */
  static double[][] cholesky(double[][] a) {
    int n = a.length;
    double[][] l = new double[n][n];
    for (int i = 0; i < n; i++) {
      double[] li = l[i];
      for (int j = 0; j <= i; j++) {
        double[] lj = l[j];
        double t = a[i][j];
        for (int k = 0; k < j; k++) {
          t -= li[k] * lj[k];
        }
        if (i == j) {
          if (!(t > 0)) {
            return null;
          }
          li[i] = Math.sqrt(t);
        } else {
          li[j] = t / lj[j];
        }
      }
    }
    return l;
  }

  /** {@code a⁻¹} for symmetric positive definite {@code a}, via Cholesky. */
  static double[][] inverseSpd(double[][] a) {
    double[][] l = cholesky(a);
    if (l == null) {
      throw new ArithmeticException("matrix is not positive definite");
    }
    int n = a.length;
    // L⁻¹ (lower triangular)
    double[][] li = new double[n][n];
    for (int c = 0; c < n; c++) {
      li[c][c] = 1 / l[c][c];
      for (int i = c + 1; i < n; i++) {
        double t = 0;
        for (int k = c; k < i; k++) {
          t -= l[i][k] * li[k][c];
        }
        li[i][c] = t / l[i][i];
      }
    }
    // a⁻¹ = L⁻ᵀ L⁻¹
    double[][] inv = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j <= i; j++) {
        double t = 0;
        for (int k = i; k < n; k++) {
          t += li[k][i] * li[k][j];
        }
        inv[i][j] = t;
        inv[j][i] = t;
      }
    }
    return inv;
  }
}
