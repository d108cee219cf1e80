package org.dpsql.matrix;

import java.util.List;

/**
 * A product workload {@code W = W₁ ⊗ W₂ ⊗ … ⊗ W_d} over a multi-attribute domain {@code n₁ × … ×
 * n_d} (cells in row-major order, the last attribute varying fastest). Its Gram is {@code ⊗ WᵢᵀWᵢ}
 * and is never formed: {@link #gramTimes} applies each factor along its own mode.
 */
public final class KroneckerWorkload implements Workload {
  private final List<Workload> factors;
  private final int n;

  /** The product of {@code factors} (at least one). */
  public KroneckerWorkload(List<? extends Workload> factors) {
    if (factors.isEmpty()) {
      throw new IllegalArgumentException("a Kronecker workload needs at least one factor");
    }
    this.factors = List.copyOf(factors);
    this.n = Matrices.productOfCells(factors.stream().mapToInt(Workload::cells).toArray());
  }

  /** The product of {@code factors}. */
  public static KroneckerWorkload of(Workload... factors) {
    return new KroneckerWorkload(List.of(factors));
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long queries() {
    long m = 1;
    for (Workload f : factors) {
      m = Math.multiplyExact(m, f.queries());
    }
    return m;
  }

  @Override
  public List<Workload> kroneckerFactors() {
    return factors;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    return Matrices.kroneckerOf(factors.stream().map(Workload::gram).toList());
  }

  @Override
  public double[] gramDiagonal() {
    return Matrices.kroneckerOfVectors(factors.stream().map(Workload::gramDiagonal).toList());
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    if (x.length != n) {
      throw new IllegalArgumentException("expected " + n + " rows, got " + x.length);
    }
    int k = x.length == 0 ? 0 : x[0].length;
    double[][] out = new double[n][k];
    double[] v = new double[n];
    for (int c = 0; c < k; c++) {
      for (int i = 0; i < n; i++) {
        v[i] = x[i][c];
      }
      double[] r = Kron.applyPerMode(factors, v, Workload::gramTimes);
      for (int i = 0; i < n; i++) {
        out[i][c] = r[i];
      }
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(queries(), n);
    return Matrices.kroneckerOf(factors.stream().map(Workload::matrix).toList());
  }

  /** Answers mode by mode: each factor maps its fibres of length nᵢ to its mᵢ answers. */
  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    Matrices.requireExplicit(queries(), 1);
    double[] cur = x.clone();
    int[] dims = new int[factors.size()];
    for (int f = 0; f < dims.length; f++) {
      dims[f] = factors.get(f).cells();
    }
    for (int f = 0; f < dims.length; f++) {
      int left = 1;
      for (int i = 0; i < f; i++) {
        left *= dims[i];
      }
      int right = 1;
      for (int i = f + 1; i < dims.length; i++) {
        right *= dims[i];
      }
      int nf = dims[f];
      int mf = Math.toIntExact(factors.get(f).queries());
      double[] next = new double[left * mf * right];
      double[] fibre = new double[nf];
      for (int l = 0; l < left; l++) {
        for (int r = 0; r < right; r++) {
          for (int a = 0; a < nf; a++) {
            fibre[a] = cur[(l * nf + a) * right + r];
          }
          double[] out = factors.get(f).answer(fibre);
          for (int b = 0; b < mf; b++) {
            next[(l * mf + b) * right + r] = out[b];
          }
        }
      }
      dims[f] = mf;
      cur = next;
    }
    return cur;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("Kron(");
    for (int i = 0; i < factors.size(); i++) {
      s.append(i == 0 ? "" : " ⊗ ").append(factors.get(i));
    }
    return s.append(')').toString();
  }
}
