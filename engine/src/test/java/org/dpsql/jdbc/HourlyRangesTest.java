package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Range queries over a time axis in hour bins (8,760 cells, one year): a query is never answered
 * worse than by measuring its own queries directly, whatever the number of cells (issue 33). At ρ =
 * 0.02 and at most 10 rows per rider, measuring a query directly has standard deviation {@code
 * 10/√(2·0.02) = 50}; measuring 168 hourly cells and summing them (the identity strategy) has {@code
 * 50·√168 ≈ 648}.
 */
class HourlyRangesTest {
  private static final LocalDateTime YEAR = LocalDateTime.of(2025, 1, 1, 0, 0);
  private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
  /** {@code c/√(2ρ)} for c = 10 rows per unit and ρ = 0.02: one query measured directly. */
  private static final double DIRECT_SD = 10 / Math.sqrt(2 * 0.02);

  private static String url;
  private static Connection direct;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:hourly" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "PICKUP_AT TIMESTAMP NOT NULL, PICKUP_DAY TIMESTAMP NOT NULL)");
    }
    SplittableRandom rnd = new SplittableRandom(33);
    try (PreparedStatement ps = direct.prepareStatement("INSERT INTO TRIPS VALUES (?,?,?,?)")) {
      for (int id = 0; id < 5000; id++) {
        LocalDateTime t = YEAR.plusMinutes(rnd.nextLong(365L * 24 * 60));
        ps.setLong(1, id);
        ps.setInt(2, id / 3);
        ps.setObject(3, t);
        ps.setObject(4, t);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-hourly", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 100000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 0.02}\n"
        + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    max_rows_per_unit: 10\n"
        + "    columns:\n"
        + "      PICKUP_AT: {min: 2025-01-01, max: 2025-12-31 23:00, bin: 1 hour}\n"
        + "      PICKUP_DAY: {min: 2025-01-01, max: 2025-12-31, bin: 1 day}\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestConnections.shutDown(direct, policy);
  }

  private static String range(String column, int fromHour, int toHour) {
    return column + " >= TIMESTAMP '" + YEAR.plusHours(fromHour).format(TS) + "' AND " + column
        + " < TIMESTAMP '" + YEAR.plusHours(toHour).format(TS) + "'";
  }

  private static final Pattern RMSE = Pattern.compile("expected RMSE per query ([0-9.eE+-]+)");

  /** The expected RMSE per query that {@code EXPLAIN PLAN FOR sql} states. */
  private static double explainedRmse(Connection c, String sql) throws SQLException {
    StringBuilder plan = new StringBuilder();
    for (List<Object> row : ResultRows.of(c, "EXPLAIN PLAN FOR " + sql)) {
      plan.append(row).append('\n');
    }
    Matcher m = RMSE.matcher(plan);
    assertTrue(m.find(), plan.toString());
    double rmse = Double.parseDouble(m.group(1));
    assertTrue(!m.find(), "one data vector expected: " + plan);
    return rmse;
  }

  @Test
  void anHourlyWeekCostsNoMoreThanTheDailyOne() throws SQLException {
    String week = "SELECT COUNT(*) FROM TRIPS WHERE ";
    try (Connection c = TestConnections.open(url, policy, "5")) {
      double hourly = explainedRmse(c, week + range("PICKUP_AT", 59 * 24, 66 * 24));
      double daily = explainedRmse(c, week + range("PICKUP_DAY", 59 * 24, 66 * 24));
      // both measure the week once: c/√(2ρ) = 50 (the stated figure has 4 significant digits)
      assertEquals(DIRECT_SD, hourly, 0.005);
      assertEquals(DIRECT_SD, daily, 0.005);
      assertEquals(0, TestDatabase.session(c).accountant().spent().rho().signum());
    }
  }

  @Test
  void anHourlyWeekIsReleasedWithTheBackendsCount() throws SQLException {
    String sql = "SELECT COUNT(*) FROM TRIPS WHERE " + range("PICKUP_AT", 59 * 24, 66 * 24);
    // ρ = 10⁶: the week's standard deviation is 10/√(2·10⁶) ≈ 0.007, so rounding recovers the count
    String hinted = sql.replaceFirst("SELECT", "SELECT /*+ DP(rho='1000000') */");
    try (Connection c = TestConnections.open(url, policy, "5")) {
      assertEquals(ResultRows.rounded(ResultRows.of(direct, sql)),
          ResultRows.rounded(ResultRows.of(c, hinted)));
    }
  }
}
