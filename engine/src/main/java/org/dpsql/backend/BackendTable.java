package org.dpsql.backend;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A backend table reachable through the policy, with all of its backend columns in order. */
public record BackendTable(String schema, String name, List<BackendColumn> columns) {
  public BackendTable {
    columns = List.copyOf(columns);
  }

  public Optional<BackendColumn> column(String columnName) {
    String upper = columnName.toUpperCase(Locale.ROOT);
    return columns.stream().filter(c -> c.name().toUpperCase(Locale.ROOT).equals(upper)).findFirst();
  }
}
