package org.dpsql.matrix;

import java.util.List;

/**
 * A product strategy {@code A = A₁ ⊗ … ⊗ A_d} for a multi-attribute domain. The column norms of a
 * Kronecker product are the products of the factors' column norms, so both sensitivities are the
 * products of the factors' sensitivities; {@code AᵀA = ⊗ AᵢᵀAᵢ}.
 */
public final class KroneckerStrategy implements Strategy {
  private final List<Strategy> factors;
  private final String name;

  /** The product of {@code factors}. */
  public KroneckerStrategy(String name, List<? extends Strategy> factors) {
    if (factors.isEmpty()) {
      throw new IllegalArgumentException("a Kronecker strategy needs at least one factor");
    }
    long n = 1;
    for (Strategy f : factors) {
      n *= f.cells();
      if (n > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("domain too large: more than 2^31 cells");
      }
    }
    this.factors = List.copyOf(factors);
    this.name = name;
  }

  @Override
  public int cells() {
    int n = 1;
    for (Strategy f : factors) {
      n *= f.cells();
    }
    return n;
  }

  @Override
  public long rows() {
    long p = 1;
    for (Strategy f : factors) {
      p = Math.multiplyExact(p, f.rows());
    }
    return p;
  }

  @Override
  public List<Strategy> kroneckerFactors() {
    return factors;
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(rows(), cells());
    double[][] a = factors.get(0).matrix();
    for (int i = 1; i < factors.size(); i++) {
      a = Matrices.kronecker(a, factors.get(i).matrix());
    }
    return a;
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(cells());
    double[][] g = factors.get(0).gram();
    for (int i = 1; i < factors.size(); i++) {
      g = Matrices.kronecker(g, factors.get(i).gram());
    }
    return g;
  }

  @Override
  public double[] columnNormsSquared() {
    return kron(factors.stream().map(Strategy::columnNormsSquared).toList());
  }

  @Override
  public double[] columnNormsL1() {
    return kron(factors.stream().map(Strategy::columnNormsL1).toList());
  }

  @Override
  public double sensitivityL2() {
    double s = 1;
    for (Strategy f : factors) {
      s *= f.sensitivityL2();
    }
    return s;
  }

  @Override
  public double sensitivityL1() {
    double s = 1;
    for (Strategy f : factors) {
      s *= f.sensitivityL1();
    }
    return s;
  }

  @Override
  public String name() {
    return name;
  }

  private static double[] kron(List<double[]> vs) {
    double[] d = vs.get(0);
    for (int i = 1; i < vs.size(); i++) {
      double[] f = vs.get(i);
      double[] next = new double[d.length * f.length];
      for (int a = 0; a < d.length; a++) {
        for (int b = 0; b < f.length; b++) {
          next[a * f.length + b] = d[a] * f[b];
        }
      }
      d = next;
    }
    return d;
  }

  @Override
  public String toString() {
    return name;
  }
}
