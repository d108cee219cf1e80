package org.dpsql.matrix;

/** A closed-form workload family over {@code n ≥ 1} ordered cells of one attribute. */
public abstract class OneDimensionalWorkload implements Workload {
  /** The number of cells. */
  final int n;

  protected OneDimensionalWorkload(int n) {
    this.n = Matrices.requireCells(n);
  }

  @Override
  public final int cells() {
    return n;
  }
}
