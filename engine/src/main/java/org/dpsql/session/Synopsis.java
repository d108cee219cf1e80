package org.dpsql.session;

import java.util.List;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.CellDomain;
import org.dpsql.rewrite.Measurement;

/**
 * A released measurement kept for free post-processing: an estimate {@code x̂} of one data vector
 * (a measurement of a private table over the cells of some columns) — the least-squares estimate
 * of the matrix mechanism ({@code estimate} non-null: queries must lie in its strategy's row space,
 * and have variances), or the released leaves of a TopDown tree ({@code estimate} null: every
 * query of the cells is answerable, without an error estimate). A later query whose cells are a
 * coarsening of these cells (its columns are a subset) is answered as {@code w x̂}, which is
 * post-processing of the release and costs nothing. An estimate that answers the workload's own
 * queries by their own measurements ({@link Estimate#hasCells()} false) has no {@code x̂}
 * ({@code values} null): it answers only queries parallel to its measured rows ({@link
 * Estimate#covers}).
 */
record Synopsis(TablePolicy table, CellDomain cells, Measurement measurement, Estimate estimate,
    double[] values, String mechanism) {

  /** The synopsis of a matrix-mechanism estimate. */
  Synopsis(TablePolicy table, CellDomain cells, Measurement measurement, Estimate estimate,
      String mechanism) {
    this(table, cells, measurement, estimate, estimate.hasCells() ? estimate.cells() : null,
        mechanism);
  }

  /** Whether this synopsis measured {@code m} of {@code t} over cells that refine {@code columns}. */
  boolean covers(TablePolicy t, List<ColumnPolicy> columns, Measurement m) {
    return table.equals(t) && measurement.equals(m) && cells.columns().containsAll(columns);
  }

  /**
   * For each cell of this synopsis, the cell of {@code coarse} (whose columns are a subset of this
   * synopsis's columns) that contains it.
   */
  int[] projectionOnto(CellDomain coarse) {
    List<ColumnPolicy> fine = cells.columns();
    List<ColumnPolicy> target = coarse.columns();
    int[] position = new int[target.size()];
    for (int i = 0; i < position.length; i++) {
      position[i] = fine.indexOf(target.get(i));
    }
    int[] sizes = fine.stream().mapToInt(ColumnPolicy::domainSize).toArray();
    int[] coords = new int[sizes.length];
    int[] out = new int[cells.size()];
    for (int cell = 0; cell < out.length; cell++) {
      int c = 0;
      for (int i = 0; i < position.length; i++) {
        c = c * target.get(i).domainSize() + coords[position[i]];
      }
      out[cell] = c;
      for (int i = sizes.length - 1; i >= 0; i--) {
        if (++coords[i] < sizes[i]) {
          break;
        }
        coords[i] = 0;
      }
    }
    return out;
  }
}
