package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The measurement strategy through the driver: {@code measurement: auto} streams on an embedded
 * H2 database and EXPLAIN PLAN FOR says so and why; {@code push_down} keeps the SQL; a streamed
 * scan that passes {@code statement_timeout_s} stops with HYT00, and one that the application
 * cancels ({@link Statement#cancel()}) stops too, both charging nothing and leaving the
 * connection usable; {@code measurement: streaming} on Trino is refused when the connection
 * opens (XDP04).
 */
class StreamingMeasurementQueriesTest {
  @TempDir Path dir;
  private String h2;
  private Connection direct;

  @BeforeEach
  void setUp() throws Exception {
    h2 = "h2:mem:st" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection("jdbc:" + h2);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE VISITS (ID INT PRIMARY KEY, PERSON INT NOT NULL, REGION VARCHAR(1),"
          + " AGE INT)");
      st.execute("INSERT INTO VISITS SELECT X, MOD(X, 500), CASE WHEN MOD(X, 2) = 0 THEN 'N' "
          + "ELSE 'S' END, MOD(X, 80) FROM SYSTEM_RANGE(1, 2000)");
      // 2,000 × 50,000,000 rows: minutes to stream, unless the scan is stopped
      st.execute("CREATE VIEW SLOW_VISITS AS SELECT V.PERSON, V.REGION, V.AGE FROM VISITS V, "
          + "SYSTEM_RANGE(1, 50000000) R");
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    try (Statement st = direct.createStatement()) {
      st.execute("DROP ALL OBJECTS");
    }
    direct.close();
  }

  private Connection open(String extra, String backend) throws Exception {
    Path p = dir.resolve("policy-" + UUID.randomUUID() + ".yaml");
    Files.writeString(p, "budget:\n  accounting: pure\n  per_connection: {epsilon: 10}\n"
        + "  default_query: {epsilon: 0.5}\n"
        + "tables:\n"
        + "  VISITS:\n    privacy_unit: PERSON\n    max_rows_per_unit: 3\n    columns:\n"
        + "      REGION: {values: [N, S]}\n      AGE: {min: 0, max: 79, bin: 1}\n"
        + "  SLOW_VISITS:\n    privacy_unit: PERSON\n    max_rows_per_unit: 3\n    columns:\n"
        + "      REGION: {values: [N, S]}\n      AGE: {min: 0, max: 79, bin: 1}\n" + extra);
    Properties props = new Properties();
    props.setProperty("policy", p.toString());
    return DriverManager.getConnection("jdbc:dpsql:" + backend, props);
  }

  private static String explain(Connection c, String sql) throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR "
        + sql)) {
      while (rs.next()) {
        out.append(rs.getString(1)).append('\n');
      }
    }
    return out.toString();
  }

  @Test
  void explainNamesTheStrategyAndWhy() throws Exception {
    String sql = "SELECT REGION, COUNT(*) FROM VISITS WHERE AGE >= 18 GROUP BY REGION";
    try (Connection c = open("", h2)) {
      String plan = explain(c, sql);
      assertTrue(plan.contains("measurement: streaming (measurement: auto, and the backend is H2 "
          + "embedded in this JVM"), plan);
      assertTrue(plan.contains("streamed rows SQL: SELECT \"PERSON\" AS \"DPSQL_U\""), plan);
      assertTrue(plan.contains("limits.streaming_max_rows"), plan);
      String quantile = explain(c, "SELECT REGION, MEDIAN(AGE) FROM VISITS GROUP BY REGION");
      assertTrue(quantile.contains("measurement: streaming")
          && quantile.contains("streamed rows SQL (histogram of AGE)"), quantile);
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        int rows = 0;
        while (rs.next()) {
          rows++;
        }
        assertEquals(2, rows);
      }
    }
    try (Connection c = open("measurement: push_down\n", h2)) {
      String plan = explain(c, sql);
      assertTrue(plan.contains("measurement: push-down (policy measurement: push_down)"), plan);
      assertFalse(plan.contains("streamed rows SQL"), plan);
    }
    try (Connection c = open("limits: {streaming_max_rows: 1000}\n", h2)) {
      assertTrue(explain(c, sql).contains("more than 1000 rows"));
    }
  }

  @Test
  void aBadMeasurementSettingIsRefused() {
    SQLException e = assertThrows(SQLException.class, () -> open("measurement: fast\n", h2));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("auto, push_down or streaming"), e.getMessage());
  }

  @Test
  void streamingATrinoTableIsRefusedWhenTheConnectionOpens() throws Exception {
    Class.forName("org.dpsql.audit.FaultyBackendDriver"); // registers H2-presented-as-Trino
    String trino = "dpsql-audit-fault:HONEST@trino:" + h2;
    SQLException e = assertThrows(SQLException.class, () -> open("measurement: streaming\n",
        trino));
    assertEquals("XDP04", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains("measurement: auto or push_down"), e.getMessage());
    try (Connection c = open("", trino)) {
      String plan = explain(c, "SELECT REGION, COUNT(*) FROM VISITS GROUP BY REGION");
      assertTrue(plan.contains("measurement: push-down (measurement: auto, and the backend runs "
          + "outside this JVM"), plan);
    }
  }

  @Test
  void aStreamedScanPastTheTimeoutStopsAndChargesNothing() throws Exception {
    try (Connection c = open("limits: {statement_timeout_s: 1}\n", h2)) {
      long start = System.nanoTime();
      SQLException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThrows(
          SQLException.class, () -> {
            try (Statement st = c.createStatement()) {
              st.executeQuery("SELECT REGION, COUNT(*) FROM SLOW_VISITS GROUP BY REGION");
            }
          }));
      double seconds = (System.nanoTime() - start) / 1e9;
      assertEquals("HYT00", e.getSQLState(), e.getMessage());
      assertTrue(seconds < 15, "stopped after " + seconds + " s");
      assertEquals(0, TestDatabase.session(c).accountant().spent().epsilon().signum());
      assertUsable(c);
    }
  }

  @Test
  void aCancelledStreamedScanStopsAndChargesNothing() throws Exception {
    try (Connection c = open("", h2); Statement st = c.createStatement()) {
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        long start = System.nanoTime();
        Future<?> running = pool.submit(() -> st.executeQuery(
            "SELECT REGION, COUNT(*) FROM SLOW_VISITS GROUP BY REGION"));
        Thread.sleep(3000); // prepared and streaming by then
        assertFalse(running.isDone(), "the scan should still be running");
        st.cancel();
        java.util.concurrent.ExecutionException e = assertThrows(
            java.util.concurrent.ExecutionException.class,
            () -> running.get(30, java.util.concurrent.TimeUnit.SECONDS));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(e.getCause() instanceof SQLException, String.valueOf(e.getCause()));
        assertEquals("57014", ((SQLException) e.getCause()).getSQLState(),
            e.getCause().getMessage());
        assertTrue(seconds < 20, "stopped after " + seconds + " s");
        assertEquals(0, TestDatabase.session(c).accountant().spent().epsilon().signum());
      } finally {
        pool.shutdownNow();
      }
      assertUsable(c);
    }
  }

  /** A fast private query is still answered, and charged, on the connection. */
  private static void assertUsable(Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT REGION, COUNT(*) FROM VISITS GROUP BY REGION")) {
      assertTrue(rs.next());
    }
    assertEquals(0, TestDatabase.session(c).accountant().spent().epsilon()
        .compareTo(new java.math.BigDecimal("0.5")));
  }
}
