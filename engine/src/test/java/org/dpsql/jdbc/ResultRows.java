package org.dpsql.jdbc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement's rows as comparable values, for comparing dpsql's answers with the backend's own:
 * numbers as {@link BigDecimal} without trailing zeros (so 8, 8L and 8.0 are equal), dates and
 * timestamps as {@code java.time} values, everything else as {@code getObject} returns it.
 */
final class ResultRows {
  private ResultRows() {}

  /** The rows of {@code sql} on {@code c}. */
  static List<List<Object>> of(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return of(rs);
    }
  }

  /** The rows of a prepared statement, executed with the values bound to it. */
  static List<List<Object>> of(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      return of(rs);
    }
  }

  private static List<List<Object>> of(ResultSet rs) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        Object v = rs.getObject(i);
        row.add(v instanceof Number num ? new BigDecimal(num.toString()).stripTrailingZeros()
            : v instanceof java.sql.Timestamp t ? t.toLocalDateTime()
            : v instanceof java.sql.Date d ? d.toLocalDate() : v);
      }
      out.add(row);
    }
    return out;
  }

  /** The rows of {@code sql} on {@code c}, every number rounded to a whole number. */
  static List<List<Object>> rounded(Connection c, String sql) throws SQLException {
    return rounded(of(c, sql));
  }

  /** The rows with every number rounded to a whole number (workload estimates are not). */
  static List<List<Object>> rounded(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> r : rows) {
      List<Object> row = new ArrayList<>();
      for (Object v : r) {
        row.add(v instanceof BigDecimal b
            ? b.setScale(0, RoundingMode.HALF_EVEN).stripTrailingZeros() : v);
      }
      out.add(row);
    }
    return out;
  }
}
