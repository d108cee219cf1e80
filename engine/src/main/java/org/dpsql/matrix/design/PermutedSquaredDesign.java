package org.dpsql.matrix.design;

/**
 * A design whose cells are a permutation of a base design's cells: row {@code j} here is row {@code
 * perm[j]} of the base (package-private; Program 1 itself is invariant under this).
 */
final class PermutedSquaredDesign implements SquaredDesign {
  private final SquaredDesign base;
  private final int[] perm;

  PermutedSquaredDesign(SquaredDesign base, int[] perm) {
    this.base = base;
    this.perm = perm;
  }

  @Override
  public int cells() {
    return perm.length;
  }

  @Override
  public int designs() {
    return base.designs();
  }

  private double[] toBase(double[] v) {
    double[] b = new double[v.length];
    for (int j = 0; j < v.length; j++) {
      b[perm[j]] = v[j];
    }
    return b;
  }

  private double[] fromBase(double[] b) {
    double[] v = new double[perm.length];
    for (int j = 0; j < v.length; j++) {
      v[j] = b[perm[j]];
    }
    return v;
  }

  @Override
  public double[] times(double[] u) {
    return fromBase(base.times(u));
  }

  @Override
  public double[] transposeTimes(double[] mu) {
    return base.transposeTimes(toBase(mu));
  }

  @Override
  public double[][] designGram(double[] w) {
    return base.designGram(toBase(w));
  }

  @Override
  public double[][] cellGram(double[] d) {
    double[][] g = base.cellGram(d);
    int n = perm.length;
    double[][] out = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        out[a][b] = g[perm[a]][perm[b]];
      }
    }
    return out;
  }

  @Override
  public double[] column(int i) {
    return fromBase(base.column(i));
  }

  /** The base's distinct rows: Program 1 does not depend on the order of the constraints. */
  @Override
  public SquaredDesign distinctCells() {
    return base.distinctCells();
  }

  @Override
  public int[] distinctCellIndices() {
    int[] inverse = new int[perm.length];
    for (int j = 0; j < perm.length; j++) {
      inverse[perm[j]] = j;
    }
    int[] b = base.distinctCellIndices();
    int[] out = new int[b.length];
    for (int t = 0; t < b.length; t++) {
      out[t] = inverse[b[t]];
    }
    return out;
  }

  @Override
  public SquaredDesign selectDesigns(int[] designs) {
    return new PermutedSquaredDesign(base.selectDesigns(designs), perm);
  }
}
