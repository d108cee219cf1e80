package org.dpsql.matrix;

/** A strategy given by its explicit rows. */
public final class ExplicitStrategy implements Strategy {
  private final double[][] a;
  private final String name;

  /** The strategy with rows {@code a} (copied), named {@code name}. */
  public ExplicitStrategy(String name, double[][] a) {
    if (a.length == 0 || a[0].length == 0) {
      throw new IllegalArgumentException("a strategy needs at least one row and one cell");
    }
    int n = a[0].length;
    this.a = new double[a.length][];
    for (int i = 0; i < a.length; i++) {
      if (a[i].length != n) {
        throw new IllegalArgumentException("row " + i + " has " + a[i].length + " cells, not " + n);
      }
      for (double v : a[i]) {
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("strategy entries must be finite");
        }
      }
      this.a[i] = a[i].clone();
    }
    this.name = name;
  }

  @Override
  public int cells() {
    return a[0].length;
  }

  @Override
  public long rows() {
    return a.length;
  }

  @Override
  public double[][] matrix() {
    return Matrices.copy(a);
  }

  /** {@code AᵀA}, accumulated row by row over the non-zeros (cheap for sparse strategies). */
  @Override
  public double[][] gram() {
    int n = cells();
    Matrices.requireDense(n);
    double[][] x = new double[n][n];
    int[] idx = new int[n];
    for (double[] row : a) {
      int nnz = 0;
      for (int j = 0; j < n; j++) {
        if (row[j] != 0) {
          idx[nnz++] = j;
        }
      }
      for (int p = 0; p < nnz; p++) {
        double v = row[idx[p]];
        double[] xp = x[idx[p]];
        for (int q = 0; q < nnz; q++) {
          xp[idx[q]] += v * row[idx[q]];
        }
      }
    }
    return x;
  }

  @Override
  public double[] columnNormsSquared() {
    double[] d = new double[cells()];
    for (double[] r : a) {
      for (int j = 0; j < d.length; j++) {
        d[j] += r[j] * r[j];
      }
    }
    return d;
  }

  @Override
  public double[] columnNormsL1() {
    double[] d = new double[cells()];
    for (double[] r : a) {
      for (int j = 0; j < d.length; j++) {
        d[j] += Math.abs(r[j]);
      }
    }
    return d;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name + " [" + a.length + "x" + cells() + "]";
  }
}
