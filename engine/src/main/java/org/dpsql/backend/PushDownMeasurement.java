package org.dpsql.backend;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.MeasuredGroup;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.QuantileGrid;

/**
 * The push-down strategy: each measurement is one SQL statement ({@link MeasurementSql}, {@link
 * HistogramSql}, {@link MeasurementSql#partitions}) in which the backend filters, bounds each
 * unit's contribution (window, scaling or snapshot, as those classes state and prove), clamps and
 * aggregates; only one row per non-empty cell (or group, or histogram point) crosses the JDBC
 * boundary. The values stay inside the engine until noise is added.
 */
final class PushDownMeasurement implements MeasurementStrategy {
  private final Connection backend;
  private final ExactMeasurer statements;

  PushDownMeasurement(Connection backend, ExactMeasurer statements) {
    this.backend = backend;
    this.statements = statements;
  }

  @Override
  public String name() {
    return "push-down";
  }

  @Override
  public long[][] measure(MeasurementPlan plan, List<Object> parameters) throws SQLException {
    int keys = plan.cells().columns().size();
    int ms = plan.measurements().size();
    long[][] out = new long[ms][plan.cells().size()];
    forEachCellRow(statements.sqlFor(plan), plan, parameters, (cell, rs) -> {
      long[] values = measurements(rs, keys, ms);
      for (int m = 0; m < ms; m++) {
        out[m][cell] = values[m];
      }
    });
    return out;
  }

  @Override
  public List<MeasuredGroup> partitions(MeasurementPlan plan, List<Object> parameters)
      throws SQLException {
    int declared = plan.cells().columns().size();
    int keys = declared + plan.query().privateGroupBy().size();
    int ms = plan.measurements().size();
    List<MeasuredGroup> out = new ArrayList<>();
    forEachCellRow(statements.partitionSqlFor(plan), plan, parameters, (cell, rs) -> {
      List<Object> privateKeys = new ArrayList<>();
      for (int k = declared; k < keys; k++) {
        privateKeys.add(rs.getObject(k + 1));
      }
      long[] values = measurements(rs, keys, ms);
      long units = rs.getLong(keys + ms + 1);
      out.add(new MeasuredGroup(cell, privateKeys, units, values));
    });
    return out;
  }

  @Override
  public long[][] histogram(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      List<Object> parameters) throws SQLException {
    int keys = plan.cells().columns().size();
    long[][] out = new long[plan.cells().size()][grid.size()];
    forEachCellRow(statements.histogramSqlFor(plan, column, grid), plan, parameters, (cell, rs) -> {
      // the SQL's point is in [0, size); kept there against a backend's rounding at the ends
      int point = Math.max(0, Math.min(grid.size() - 1,
          rs.getBigDecimal(keys + 1).setScale(0, RoundingMode.FLOOR).intValueExact()));
      BigDecimal v = rs.getBigDecimal(keys + 2);
      out[cell][point] += v == null ? 0 : v.longValueExact();
    });
    return out;
  }

  /** What is read from one result row of a measurement, given the row's cell. */
  @FunctionalInterface
  private interface CellRow {
    void read(int cell, ResultSet row) throws SQLException;
  }

  /**
   * Runs a measurement statement with the analyst's parameters and hands every result row to
   * {@code read} with the cell of its first keys (the plan's declared group keys).
   */
  private void forEachCellRow(MeasurementSql sql, MeasurementPlan plan, List<Object> parameters,
      CellRow read) throws SQLException {
    try (PreparedStatement ps = backend.prepareStatement(sql.sql())) {
      ExactMeasurer.bind(ps, sql, parameters);
      try (ResultSet rs = ps.executeQuery()) {
        Object[] keyValues = new Object[plan.cells().columns().size()];
        while (rs.next()) {
          for (int k = 0; k < keyValues.length; k++) {
            keyValues[k] = rs.getObject(k + 1);
          }
          int cell = plan.cells().cellOf(keyValues);
          if (cell >= 0) { // always: the SQL keeps only rows inside the domain
            read.read(cell, rs);
          }
        }
      }
    }
  }

  /** The {@code ms} measurements of a result row, after its {@code keys} key columns. */
  private static long[] measurements(ResultSet rs, int keys, int ms) throws SQLException {
    long[] values = new long[ms];
    for (int m = 0; m < ms; m++) {
      BigDecimal v = rs.getBigDecimal(keys + m + 1);
      values[m] = v == null ? 0 : v.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    }
    return values;
  }
}
