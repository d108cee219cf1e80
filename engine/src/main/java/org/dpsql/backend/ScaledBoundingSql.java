package org.dpsql.backend;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;

/**
 * Per-query contribution bounding by scaling, for backends where it is cheaper than numbering
 * every row ({@link #replacesWindow}): the measurement statement of {@link MeasurementSql} for
 * measurements that add up over rows ({@code COUNT(*)}, {@code COUNT(col)}, {@code SUM}).
 *
 * <p>The backend first aggregates the filtered rows per (unit, cell): c, the unit's rows in the
 * cell, and for each measurement the count m or the sum s (in integer resolution steps, clamped
 * row by row as {@link MeasurementSql} does). Then n, the unit's filtered rows over all cells,
 * is a window sum over these pre-aggregated rows, partitioned by unit (far fewer than the rows
 * that {@code ROW_NUMBER()} would number and sort). A unit with n ≤ k ({@code max_rows_per_unit})
 * contributes its rows unchanged, as under the window. A heavier unit contributes k/n of each of
 * its cells, rounded toward zero:
 *
 * <ul>
 *   <li>a count: with the unit's cells in key order and M_i the unit's count up to and including
 *       cell i, cell i gets ⌊M_i·k/n⌋ − ⌊M_{i−1}·k/n⌋ (cumulative rounding), which is ⌊m_i·k/n⌋
 *       or one more, never negative, and over all cells adds up to ⌊M·k/n⌋ ≤ k (exactly k for
 *       {@code COUNT(*)});
 *   <li>a sum: s_i·k/n truncated toward zero (never rounded away from it).
 * </ul>
 *
 * <p>Guarantee (the same as the window's, see {@link Measurement#sensitivity(int)}): every
 * measured vector is a sum over units of a contribution vector v(u) computed from unit u's
 * filtered rows alone (the pre-aggregation and the window are partitioned by unit; no value of
 * another unit enters v(u)). Adding or removing one unit therefore changes the vector by exactly
 * v(u) of that unit. For n ≤ k, v(u) aggregates at most k rows. For n > k: a count's entries are
 * non-negative and add up to at most ⌊n·k/n⌋ = k, so ‖v(u)‖₁ ≤ k; a sum's entries satisfy
 * |trunc(s_i·k/n)| ≤ |s_i|·k/n ≤ c_i·B·k/n, where B is the measurement's per-row bound in steps
 * (every clamped row has |value| ≤ B), so ‖v(u)‖₁ ≤ (Σ c_i)·B·k/n = k·B. And ‖v‖₂ ≤ ‖v‖₁. So the
 * L1 and L2 sensitivities are at most {@code Measurement.sensitivity(k)}, k for counts and k·B
 * for sums, as for k rows. The contribution depends only on the unit's rows, never on the
 * measured values of other units or on randomness.
 *
 * <p>Semantic difference to the window: a heavy unit is scaled deterministically instead of
 * subsampled at random. The window keeps, in expectation, m_i·k/n of the unit's rows in cell i;
 * scaling gives ⌊·⌋ or ⌈·⌉ of that value for counts (the unit's total count stays exactly k) and
 * truncates a sum toward zero (at most one resolution step per cell less in size). Units with
 * at most k rows are measured exactly as before.
 *
 * <p>{@code COUNT(DISTINCT ...)} does not add up over rows, the quantile histogram ({@link
 * HistogramSql}) needs each value, and a {@code GROUP BY} over {@code keys: private} keys counts
 * each group's distinct units and bounds each unit's groups: all three keep the window (they
 * pass extra grouping keys, or measurements that do not add up).
 */
public final class ScaledBoundingSql {
  private ScaledBoundingSql() {}

  /**
   * Whether {@link MeasurementSql} bounds the plan by scaling instead of the window: on Trino,
   * for measurements that all add up over rows, without the extra grouping keys of a histogram
   * or of private keys.
   * Measured ({@code BoundingFormulations}, README's Performance section): on Trino about 0.8×
   * the window's CPU time on TPC-H sf1 {@code orders}, 1.07× on {@code lineitem} (where no unit
   * has more than k rows); on H2 and PostgreSQL 2.6× and 2.8× the window's time, so they keep
   * the window.
   */
  static boolean replacesWindow(MeasurementPlan plan, SqlDialect dialect, List<String> extraKeys) {
    return BackendDialects.isTrino(dialect) && extraKeys.isEmpty() && appliesTo(plan);
  }

