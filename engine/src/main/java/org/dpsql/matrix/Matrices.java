package org.dpsql.matrix;

import java.util.List;
import org.dpsql.support.QuietOjAlgo;
import org.ojalgo.matrix.store.MatrixStore;
import org.ojalgo.matrix.store.RawStore;

/** Small dense-matrix helpers over row-major {@code double[][]}; heavy products go to ojAlgo. */
public final class Matrices {
  static {
    QuietOjAlgo.ensure();
  }

  private Matrices() {}

  /** {@code A B} (multithreaded through ojAlgo for large operands). */
  public static double[][] multiply(double[][] a, double[][] b) {
    if (a.length == 0) {
      return new double[0][b.length == 0 ? 0 : b[0].length];
    }
    if (a[0].length != b.length) {
      throw new IllegalArgumentException(
          "shape mismatch: " + a.length + "x" + a[0].length + " times " + b.length + "x?");
    }
    MatrixStore<Double> p = RawStore.wrap(a).multiply(RawStore.wrap(b));
    return toArray(p);
  }

  /** The transpose of {@code a}. */
  public static double[][] transpose(double[][] a) {
    int r = a.length;
    int c = r == 0 ? 0 : a[0].length;
    double[][] t = new double[c][r];
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < c; j++) {
        t[j][i] = a[i][j];
      }
    }
    return t;
  }

  /** The Kronecker product {@code A ⊗ B}. */
  public static double[][] kronecker(double[][] a, double[][] b) {
    int ar = a.length;
    int ac = ar == 0 ? 0 : a[0].length;
    int br = b.length;
    int bc = br == 0 ? 0 : b[0].length;
    double[][] k = new double[ar * br][ac * bc];
    for (int i = 0; i < ar; i++) {
      for (int j = 0; j < ac; j++) {
        double s = a[i][j];
        if (s == 0) {
          continue;
        }
        for (int p = 0; p < br; p++) {
          double[] row = k[i * br + p];
          double[] brow = b[p];
          for (int q = 0; q < bc; q++) {
            row[j * bc + q] = s * brow[q];
          }
        }
      }
    }
    return k;
  }

  /** {@code A₁ ⊗ A₂ ⊗ …}, the matrices in order (at least one). */
  public static double[][] kroneckerOf(List<double[][]> factors) {
    double[][] k = factors.get(0);
    for (int i = 1; i < factors.size(); i++) {
      k = kronecker(k, factors.get(i));
    }
    return k;
  }

  /** {@code v₁ ⊗ v₂ ⊗ …}, the vectors in order (at least one): entries are products, last fastest. */
  public static double[] kroneckerOfVectors(List<double[]> factors) {
    double[] d = factors.get(0);
    for (int i = 1; i < factors.size(); i++) {
      double[] f = factors.get(i);
      double[] next = new double[d.length * f.length];
      for (int a = 0; a < d.length; a++) {
        for (int b = 0; b < f.length; b++) {
          next[a * f.length + b] = d[a] * f[b];
        }
      }
      d = next;
    }
    return d;
  }

  /** The {@code n × n} identity. */
  public static double[][] identity(int n) {
    double[][] m = new double[n][n];
    for (int i = 0; i < n; i++) {
      m[i][i] = 1;
    }
    return m;
  }

  /** A deep copy. */
  public static double[][] copy(double[][] a) {
    double[][] c = new double[a.length][];
    for (int i = 0; i < a.length; i++) {
      c[i] = a[i].clone();
    }
    return c;
  }

  /** Copies an ojAlgo matrix into a fresh row-major array. */
  public static double[][] toArray(MatrixStore<Double> m) {
    int r = Math.toIntExact(m.countRows());
    int c = Math.toIntExact(m.countColumns());
    double[][] out = new double[r][c];
    for (int i = 0; i < r; i++) {
      double[] row = out[i];
      for (int j = 0; j < c; j++) {
        row[j] = m.doubleValue(i, j);
      }
    }
    return out;
  }

  /**
   * The number of cells of a product domain: the product of the factors' cells.
   *
   * @throws IllegalArgumentException if it exceeds 2^31 − 1
   */
  public static int productOfCells(int[] factorCells) {
    long cells = 1;
    for (int c : factorCells) {
      cells *= c;
      if (cells > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("domain too large: more than 2^31 cells");
      }
    }
    return (int) cells;
  }

  /** {@code n}, checked to be a positive number of cells. */
  public static int requireCells(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("cells must be positive: " + n);
    }
    return n;
  }

  static void requireLength(double[] x, int n) {
    if (x.length != n) {
      throw new IllegalArgumentException("expected a vector of " + n + " cells, got " + x.length);
    }
  }

  static void requireDense(int n) {
    if (n > Workload.MAX_DENSE_CELLS) {
      throw new IllegalStateException(
          n + " cells are too many for a dense Gram matrix (limit " + Workload.MAX_DENSE_CELLS
              + "); use the Kronecker factors or gramTimes");
    }
  }

  static void requireExplicit(long m, int n) {
    if (m * (long) n > Workload.MAX_EXPLICIT_ENTRIES) {
      throw new IllegalStateException(
          "a workload of " + m + " queries over " + n + " cells is too large to materialise");
    }
  }
}
