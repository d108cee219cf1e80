package org.dpsql.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The benchmark data set and policies, shared by the JMH benchmarks and {@link Ratios}.
 *
 * <p>Table {@code T(ID BIGINT PRIMARY KEY, UNIT INT, G INT, V INT)} of {@code n} rows, generated
 * in the backend by one {@code INSERT ... SELECT ... FROM SYSTEM_RANGE(1, n)}:
 * <ul>
 *   <li>{@code G = MOD(X * 7919, 50)}: 50 groups of equal size (the policy domain is 0..49, bin 1);
 *   <li>{@code V = MOD(X, 100)}: values 0..99 (policy clamp [0, 100]);
 *   <li>{@code UNIT}: the rider, with a skewed number of rows per rider. For n = 1,000,000:
 *     <ul>
 *       <li>heavy: 500 riders with 100 rows each (the first 5% of rows, interleaved);
 *       <li>medium: 20,000 riders with 10 rows each (the next 20% of rows, interleaved);
 *       <li>light: 200,000 riders with 1 to 5 rows (the last 75% of rows, in consecutive blocks of
 *           30 rows split into 8 riders of 1, 2, 3, 4, 5, 5, 5 and 5 rows);
 *     </ul>
 *     220,500 riders in all, 90.7% of them with 1 to 5 rows, mean 4.5 rows per rider. With
 *     {@code max_rows_per_unit: 5}, bounding keeps 2,500 + 100,000 + 750,000 = 852,500 rows.
 *     Other sizes scale the three tiers in proportion ({@code n} must be a multiple of 2,000).
 * </ul>
 */
final class BenchDatabase {
  /** The 1,000,000-row backend of {@link GroupByCountBenchmark}. */
  static final String BIG_URL = "jdbc:h2:mem:bench;DB_CLOSE_DELAY=-1";
  static final int BIG_ROWS = 1_000_000;
  /** The 10,000-row backend of {@link ConnectionOpenBenchmark}. */
  static final String SMALL_URL = "jdbc:h2:mem:benchsmall;DB_CLOSE_DELAY=-1";
  static final int SMALL_ROWS = 10_000;

  /**
   * The measured query. The parameter is always bound to a negative number that changes on every
   * execution, so every group passes the filter but neither dpsql's release cache nor H2's result
   * cache can answer from a previous execution.
   */
  static final String QUERY = "SELECT G, COUNT(*) FROM T WHERE G >= ? GROUP BY G";

  /** The three policies under test. */
  enum PolicyKind {
    /** {@code privacy_unit: ROW}: each row its own unit, no contribution bounding. */
    ROW_UNIT("    privacy_unit: ROW\n"),
    /** {@code privacy_unit: UNIT, max_rows_per_unit: 5}: bounding inside every backend query. */
    BOUNDED("    privacy_unit: UNIT\n    max_rows_per_unit: 5\n"),
    /** As {@link #BOUNDED}, plus {@code bounding: snapshot}: bounded rows materialised per connection. */
    SNAPSHOT("    privacy_unit: UNIT\n    max_rows_per_unit: 5\n    bounding: snapshot\n");

    private final String unitYaml;

    PolicyKind(String unitYaml) {
      this.unitYaml = unitYaml;
    }

    String yaml() {
      return "allow_seed: true\n"
          + "budget:\n"
          + "  accounting: zcdp\n"
          + "  per_connection: {rho: 1000000}\n"
          + "  default_query: {rho: 0.001}\n"
          + "tables:\n"
          + "  T:\n"
          + unitYaml
          + "    columns:\n"
          + "      G: {min: 0, max: 49, bin: 1}\n"
          + "      V: {clamp: [0, 100]}\n";
    }
  }

  private BenchDatabase() {}

