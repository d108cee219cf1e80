package org.dpsql.backend;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.dpsql.policy.TablePolicy;

/** A backend table reachable through the policy, with all of its backend columns in order. */
public record BackendTable(String schema, String name, List<BackendColumn> columns) {
  public BackendTable {
    columns = List.copyOf(columns);
  }

  /**
   * The columns an analyst sees, in backend order: all of them for a public table, only those the
   * policy declares for a private one. Every catalog view (DatabaseMetaData, INFORMATION_SCHEMA)
   * lists exactly these, so an undeclared column of a private table is never even named.
   */
  public List<BackendColumn> exposedColumns(TablePolicy policy) {
    if (policy.isPublic()) {
      return columns;
    }
    return columns.stream().filter(c -> policy.column(c.name()).isPresent()).toList();
  }

  public Optional<BackendColumn> column(String columnName) {
    String upper = columnName.toUpperCase(Locale.ROOT);
    return columns.stream().filter(c -> c.name().toUpperCase(Locale.ROOT).equals(upper)).findFirst();
  }
}
