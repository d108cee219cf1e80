package org.dpsql.release;

import java.util.List;

/**
 * A materialised result: columns and rows (each row an {@code Object[]} of the columns' Java
 * classes). For private queries every value in it has been released under the query's charge.
 */
public record ResultTable(List<ResultColumn> columns, List<Object[]> rows) {
  public ResultTable {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }
}
