package org.dpsql.matrix;

/** The {@code n} single-cell queries: {@code W = I}, {@code WᵀW = I}. */
public final class IdentityWorkload extends OneDimensionalWorkload {

  /** The identity over {@code n ≥ 1} cells. */
  public IdentityWorkload(int n) {
    super(n);
  }

  @Override
  public long queries() {
    return n;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    return Matrices.identity(n);
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    java.util.Arrays.fill(d, 1);
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    return Matrices.copy(x);
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(n, n);
    return Matrices.identity(n);
  }

  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    return x.clone();
  }

  @Override
  public String toString() {
    return "Identity(" + n + ")";
  }
}
