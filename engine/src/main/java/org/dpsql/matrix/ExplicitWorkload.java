package org.dpsql.matrix;

/** A workload given by its explicit rows {@code W} (m × n). */
public final class ExplicitWorkload implements Workload {
  private final double[][] rows;
  private final int n;

  /** A workload whose queries are the rows of {@code w} (copied). */
  public ExplicitWorkload(double[][] w) {
    if (w.length == 0 || w[0].length == 0) {
      throw new IllegalArgumentException("a workload needs at least one query and one cell");
    }
    n = w[0].length;
    rows = new double[w.length][];
    for (int i = 0; i < w.length; i++) {
      if (w[i].length != n) {
        throw new IllegalArgumentException("row " + i + " has " + w[i].length + " cells, not " + n);
      }
      rows[i] = w[i].clone();
    }
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
    return Matrices.multiply(Matrices.transpose(rows), rows);
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    for (double[] r : rows) {
      for (int j = 0; j < n; j++) {
        d[j] += r[j] * r[j];
      }
    }
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    return Matrices.multiply(Matrices.transpose(rows), Matrices.multiply(rows, x));
  }

  @Override
  public double[][] matrix() {
    return Matrices.copy(rows);
  }

  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    double[] out = new double[rows.length];
    for (int i = 0; i < rows.length; i++) {
      double s = 0;
      for (int j = 0; j < n; j++) {
        s += rows[i][j] * x[j];
      }
      out[i] = s;
    }
    return out;
  }

  @Override
  public String toString() {
    return "Explicit(" + rows.length + "x" + n + ")";
  }
}
