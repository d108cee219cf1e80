package org.dpsql.matrix.design;

/**
 * The constraint matrix {@code M} of Program 1 (seed 001, §2.1): {@code M[j][i] = Q[i][j]²}, the
 * squared entry of design query {@code i} on cell {@code j}. Row {@code j} of {@code M u} is the
 * squared L2 norm of column {@code j} of the weighted strategy {@code diag(√u) Q}, so {@code M u ≤ 1}
 * says the strategy has L2 sensitivity at most 1.
 *
 * <p>Implementations expose only the products Program 1 needs, so that closed-form families (sine
 * and cosine bases) never materialise the {@code n × k} matrix. All entries are non-negative.
 * Implementations are immutable.
 */
public interface SquaredDesign {

  /** {@code n}: the number of cells (rows of {@code M}, one sensitivity constraint each). */
  int cells();

  /** {@code k}: the number of design queries (columns of {@code M}). */
  int designs();

  /** {@code M u}: the squared column norms of {@code diag(√u) Q}, one per cell. */
  double[] times(double[] u);

  /** {@code Mᵀ μ}: one entry per design query. */
  double[] transposeTimes(double[] mu);

  /** {@code Mᵀ diag(w) M} ({@code k × k}) for a non-negative cell weighting {@code w}. */
  double[][] designGram(double[] w);

  /** {@code M diag(d) Mᵀ} ({@code n × n}) for a non-negative design weighting {@code d}. */
  double[][] cellGram(double[] d);

  /**
   * A design with the same columns but only one copy of each set of identical rows (cells whose
   * constraints coincide, e.g. mirror cells of a reflection-symmetric basis). Program 1 has the same
   * solution on it, with fewer constraints. The default returns {@code this}.
   */
  default SquaredDesign distinctCells() {
    return this;
  }

  /**
   * The original indices of the cells kept by {@link #distinctCells()}, in the order of its rows.
   * The default (no merging) is {@code 0..n−1}.
   */
  default int[] distinctCellIndices() {
    int[] all = new int[cells()];
    for (int j = 0; j < all.length; j++) {
      all[j] = j;
    }
    return all;
  }

  /** The design restricted to the columns {@code designs} (in that order). */
  SquaredDesign selectDesigns(int[] designs);

  /** Column {@code i} of {@code M} (the squared entries of design query {@code i}), a fresh array. */
  default double[] column(int i) {
    double[] e = new double[designs()];
    e[i] = 1;
    return times(e);
  }
}
