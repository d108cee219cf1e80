package org.dpsql.examples;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A query result read completely into memory: column labels and rows of plain Java values.
 *
 * @param columns column labels, in order
 * @param rows one list of values per row, each as long as {@code columns}
 */
public record QueryResult(List<String> columns, List<List<Object>> rows) {

  public QueryResult {
    columns = List.copyOf(columns);
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      if (row.size() != columns.size()) {
        throw new IllegalArgumentException(
            "row has " + row.size() + " values but there are " + columns.size() + " columns");
      }
      copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  /** Reads all remaining rows of {@code resultSet} (it is not closed). */
  public static QueryResult read(ResultSet resultSet) throws SQLException {
    ResultSetMetaData meta = resultSet.getMetaData();
    int width = meta.getColumnCount();
    List<String> columns = new ArrayList<>(width);
    for (int i = 1; i <= width; i++) {
      columns.add(meta.getColumnLabel(i));
    }
    List<List<Object>> rows = new ArrayList<>();
    while (resultSet.next()) {
      List<Object> row = new ArrayList<>(width);
      for (int i = 1; i <= width; i++) {
        row.add(resultSet.getObject(i));
      }
      rows.add(row);
    }
    return new QueryResult(columns, rows);
  }

  /** Number of columns. */
  public int width() {
    return columns.size();
  }

  /** Index of the column labelled {@code label} (case-insensitive), or -1. */
  public int indexOf(String label) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).equalsIgnoreCase(label)) {
        return i;
      }
    }
    return -1;
  }
}
