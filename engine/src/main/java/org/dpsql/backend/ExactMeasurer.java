package org.dpsql.backend;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.policy.Bounding;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.MeasurementPlan;

/**
 * Runs a plan's {@link MeasurementSql} on the backend and returns the exact measurement vectors,
 * one entry per cell of the domain (cells without rows are 0). Only aggregates cross the JDBC
 * boundary; the values stay inside the engine until noise is added.
 */
public final class ExactMeasurer {
  private final Connection backend;
  private final SqlDialect dialect;
  private final BoundedSnapshots snapshots;
  private final UniqueUnits uniqueUnits;

  public ExactMeasurer(Connection backend, SqlDialect dialect) {
    this.backend = backend;
    this.dialect = dialect;
    this.snapshots = new BoundedSnapshots(backend, dialect);
    this.uniqueUnits = new UniqueUnits(backend);
  }

  /** The backend SQL that measures a plan (creating the table's bounded snapshot if it needs one). */
  public MeasurementSql sqlFor(MeasurementPlan plan) throws SQLException {
    Rows rows = rowsOf(plan.query().table());
    return MeasurementSql.of(plan, dialect, rows.snapshot(), rows.oneRowPerUnit());
  }

  /**
   * Where a measurement of a table reads its bounded rows: the table itself, bounded per query
   * ({@code snapshot} null), already one row per unit, or the connection's bounded snapshot.
   */
  private record Rows(String snapshot, boolean oneRowPerUnit) {}

  /**
   * How a measurement of {@code table} is bounded (creating its snapshot if it needs one), or
   * XDP04 for snapshot bounding on a backend without temporary tables.
   */
  private Rows rowsOf(TablePolicy table) throws SQLException {
    if (oneRowPerUnit(table)) {
      return new Rows(null, true); // nothing to bound, no snapshot needed
    }
    if (!table.unitIsRow() && table.bounding() == Bounding.SNAPSHOT) {
      if (!BackendDialects.supportsTemporaryTables(dialect)) {
        throw org.dpsql.errors.SqlStates.policyError("tables." + table.name() + ".bounding: "
            + "snapshot needs a temporary table, which this backend does not have; use "
            + "bounding: per_query");
      }
      return new Rows(snapshots.snapshotOf(table), false);
    }
    return new Rows(null, false);
  }

  /**
   * Whether the backend declares the table's privacy unit unique and not null (its primary key or
   * a unique index), so that its measurements need no contribution bounding (see {@link
   * UniqueUnits}); read once per table.
   */
  public boolean oneRowPerUnit(TablePolicy table) {
    return uniqueUnits.oneRowPerUnit(table);
  }

  public SqlDialect dialect() {
    return dialect;
  }

  /** {@code result[m][cell]}: measurement m (counts, or sums in resolution steps) of each cell. */
  public long[][] measure(MeasurementPlan plan, List<Object> parameters) throws SQLException {
    int keys = plan.cells().columns().size();
    int ms = plan.measurements().size();
    long[][] out = new long[ms][plan.cells().size()];
    forEachCellRow(sqlFor(plan), plan, parameters, (cell, rs) -> {
      long[] values = measurements(rs, keys, ms);
      for (int m = 0; m < ms; m++) {
        out[m][cell] = values[m];
      }
    });
    return out;
  }

  /** The backend SQL that measures a plan grouping by private keys (see {@link MeasurementSql#partitions}). */
  public MeasurementSql partitionSqlFor(MeasurementPlan plan) throws SQLException {
    Rows rows = rowsOf(plan.query().table());
    return MeasurementSql.partitions(plan, dialect, rows.snapshot(), rows.oneRowPerUnit());
  }

  /**
   * Every non-empty group of a plan that groups by private keys, with its exact distinct-unit
   * count and measurements over the bounded rows, in the backend's order.
   */
  public List<org.dpsql.rewrite.MeasuredGroup> partitions(MeasurementPlan plan,
      List<Object> parameters) throws SQLException {
    int declared = plan.cells().columns().size();
    int keys = declared + plan.query().privateGroupBy().size();
    int ms = plan.measurements().size();
    List<org.dpsql.rewrite.MeasuredGroup> out = new java.util.ArrayList<>();
    forEachCellRow(partitionSqlFor(plan), plan, parameters, (cell, rs) -> {
      List<Object> privateKeys = new java.util.ArrayList<>();
      for (int k = declared; k < keys; k++) {
        privateKeys.add(rs.getObject(k + 1));
      }
      long[] values = measurements(rs, keys, ms);
      long units = rs.getLong(keys + ms + 1);
      out.add(new org.dpsql.rewrite.MeasuredGroup(cell, privateKeys, units, values));
    });
    return out;
  }

  /** The backend SQL of a column's histogram over its grid (see {@link HistogramSql}). */
  public MeasurementSql histogramSqlFor(MeasurementPlan plan, org.dpsql.policy.ColumnPolicy column,
      org.dpsql.rewrite.QuantileGrid grid) throws SQLException {
    Rows rows = rowsOf(plan.query().table());
    return HistogramSql.of(plan, column, grid, dialect, rows.snapshot(), rows.oneRowPerUnit());
  }

  /**
   * {@code result[cell][point]}: the number of the cell's bounded, non-null values of {@code
   * column} that count at each point of {@code grid} (see {@link HistogramSql}).
   */
  public long[][] histogram(MeasurementPlan plan, org.dpsql.policy.ColumnPolicy column,
      org.dpsql.rewrite.QuantileGrid grid, List<Object> parameters) throws SQLException {
    int keys = plan.cells().columns().size();
    long[][] out = new long[plan.cells().size()][grid.size()];
    forEachCellRow(histogramSqlFor(plan, column, grid), plan, parameters, (cell, rs) -> {
      // the SQL's point is in [0, size); kept there against a backend's rounding at the ends
      int point = Math.max(0, Math.min(grid.size() - 1,
          rs.getBigDecimal(keys + 1).setScale(0, java.math.RoundingMode.FLOOR).intValueExact()));
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
      bind(ps, sql, parameters);
      try (ResultSet rs = ps.executeQuery()) {
        Object[] keyValues = new Object[plan.cells().columns().size()];
        while (rs.next()) {
          int cell = cellOf(plan, rs, keyValues);
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

  /** The cell of the result row's group keys (its first columns), or -1. */
  private static int cellOf(MeasurementPlan plan, ResultSet rs, Object[] keyValues)
      throws SQLException {
    for (int k = 0; k < keyValues.length; k++) {
      keyValues[k] = rs.getObject(k + 1);
    }
    return plan.cells().cellOf(keyValues);
  }

  /** Binds the analyst's parameters in the order the statement takes them (07001 if unset). */
  private static void bind(PreparedStatement ps, MeasurementSql sql, List<Object> parameters)
      throws SQLException {
    List<Integer> order = sql.parameterOrder();
    for (int i = 0; i < order.size(); i++) {
      int p = order.get(i);
      if (p >= parameters.size() || parameters.get(p) == UNSET) {
        throw new SQLException("parameter " + (p + 1) + " is not set", "07001");
      }
      ps.setObject(i + 1, parameters.get(p));
    }
  }

  /** Marks a parameter the application has not set. */
  public static final Object UNSET = new Object() {
    @Override
    public String toString() {
      return "<unset>";
    }
  };
}
