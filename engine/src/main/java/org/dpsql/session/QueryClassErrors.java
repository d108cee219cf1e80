package org.dpsql.session;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.matrix.mechanism.LeastSquares;
import org.dpsql.policy.ColumnPolicy;

/**
 * The expected error of a synopsis, released or planned, for each class of queries a later
 * statement may ask of it: single cells; all ranges and all prefixes of an ordered or time
 * column; and, over several columns, each column's marginal (its ranges for an ordered or time
 * column) summed over the others. A class outside the strategy's row space (a cell of a marginals
 * synopsis) is left out: such queries are measured anew rather than answered from the synopsis.
 *
 * <p>Guarantee: each RMSE is exact for the least-squares estimate, {@code √(v · tr(W (ÂᵀÂ)⁺ Wᵀ)
 * / m)} in the measured value's units, with {@code v} the per-coordinate variance of the
 * calibrated lattice noise; it is computed from the strategy and the noise alone (no data, no
 * cost). Classes are scored up to {@link #MAX_CELLS} cells (a dense trace per class), and at any
 * size in closed form for a synopsis measured on the implicit all-range Eigen-Design.
 */
final class QueryClassErrors {
  /** The most cells for which the classes are scored (each costs a dense trace). */
  static final int MAX_CELLS = 1024;

  /** One class: what it is, how many queries it has, and their expected RMSE. */
  record QueryClass(String description, long queries, double rmse) {}

  private QueryClassErrors() {}

  /**
   * The classes of a synopsis over {@code columns} (cells row-major in this order) estimated by
   * {@code inference} with per-coordinate noise variance {@code unitVariance}, errors in units of
   * {@code resolution}; empty above {@link #MAX_CELLS} cells unless measured on the implicit Eigen-Design.
   */
  static List<QueryClass> of(List<ColumnPolicy> columns, LeastSquares inference,
      double unitVariance, double resolution) {
    int n = inference.strategy().cells();
    List<QueryClass> out = new ArrayList<>();
    if (n > MAX_CELLS && !implicitEigenDesign(inference)) {
      return out;
    }
    int[] dims = columns.stream().mapToInt(ColumnPolicy::domainSize).toArray();
    String names = String.join(" x ", columns.stream().map(ColumnPolicy::name).toList());
    add(out, "single cells of " + names, Workloads.marginal(dims, all(dims.length)), inference,
        unitVariance, resolution);
    for (int i = 0; i < columns.size(); i++) {
      ColumnPolicy c = columns.get(i);
      boolean ordered = c.categorical().isEmpty();
      String over = columns.size() == 1 ? "" : " (summed over the other columns)";
      if (columns.size() > 1) {
        add(out, "values of " + c.name() + over, Workloads.marginal(dims, i), inference,
            unitVariance, resolution);
      }
      if (ordered) {
        add(out, "ranges of " + c.name() + over, Workloads.rangeMarginal(dims, i), inference,
            unitVariance, resolution);
        if (columns.size() == 1) {
          add(out, "prefixes of " + c.name(), new PrefixWorkload(n), inference, unitVariance,
              resolution);
        }
      }
    }
    return out;
  }

  private static void add(List<QueryClass> out, String description, Workload w,
      LeastSquares inference, double unitVariance, double resolution) {
    try {
      inference.requireInRowSpace(w);
      double rmse = Math.sqrt(unitVariance * inference.traceGramPinv(w) / w.queries())
          * resolution;
      out.add(new QueryClass(description, w.queries(), rmse));
    } catch (IllegalArgumentException notAnswerable) {
      // outside the row space, or too large a trace: not a class this synopsis answers
    }
  }

  /**
   * Whether EXPLAIN scores the classes of the synopsis this plan would keep: up to {@link
   * #MAX_CELLS} cells, or at any size when its strategy is the transform design (prepared in
   * {@code O(n log n)}, its classes in closed form).
   */
  static boolean scored(org.dpsql.release.WorkloadCalibration.VectorPlan vp) {
    return vp.workload().cells() <= MAX_CELLS
        || org.dpsql.matrix.design.TransformStrategy.named(vp.chosen().strategyName());
  }

  /**
   * Whether the synopsis was measured on the implicit all-range Eigen-Design, whose classes
   * (cells, ranges, prefixes of its one column) are scored in closed form at any size.
   */
  private static boolean implicitEigenDesign(LeastSquares inference) {
    var factors = inference.strategy().factors();
    return factors.size() == 1 && factors.get(0).sine() != null;
  }

  private static int[] all(int d) {
    int[] s = new int[d];
    for (int i = 0; i < d; i++) {
      s[i] = i;
    }
    return s;
  }
}
