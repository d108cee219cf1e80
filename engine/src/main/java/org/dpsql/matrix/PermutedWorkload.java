package org.dpsql.matrix;

/**
 * A workload with its cells (columns) permuted: column {@code i} of this workload is column {@code
 * perm[i]} of the base, so {@code G'ᵢⱼ = G_{perm[i], perm[j]}}. Used to test representation
 * independence (seed 001, Prop. 5) and the permuted-range workload of Table 2.
 */
public final class PermutedWorkload implements Workload {
  private final Workload base;
  private final int[] perm;

  /** {@code base} with columns reordered by the permutation {@code perm}. */
  public PermutedWorkload(Workload base, int[] perm) {
    if (perm.length != base.cells()) {
      throw new IllegalArgumentException("permutation length " + perm.length + " ≠ " + base.cells());
    }
    boolean[] seen = new boolean[perm.length];
    for (int p : perm) {
      if (p < 0 || p >= perm.length || seen[p]) {
        throw new IllegalArgumentException("not a permutation of 0.." + (perm.length - 1));
      }
      seen[p] = true;
    }
    this.base = base;
    this.perm = perm.clone();
  }

  /** The workload whose columns are permuted. */
  public Workload base() {
    return base;
  }

  /** The permutation: column {@code i} of this workload is column {@code permutation()[i]} of the base (a copy). */
  public int[] permutation() {
    return perm.clone();
  }

  /** A uniformly random permutation of {@code n} cells from a seeded generator. */
  public static int[] randomPermutation(int n, long seed) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
    return p;
  }

  @Override
  public int cells() {
    return perm.length;
  }

  @Override
  public long queries() {
    return base.queries();
  }

  @Override
  public double[][] gram() {
    double[][] g = base.gram();
    int n = perm.length;
    double[][] out = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        out[i][j] = g[perm[i]][perm[j]];
      }
    }
    return out;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = base.gramDiagonal();
    double[] out = new double[d.length];
    for (int i = 0; i < d.length; i++) {
      out[i] = d[perm[i]];
    }
    return out;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    // G' X = Pᵀ G P X where (P X)[perm[i]] = X[i]
    int n = perm.length;
    double[][] px = new double[n][];
    for (int i = 0; i < n; i++) {
      px[perm[i]] = x[i];
    }
    double[][] y = base.gramTimes(px);
    double[][] out = new double[n][];
    for (int i = 0; i < n; i++) {
      out[i] = y[perm[i]];
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    double[][] w = base.matrix();
    double[][] out = new double[w.length][perm.length];
    for (int r = 0; r < w.length; r++) {
      for (int i = 0; i < perm.length; i++) {
        out[r][i] = w[r][perm[i]];
      }
    }
    return out;
  }

  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, perm.length);
    double[] px = new double[perm.length];
    for (int i = 0; i < perm.length; i++) {
      px[perm[i]] = x[i];
    }
    return base.answer(px);
  }

  @Override
  public String toString() {
    return "Permuted(" + base + ")";
  }
}
