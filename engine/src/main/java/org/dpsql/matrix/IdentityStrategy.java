package org.dpsql.matrix;

import java.util.Arrays;

/**
 * The identity strategy {@code A = I}: measure every cell once. {@code ||A||₁ = ||A||₂ = 1}; its
 * error on a workload is {@code ||W||_F²} (seed 001 §2.10). Never materialised unless asked.
 */
public final class IdentityStrategy implements Strategy {
  private final int n;

  /** The identity over {@code n ≥ 1} cells. */
  public IdentityStrategy(int n) {
    this.n = Matrices.requireCells(n);
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long rows() {
    return n;
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(n, n);
    return Matrices.identity(n);
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    return Matrices.identity(n);
  }

  @Override
  public double[] columnNormsSquared() {
    double[] d = new double[n];
    Arrays.fill(d, 1);
    return d;
  }

  @Override
  public double[] columnNormsL1() {
    return columnNormsSquared();
  }

  @Override
  public String name() {
    return "Identity(" + n + ")";
  }

  @Override
  public String toString() {
    return name();
  }
}
