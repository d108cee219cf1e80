package org.dpsql.backend;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * The bounded snapshots of one connection (policy {@code bounding: snapshot}): for each such
 * table, a temporary table in the backend holding a uniform random subset of at most {@code
 * max_rows_per_unit} rows of each privacy unit, with only the policy's columns. It is created by
 * the backend itself ({@code CREATE TEMPORARY TABLE ... AS SELECT ... ROW_NUMBER() OVER
 * (PARTITION BY unit ORDER BY random) ...}) at the table's first query and dropped with the
 * connection. No row crosses into the JVM.
 *
 * <p>Privacy: the snapshot is a fixed function of the data and of randomness drawn once; adding or
 * removing one unit changes at most k of its rows, so every later aggregate over it has the same
 * sensitivity as with per-query bounding.
 */
public final class BoundedSnapshots {
  private final Connection backend;
  private final SqlDialect dialect;
  private final Map<String, String> snapshots = new HashMap<>();

  public BoundedSnapshots(Connection backend, SqlDialect dialect) {
    this.backend = backend;
    this.dialect = dialect;
  }

  /** The quoted name of the table's snapshot, created on first use. */
  public synchronized String snapshotOf(TablePolicy table) throws SQLException {
    String existing = snapshots.get(table.name());
    if (existing != null) {
      return existing;
    }
    String name = dialect.quoteIdentifier("DPSQL_SNAPSHOT_"
        + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toUpperCase());
    List<String> cols = new ArrayList<>();
    for (ColumnPolicy c : table.columns().values()) {
      cols.add(dialect.quoteIdentifier(c.name()));
    }
    // COUNT(DISTINCT unit) counts the snapshot's units
    cols.add(dialect.quoteIdentifier(table.privacyUnit()));
    String rn = dialect.quoteIdentifier("DPSQL_RN");
    String select = "SELECT " + String.join(", ", cols) + " FROM (SELECT " + String.join(", ", cols)
        + ", ROW_NUMBER() OVER (PARTITION BY " + dialect.quoteIdentifier(table.privacyUnit())
        + " ORDER BY " + MeasurementSql.randomFunction(dialect) + ") AS " + rn + " FROM "
        + MeasurementSql.qualifiedName(table, dialect) + ") " + dialect.quoteIdentifier("DPSQL_B")
        + " WHERE " + rn + " <= " + table.maxRowsPerUnit();
    String create = (dialect instanceof org.apache.calcite.sql.dialect.H2SqlDialect
        ? "CREATE LOCAL TEMPORARY TABLE " : "CREATE TEMPORARY TABLE ") + name + " AS " + select;
    boolean readOnly = backend.isReadOnly();
    try (Statement st = backend.createStatement()) {
      if (readOnly) {
        backend.setReadOnly(false); // some backends refuse even temporary tables when read-only
      }
      st.execute(create);
    } catch (SQLException e) {
      throw new SQLException("could not create the bounded snapshot of " + table.name()
          + " (policy bounding: snapshot needs the right to create temporary tables in the "
          + "backend; use bounding: per_query otherwise): " + e.getMessage(), e.getSQLState(), e);
    } finally {
      if (readOnly) {
        backend.setReadOnly(true);
      }
    }
    snapshots.put(table.name(), name);
    return name;
  }
}
