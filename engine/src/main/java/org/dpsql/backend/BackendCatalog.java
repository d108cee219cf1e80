package org.dpsql.backend;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * The backend tables the policy names, read once from the backend's metadata when a connection
 * opens. Tables the policy does not name are not in the catalog and so are not reachable.
 */
public final class BackendCatalog {
  private final Map<String, BackendTable> tables;

  private BackendCatalog(Map<String, BackendTable> tables) {
    this.tables = tables;
  }

  /** Reads the columns of every policy table from {@code backend}. */
  public static BackendCatalog read(Connection backend, Policy policy) throws SQLException {
    DatabaseMetaData md = backend.getMetaData();
    Map<String, BackendTable> tables = new LinkedHashMap<>();
    for (TablePolicy t : policy.tables().values()) {
      List<BackendColumn> columns = new ArrayList<>();
      try (ResultSet rs = md.getColumns(backend.getCatalog(), t.schema(), t.name(), null)) {
        while (rs.next()) {
          columns.add(new BackendColumn(
              rs.getString("COLUMN_NAME"),
              rs.getInt("DATA_TYPE"),
              rs.getString("TYPE_NAME"),
              rs.getInt("COLUMN_SIZE"),
              rs.getInt("DECIMAL_DIGITS"),
              rs.getInt("NULLABLE") != DatabaseMetaData.columnNoNulls));
        }
      }
      if (columns.isEmpty()) {
        throw SqlStates.policyError("policy " + policy.source() + ": tables." + t.name()
            + ": the backend table " + t.schema() + "." + t.name() + " has no readable columns");
      }
      tables.put(t.name().toUpperCase(Locale.ROOT), new BackendTable(t.schema(), t.name(), columns));
    }
    return new BackendCatalog(tables);
  }

  public Optional<BackendTable> table(String name) {
    return Optional.ofNullable(tables.get(name.toUpperCase(Locale.ROOT)));
  }

  public List<BackendTable> tables() {
    return List.copyOf(tables.values());
  }
}
