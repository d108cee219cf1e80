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
 * v >= last THEN size-1 ELSE f - (CASE WHEN lo + f * step > v THEN 1 ELSE 0 END) END} with {@code
 * f = FLOOR((v - lo) / step)}). Only one row per non-empty (cell, point) leaves the backend.
 *
 * <p>The correction is for backends whose decimal division rounds to the dividend's scale (Trino:
 * {@code 26.99 / 3} is {@code 9.00}, so {@code FLOOR} alone would count 26.99 at point 27, above
 * it): such rounding can only raise the quotient to the next integer, never lower it, and the
 * product {@code lo + f * step} is exact for decimals, so the corrected index is the largest point
 * at or below the value on every backend.
 *
 * <p>Result columns: {@code K0..} the cells' keys, then the point's index, then {@code M0} the
 * number of values.
 */
public final class HistogramSql {
  private HistogramSql() {}

  /** The histogram statement of {@code column} for the cells and filter of {@code plan}. */
  public static MeasurementSql of(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      SqlDialect dialect, String snapshot, boolean oneRowPerUnit) {
    MeasurementPlan counts = new MeasurementPlan(plan.query(), plan.cells(),
        List.of(Measurement.countStar()));
    String v = dialect.quoteIdentifier(column.name());
    String lo = MeasurementSql.num(grid.lo());
    String step = MeasurementSql.num(grid.step());
    String floor = "FLOOR((" + v + " - " + lo + ") / " + step + ")";
    String point = "CASE WHEN " + v + " <= " + lo + " THEN 0 WHEN " + v + " >= "
        + MeasurementSql.num(grid.last()) + " THEN " + (grid.size() - 1) + " ELSE " + floor
        + " - (CASE WHEN " + lo + " + " + floor + " * " + step + " > " + v + " THEN 1 ELSE 0 END)"
        + " END";
    return MeasurementSql.of(counts, dialect, snapshot, oneRowPerUnit, List.of(point),
        List.of(v + " IS NOT NULL"));
  }
}
