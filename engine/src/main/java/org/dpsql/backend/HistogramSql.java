package org.dpsql.backend;

import java.util.List;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.QuantileGrid;

/**
 * The exact histogram of one column over its {@link QuantileGrid}, per cell, as one SQL statement
 * in the backend's dialect: the statement of {@link MeasurementSql} for {@code COUNT(*)} (same
 * filter, same domains, same contribution bounding of each unit to {@code max_rows_per_unit} of its
 * rows) over the rows whose value is not NULL, grouped by the cells' keys and by the grid point of
 * the value, clamped into the grid's range and rounded down ({@code CASE WHEN v <= lo THEN 0 WHEN
 * v >= last THEN size-1 ELSE <steps from lo below v> END}, see {@link MeasurementSql#stepsBelow},
 * which is exact on every backend). Only one row per non-empty (cell, point) leaves the backend.
 *
 * <p>Result columns: {@code K0..} the cells' keys, then the point's index, then {@code M0} the
 * number of values.
 */
public final class HistogramSql {
  private HistogramSql() {}

  /** The histogram statement of {@code column} for the cells and filter of {@code plan}. */
  public static MeasurementSql of(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      SqlDialect dialect, String snapshot, boolean oneRowPerUnit) {
    String v = dialect.quoteIdentifier(column.name());
    return MeasurementSql.of(counts(plan), dialect, snapshot, oneRowPerUnit,
        List.of(point(v, grid)), List.of(v + " IS NOT NULL"));
  }

  /**
   * The unbounded rows of the histogram ({@link MeasurementSql#rows}): the unit, the cells' keys
   * and the grid point of each non-null value, for bounding in the JVM.
   */
  static MeasurementSql rows(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      SqlDialect dialect) {
    String v = dialect.quoteIdentifier(column.name());
    return MeasurementSql.rows(counts(plan), dialect, List.of(point(v, grid)),
        List.of(v + " IS NOT NULL"));
  }

  /** The plan's cells and filter with {@code COUNT(*)} as its only measurement. */
  static MeasurementPlan counts(MeasurementPlan plan) {
    return new MeasurementPlan(plan.query(), plan.cells(), List.of(Measurement.countStar()));
  }

  /** The grid point of the value {@code v}, clamped into the grid and rounded down. */
  private static String point(String v, QuantileGrid grid) {
    return "CASE WHEN " + v + " <= " + MeasurementSql.num(grid.lo()) + " THEN 0 WHEN "
        + v + " >= " + MeasurementSql.num(grid.last()) + " THEN " + (grid.size() - 1) + " ELSE "
        + MeasurementSql.stepsBelow(v, grid.lo(), grid.step()) + " END";
  }
}
