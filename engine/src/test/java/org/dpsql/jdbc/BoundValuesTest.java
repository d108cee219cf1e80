package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values known only when a statement runs: bound parameters ({@code ?}) wherever a literal may
 * stand, on every statement form, and relative dates ({@code CURRENT_DATE}, {@code NOW()}, ...)
 * read from the session's clock. A statement with its values bound is answered as the same
 * statement written with those literals: the answers equal the backend's own (the budget makes
 * the noise negligible, see {@link TimeQueriesTest}), value-dependent refusals name the parameter
 * and charge nothing, and a repeat is free only with the same values.
 */
class BoundValuesTest {
  private static String url;
  private static Connection direct;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:bound" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), AGE INT, FARE INT, PICKUP_TS TIMESTAMP)");
    }
    String[] regions = {"N", "S", "E", "W"};
    SplittableRandom rnd = new SplittableRandom(29);
    try (PreparedStatement ps = direct.prepareStatement(
        "INSERT INTO TRIPS VALUES (?,?,?,?,?,?)")) {
      long id = 0;
      for (int rider = 0; rider < 800; rider++) {
        for (int t = 0; t < 1 + rider % 4; t++) {
          ps.setLong(1, id++);
          ps.setInt(2, rider);
          ps.setString(3, regions[rnd.nextInt(4)]);
          ps.setInt(4, 18 + rnd.nextInt(60));
          ps.setInt(5, rnd.nextInt(0, 101));
          ps.setObject(6, LocalDateTime.of(2024, 1, 1, 0, 0)
              .plusMinutes(rnd.nextLong(366L * 24 * 60)));
          ps.addBatch();
        }
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-bound", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 100000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 1000000.0}\n"
        + "tables:\n"
        + "  TRIPS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "      AGE: {min: 18, max: 77, bin: 1}\n"
        + "      FARE: {clamp: [0, 100]}\n"
        + "      PICKUP_TS: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestConnections.shutDown(direct, policy);
  }

  private static Connection connect() throws SQLException {
    return TestConnections.open(url, policy, "5");
  }

  private static List<List<Object>> rows(PreparedStatement ps) throws SQLException {
    return ResultRows.of(ps);
  }

  private static List<List<Object>> bound(Connection c, String sql, Object... values)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        ps.setObject(i + 1, values[i]);
      }
      return rows(ps);
    }
  }

  private static PrivacyCost spent(Connection c) {
    return TestDatabase.session(c).accountant().spent();
  }

  /**
   * {@code sql} with {@code values} bound answers what the backend answers to {@code literal}
   * (the same statement with the values written in), rounded to whole units.
   */
  private static void assertBoundAsBackend(String literal, String sql, Object... values)
      throws SQLException {
    try (Connection c = connect()) {
      assertEquals(ResultRows.rounded(ResultRows.of(direct, literal)),
          ResultRows.rounded(bound(c, sql, values)), sql);
    }
  }

  /**
   * A statement whose parameters stand in its release's filter is planned once at prepare: each
   * execution with new values binds them to the measurement (no parse, no plan), answers what the
   * backend answers with those values, and is a release of its own (charged), while the same
   * values again are free. So is a statement with parameters in its post-processing (HAVING,
   * LIMIT, a filter over released rows): new values there re-run the post-processing of the same
   * releases, planned nothing and charged nothing.
   */
  @Test
  void reboundValuesAreNotPlannedAgain() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT REGION, COUNT(*) AS N FROM TRIPS WHERE AGE > ? AND FARE < ? GROUP BY REGION "
            + "ORDER BY REGION")) {
      var analyzer = TestDatabase.session(c).analyzer();
      long planned = analyzer.plannedStatements();
      PrivacyCost before = spent(c);
      for (int age = 20; age <= 60; age += 10) {
        ps.setInt(1, age);
        ps.setString(2, "50"); // converted to the inferred INTEGER, as a literal would be
        assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT REGION, COUNT(*) FROM "
            + "TRIPS WHERE AGE > " + age + " AND FARE < 50 GROUP BY REGION ORDER BY REGION")),
            ResultRows.rounded(rows(ps)), "AGE > " + age);
      }
      assertEquals(planned, analyzer.plannedStatements(), "executions planned nothing");
      PrivacyCost five = spent(c);
      assertNotEquals(before, five);
      ps.setLong(1, 40L); // the same values as the third execution, bound as another type
      ps.setBigDecimal(2, new java.math.BigDecimal("50"));
      rows(ps);
      assertEquals(five, spent(c), "the same values again: the same release, free");
      ps.setString(1, "forty");
      SQLException e = assertThrows(SQLException.class, () -> rows(ps));
      assertEquals("22018", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("parameter 1"), e.getMessage());
      assertEquals(five, spent(c), "nothing charged for a refused value");
      assertEquals(planned, analyzer.plannedStatements());
    }
    String[] postProcessed = {
        "SELECT REGION, COUNT(*) AS N FROM TRIPS GROUP BY REGION HAVING COUNT(*) > ? "
            + "ORDER BY REGION",
        "SELECT REGION, COUNT(*) AS N FROM TRIPS WHERE AGE > ? GROUP BY REGION "
            + "ORDER BY N DESC LIMIT ?",
        "SELECT REGION, COUNT(*) AS N FROM TRIPS WHERE AGE > ? GROUP BY REGION "
            + "HAVING COUNT(*) > ? ORDER BY REGION LIMIT ?",
        "WITH T AS (SELECT REGION, SUM(FARE) AS S FROM TRIPS WHERE FARE > ? GROUP BY REGION) "
            + "SELECT COUNT(*) FROM T WHERE S > ?"};
    Object[][] first = {{10}, {30, 2}, {30, 5, 2}, {10, 100}};
    Object[][] second = {{20}, {30, 1}, {30, 6, 1}, {10, 200}};
    String[] literal = {
        "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION HAVING COUNT(*) > 20 "
            + "ORDER BY REGION",
        "SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE > 30 GROUP BY REGION "
            + "ORDER BY COUNT(*) DESC LIMIT 1",
        "SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE > 30 GROUP BY REGION "
            + "HAVING COUNT(*) > 6 ORDER BY REGION LIMIT 1",
        "WITH T AS (SELECT REGION, SUM(FARE) AS S FROM TRIPS WHERE FARE > 10 GROUP BY REGION) "
            + "SELECT COUNT(*) FROM T WHERE S > 200"};
    for (int k = 0; k < postProcessed.length; k++) {
      try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(postProcessed[k])) {
        var analyzer = TestDatabase.session(c).analyzer();
        long planned = analyzer.plannedStatements();
        for (int i = 0; i < first[k].length; i++) {
          ps.setObject(i + 1, first[k][i]);
        }
        rows(ps);
        PrivacyCost once = spent(c);
        assertFalse(once.isZero(), postProcessed[k]);
        for (int i = 0; i < second[k].length; i++) {
          ps.setObject(i + 1, second[k][i]);
        }
        List<List<Object>> again = rows(ps);
        assertEquals(planned, analyzer.plannedStatements(), "planned at prepare only: "
            + postProcessed[k]);
        assertEquals(once, spent(c), "new post-processing values are free: " + postProcessed[k]);
        assertEquals(ResultRows.rounded(ResultRows.of(direct, literal[k])),
            ResultRows.rounded(again), postProcessed[k]);
      }
    }
  }

  /**
   * Values that decide what is released (two timestamps bounding a daily series, a CASE
   * threshold, an aggregated expression) are bound into the plan made at prepare: each new value
   * set is checked and answered as the statement written with those values, without being parsed
   * or planned again; the same values again are free.
   */
  @Test
  void valuesThatDecideTheReleaseAreBoundIntoThePlan() throws SQLException {
    String series = "SELECT CAST(PICKUP_TS AS DATE) AS D, COUNT(*) AS N FROM TRIPS "
        + "WHERE PICKUP_TS >= ? AND PICKUP_TS < ? GROUP BY CAST(PICKUP_TS AS DATE) ORDER BY D";
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(series)) {
      var analyzer = TestDatabase.session(c).analyzer();
      long planned = analyzer.plannedStatements();
      PrivacyCost spent = spent(c);
      for (String[] range : new String[][] {{"2024-03-01", "2024-03-08"},
          {"2024-03-08", "2024-03-15"}, {"2024-03-01", "2024-03-03"}}) {
        ps.setTimestamp(1, Timestamp.valueOf(range[0] + " 00:00:00"));
        ps.setTimestamp(2, Timestamp.valueOf(range[1] + " 00:00:00"));
        assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT CAST(PICKUP_TS AS DATE), "
            + "COUNT(*) FROM TRIPS WHERE PICKUP_TS >= TIMESTAMP '" + range[0] + " 00:00:00' "
            + "AND PICKUP_TS < TIMESTAMP '" + range[1] + " 00:00:00' "
            + "GROUP BY CAST(PICKUP_TS AS DATE) ORDER BY 1")), ResultRows.rounded(rows(ps)),
            range[0] + " to " + range[1]);
      }
      spent = spent(c);
      assertFalse(spent.isZero());
      ps.setTimestamp(1, Timestamp.valueOf("2024-03-08 00:00:00"));
      ps.setTimestamp(2, Timestamp.valueOf("2024-03-15 00:00:00"));
      rows(ps);
      assertEquals(spent, spent(c), "the same values again: free");
      assertEquals(planned, analyzer.plannedStatements(), "planned at prepare only");
    }
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT CASE WHEN AGE < ? THEN 'young' ELSE 'old' END AS G, COUNT(*) AS N FROM TRIPS "
            + "GROUP BY 1 ORDER BY 1")) {
      var analyzer = TestDatabase.session(c).analyzer();
      long planned = analyzer.plannedStatements();
      for (int age : new int[] {30, 40, 50}) {
        ps.setInt(1, age);
        assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT CASE WHEN AGE < " + age
            + " THEN 'young' ELSE 'old' END, COUNT(*) FROM TRIPS GROUP BY CASE WHEN AGE < "
            + age + " THEN 'young' ELSE 'old' END ORDER BY 1")),
            ResultRows.rounded(rows(ps)), "AGE < " + age);
      }
      assertEquals(planned, analyzer.plannedStatements(), "planned at prepare only");
    }
  }

  /**
   * A row count given by a parameter must be a whole number, 0 or more: SQL's invalid row count
   * states, naming the parameter, nothing charged.
   */
  @Test
  void aBadRowCountIsRefusedBeforeAnythingIsCharged() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT REGION, COUNT(*) AS N FROM TRIPS GROUP BY REGION ORDER BY N DESC "
            + "LIMIT ? OFFSET ?")) {
      ps.setInt(1, -1);
      ps.setInt(2, 0);
      SQLException fetch = assertThrows(SQLException.class, () -> rows(ps));
      assertEquals("2201W", fetch.getSQLState(), fetch.getMessage());
      assertTrue(fetch.getMessage().contains("parameter 1"), fetch.getMessage());
      ps.setInt(1, 2);
      ps.setInt(2, -3);
      SQLException offset = assertThrows(SQLException.class, () -> rows(ps));
      assertEquals("2201X", offset.getSQLState(), offset.getMessage());
      assertTrue(offset.getMessage().contains("parameter 2"), offset.getMessage());
      assertTrue(spent(c).isZero(), spent(c).toString());
      ps.setInt(2, 1);
      assertEquals(2, rows(ps).size());
    }
  }

  @Test
  void parametersStandWhereverALiteralMay() throws SQLException {
    // single-table: comparisons, BETWEEN, IN lists, LIKE
    assertBoundAsBackend("SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE BETWEEN 20 AND 40 "
        + "AND REGION IN ('N', 'S') GROUP BY REGION ORDER BY REGION",
        "SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE BETWEEN ? AND ? "
            + "AND REGION IN (?, ?) GROUP BY REGION ORDER BY REGION", 20, 40, "N", "S");
    assertBoundAsBackend("SELECT COUNT(*) FROM TRIPS WHERE REGION LIKE 'N%'",
        "SELECT COUNT(*) FROM TRIPS WHERE REGION LIKE ?", "N%");
    // HAVING
    assertBoundAsBackend("SELECT REGION, COUNT(*) AS N FROM TRIPS GROUP BY REGION "
        + "HAVING COUNT(*) > 10 ORDER BY REGION", "SELECT REGION, COUNT(*) AS N FROM TRIPS "
        + "GROUP BY REGION HAVING COUNT(*) > ? ORDER BY REGION", 10);
    // inside a subquery source
    assertBoundAsBackend("SELECT MAX(N) FROM (SELECT REGION, COUNT(*) AS N FROM TRIPS "
        + "WHERE AGE >= 30 GROUP BY REGION) T", "SELECT MAX(N) FROM (SELECT REGION, "
        + "COUNT(*) AS N FROM TRIPS WHERE AGE >= ? GROUP BY REGION) T", 30);
    // two timestamps bounding a daily series
    assertBoundAsBackend("SELECT CAST(PICKUP_TS AS DATE) AS D, COUNT(*) AS N FROM TRIPS "
        + "WHERE PICKUP_TS >= TIMESTAMP '2024-03-01 00:00:00' "
        + "AND PICKUP_TS < TIMESTAMP '2024-03-08 00:00:00' "
        + "GROUP BY CAST(PICKUP_TS AS DATE) ORDER BY D",
        "SELECT CAST(PICKUP_TS AS DATE) AS D, COUNT(*) AS N FROM TRIPS "
            + "WHERE PICKUP_TS >= ? AND PICKUP_TS < ? GROUP BY CAST(PICKUP_TS AS DATE) "
            + "ORDER BY D", Timestamp.valueOf("2024-03-01 00:00:00"),
        Timestamp.valueOf("2024-03-08 00:00:00"));
    // CASE and select-list arithmetic
    assertBoundAsBackend("SELECT CASE WHEN AGE < 40 THEN 'young' ELSE 'old' END AS G, "
        + "COUNT(*) FROM TRIPS GROUP BY CASE WHEN AGE < 40 THEN 'young' ELSE 'old' END "
        + "ORDER BY 1", "SELECT CASE WHEN AGE < ? THEN 'young' "
        + "ELSE 'old' END AS G, COUNT(*) FROM TRIPS GROUP BY 1 ORDER BY 1", 40);
    assertBoundAsBackend("SELECT COUNT(*) * 2 FROM TRIPS", "SELECT COUNT(*) * ? FROM TRIPS", 2);
    // LIMIT, OFFSET, FETCH
    assertBoundAsBackend("SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION ORDER BY REGION "
        + "LIMIT 2 OFFSET 1", "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION "
        + "ORDER BY REGION LIMIT ? OFFSET ?", 2, 1);
    assertBoundAsBackend("SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION ORDER BY REGION "
        + "OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY", "SELECT REGION, COUNT(*) FROM TRIPS "
        + "GROUP BY REGION ORDER BY REGION OFFSET ? ROWS FETCH NEXT ? ROWS ONLY", 1, 2);
    // a workload (UNION ALL of aggregates) and a CTE
    assertBoundAsBackend("SELECT COUNT(*) FROM TRIPS WHERE AGE < 30 UNION ALL "
        + "SELECT COUNT(*) FROM TRIPS WHERE AGE >= 30", "SELECT COUNT(*) FROM TRIPS WHERE "
        + "AGE < ? UNION ALL SELECT COUNT(*) FROM TRIPS WHERE AGE >= ?", 30, 30);
    assertBoundAsBackend("WITH T AS (SELECT REGION, SUM(FARE) AS S FROM TRIPS WHERE FARE > 10 "
        + "GROUP BY REGION) SELECT COUNT(*) FROM T WHERE S > 100", "WITH T AS (SELECT REGION, "
        + "SUM(FARE) AS S FROM TRIPS WHERE FARE > ? GROUP BY REGION) SELECT COUNT(*) FROM T "
        + "WHERE S > ?", 10, 100);
  }

  @Test
  void parameterMetaDataReportsTheInferredTypes() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT CAST(PICKUP_TS AS DATE) AS D, COUNT(*) FROM TRIPS WHERE "
            + "CAST(PICKUP_TS AS DATE) >= ? AND PICKUP_TS < ? AND REGION = ? "
            + "GROUP BY CAST(PICKUP_TS AS DATE) HAVING COUNT(*) > ?")) {
      ParameterMetaData md = ps.getParameterMetaData();
      assertEquals(4, md.getParameterCount());
      assertEquals(Types.DATE, md.getParameterType(1));
      assertEquals(Types.TIMESTAMP, md.getParameterType(2));
      assertEquals(Types.VARCHAR, md.getParameterType(3));
      assertEquals(Types.BIGINT, md.getParameterType(4));
      assertEquals(2, ps.getMetaData().getColumnCount());
      assertEquals(Types.DATE, ps.getMetaData().getColumnType(1));
    }
  }

  @Test
  void valueDependentRefusalsNameTheParameterAndChargeNothing() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE > ? AND PICKUP_TS >= ? GROUP BY REGION "
            + "HAVING COUNT(*) > ?")) {
      ps.setInt(1, 30);
      ps.setTimestamp(2, Timestamp.valueOf("2024-03-01 10:30:00")); // inside a day bin
      ps.setInt(3, 0);
      SQLException e = assertThrows(SQLException.class, () -> rows(ps));
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("parameter 2"), e.getMessage());
      ps.setString(1, "thirty"); // not a number
      SQLException type = assertThrows(SQLException.class, () -> rows(ps));
      assertEquals("22018", type.getSQLState(), type.getMessage());
      assertTrue(type.getMessage().contains("parameter 1"), type.getMessage());
      ps.clearParameters();
      ps.setInt(1, 30);
      SQLException unset = assertThrows(SQLException.class, () -> rows(ps));
      assertEquals("07001", unset.getSQLState(), unset.getMessage());
      assertTrue(unset.getMessage().contains("parameter 2"), unset.getMessage());
      assertTrue(spent(c).isZero(), spent(c).toString());
    }
  }

  @Test
  void aRepeatIsFreeOnlyWithTheSameValues() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE > ? GROUP BY REGION "
            + "HAVING COUNT(*) > ?")) {
      ps.setInt(1, 30);
      ps.setInt(2, 5);
      List<List<Object>> first = rows(ps);
      PrivacyCost once = spent(c);
      assertTrue(!once.isZero());
      assertEquals(first, rows(ps), "the same release again");
      assertEquals(once, spent(c), "a repeat with the same values is free");
      // HAVING filters the released counts: post-processing of the same release, free
      ps.setInt(2, 6);
      rows(ps);
      assertEquals(once, spent(c), "another HAVING bound post-processes the same release");
      ps.setInt(1, 31);
      rows(ps);
      assertNotEquals(once, spent(c), "another WHERE value is another release");
    }
  }

  @Test
  void relativeDatesAreReadFromTheSessionClockOncePerExecution() throws SQLException {
    String relative = "SELECT CAST(PICKUP_TS AS DATE) AS D, COUNT(*) AS N FROM TRIPS "
        + "WHERE PICKUP_TS >= CURRENT_DATE - INTERVAL '7' DAY AND PICKUP_TS < CURRENT_DATE "
        + "GROUP BY CAST(PICKUP_TS AS DATE) ORDER BY D";
    String literal = "SELECT CAST(PICKUP_TS AS DATE) AS D, COUNT(*) AS N FROM TRIPS "
        + "WHERE PICKUP_TS >= DATE '2024-03-01' AND PICKUP_TS < DATE '2024-03-08' "
        + "GROUP BY CAST(PICKUP_TS AS DATE) ORDER BY D";
    try (Connection c = connect()) {
      org.dpsql.session.DpsqlSession session = TestDatabase.session(c);
      session.setClock(Clock.fixed(Instant.parse("2024-03-08T21:15:00Z"), ZoneOffset.UTC));
      List<List<Object>> answer;
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(relative)) {
        answer = new ArrayList<>();
        while (rs.next()) {
          answer.add(List.of(rs.getDate(1).toLocalDate(),
              new java.math.BigDecimal(rs.getObject(2).toString())));
        }
      }
      assertEquals(ResultRows.rounded(ResultRows.of(direct, literal)),
          ResultRows.rounded(answer));
      assertEquals(7, answer.size());
      // EXPLAIN shows the evaluated bounds
      String plan = TestDatabase.explainPlan(c.createStatement(), relative);
      assertTrue(plan.contains("2024-03-01"), plan);
      PrivacyCost once = spent(c);
      // the same day: the same release, free
      session.setClock(Clock.fixed(Instant.parse("2024-03-08T23:59:00Z"), ZoneOffset.UTC));
      assertEquals(answer.size(), ResultRows.of(c, relative).size());
      assertEquals(once, spent(c));
      // the next day: other bounds (the series starts a day later)
      session.setClock(Clock.fixed(Instant.parse("2024-03-09T00:01:00Z"), ZoneOffset.UTC));
      assertEquals(LocalDate.of(2024, 3, 2), ResultRows.of(c, relative).get(0).get(0));
    }
    // a single count: its release identity is the evaluated bound
    String count = "SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS >= CURRENT_DATE - INTERVAL '7' DAY";
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(count)) {
      // prepared once, the clock read at each execution and bound into the plan
      org.dpsql.session.DpsqlSession session = TestDatabase.session(c);
      long planned = session.analyzer().plannedStatements();
      session.setClock(Clock.fixed(Instant.parse("2024-03-08T08:00:00Z"), ZoneOffset.UTC));
      List<List<Object>> march8 = rows(ps);
      session.setClock(Clock.fixed(Instant.parse("2024-03-09T08:00:00Z"), ZoneOffset.UTC));
      rows(ps);
      assertEquals(planned, session.analyzer().plannedStatements(), "planned at prepare only");
      assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT COUNT(*) FROM TRIPS WHERE "
          + "PICKUP_TS >= DATE '2024-03-01'")), ResultRows.rounded(march8));
    }
    try (Connection c = connect()) {
      org.dpsql.session.DpsqlSession session = TestDatabase.session(c);
      session.setClock(Clock.fixed(Instant.parse("2024-03-08T08:00:00Z"), ZoneOffset.UTC));
      ResultRows.of(c, count);
      PrivacyCost once = spent(c);
      session.setClock(Clock.fixed(Instant.parse("2024-03-08T20:00:00Z"), ZoneOffset.UTC));
      ResultRows.of(c, count);
      assertEquals(once, spent(c), "the same evaluated date: a repeat, free");
      session.setClock(Clock.fixed(Instant.parse("2024-03-09T08:00:00Z"), ZoneOffset.UTC));
      ResultRows.of(c, count);
      assertNotEquals(once, spent(c), "another evaluated date: another release");
      // a timestamp of the clock is not on a day bin: refused naming the value, nothing charged
      PrivacyCost before = spent(c);
      SQLException e = assertThrows(SQLException.class, () -> ResultRows.of(c,
          "SELECT COUNT(*) FROM TRIPS WHERE PICKUP_TS >= NOW() - INTERVAL '1' DAY"));
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("= TIMESTAMP '2024-03-09 08:00:00'"),
          e.getMessage());
      assertEquals(before, spent(c));
    }
  }

  @Test
  void constantExpressionsAreFoldedBeforeTheAnalysis() throws SQLException {
    try (Connection c = connect()) {
      assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT COUNT(*) FROM TRIPS "
              + "WHERE PICKUP_TS >= DATE '2024-12-01'")),
          ResultRows.rounded(ResultRows.of(c, "SELECT COUNT(*) FROM TRIPS "
              + "WHERE PICKUP_TS >= DATE '2024-12-31' - INTERVAL '30' DAY")));
      assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT COUNT(*) FROM TRIPS "
              + "WHERE PICKUP_TS >= DATE '2024-03-01' AND AGE > 60")),
          ResultRows.rounded(ResultRows.of(c, "SELECT COUNT(*) FROM TRIPS "
              + "WHERE PICKUP_TS >= CAST('2024-03-01' AS DATE) AND AGE > 6 * 10")));
      assertEquals(ResultRows.rounded(ResultRows.of(direct, "SELECT REGION, COUNT(*) "
              + "FROM TRIPS WHERE PICKUP_TS < TIMESTAMP '2024-02-01 00:00:00' GROUP BY REGION "
              + "ORDER BY REGION")),
          ResultRows.rounded(ResultRows.of(c, "SELECT REGION, COUNT(*) FROM TRIPS "
              + "WHERE PICKUP_TS < TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1' MONTH "
              + "GROUP BY REGION ORDER BY REGION")));
    }
  }

  @Test
  void aBatchOfAPreparedAggregateIsRefusedClearly() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT COUNT(*) FROM TRIPS WHERE AGE > ?")) {
      ps.setInt(1, 20);
      ps.addBatch();
      SQLException e = assertThrows(SQLException.class, ps::executeBatch);
      assertTrue(e.getMessage().contains("once per set of values"), e.getMessage());
      assertTrue(spent(c).isZero());
    }
  }

  @Test
  void aDateParameterIsADate() throws SQLException {
    assertBoundAsBackend("SELECT COUNT(*) FROM TRIPS WHERE CAST(PICKUP_TS AS DATE) >= "
        + "DATE '2024-06-01'", "SELECT COUNT(*) FROM TRIPS WHERE CAST(PICKUP_TS AS DATE) >= ?",
        LocalDate.of(2024, 6, 1));
  }

  /**
   * {@code FILTER (WHERE ...)} of COUNT and SUM is the conditional aggregate: the same answer as
   * the backend's (noise negligible here), and with the same seed the same noisy release and
   * charge as the statement written with CASE, i.e. the same sensitivity.
   */
  @Test
  void aggregateFilterClausesAreTheirConditionalForm() throws SQLException {
    String filtered = "SELECT REGION, COUNT(*) FILTER (WHERE AGE >= 40) AS OLDER, "
        + "SUM(FARE) FILTER (WHERE AGE < 40) AS YOUNGER_FARES FROM TRIPS GROUP BY REGION "
        + "ORDER BY REGION";
    String conditional = "SELECT REGION, SUM(CASE WHEN AGE >= 40 THEN 1 ELSE 0 END) AS OLDER, "
        + "SUM(CASE WHEN AGE < 40 THEN FARE ELSE 0 END) AS YOUNGER_FARES FROM TRIPS "
        + "GROUP BY REGION ORDER BY REGION";
    List<List<Object>> viaFilter;
    PrivacyCost filterCost;
    try (Connection c = connect()) {
      viaFilter = ResultRows.of(c, filtered);
      filterCost = spent(c);
    }
    assertEquals(ResultRows.rounded(ResultRows.of(direct, filtered)),
        ResultRows.rounded(viaFilter));
    try (Connection c = connect()) {
      assertEquals(viaFilter, ResultRows.of(c, conditional), "the same release");
      assertEquals(filterCost, spent(c));
    }
  }

  /**
   * {@code AVG(x) FILTER (WHERE c)} is {@code AVG(CASE WHEN c THEN x END)}: the backend's answer
   * (noise negligible here, the average of whole fares rounded), and with the same seed the same
   * release and charge as the CASE form, whose sum and count have the sensitivities of {@code
   * AVG(x)}'s (EXPLAIN's Δ lines are those of the unfiltered average). COUNT(DISTINCT ...) with a
   * FILTER has no conditional form that is answered: refused (XDP03), nothing charged.
   */
  @Test
  void averageFilterClausesAreTheirConditionalForm() throws SQLException {
    String filtered = "SELECT REGION, AVG(FARE) FILTER (WHERE AGE >= 40) AS OLDER_FARE FROM TRIPS "
        + "GROUP BY REGION ORDER BY REGION";
    String conditional = "SELECT REGION, AVG(CASE WHEN AGE >= 40 THEN FARE END) AS OLDER_FARE "
        + "FROM TRIPS GROUP BY REGION ORDER BY REGION";
    String exact = "SELECT REGION, AVG(CAST(FARE AS DOUBLE)) FILTER (WHERE AGE >= 40) FROM TRIPS "
        + "GROUP BY REGION ORDER BY REGION";
    List<List<Object>> viaFilter;
    PrivacyCost filterCost;
    try (Connection c = connect()) {
      viaFilter = ResultRows.of(c, filtered);
      filterCost = spent(c);
      assertTrue(!filterCost.isZero());
    }
    List<List<Object>> backend = ResultRows.of(direct, exact);
    assertEquals(backend.size(), viaFilter.size());
    for (int r = 0; r < backend.size(); r++) {
      assertEquals(backend.get(r).get(0), viaFilter.get(r).get(0));
      // noise std of the sum 100·5/√(2·10⁶) ≈ 0.35 over hundreds of rows: far below 0.01
      assertEquals(((java.math.BigDecimal) backend.get(r).get(1)).doubleValue(),
          ((java.math.BigDecimal) viaFilter.get(r).get(1)).doubleValue(), 0.01, filtered);
    }
    try (Connection c = connect()) {
      assertEquals(viaFilter, ResultRows.of(c, conditional), "the same release");
      assertEquals(filterCost, spent(c));
    }
    try (Connection c = connect()) {
      List<String> deltas = new java.util.ArrayList<>();
      for (String sql : List.of("EXPLAIN PLAN FOR " + filtered,
          "EXPLAIN PLAN FOR SELECT REGION, AVG(FARE) AS F FROM TRIPS GROUP BY REGION")) {
        StringBuilder d = new StringBuilder();
        for (List<Object> line : ResultRows.of(c, sql)) {
          java.util.regex.Matcher m = java.util.regex.Pattern.compile("measure (SUM|COUNT)\\(.*"
              + "(Δ=[0-9]+)").matcher(line.get(0).toString());
          if (m.find()) {
            d.append(m.group(1)).append(' ').append(m.group(2)).append("; ");
          }
        }
        deltas.add(d.toString());
      }
      assertEquals(deltas.get(1), deltas.get(0));
      assertTrue(deltas.get(0).contains("SUM Δ=500") && deltas.get(0).contains("COUNT Δ=5"),
          deltas.get(0));
      SQLException e = assertThrows(SQLException.class, () -> ResultRows.of(c, "SELECT REGION, "
          + "COUNT(DISTINCT RIDER_ID) FILTER (WHERE AGE >= 40) FROM TRIPS GROUP BY REGION"));
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("COUNT(DISTINCT ...) FILTER"), e.getMessage());
      assertTrue(spent(c).isZero());
    }
  }

  /**
   * A count released as an integer is BIGINT for a statement with bound values too: described
   * so at prepare (from validation) and returned so after execute; an average stays DOUBLE.
   */
  @Test
  void countsWithBoundValuesAreBigintAtPrepareAndExecute() throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT REGION, "
        + "COUNT(*) AS N, AVG(AGE) AS A FROM TRIPS WHERE AGE >= ? GROUP BY REGION "
        + "HAVING COUNT(*) > ? ORDER BY N DESC")) {
      assertEquals(Types.BIGINT, ps.getMetaData().getColumnType(2));
      assertEquals(Types.DOUBLE, ps.getMetaData().getColumnType(3));
      ps.setInt(1, 30);
      ps.setInt(2, 1);
      try (ResultSet rs = ps.executeQuery()) {
        assertEquals(Types.BIGINT, rs.getMetaData().getColumnType(2));
        assertEquals(Types.DOUBLE, rs.getMetaData().getColumnType(3));
        assertTrue(rs.next());
        assertTrue(rs.getObject(2) instanceof Long, rs.getObject(2).getClass().getName());
      }
    }
  }
}