  /** Whether every measurement of the plan adds up over rows (COUNT(*), COUNT(col), SUM). */
  static boolean appliesTo(MeasurementPlan plan) {
    for (Measurement m : plan.measurements()) {
      switch (m.kind()) {
        case COUNT_STAR, COUNT, SUM -> { }
        default -> {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The statement: {@code keyExprs} (the cells' keys), {@code valueExprs} (each measurement's
   * per-row value as {@link MeasurementSql} computes it, null for {@code COUNT(*)}), {@code unit}
   * (the quoted unit column), {@code from} and {@code whereSql} (empty or {@code " WHERE ..."}) as
   * the window form has them; the result columns are the same ({@code K0..}, {@code M0..}).
   */
  static String sql(MeasurementPlan plan, SqlDialect dialect, String unit, List<String> keyExprs,
      List<String> valueExprs, String from, String whereSql) {
    int k = plan.maxRowsPerUnit();
    String u = dialect.quoteIdentifier("DPSQL_U");
    String rows = dialect.quoteIdentifier("DPSQL_C");
    String n = dialect.quoteIdentifier("DPSQL_N");
    List<String> pre = new ArrayList<>(List.of(unit + " AS " + u));
    List<String> preGroup = new ArrayList<>(List.of(unit));
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < keyExprs.size(); i++) {
      String key = dialect.quoteIdentifier("K" + i);
      pre.add(keyExprs.get(i) + " AS " + key);
      preGroup.add(keyExprs.get(i));
      keys.add(key);
    }
    pre.add("COUNT(*) AS " + rows);
    // the unit's cells in key order (unique per unit after the pre-aggregation), for the
    // cumulative rounding of counts; n over the whole partition in the same window
    String window = "OVER (PARTITION BY " + u
        + (keys.isEmpty() ? "" : " ORDER BY " + String.join(", ", keys));
    List<String> mid = new ArrayList<>(keys);
    mid.add("SUM(" + rows + ") " + window
        + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS " + n);
    List<String> outer = new ArrayList<>(keys);
    for (int i = 0; i < valueExprs.size(); i++) {
      Measurement m = plan.measurements().get(i);
      String c = dialect.quoteIdentifier("C" + i);
      String scaled;
      if (m.kind() == Measurement.Kind.SUM) {
        // whole steps; as DECIMAL(38, 0) so that s·k cannot overflow a BIGINT
        pre.add("CAST(SUM(" + valueExprs.get(i) + ") AS DECIMAL(38, 0)) AS " + c);
        mid.add(c);
        scaled = truncatedQuotient(c + " * " + k, n);
      } else {
        pre.add((m.kind() == Measurement.Kind.COUNT_STAR ? "COUNT(*)" : "COUNT(" + valueExprs.get(i)
            + ")") + " AS " + c);
        String upTo = dialect.quoteIdentifier("A" + i);
        mid.add(c);
        mid.add("SUM(" + c + ") " + window + " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS "
            + upTo);
        scaled = truncatedQuotient(upTo + " * " + k, n) + " - "
            + truncatedQuotient("(" + upTo + " - " + c + ") * " + k, n);
      }
      outer.add("SUM(CASE WHEN " + n + " <= " + k + " THEN " + c + " ELSE " + scaled + " END) AS "
          + dialect.quoteIdentifier("M" + i));
    }
    String sql = "SELECT " + String.join(", ", outer) + " FROM (SELECT " + String.join(", ", mid)
        + " FROM (SELECT " + String.join(", ", pre) + " FROM " + from + whereSql + " GROUP BY "
        + String.join(", ", preGroup) + ") " + dialect.quoteIdentifier("DPSQL_P") + ") "
        + dialect.quoteIdentifier("DPSQL_Q");
    return keys.isEmpty() ? sql : sql + " GROUP BY " + String.join(", ", keys);
  }

  /**
   * {@code x / d} for a whole number x and a positive whole d, truncated toward zero, exactly in
   * any backend's integer or decimal arithmetic: {@code MOD} takes the sign of x, so {@code x -
   * MOD(x, d)} is the multiple of d nearest zero and its division by d is exact.
   */
  private static String truncatedQuotient(String x, String d) {
    return "((" + x + ") - MOD(" + x + ", " + d + ")) / " + d;
  }
}
