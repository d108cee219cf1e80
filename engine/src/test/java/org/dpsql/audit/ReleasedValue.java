package org.dpsql.audit;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;

/**
 * The one number an audit looks at in a release: a released value (a cell of the result), or a
 * fixed function of several (a sum of released counts), which is post-processing and so has no
 * more privacy loss than the release. A NULL is {@code -∞}.
 */
@FunctionalInterface
interface ReleasedValue {
  /** The value read from a whole result set (positioned before its first row). */
  double of(ResultSet rs) throws SQLException;

  /** Column {@code value} of the row whose column {@code key} equals {@code keyValue}. */
  static ReleasedValue cell(String key, Object keyValue, String value) {
    return rs -> {
      while (rs.next()) {
        if (Objects.equals(rs.getObject(key), keyValue)) {
          return number(rs, value);
        }
      }
      throw new SQLException("no released row with " + key + " = " + keyValue);
    };
  }

  /**
   * Column {@code value} of the row whose columns equal {@code keys} (column to value), compared
   * as text (a bin's lower edge is released as a decimal).
   */
  static ReleasedValue cell(java.util.Map<String, Object> keys, String value) {
    return rs -> {
      while (rs.next()) {
        boolean match = true;
        for (java.util.Map.Entry<String, Object> k : keys.entrySet()) {
          match &= String.valueOf(rs.getObject(k.getKey())).equals(String.valueOf(k.getValue()));
        }
        if (match) {
          return number(rs, value);
        }
      }
      throw new SQLException("no released row with " + keys);
    };
  }

  /** Column {@code value} of the first row whose column {@code key} is NULL (a roll-up total). */
  static ReleasedValue rolledUpTotal(String key, String value) {
    return rs -> {
      while (rs.next()) {
        if (rs.getObject(key) == null) {
          return number(rs, value);
        }
      }
      throw new SQLException("no released row with " + key + " NULL");
    };
  }

  /** Column {@code value} of the only row. */
  static ReleasedValue single(String value) {
    return rs -> {
      if (!rs.next()) {
        throw new SQLException("empty release");
      }
      double v = number(rs, value);
      if (rs.next()) {
        throw new SQLException("more than one released row");
      }
      return v;
    };
  }

  /** The sum of column {@code value} over every released row. */
  static ReleasedValue sumOf(String value) {
    return rs -> {
      double s = 0;
      int rows = 0;
      while (rs.next()) {
        s += number(rs, value);
        rows++;
      }
      if (rows == 0) {
        throw new SQLException("empty release");
      }
      return s;
    };
  }

  private static double number(ResultSet rs, String column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() ? Double.NEGATIVE_INFINITY : v;
  }
}
