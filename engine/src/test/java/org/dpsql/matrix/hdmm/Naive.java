package org.dpsql.matrix.hdmm;

import java.util.SplittableRandom;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/** Naive dense reference computations for the tests (no shared code with the code under test). */
final class Naive {
  private Naive() {}

  /** Gauss–Jordan inverse with partial pivoting. */
  static double[][] inverse(double[][] m) {
    int n = m.length;
    double[][] a = new double[n][2 * n];
    for (int i = 0; i < n; i++) {
      System.arraycopy(m[i], 0, a[i], 0, n);
      a[i][n + i] = 1;
    }
    for (int c = 0; c < n; c++) {
      int piv = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[piv][c])) {
          piv = r;
        }
      }
      double[] t = a[c];
      a[c] = a[piv];
      a[piv] = t;
      double d = a[c][c];
      for (int j = 0; j < 2 * n; j++) {
        a[c][j] /= d;
      }
      for (int r = 0; r < n; r++) {
        if (r != c && a[r][c] != 0) {
          double f = a[r][c];
          for (int j = 0; j < 2 * n; j++) {
            a[r][j] -= f * a[c][j];
          }
        }
      }
    }
    double[][] inv = new double[n][n];
    for (int i = 0; i < n; i++) {
      System.arraycopy(a[i], n, inv[i], 0, n);
    }
    return inv;
  }

  static double[][] gramOf(double[][] a) {
    int n = a[0].length;
    double[][] g = new double[n][n];
    for (double[] row : a) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          g[i][j] += row[i] * row[j];
        }
      }
    }
    return g;
  }

  /** max column L1 norm of the explicit matrix. */
  static double l1(double[][] a) {
    int n = a[0].length;
    double max = 0;
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (double[] row : a) {
        s += Math.abs(row[j]);
      }
      max = Math.max(max, s);
    }
    return max;
  }

  /** ||A||₁² · trace(G (AᵀA)⁻¹) from the explicit matrices (full-rank A). */
  static double objective(double[][] g, double[][] a) {
    double[][] inv = inverse(gramOf(a));
    double t = 0;
    for (int i = 0; i < g.length; i++) {
      for (int j = 0; j < g.length; j++) {
        t += g[i][j] * inv[j][i];
      }
    }
    double s = l1(a);
    return s * s * t;
  }

  static double objective(Workload w, Strategy a) {
    return objective(w.gram(), a.matrix());
  }

  /** m × n workload with i.i.d. entries: 0/1 with probability 1/2, or Gaussian if {@code real}. */
  static Workload randomWorkload(int m, int n, boolean real, SplittableRandom r) {
    double[][] w = new double[m][n];
    for (double[] row : w) {
      for (int j = 0; j < n; j++) {
        row[j] = real ? gaussian(r) : (r.nextBoolean() ? 1 : 0);
      }
    }
    return new ExplicitWorkload(w);
  }

  static double gaussian(SplittableRandom r) {
    double u = r.nextDouble();
    double v = r.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
  }
}
