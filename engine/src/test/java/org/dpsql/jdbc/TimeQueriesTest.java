package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DATE and TIMESTAMP columns with time domains through {@link DriverManager}: time series by
 * truncation, extraction and casts, date ranges, every bin of a series returned, and the refusals
 * of expressions that are not constant on the bins.
 *
 * <p>Noise-free answers as in {@link RelationalQueriesTest}: at most 4 trips per rider, bounded at
 * 5, and a query budget of ρ = 10⁶, so counts round to the backend's own.
 */
class TimeQueriesTest {
  private static String url;
  private static Connection direct;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:time" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), FARE INT, PICKUP_TS TIMESTAMP, PICKUP_HOUR TIMESTAMP, "
          + "PICKUP_DATE DATE, PICKUP_WEEK DATE)");
    }
    String[] regions = {"N", "S", "E", "W"};
    SplittableRandom rnd = new SplittableRandom(17);
    LocalDateTime start = LocalDateTime.of(2024, 1, 1, 0, 0);
    try (PreparedStatement ps = direct.prepareStatement(
        "INSERT INTO TRIPS VALUES (?,?,?,?,?,?,?,?)")) {
      long id = 0;
      for (int rider = 0; rider < 900; rider++) {
        int trips = 1 + rider % 4;
        for (int t = 0; t < trips; t++) {
          // a minute in 2024-01-01 .. 2025-03-31 (455 days), some outside the policy's range
          LocalDateTime ts = start.plusMinutes(rnd.nextLong(455L * 24 * 60));
          LocalDateTime hour = LocalDateTime.of(2024, 3, 4, 0, 0).plusMinutes(rnd.nextInt(7 * 24 * 60));
          ps.setLong(1, id++);
          ps.setInt(2, rider);
          ps.setString(3, regions[rnd.nextInt(4)]);
          ps.setInt(4, rnd.nextInt(0, 101));
          ps.setObject(5, ts);
          ps.setObject(6, hour);
          ps.setObject(7, ts.toLocalDate());
          ps.setObject(8, ts.toLocalDate());
          ps.addBatch();
        }
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-time", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 100000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 1000000.0}\n"
        + "tables:\n"
        + "  TRIPS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "      FARE: {clamp: [0, 100]}\n"
        + "      PICKUP_TS: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n"
        + "      PICKUP_HOUR: {min: 2024-03-04, max: 2024-03-10 23:00, bin: 1 hour}\n"
        + "      PICKUP_DATE: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n"
        + "      PICKUP_WEEK: {min: 2024-01-01, max: 2024-12-29, bin: 1 week}\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestConnections.shutDown(direct, policy);
  }

  private static Connection connect() throws SQLException {
    return TestConnections.open(url, policy, "5");
  }

  private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    return ResultRows.of(c, sql);
  }

  /**
   * dpsql's answer equals the backend's own answer to {@code sql}, numbers rounded to whole units:
   * series are answered as workloads, whose estimates are not rounded, and the noise's standard
   * deviation is below 0.05 at this budget, so rounding recovers the exact counts and sums.
   */
  private static void assertSameAsBackend(String sql) throws SQLException {
    try (Connection c = connect()) {
      assertEquals(rounded(rows(direct, sql)), rounded(rows(c, sql)), sql);
    }
  }

  private static List<List<Object>> rounded(List<List<Object>> rows) {
    return ResultRows.rounded(rows);
  }

  private static SQLException refused(String sql, String state) throws SQLException {
    try (Connection c = connect()) {
      SQLException e = assertThrows(SQLException.class, () -> rows(c, sql), sql);
      assertEquals(state, e.getSQLState(), sql + ": " + e.getMessage());
      return e;
    }
  }

  private static final String IN_2024 = " WHERE PICKUP_TS >= TIMESTAMP '2024-01-01 00:00:00' AND "
      + "PICKUP_TS < TIMESTAMP '2025-01-01 00:00:00'";

  @Test
  void monthlySeriesByTruncation() throws SQLException {
    assertSameAsBackend("SELECT DATE_TRUNC('month', PICKUP_TS) AS m, COUNT(*) AS n FROM TRIPS"
        + IN_2024 + " GROUP BY DATE_TRUNC('month', PICKUP_TS) ORDER BY m");
  }

  @Test
  void seriesByExtractAndYearMonth() throws SQLException {
    assertSameAsBackend("SELECT EXTRACT(YEAR FROM PICKUP_TS) AS y, EXTRACT(MONTH FROM PICKUP_TS) "
        + "AS mo, COUNT(*) AS n FROM TRIPS" + IN_2024 + " GROUP BY EXTRACT(YEAR FROM PICKUP_TS), "
        + "EXTRACT(MONTH FROM PICKUP_TS) ORDER BY 1, 2");
    assertSameAsBackend("SELECT YEAR(PICKUP_TS) AS y, QUARTER(PICKUP_TS) AS q, COUNT(*) AS n "
        + "FROM TRIPS" + IN_2024 + " GROUP BY YEAR(PICKUP_TS), QUARTER(PICKUP_TS) ORDER BY 1, 2");
  }

  @Test
  void floorToAndOracleTrunc() throws SQLException {
    String truth = "SELECT DATE_TRUNC('month', PICKUP_TS) AS m, COUNT(*) AS n FROM TRIPS"
        + IN_2024 + " GROUP BY DATE_TRUNC('month', PICKUP_TS) ORDER BY m";
    try (Connection c = connect()) {
      assertEquals(rounded(rows(direct, truth)), rounded(rows(c, "SELECT FLOOR(PICKUP_TS TO MONTH) "
          + "AS m, COUNT(*) AS n FROM TRIPS" + IN_2024 + " GROUP BY FLOOR(PICKUP_TS TO MONTH) "
          + "ORDER BY m")));
      assertEquals(rounded(rows(direct, truth)), rounded(rows(c, "SELECT TRUNC(PICKUP_TS, 'MM') "
          + "AS m, COUNT(*) AS n FROM TRIPS" + IN_2024 + " GROUP BY TRUNC(PICKUP_TS, 'MM') "
          + "ORDER BY m")));
    }
  }

  @Test
  void dailySeriesByCastToDate() throws SQLException {
    assertSameAsBackend("SELECT CAST(PICKUP_TS AS DATE) AS d, COUNT(*) AS n FROM TRIPS" + IN_2024
        + " AND PICKUP_TS < TIMESTAMP '2024-02-01 00:00:00' GROUP BY CAST(PICKUP_TS AS DATE) "
        + "ORDER BY d");
  }

  @Test
  void dateColumnRangesAndGrouping() throws SQLException {
    assertSameAsBackend("SELECT PICKUP_DATE, COUNT(*) AS n FROM TRIPS WHERE PICKUP_DATE BETWEEN "
        + "DATE '2024-03-01' AND DATE '2024-03-31' GROUP BY PICKUP_DATE ORDER BY PICKUP_DATE");
    assertSameAsBackend("SELECT COUNT(*) AS n FROM TRIPS WHERE PICKUP_DATE = DATE '2024-07-04'");
  }

  @Test
  void timestampsComparedWithDatesAndDateText() throws SQLException {
    assertSameAsBackend("SELECT COUNT(*) AS n FROM TRIPS WHERE PICKUP_TS >= DATE '2024-03-01' "
        + "AND PICKUP_TS < DATE '2024-04-01'");
    // H2 compares text with a DATE itself; dpsql reads the text as a date literal
    assertSameAsBackend("SELECT COUNT(*) AS n FROM TRIPS WHERE PICKUP_DATE BETWEEN '2024-03-01' "
        + "AND '2024-03-31'");
    assertSameAsBackend("SELECT COUNT(*) AS n FROM TRIPS WHERE PICKUP_TS >= '2024-03-01' AND "
        + "PICKUP_TS < '2024-03-08 00:00:00'");
    // a timestamp up to '2024-03-31' (midnight) cuts the day of 31 March
    refused("SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS BETWEEN '2024-03-01' AND '2024-03-31'",
        "XDP03");
    // a range after the domain's end selects no cell: refused by name, not an internal error
    // (relative dates read the clock: today is after 2024, the domain's end)
    SQLException empty = refused("SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS >= CURRENT_DATE",
        "XDP03");
    assertTrue(empty.getMessage().contains("selects no cell"), empty.getMessage());
    refused("SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS >= DATE '2026-01-01'", "XDP03");
    refused("SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS >= 'yesterday'", "42000");
  }

  @Test
  void hourlySeries() throws SQLException {
    assertSameAsBackend("SELECT EXTRACT(HOUR FROM PICKUP_HOUR) AS h, COUNT(*) AS n FROM TRIPS "
        + "GROUP BY EXTRACT(HOUR FROM PICKUP_HOUR) ORDER BY h");
    assertSameAsBackend("SELECT DATE_TRUNC('hour', PICKUP_HOUR) AS h, COUNT(*) AS n FROM TRIPS "
        + "WHERE PICKUP_HOUR >= TIMESTAMP '2024-03-05 06:00:00' AND PICKUP_HOUR < TIMESTAMP "
        + "'2024-03-05 12:00:00' GROUP BY DATE_TRUNC('hour', PICKUP_HOUR) ORDER BY h");
  }

  @Test
  void groupingByTheColumnLabelsItsBins() throws SQLException {
    try (Connection c = connect()) {
      List<List<Object>> weeks = rows(c, "SELECT PICKUP_WEEK, COUNT(*) AS n FROM TRIPS GROUP BY "
          + "PICKUP_WEEK ORDER BY PICKUP_WEEK");
      assertEquals(52, weeks.size(), "every week of the domain, empty or not");
      assertEquals(LocalDate.of(2024, 1, 1), weeks.get(0).get(0));
      assertEquals(LocalDate.of(2024, 12, 23), weeks.get(51).get(0));
      List<List<Object>> truth = rows(direct, "SELECT COUNT(*) FROM TRIPS WHERE PICKUP_WEEK >= "
          + "DATE '2024-01-08' AND PICKUP_WEEK < DATE '2024-01-15'");
      assertEquals(truth.get(0).get(0), rounded(weeks).get(1).get(1));
    }
  }

  @Test
  void everyBinOfASeriesIsReturnedEvenWhenEmpty() throws SQLException {
    try (Connection c = connect()) {
      List<List<Object>> days = rows(c, "SELECT CAST(PICKUP_TS AS DATE) AS d, COUNT(*) AS n FROM "
          + "TRIPS GROUP BY CAST(PICKUP_TS AS DATE) ORDER BY d");
      assertEquals(366, days.size());
    }
  }

  @Test
  void explainShowsTheBinsAndSpendsNothing() throws SQLException {
    try (Connection c = connect()) {
      StringBuilder plan = new StringBuilder();
      for (List<Object> row : rows(c, "EXPLAIN PLAN FOR SELECT DATE_TRUNC('month', PICKUP_TS) AS "
          + "m, COUNT(*) AS n FROM TRIPS GROUP BY DATE_TRUNC('month', PICKUP_TS)")) {
        plan.append(row).append('\n');
      }
      assertTrue(plan.toString().contains("PICKUP_TS[366]"), plan.toString());
      assertTrue(plan.toString().contains("DATE_TRUNC('month', \"PICKUP_TS\")"), plan.toString());
      assertEquals(0, TestDatabase.session(c).accountant().spent().rho().signum());
    }
  }

  @Test
  void expressionsThatVaryInsideABinAreRefused() throws SQLException {
    SQLException e = refused("SELECT EXTRACT(HOUR FROM PICKUP_TS) AS h, COUNT(*) FROM TRIPS "
        + "GROUP BY EXTRACT(HOUR FROM PICKUP_TS)", "XDP03");
    assertTrue(e.getMessage().contains("not constant on the day bins of PICKUP_TS"),
        e.getMessage());
    refused("SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS >= TIMESTAMP '2024-03-01 12:00:00'",
        "XDP03");
    refused("SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS <= TIMESTAMP '2024-03-01 00:00:00'",
        "XDP03");
    refused("SELECT COUNT(*) FROM TRIPS WHERE EXTRACT(HOUR FROM PICKUP_TS) = 12", "XDP03");
    refused("SELECT DATE_TRUNC('month', PICKUP_WEEK) AS m, COUNT(*) FROM TRIPS GROUP BY "
        + "DATE_TRUNC('month', PICKUP_WEEK)", "XDP03");
  }
}