  /**
   * (Re)creates table {@code T} with {@code rows} rows in the in-memory database {@code url} and
   * returns a connection that keeps it open (close it, or run {@link #shutdown}, when done).
   */
  static Connection create(String url, int rows) throws SQLException {
    if (rows <= 0 || rows % 2000 != 0) {
      throw new IllegalArgumentException("rows must be a positive multiple of 2000: " + rows);
    }
    Connection c = DriverManager.getConnection(url);
    try (Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS T");
      st.execute("CREATE TABLE T (ID BIGINT PRIMARY KEY, UNIT INT NOT NULL, G INT NOT NULL, V INT NOT NULL)");
      st.execute("INSERT INTO T SELECT X, " + unitExpression(rows) + ", MOD(X * 7919, 50), MOD(X, 100)"
          + " FROM SYSTEM_RANGE(1, " + rows + ")");
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * The SQL expression of row {@code X}'s unit (1-based {@code X} up to {@code rows}), the same in
   * every backend: heavy, medium and light units as the class comment describes.
   */
  static String unitExpression(int rows) {
    long heavyRows = rows / 20;
    long heavyUnits = rows / 2000;
    long mediumRows = rows / 5;
    long mediumUnits = rows / 50;
    long lightStart = heavyRows + mediumRows; // rows after this are light
    String q = "(X - " + (lightStart + 1) + ")"; // 0-based position among the light rows
    return "CASE WHEN X <= " + heavyRows + " THEN MOD(X, " + heavyUnits + ")"
        + " WHEN X <= " + lightStart + " THEN " + heavyUnits + " + MOD(X, " + mediumUnits + ")"
        + " ELSE " + (heavyUnits + mediumUnits) + " + 8 * (" + q + " / 30) + CASE"
        + " WHEN MOD(" + q + ", 30) < 1 THEN 0 WHEN MOD(" + q + ", 30) < 3 THEN 1"
        + " WHEN MOD(" + q + ", 30) < 6 THEN 2 WHEN MOD(" + q + ", 30) < 10 THEN 3"
        + " WHEN MOD(" + q + ", 30) < 15 THEN 4 WHEN MOD(" + q + ", 30) < 20 THEN 5"
        + " WHEN MOD(" + q + ", 30) < 25 THEN 6 ELSE 7 END END";
  }

  /** One line per rider size bucket, counted in the backend: "rows per rider: riders (rows)". */
  static List<String> unitShape(Connection direct) throws SQLException {
    List<String> out = new ArrayList<>();
    String sql = "SELECT CASE WHEN N <= 5 THEN '1-5' WHEN N < 50 THEN '6-49' ELSE '50+' END B,"
        + " COUNT(*), SUM(N), SUM(LEAST(N, 5)) FROM (SELECT UNIT, COUNT(*) N FROM T GROUP BY UNIT)"
        + " GROUP BY B ORDER BY MIN(N)";
    try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(String.format("%-5s rows per rider: %,8d riders, %,9d rows (%,9d after bounding to 5)",
            rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)));
      }
    }
    return out;
  }

  /** Writes the policy to a temporary file, deleted on exit. */
  static Path writePolicy(PolicyKind kind) throws IOException {
    Path p = Files.createTempFile("dpsql-bench-" + kind.name().toLowerCase() + "-", ".yaml");
    Files.writeString(p, kind.yaml());
    p.toFile().deleteOnExit();
    return p;
  }

  /** {@code jdbc:dpsql:} + the backend URL without its {@code jdbc:}. */
  static String dpsqlUrl(String backendUrl) {
    return "jdbc:dpsql:" + backendUrl.substring("jdbc:".length());
  }

  /** Opens a dpsql connection on {@code backendUrl} under {@code policy} (no seed: production noise). */
  static Connection openPrivate(String backendUrl, Path policy) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    return DriverManager.getConnection(dpsqlUrl(backendUrl), p);
  }

  /**
   * Runs {@link #QUERY} with {@code G >= -k}, reads every row and column, and returns a checksum
   * (so the work cannot be optimised away) of the rows read.
   */
  static long run(PreparedStatement ps, int k) throws SQLException {
    ps.setInt(1, -k);
    long sum = 0;
    int rows = 0;
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        sum = sum * 31 + rs.getLong(1) * 1_000_003L + rs.getLong(2);
        rows++;
      }
    }
    if (rows != 50) {
      throw new IllegalStateException("expected 50 groups, got " + rows);
    }
    return sum;
  }

  /** True when the engine refused the policy file (SQLState XDP04), e.g. an unknown key. */
  static boolean isPolicyError(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && "XDP04".equals(s.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  /** Closes quietly. */
  static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception ignored) {
        // nothing to do
      }
    }
  }

  /** Drops the in-memory database behind {@code holder} and closes it. */
  static void shutdown(Connection holder) {
    if (holder == null) {
      return;
    }
    try (Statement st = holder.createStatement()) {
      st.execute("SHUTDOWN");
    } catch (SQLException ignored) {
      // already closed
    }
    closeQuietly(holder);
  }
}
