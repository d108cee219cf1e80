package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 32 on any backend: a table shaped as the demo's {@code TRIPS} (the demo's domains of
 * {@code STATE}, {@code HOUR} and {@code PAYMENT}), the issue's four statements with the number of
 * rows each must return, and the check that dpsql's noise-free answers are the backend's own.
 *
 * <p>The data: 2,400 trips of 1,200 riders (two each, so bounding to {@code max_rows_per_unit: 5}
 * keeps every row and the bounded truth is the backend's plain answer); trip i is in state i mod
 * 4, hour i mod 24 and payment ⌊i / 24⌋ mod 3, so every (hour, payment) pair holds 33 trips.
 */
final class FilteredGroups {
  private FilteredGroups() {}

  static final String[] STATES = {"NY", "CA", "TX", "IL"};
  static final String[] PAYMENTS = {"CARD", "CASH", "APP"};
  static final int TRIPS = 2400;

  /** One of the issue's statements and the number of rows it must return. */
  record Case(String sql, int rows) {}

  /** The issue's four statements: 1, 2, 3 and 9 rows (not 4, 4, 24 and 72). */
  static final List<Case> ISSUE = List.of(
      new Case("SELECT STATE, COUNT(*) AS N FROM TRIPS WHERE STATE = 'NY' GROUP BY STATE", 1),
      new Case("SELECT STATE, COUNT(*) AS N FROM TRIPS WHERE STATE IN ('NY','CA') GROUP BY STATE",
          2),
      new Case("SELECT HOUR, COUNT(*) AS N FROM TRIPS WHERE HOUR BETWEEN 7 AND 9 GROUP BY HOUR",
          3),
      new Case("SELECT HOUR, PAYMENT, COUNT(*) FROM TRIPS WHERE HOUR BETWEEN 7 AND 9 "
          + "GROUP BY HOUR, PAYMENT", 9));

  /** The policy's TRIPS entry (names as given: lower-case on PostgreSQL and Trino). */
  static String tripsPolicy(String table, String bounding) {
    return "  " + table + ":\n    privacy_unit: rider_id\n    max_rows_per_unit: 5\n"
        + (bounding == null ? "" : "    bounding: " + bounding + "\n")
        + "    columns:\n      state: {values: [NY, CA, TX, IL]}\n"
        + "      payment: {values: [CARD, CASH, APP]}\n      hour: {min: 0, max: 23, bin: 1}\n"
        + "      fare: {clamp: [0, 100]}\n";
  }

  /** A budget under which the discrete Gaussian noise is 0 in all but a negligible fraction. */
  static final String NOISE_FREE_BUDGET = "allow_seed: true\nbudget:\n  accounting: zcdp\n"
      + "  per_connection: {rho: 1e12}\n  default_query: {rho: 1e8}\n";

  /** The {@code VALUES} rows of the data, in chunks of at most 600 rows. */
  static List<String> valueChunks() {
    List<String> chunks = new ArrayList<>();
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < TRIPS; i++) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append('(').append(i).append(", ").append(i / 2).append(", '").append(STATES[i % 4])
          .append("', '").append(PAYMENTS[(i / 24) % 3]).append("', ").append(i % 24).append(", ")
          .append(BigDecimal.valueOf(500 + (i * 37L) % 9000, 2)).append(')');
      if ((i + 1) % 600 == 0) {
        chunks.add(sb.toString());
        sb.setLength(0);
      }
    }
    if (sb.length() > 0) {
      chunks.add(sb.toString());
    }
    return chunks;
  }

  /**
   * Runs the issue's statements on a dpsql connection: each returns its number of rows, and its
   * released counts equal the backend's own answer to the same statement (a group the backend
   * does not return counts 0).
   *
   * @param direct the backend itself, where {@code table} names the trips
   */
  static void assertIssueStatements(Connection dpsql, Connection direct, String table,
      String hour) throws SQLException {
    for (Case c : ISSUE) {
      List<List<Object>> released = ResultRows.of(dpsql, c.sql());
      assertEquals(c.rows(), released.size(), c.sql() + ": " + released);
      String truthSql = c.sql().replace("FROM TRIPS", "FROM " + table)
          .replace("HOUR", hour);
      Map<List<Object>, Object> truth = byKey(ResultRows.of(direct, truthSql));
      for (List<Object> row : released) {
        List<Object> key = row.subList(0, row.size() - 1);
        Object expected = truth.getOrDefault(key, BigDecimal.ZERO);
        assertEquals(expected, row.get(row.size() - 1), c.sql() + " at " + key);
      }
      assertTrue(released.stream().map(r -> r.subList(0, r.size() - 1)).toList()
          .containsAll(truth.keySet()), c.sql() + ": every group the backend has is released");
    }
  }

  /** Rows keyed by all columns but the last. */
  static Map<List<Object>, Object> byKey(List<List<Object>> rows) {
    Map<List<Object>, Object> out = new LinkedHashMap<>();
    for (List<Object> r : rows) {
      out.put(List.copyOf(r.subList(0, r.size() - 1)), r.get(r.size() - 1));
    }
    return out;
  }
}
