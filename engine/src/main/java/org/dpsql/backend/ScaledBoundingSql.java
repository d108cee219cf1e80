package org.dpsql.backend;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;

/**
 * Per-query contribution bounding by scaling, for backends where it is cheaper than numbering
 * every row ({@link #replacesWindow}): the measurement statement of {@link MeasurementSql} for
 * measurements that add up over rows ({@code COUNT(*)}, {@code COUNT(col)}, {@code SUM}).
 *
 * <p>The backend first aggregates the filtered rows per (unit, cell): c, the unit's rows in the
 * cell, and for each measurement the count m or the sum s (in integer resolution steps, clamped
 * row by row as {@link MeasurementSql} does). Then, per unit, n, its filtered rows over all cells,
 * and its cumulative counts over its cells in a fixed order: with at most {@link
 * #MAX_UNIT_ROW_CELLS} cells by a second {@code GROUP BY} unit ({@link #unitRows}, cells in
 * {@link org.dpsql.rewrite.CellDomain}'s order), else by window sums over the pre-aggregated rows
 * partitioned by unit ({@link #pairWindow}, cells in key order); either way far fewer rows than
 * {@code ROW_NUMBER()} would number and sort. A unit with n ≤ k ({@code max_rows_per_unit})
 * contributes its rows unchanged, as under the window. A heavier unit contributes k/n of each of
 * its cells, rounded toward zero:
 *
 * <ul>
 *   <li>a count: with the unit's cells in that order and M_i the unit's count up to and including
 *       cell i, cell i gets ⌊M_i·k/n⌋ − ⌊M_{i−1}·k/n⌋ (cumulative rounding), which is ⌊m_i·k/n⌋
 *       or one more, never negative, and over all cells adds up to ⌊M·k/n⌋ ≤ k (exactly k for
 *       {@code COUNT(*)});
 *   <li>a sum: s_i·k/n truncated toward zero (never rounded away from it).
 * </ul>
 *
 * <p>Guarantee (the same as the window's, see {@link Measurement#sensitivity(int)}): every
 * measured vector is a sum over units of a contribution vector v(u) computed from unit u's
 * filtered rows alone (the pre-aggregation, the per-unit pass and the window are partitioned by
 * unit; no value of another unit enters v(u)). Adding or removing one unit therefore changes the
 * vector by exactly v(u) of that unit. For n ≤ k, v(u) aggregates at most k rows. For n > k: a
 * count's entries are non-negative and add up to at most ⌊n·k/n⌋ = k, so ‖v(u)‖₁ ≤ k; a sum's
 * entries satisfy
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
   * Measured ({@code BoundingFormulations}, docs/performance.md): on Trino about 0.8×
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
   * The largest number of cells for which the statement reduces each unit to one row ({@link
   * #unitRows}): its per-unit pass has one filtered aggregate per cell and measurement, so it
   * costs more with every cell, while the cost of {@link #pairWindow} does not grow with the
   * number of cells. Measured on Trino 476 ({@code BoundingFormulations}, docs/performance.md)
   * (ratios of the medians), the unit-row form against the pair window: 0.86× the elapsed
   * time (0.91× the CPU time) on TPC-H {@code lineitem} (6 cells, 2 measurements), 0.84× (0.90×)
   * on {@code orders} (5 cells, 2 measurements); on 1,000,000 rows in the memory connector (one
   * count) 0.80× the CPU time at 2 cells, 0.99× at 5, 1.09× at 10 and 3.7× at 50.
   */
  public static final int MAX_UNIT_ROW_CELLS = 8;

  /**
   * The statement: {@code keyExprs} (the cells' keys), {@code valueExprs} (each measurement's
   * per-row value as {@link MeasurementSql} computes it, null for {@code COUNT(*)}), {@code unit}
   * (the quoted unit column), {@code from} and {@code whereSql} (empty or {@code " WHERE ..."},
   * which keeps only rows inside the cells' domain) as the window form has them; the result
   * columns are the same ({@code K0..}, {@code M0..}). Up to {@link #MAX_UNIT_ROW_CELLS} cells the form of
   * {@link #unitRows}, else that of {@link #pairWindow}: the same numbers up to the order in which
   * a heavy unit's counts are rounded cumulatively (the cells' order in the first, the keys' sort
   * order in the second).
   */
  static String sql(MeasurementPlan plan, SqlDialect dialect, String unit, List<String> keyExprs,
      List<String> valueExprs, String from, String whereSql) {
    return oneRowPerUnit(plan)
        ? unitRows(plan, dialect, unit, keyExprs, valueExprs, from, whereSql)
        : pairWindow(plan, dialect, unit, keyExprs, valueExprs, from, whereSql);
  }

  /** Whether {@link #sql} reduces each unit to one row ({@link #unitRows}) for this plan. */
  static boolean oneRowPerUnit(MeasurementPlan plan) {
    return plan.cells().size() <= MAX_UNIT_ROW_CELLS;
  }

  /** The form {@link #sql} writes for the plan, as EXPLAIN names it. */
  static String formName(MeasurementPlan plan) {
    return oneRowPerUnit(plan) ? "one row per unit" : "window over (unit, cell) pairs";
  }

  /**
   * One row per unit, no window: the filtered rows are aggregated per (unit, cell index X, the
   * cell's position in {@link org.dpsql.rewrite.CellDomain}'s order), then per unit: n, and for
   * every cell i the unit's cumulative count up to and including cell i ({@code FILTER (WHERE X <=
   * i)}) or its sum in cell i. Summed over units with the scaling of a heavy unit, these give one
   * row, turned into one row per cell by a join with the cells' keys ({@code VALUES}); a cell's
   * count is the difference of consecutive cumulative counts. Two grouped passes replace the
   * window's partitioning and sorting (see {@link #MAX_UNIT_ROW_CELLS} for when that pays). Plain
   * SQL: H2 runs it too ({@code ScaledBoundingSqlTest}).
   */
  static String unitRows(MeasurementPlan plan, SqlDialect dialect, String unit,
      List<String> keyExprs, List<String> valueExprs, String from, String whereSql) {
    int k = plan.maxRowsPerUnit();
    int cells = plan.cells().size();
    String u = dialect.quoteIdentifier("DPSQL_U");
    String x = dialect.quoteIdentifier("DPSQL_X");
    String rows = dialect.quoteIdentifier("DPSQL_C");
    String n = dialect.quoteIdentifier("DPSQL_N");
    List<List<String>> literals = categoricalLiterals(plan, dialect);
    String index = cellIndex(plan, keyExprs, literals);
    List<String> pre = new ArrayList<>(List.of(unit + " AS " + u, index + " AS " + x,
        "COUNT(*) AS " + rows));
    List<String> perUnit = new ArrayList<>(List.of(u, "SUM(" + rows + ") AS " + n));
    List<String> total = new ArrayList<>();
    List<String> released = new ArrayList<>();
    for (int i = 0; i < keyExprs.size(); i++) {
      released.add(qualified(dialect, "DPSQL_V", "K" + i));
    }
    for (int m = 0; m < valueExprs.size(); m++) {
      Measurement.Kind kind = plan.measurements().get(m).kind();
      String c = rows;
      if (kind != Measurement.Kind.COUNT_STAR) {
        c = dialect.quoteIdentifier("C" + m);
        pre.add((kind == Measurement.Kind.SUM ? "SUM(" : "COUNT(") + valueExprs.get(m) + ") AS "
            + c);
      }
      StringBuilder cell = new StringBuilder("CASE " + qualified(dialect, "DPSQL_V", "I"));
      for (int i = 0; i < cells; i++) {
        String a = dialect.quoteIdentifier("A" + m + "_" + i);
        String r = "R" + m + "_" + i;
        String scaled;
        cell.append(" WHEN ").append(i).append(" THEN ").append(qualified(dialect, "DPSQL_W", r));
        if (kind == Measurement.Kind.SUM) {
          perUnit.add("SUM(" + c + ") FILTER (WHERE " + x + " = " + i + ") AS " + a);
          // whole steps, as DECIMAL(38, 0) so that s·k cannot overflow a BIGINT
          scaled = truncatedQuotient("CAST(" + a + " AS DECIMAL(38, 0)) * " + k, n);
        } else {
          perUnit.add("SUM(" + c + ") FILTER (WHERE " + x + " <= " + i + ") AS " + a);
          scaled = truncatedQuotient(a + " * " + k, n);
          if (i > 0) { // a cell's count: the difference of consecutive cumulative counts
            cell.append(" - ").append(qualified(dialect, "DPSQL_W", "R" + m + "_" + (i - 1)));
          }
        }
        // a unit without rows up to cell i has a NULL there, which adds nothing
        total.add("COALESCE(SUM(CASE WHEN " + n + " <= " + k + " THEN " + a + " ELSE " + scaled
            + " END), 0) AS " + dialect.quoteIdentifier(r));
      }
      released.add(cell.append(" END AS ").append(dialect.quoteIdentifier("M" + m)).toString());
    }
    List<String> keysOfCells = new ArrayList<>();
    for (int i = 0; i < cells; i++) {
      StringBuilder keys = new StringBuilder("(" + i);
      int[] positions = plan.cells().positionsOf(i);
      for (int c = 0; c < positions.length; c++) {
        // as the window form returns them: a categorical value, an ordered or time bin index
        keys.append(", ").append(literals.get(c) != null ? literals.get(c).get(positions[c])
            : Integer.toString(positions[c]));
      }
      keysOfCells.add(keys.append(")").toString());
    }
    List<String> valuesColumns = new ArrayList<>(List.of(dialect.quoteIdentifier("I")));
    for (int i = 0; i < keyExprs.size(); i++) {
      valuesColumns.add(dialect.quoteIdentifier("K" + i));
    }
    String pairs = "SELECT " + String.join(", ", pre) + " FROM " + from + whereSql + " GROUP BY "
        + unit + (keyExprs.isEmpty() ? "" : ", " + index);
    return "SELECT " + String.join(", ", released) + " FROM (SELECT " + String.join(", ", total)
        + " FROM (SELECT " + String.join(", ", perUnit) + " FROM (" + pairs + ") "
        + dialect.quoteIdentifier("DPSQL_P") + " GROUP BY " + u + ") "
        + dialect.quoteIdentifier("DPSQL_Q") + ") " + dialect.quoteIdentifier("DPSQL_W")
        + " CROSS JOIN (VALUES " + String.join(", ", keysOfCells) + ") AS "
        + dialect.quoteIdentifier("DPSQL_V") + " (" + String.join(", ", valuesColumns) + ")";
  }

  private static String qualified(SqlDialect dialect, String table, String column) {
    return dialect.quoteIdentifier(table) + "." + dialect.quoteIdentifier(column);
  }

  /** Each group column's declared values as SQL literals, or null for an ordered or time column. */
  private static List<List<String>> categoricalLiterals(MeasurementPlan plan, SqlDialect dialect) {
    List<List<String>> out = new ArrayList<>();
    for (ColumnPolicy c : plan.cells().columns()) {
      out.add(c.categorical().map(d -> MeasurementSql.literals(d, dialect)).orElse(null));
    }
    return out;
  }

  /**
   * A row's cell index in {@link org.dpsql.rewrite.CellDomain}'s order (first key slowest): a
   * categorical key's position among the declared values ({@code literals}), an ordered or time
   * key's bin index.
   */
  private static String cellIndex(MeasurementPlan plan, List<String> keyExprs,
      List<List<String>> literals) {
    List<ColumnPolicy> columns = plan.cells().columns();
    if (columns.isEmpty()) {
      return "0"; // one cell (not grouped by: the statement groups by the unit alone)
    }
    String index = null;
    for (int i = 0; i < columns.size(); i++) {
      String key;
      if (literals.get(i) != null) {
        StringBuilder cs = new StringBuilder("CASE " + keyExprs.get(i));
        for (int v = 0; v < literals.get(i).size(); v++) {
          cs.append(" WHEN ").append(literals.get(i).get(v)).append(" THEN ").append(v);
        }
        key = cs.append(" END").toString();
      } else {
        // the filter keeps the column within the domain, so the bin lies in [0, size)
        key = "CAST(" + keyExprs.get(i) + " AS BIGINT)";
      }
      index = index == null ? key
          : "(" + index + ") * " + columns.get(i).domainSize() + " + " + key;
    }
    return index;
  }

  /**
   * Pre-aggregated per (unit, cell keys), then n and the cumulative counts (the unit's cells in
   * key order) as window sums over these rows, partitioned by unit.
   */
  static String pairWindow(MeasurementPlan plan, SqlDialect dialect, String unit,
      List<String> keyExprs, List<String> valueExprs, String from, String whereSql) {
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
