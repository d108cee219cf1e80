package org.dpsql.matrix;

import java.util.List;

/**
 * A workload: a set of {@code m} linear counting queries over a data vector of {@code n} cell
 * counts, i.e. a matrix {@code W} (m × n) whose answers are {@code W x}.
 *
 * <p>Every strategy-selection and error computation of the matrix mechanism depends on {@code W}
 * only through its Gram matrix {@code WᵀW} (seed 001, Prop. 4), so a workload is represented by
 * whatever gives that Gram cheapest: an explicit matrix, a closed-form family (all ranges, prefixes,
 * identity, total, marginals) whose {@code O(n²)} rows are never materialised, a Kronecker product of
 * smaller workloads, or a union of workloads. Implementations are immutable and thread-safe.
 */
public interface Workload {

  /** {@code n}: the length of the data vector (number of cells). */
  int cells();

  /** {@code m}: the number of queries (rows of {@code W}). */
  long queries();

  /**
   * The Gram matrix {@code WᵀW} as a dense {@code n × n} array (a fresh copy the caller may modify).
   *
   * @throws IllegalStateException if {@code n} is too large for a dense matrix (above {@link
   *     #MAX_DENSE_CELLS}); use {@link #gramTimes} or the Kronecker factors instead
   */
  double[][] gram();

  /**
   * {@code (WᵀW) X} for a dense {@code n × k} matrix {@code X} (row-major, {@code X[cell][col]}).
   * Closed-form families override this with an {@code O(n k)} algorithm; the default multiplies by
   * {@link #gram()}.
   */
  default double[][] gramTimes(double[][] x) {
    return Matrices.multiply(gram(), x);
  }

  /** The diagonal of {@code WᵀW}: the squared L2 norm of each column of {@code W}. */
  default double[] gramDiagonal() {
    double[][] g = gram();
    double[] d = new double[g.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = g[i][i];
    }
    return d;
  }

  /** {@code trace(WᵀW) = ||W||_F²}: the total squared error of the identity strategy at unit noise. */
  default double frobeniusSquared() {
    double t = 0;
    for (double v : gramDiagonal()) {
      t += v;
    }
    return t;
  }

  /**
   * The L2 sensitivity {@code ||W||_2 = max_j ||W_{:,j}||_2} under add/remove-one neighbours (seed
   * 001, Prop. 1).
   */
  default double sensitivityL2() {
    double max = 0;
    for (double v : gramDiagonal()) {
      max = Math.max(max, v);
    }
    return Math.sqrt(max);
  }

  /**
   * The Kronecker factors {@code [W₁, W₂, …]} when {@code W = W₁ ⊗ W₂ ⊗ …} (cells in row-major
   * order of the factors' cells), or the singleton list {@code [this]}.
   */
  default List<Workload> kroneckerFactors() {
    return List.of(this);
  }

  /**
   * The explicit rows of {@code W} ({@code m × n}, a fresh copy).
   *
   * @throws IllegalStateException if the workload has more than {@link #MAX_EXPLICIT_ENTRIES}
   *     entries, so that it cannot be materialised
   */
  double[][] matrix();

  /**
   * {@code W x}: the answer of every query on the cell vector {@code x}, in the row order of {@link
   * #matrix()}. Closed-form families override this without materialising {@code W}.
   */
  default double[] answer(double[] x) {
    if (x.length != cells()) {
      throw new IllegalArgumentException("expected " + cells() + " cells, got " + x.length);
    }
    double[][] w = matrix();
    double[] out = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      double s = 0;
      for (int j = 0; j < x.length; j++) {
        s += w[i][j] * x[j];
      }
      out[i] = s;
    }
    return out;
  }

  /** Largest {@code n} for which {@link #gram()} materialises a dense matrix. */
  int MAX_DENSE_CELLS = 16_384;

  /** Largest {@code m·n} for which {@link #matrix()} materialises the rows. */
  long MAX_EXPLICIT_ENTRIES = 50_000_000L;
}
