package org.dpsql.matrix.hdmm;

import org.dpsql.matrix.Strategy;

/**
 * A weighted set of marginals over a domain {@code n₁ × … × n_d} (cells in row-major order, last
 * attribute fastest): {@code A = [θ_S M_S]_S} over the attribute subsets {@code S} with {@code θ_S >
 * 0}, where {@code M_S = ⊗ₐ (I_{nₐ} if a ∈ S else 1ᵀ)} is the marginal on {@code S} (HDMM §7). Every
 * cell lies in exactly one query of each marginal, so every column has L1 norm {@code Σ_S θ_S} and
 * squared L2 norm {@code Σ_S θ_S²}: {@code ||A||₁ = Σ_S θ_S}. Subsets are bit masks ({@code a ∈ S}
 * iff bit {@code a} is set). Immutable.
 */
public final class MarginalsStrategy implements Strategy {
  private final int[] dims;
  private final double[] weights;
  private final int n;

  /**
   * The marginals of {@code dims} weighted by {@code weights} ({@code 2^d} finite non-negative
   * entries, not all zero; copied).
   */
  public MarginalsStrategy(int[] dims, double[] weights) {
    if (dims.length == 0 || dims.length > 30 || weights.length != 1 << dims.length) {
      throw new IllegalArgumentException(
          "need 1..30 attributes and 2^d weights, got " + dims.length + " and " + weights.length);
    }
    long cells = 1;
    for (int d : dims) {
      if (d < 1) {
        throw new IllegalArgumentException("attribute sizes must be positive: " + d);
      }
      cells *= d;
      if (cells > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("domain too large");
      }
    }
    double sum = 0;
    for (double w : weights) {
      if (!(w >= 0) || !Double.isFinite(w)) {
        throw new IllegalArgumentException("weights must be finite and non-negative, got " + w);
      }
      sum += w;
    }
    if (sum == 0) {
      throw new IllegalArgumentException("at least one marginal needs a positive weight");
    }
    this.dims = dims.clone();
    this.weights = weights.clone();
    this.n = (int) cells;
  }

  /** The attribute sizes. */
  public int[] dims() {
    return dims.clone();
  }

  /** The weight {@code θ_S} of every subset mask {@code S} (a copy). */
  public double[] weights() {
    return weights.clone();
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long rows() {
    long r = 0;
    for (int s = 0; s < weights.length; s++) {
      if (weights[s] > 0) {
        r += marginalSize(s);
      }
    }
    return r;
  }

  /** {@code Π_{a ∈ S} nₐ}: the number of queries of the marginal on {@code S}. */
  long marginalSize(int s) {
    long size = 1;
    for (int a = 0; a < dims.length; a++) {
      if ((s >> a & 1) == 1) {
        size *= dims[a];
      }
    }
    return size;
  }

  @Override
  public double[][] matrix() {
    long rows = rows();
    if (rows * (long) n > org.dpsql.matrix.Workload.MAX_EXPLICIT_ENTRIES) {
      throw new IllegalStateException("a " + rows + " x " + n + " strategy is too large to materialise");
    }
    double[][] a = new double[(int) rows][n];
    int[] cell = new int[dims.length];
    int offset = 0;
    for (int s = 0; s < weights.length; s++) {
      if (weights[s] == 0) {
        continue;
      }
      java.util.Arrays.fill(cell, 0);
      for (int x = 0; x < n; x++) {
        int r = 0;
        for (int att = 0; att < dims.length; att++) {
          if ((s >> att & 1) == 1) {
            r = r * dims[att] + cell[att];
          }
        }
        a[offset + r][x] = weights[s];
        increment(cell);
      }
      offset += (int) marginalSize(s);
    }
    return a;
  }

  /** {@code (AᵀA)_{xy} = Σ_{S ⊆ agree(x,y)} θ_S²}, {@code agree} the attributes on which the cells agree. */
  @Override
  public double[][] gram() {
    if (n > org.dpsql.matrix.Workload.MAX_DENSE_CELLS) {
      throw new IllegalStateException(n + " cells are too many for a dense Gram matrix");
    }
    double[] sub = new double[weights.length];
    for (int s = 0; s < weights.length; s++) {
      sub[s] = weights[s] * weights[s];
    }
    MarginalsAlgebra.subsetSums(sub, dims.length);
    int[][] coords = new int[n][];
    int[] cell = new int[dims.length];
    for (int x = 0; x < n; x++) {
      coords[x] = cell.clone();
      increment(cell);
    }
    double[][] g = new double[n][n];
    for (int x = 0; x < n; x++) {
      for (int y = 0; y < n; y++) {
        int agree = 0;
        for (int att = 0; att < dims.length; att++) {
          if (coords[x][att] == coords[y][att]) {
            agree |= 1 << att;
          }
        }
        g[x][y] = sub[agree];
      }
    }
    return g;
  }

  @Override
  public double[] columnNormsSquared() {
    double t = 0;
    for (double w : weights) {
      t += w * w;
    }
    double[] d = new double[n];
    java.util.Arrays.fill(d, t);
    return d;
  }

  @Override
  public double[] columnNormsL1() {
    double t = 0;
    for (double w : weights) {
      t += w;
    }
    double[] d = new double[n];
    java.util.Arrays.fill(d, t);
    return d;
  }

  private void increment(int[] cell) {
    for (int att = dims.length - 1; att >= 0; att--) {
      if (++cell[att] < dims[att]) {
        return;
      }
      cell[att] = 0;
    }
  }

  @Override
  public String name() {
    int used = 0;
    for (double w : weights) {
      if (w > 0) {
        used++;
      }
    }
    return "Marginals(" + java.util.Arrays.toString(dims) + ", " + used + " of " + weights.length + ")";
  }

  @Override
  public String toString() {
    return name();
  }
}
