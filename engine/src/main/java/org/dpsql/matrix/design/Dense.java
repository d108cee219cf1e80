package org.dpsql.matrix.design;

import java.util.stream.IntStream;

/** Dense row-major linear algebra kernels used by the designers (package-private). */
final class Dense {
  private Dense() {}

  private static final int BLOCK = 32;
  private static final int PARALLEL_THRESHOLD = 200_000;

  /** {@code X Xᵀ} for the rows of {@code x} ({@code r × c} → {@code r × r}), symmetric, blocked. */
  static double[][] gramOfRows(double[][] x) {
    int r = x.length;
    double[][] g = new double[r][r];
    int blocks = (r + BLOCK - 1) / BLOCK;
    long work = (long) r * r * (r == 0 ? 0 : x[0].length);
    IntStream s = IntStream.range(0, blocks);
    if (work > PARALLEL_THRESHOLD) {
      s = s.parallel();
    }
    s.forEach(
        b -> {
          int i0 = b * BLOCK;
          int i1 = Math.min(r, i0 + BLOCK);
          for (int j = 0; j < i1; j++) {
            double[] xj = x[j];
            for (int i = Math.max(i0, j); i < i1; i++) {
              g[i][j] = dot(x[i], xj, xj.length);
            }
          }
        });
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < i; j++) {
        g[j][i] = g[i][j];
      }
    }
    return g;
  }

  /** {@code X Yᵀ} for the rows of {@code x} ({@code r × c}) and {@code y} ({@code s × c}), blocked. */
  static double[][] crossOfRows(double[][] x, double[][] y) {
    int r = x.length;
    int s = y.length;
    double[][] g = new double[r][s];
    int blocks = (r + BLOCK - 1) / BLOCK;
    IntStream st = IntStream.range(0, blocks);
    if ((long) r * s * (r == 0 ? 0 : x[0].length) > PARALLEL_THRESHOLD) {
      st = st.parallel();
    }
    st.forEach(
        b -> {
          int i0 = b * BLOCK;
          int i1 = Math.min(r, i0 + BLOCK);
          for (int j = 0; j < s; j++) {
            double[] yj = y[j];
            for (int i = i0; i < i1; i++) {
              g[i][j] = dot(x[i], yj, yj.length);
            }
          }
        });
    return g;
  }

  static double dot(double[] a, double[] b, int len) {
    double s0 = 0;
    double s1 = 0;
    double s2 = 0;
    double s3 = 0;
    int i = 0;
    for (; i + 3 < len; i += 4) {
      s0 += a[i] * b[i];
      s1 += a[i + 1] * b[i + 1];
      s2 += a[i + 2] * b[i + 2];
      s3 += a[i + 3] * b[i + 3];
    }
    for (; i < len; i++) {
      s0 += a[i] * b[i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /**
   * In-place lower Cholesky factor of the symmetric positive definite {@code a} (only the lower
   * triangle is read; the strict upper triangle is zeroed).
   *
   * @throws ArithmeticException if {@code a} is not numerically positive definite
   */
  static void choleskyInPlace(double[][] a) {
    int n = a.length;
    for (int j0 = 0; j0 < n; j0 += BLOCK) {
      int j1 = Math.min(n, j0 + BLOCK);
      // diagonal block
      for (int i = j0; i < j1; i++) {
        double[] ai = a[i];
        for (int j = j0; j <= i; j++) {
          double[] aj = a[j];
          double s = ai[j] - dot(ai, aj, j);
          if (i == j) {
            if (!(s > 0) || !Double.isFinite(s)) {
              throw new ArithmeticException("matrix is not positive definite (pivot " + i + ")");
            }
            ai[i] = Math.sqrt(s);
          } else {
            ai[j] = s / aj[j];
          }
        }
      }
      // rows below the block
      final int b0 = j0;
      final int b1 = j1;
      IntStream rows = IntStream.range(j1, n);
      if ((long) (n - j1) * (j1 - j0) * j1 > PARALLEL_THRESHOLD) {
        rows = rows.parallel();
      }
      rows.forEach(
          i -> {
            double[] ai = a[i];
            for (int j = b0; j < b1; j++) {
              double[] aj = a[j];
              ai[j] = (ai[j] - dot(ai, aj, j)) / aj[j];
            }
          });
    }
    for (int i = 0; i < n; i++) {
      java.util.Arrays.fill(a[i], i + 1, n, 0.0);
    }
  }

  /** Solves {@code L Lᵀ x = b} given the lower Cholesky factor {@code l}; returns a new vector. */
  static double[] choleskySolve(double[][] l, double[] b) {
    int n = l.length;
    double[] y = b.clone();
    for (int i = 0; i < n; i++) {
      y[i] = (y[i] - dot(l[i], y, i)) / l[i][i];
    }
    for (int i = n - 1; i >= 0; i--) {
      double[] li = l[i];
      double xi = y[i] / li[i];
      y[i] = xi;
      for (int k = 0; k < i; k++) {
        y[k] -= li[k] * xi;
      }
    }
    return y;
  }

  /** A factored SPD system that can be solved for several right-hand sides. */
  static final class Spd {
    private final double[][] l;
    private final double[] scale;

    /** Factors {@code a} (overwritten) after Jacobi equilibration. */
    Spd(double[][] a) {
      int n = a.length;
      scale = new double[n];
      for (int i = 0; i < n; i++) {
        if (!(a[i][i] > 0)) {
          throw new ArithmeticException("non-positive diagonal " + a[i][i] + " at " + i);
        }
        scale[i] = 1 / Math.sqrt(a[i][i]);
      }
      for (int i = 0; i < n; i++) {
        double[] ai = a[i];
        for (int j = 0; j <= i; j++) {
          ai[j] *= scale[i] * scale[j];
        }
      }
      choleskyInPlace(a);
      l = a;
    }

    double[] solve(double[] b) {
      int n = l.length;
      double[] sb = new double[n];
      for (int i = 0; i < n; i++) {
        sb[i] = b[i] * scale[i];
      }
      double[] x = choleskySolve(l, sb);
      for (int i = 0; i < n; i++) {
        x[i] *= scale[i];
      }
      return x;
    }
  }

  /** Column {@code j} subset: {@code x[·][cols]} for every row. */
  static double[][] selectColumns(double[][] x, int[] cols) {
    double[][] out = new double[x.length][cols.length];
    for (int r = 0; r < x.length; r++) {
      double[] xr = x[r];
      double[] o = out[r];
      for (int c = 0; c < cols.length; c++) {
        o[c] = xr[cols[c]];
      }
    }
    return out;
  }

  static double[][] transpose(double[][] a) {
    int r = a.length;
    int c = r == 0 ? 0 : a[0].length;
    double[][] t = new double[c][r];
    for (int i = 0; i < r; i++) {
      double[] ai = a[i];
      for (int j = 0; j < c; j++) {
        t[j][i] = ai[j];
      }
    }
    return t;
  }

  static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }

  static double max(double[] v) {
    double m = Double.NEGATIVE_INFINITY;
    for (double x : v) {
      m = Math.max(m, x);
    }
    return m;
  }
}
