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
  private final int n;

  /** The product of {@code factors}. */
  public KroneckerStrategy(String name, List<? extends Strategy> factors) {
    if (factors.isEmpty()) {
      throw new IllegalArgumentException("a Kronecker strategy needs at least one factor");
    }
    this.factors = List.copyOf(factors);
    this.name = name;
    this.n = Matrices.productOfCells(factors.stream().mapToInt(Strategy::cells).toArray());
  }

  @Override
  public int cells() {
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
    Matrices.requireExplicit(rows(), n);
    return Matrices.kroneckerOf(factors.stream().map(Strategy::matrix).toList());
  }

  @Override
  public double[][] gram() {
    Matrices.requireDense(n);
    return Matrices.kroneckerOf(factors.stream().map(Strategy::gram).toList());
  }

  @Override
  public double[] columnNormsSquared() {
    return Matrices.kroneckerOfVectors(factors.stream().map(Strategy::columnNormsSquared).toList());
  }

  @Override
  public double[] columnNormsL1() {
    return Matrices.kroneckerOfVectors(factors.stream().map(Strategy::columnNormsL1).toList());
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

  @Override
  public String toString() {
    return name;
  }
}
