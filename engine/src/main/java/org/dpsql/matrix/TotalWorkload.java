package org.dpsql.matrix;

/** The single query summing all {@code n} cells: {@code W = 1ᵀ}, {@code WᵀW = J} (all ones). */
public final class TotalWorkload extends OneDimensionalWorkload {

  /** The total over {@code n ≥ 1} cells. */
  public TotalWorkload(int n) {
    super(n);
  }

  @Override
  public long queries() {
    return 1;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    double[][] g = new double[n][n];
    for (double[] row : g) {
      java.util.Arrays.fill(row, 1);
    }
    return g;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    java.util.Arrays.fill(d, 1);
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    int k = x.length == 0 ? 0 : x[0].length;
    double[] sums = new double[k];
    for (double[] row : x) {
      for (int c = 0; c < k; c++) {
        sums[c] += row[c];
      }
    }
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      out[i] = sums.clone();
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    double[][] w = new double[1][n];
    java.util.Arrays.fill(w[0], 1);
    return w;
  }

  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return new double[] {s};
  }

  @Override
  public String toString() {
    return "Total(" + n + ")";
  }
}
