package org.dpsql.matrix;

import java.util.List;

/**
 * A strategy: the {@code p × n} matrix {@code A} of queries the matrix mechanism actually measures
 * with noise ({@code y = A x + noise}) before estimating {@code x̂} by least squares and answering
 * the workload as {@code W x̂} (seed 001, Prop. 3). Strategies are data-independent.
 *
 * <p>Sensitivities are under add/remove-one neighbours, where a neighbour changes one cell count by
 * one: L2 {@code ||A||₂ = max_j ||A_{:,j}||₂} (seed 001, Prop. 1) and L1 {@code ||A||₁ = max_j
 * ||A_{:,j}||₁}. Implementations are immutable and thread-safe.
 */
public interface Strategy {

  /** {@code n}: cells of the data vector. */
  int cells();

  /** {@code p}: the number of measured queries. */
  long rows();

  /** The explicit {@code p × n} matrix {@code A} (a fresh copy). */
  double[][] matrix();

  /** {@code AᵀA} ({@code n × n}, a fresh copy). */
  default double[][] gram() {
    double[][] a = matrix();
    return Matrices.multiply(Matrices.transpose(a), a);
  }

  /** The squared L2 norm of every column of {@code A}. */
  double[] columnNormsSquared();

  /** The L1 norm of every column of {@code A}. */
  double[] columnNormsL1();

  /** L2 sensitivity {@code max_j ||A_{:,j}||₂}. */
  default double sensitivityL2() {
    double max = 0;
    for (double v : columnNormsSquared()) {
      max = Math.max(max, v);
    }
    return Math.sqrt(max);
  }

  /** L1 sensitivity {@code max_j ||A_{:,j}||₁}. */
  default double sensitivityL1() {
    double max = 0;
    for (double v : columnNormsL1()) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** The Kronecker factors when {@code A = A₁ ⊗ A₂ ⊗ …}, or the singleton {@code [this]}. */
  default List<Strategy> kroneckerFactors() {
    return List.of(this);
  }

  /** A short human-readable name, e.g. {@code Identity(8)} or {@code EigenDesign(AllRanges(2048))}. */
  String name();
}
