package org.dpsql.matrix;

import java.util.ArrayList;
import java.util.List;

/**
 * The data-independent baseline strategies the Eigen-Design is compared with (seed 001 §2.10):
 * identity, hierarchical (Hay et al.), Haar wavelet (Xiao et al.) and Fourier (Barak et al.), in
 * one dimension; Kronecker products of them for multi-attribute domains.
 */
public final class Strategies {
  private Strategies() {}

  /** {@code A = I}. */
  public static Strategy identity(int n) {
    return new IdentityStrategy(n);
  }

  /**
   * The hierarchical strategy with branching {@code b ≥ 2}: the total, then every node split into
   * {@code b} contiguous parts of sizes differing by at most one, down to single cells; one row per
   * tree node (root first, breadth-first). For {@code n = b^L}: {@code ||A||₁ = ||A||₂² = L+1}.
   */
  public static Strategy hierarchical(int n, int b) {
    if (n < 1 || b < 2) {
      throw new IllegalArgumentException("need n >= 1 and branching >= 2, got n=" + n + ", b=" + b);
    }
    List<int[]> nodes = new ArrayList<>();
    List<int[]> frontier = List.of(new int[] {0, n});
    while (!frontier.isEmpty()) {
      List<int[]> next = new ArrayList<>();
      for (int[] node : frontier) {
        nodes.add(node);
        int len = node[1] - node[0];
        if (len > 1) {
          int parts = Math.min(b, len);
          int start = node[0];
          for (int p = 0; p < parts; p++) {
            int size = len / parts + (p < len % parts ? 1 : 0);
            next.add(new int[] {start, start + size});
            start += size;
          }
        }
      }
      frontier = next;
    }
    Matrices.requireExplicit(nodes.size(), n);
    double[][] a = new double[nodes.size()][n];
    for (int r = 0; r < a.length; r++) {
      int[] node = nodes.get(r);
      for (int j = node[0]; j < node[1]; j++) {
        a[r][j] = 1;
      }
    }
    return new ExplicitStrategy("Hierarchical(" + n + ", b=" + b + ")", a);
  }

  /**
   * The unnormalised Haar wavelet of Xiao et al. for {@code n} a power of two: {@code H₁ = [1]},
   * {@code H_{2k} = [H_k ⊗ [1 1]; I_k ⊗ [1 −1]]} (reproduces seed 001 Fig. 2). {@code ||H||₂² = 1 +
   * log₂ n}.
   */
  public static Strategy wavelet(int n) {
    if (n < 1 || Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException("the Haar wavelet needs a power-of-two domain, got " + n);
    }
    double[][] h = {{1}};
    for (int k = 1; k < n; k *= 2) {
      double[][] top = Matrices.kronecker(h, new double[][] {{1, 1}});
      double[][] bottom = Matrices.kronecker(Matrices.identity(k), new double[][] {{1, -1}});
      double[][] next = new double[2 * k][];
      System.arraycopy(top, 0, next, 0, k);
      System.arraycopy(bottom, 0, next, k, k);
      h = next;
    }
    return new ExplicitStrategy("Wavelet(" + n + ")", h);
  }

  /**
   * The real orthonormal Fourier basis over {@code n} cells: the constant row, then {@code
   * sqrt(2/n)·cos(2πkj/n)} and {@code sqrt(2/n)·sin(2πkj/n)} for {@code 1 ≤ k < n/2}, and the
   * alternating row for even {@code n}. Orthogonal, so every workload is in its row space.
   */
  public static Strategy fourier(int n) {
    return new ExplicitStrategy("Fourier(" + n + ")", fourierRows(n));
  }

  /**
   * The Fourier strategy of Barak et al. restricted to a workload: the Fourier basis (Kronecker
   * product of per-attribute bases for a Kronecker or union-of-Kronecker domain {@code dims}) with
   * the rows that the workload does not use ({@code qᵀ WᵀW q ≈ 0}) removed (seed 001 §2.10).
   */
  public static Strategy fourier(Workload w, int... dims) {
    int n = 1;
    double[][] basis = {{1}};
    for (int d : dims) {
      basis = Matrices.kronecker(basis, fourierRows(d));
      n *= d;
    }
    if (n != w.cells()) {
      throw new IllegalArgumentException("dims multiply to " + n + ", workload has " + w.cells());
    }
    double[][] gq = w.gramTimes(Matrices.transpose(basis));
    double[] weight = new double[basis.length];
    double max = 0;
    for (int r = 0; r < basis.length; r++) {
      double s = 0;
      for (int j = 0; j < n; j++) {
        s += basis[r][j] * gq[j][r];
      }
      weight[r] = s;
      max = Math.max(max, s);
    }
    List<double[]> kept = new ArrayList<>();
    for (int r = 0; r < basis.length; r++) {
      if (weight[r] > 1e-9 * max) {
        kept.add(basis[r]);
      }
    }
    return new ExplicitStrategy("Fourier(" + w + ")", kept.toArray(new double[0][]));
  }

  /** The Kronecker product of per-attribute strategies. */
  public static Strategy kronecker(Strategy... factors) {
    StringBuilder name = new StringBuilder();
    for (Strategy f : factors) {
      name.append(name.length() == 0 ? "" : " ⊗ ").append(f.name());
    }
    return new KroneckerStrategy(name.toString(), List.of(factors));
  }

  private static double[][] fourierRows(int n) {
    Matrices.requireCells(n);
    double[][] f = new double[n][n];
    int r = 0;
    for (int j = 0; j < n; j++) {
      f[r][j] = 1 / Math.sqrt(n);
    }
    r++;
    for (int k = 1; 2 * k < n; k++) {
      for (int j = 0; j < n; j++) {
        f[r][j] = Math.sqrt(2.0 / n) * Math.cos(2 * Math.PI * k * j / n);
        f[r + 1][j] = Math.sqrt(2.0 / n) * Math.sin(2 * Math.PI * k * j / n);
      }
      r += 2;
    }
    if (n % 2 == 0) {
      for (int j = 0; j < n; j++) {
        f[r][j] = (j % 2 == 0 ? 1 : -1) / Math.sqrt(n);
      }
    }
    return f;
  }
}
