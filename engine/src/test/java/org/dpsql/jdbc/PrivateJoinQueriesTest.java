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
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Joins of private tables that share their privacy unit ({@code unit: rider}) through {@link
 * DriverManager}: answers equal the backend's own join after bounding each rider to k rows of the
 * join, fan-out included, and the joins that would pair different persons' rows are refused.
 *
 * <p>Noise-free answers as in {@link RelationalQueriesTest}: a query budget of ρ = 10⁶ (the most a statement
 * may spend), so counts and sums round to the exact bounded ones (a sum of fares clamped to
 * [0, 10] with 5 rows per rider has σ ≤ 50 / √(2·10⁶) ≈ 0.035). Ordinary riders have at most 4 trips (bound 5); rider 0 has 40
 * identical trips, so any 5 of them give the same answers and the expected answers can be
 * computed by the backend over the first 5 (view {@code BOUNDED_TRIPS}).
 */
class PrivateJoinQueriesTest {
  private static String url;
  private static Connection direct;
  private static Path policy;
  private static final int RIDERS = 600;
  private static final int HEAVY_TRIPS = 40;
  private static final int HEAVY_PAYMENTS = 30;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:joins" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE RIDERS (RIDER_ID INT PRIMARY KEY, PLAN VARCHAR(8), "
          + "SIGNUP_YEAR INT, REGION VARCHAR(2))");
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), FARE INT)");
      st.execute("CREATE TABLE PAYMENTS (PAYMENT_ID BIGINT PRIMARY KEY, RIDER_ID BIGINT NOT NULL, "
          + "METHOD VARCHAR(4), AMOUNT INT)");
      st.execute("CREATE TABLE CARDS (RIDER_ID INT PRIMARY KEY, TIER VARCHAR(4))");
      st.execute("INSERT INTO CARDS SELECT X, CASE WHEN MOD(X, 2) = 0 THEN 'gold' ELSE 'blue' "
          + "END FROM SYSTEM_RANGE(0, 299)");
      st.execute("CREATE TABLE DRIVERS (DRIVER_ID INT PRIMARY KEY, REGION VARCHAR(2))");
      st.execute("CREATE TABLE ZONES (REGION VARCHAR(2) PRIMARY KEY, ZONE_NAME VARCHAR(10))");
      st.execute("INSERT INTO ZONES VALUES ('N', 'North'), ('S', 'South'), ('E', 'East'), "
          + "('W', 'West')");
      st.execute("INSERT INTO DRIVERS VALUES (1, 'N'), (2, 'S')");
    }
    String[] regions = {"N", "S", "E", "W"};
    String[] plans = {"free", "plus", "pro"};
    String[] methods = {"CARD", "CASH"};
    SplittableRandom rnd = new SplittableRandom(23);
    try (PreparedStatement r = direct.prepareStatement("INSERT INTO RIDERS VALUES (?,?,?,?)");
        PreparedStatement t = direct.prepareStatement("INSERT INTO TRIPS VALUES (?,?,?,?)");
        PreparedStatement p = direct.prepareStatement("INSERT INTO PAYMENTS VALUES (?,?,?,?)")) {
      long tripId = 0;
      long paymentId = 0;
      for (int rider = 0; rider < RIDERS; rider++) {
        boolean heavy = rider == 0;
        r.setInt(1, rider);
        r.setString(2, plans[rnd.nextInt(3)]);
        r.setInt(3, 2019 + rnd.nextInt(7));
        r.setString(4, regions[rnd.nextInt(4)]);
        r.addBatch();
        int trips = heavy ? HEAVY_TRIPS : 1 + rider % 4;
        for (int k = 0; k < trips; k++) {
          t.setLong(1, tripId++);
          t.setInt(2, rider);
          t.setString(3, heavy ? "N" : regions[rnd.nextInt(4)]);
          t.setInt(4, heavy ? 5 : rnd.nextInt(0, 11));
          t.addBatch();
        }
        int payments = heavy ? HEAVY_PAYMENTS : rider % 3;
        for (int k = 0; k < payments; k++) {
          p.setLong(1, paymentId++);
          p.setInt(2, rider);
          p.setString(3, heavy ? "CARD" : methods[rnd.nextInt(2)]);
          p.setInt(4, heavy ? 20 : rnd.nextInt(0, 51));
          p.addBatch();
        }
      }
      r.executeBatch();
      t.executeBatch();
      p.executeBatch();
    }
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE VIEW BOUNDED_TRIPS AS SELECT TRIP_ID, RIDER_ID, REGION, FARE FROM ("
          + "SELECT t.*, ROW_NUMBER() OVER (PARTITION BY RIDER_ID ORDER BY TRIP_ID) AS RN "
          + "FROM TRIPS t) b WHERE RN <= 5");
    }
    policy = Files.createTempFile("dpsql-joins", ".yaml");
    Files.writeString(policy, policyText(""));
  }

  private static String policyText(String extra) {
    return "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 1.0e8, delta: 1e-9}\n"
        + "  default_query: {rho: 1.0e6}\n"
        + "tables:\n"
        + "  TRIPS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    unit: rider\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "      FARE: {clamp: [0, 10]}\n"
        + "  RIDERS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    unit: rider\n"
        + "    max_rows_per_unit: 1\n"
        + "    columns:\n"
        + "      PLAN: {values: [free, plus, pro]}\n"
        + "      SIGNUP_YEAR: {min: 2019, max: 2025, bin: 1}\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "  PAYMENTS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    unit: rider\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      METHOD: {values: [CARD, CASH]}\n"
        + "      AMOUNT: {clamp: [0, 50]}\n"
        + "  CARDS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    unit: rider\n"
        + "    max_rows_per_unit: 1\n"
        + "    columns:\n"
        + "      TIER: {values: [gold, blue]}\n"
        + "  DRIVERS:\n"
        + "    privacy_unit: DRIVER_ID\n"
        + "    unit: driver\n"
        + "    max_rows_per_unit: 1\n"
        + "    columns:\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "  ZONES: {public: true}\n"
        + extra;
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestConnections.shutDown(direct, policy);
  }

  private static Connection connect() throws SQLException {
    return connect(policy);
  }

  private static Connection connect(Path policyFile) throws SQLException {
    return TestConnections.open(url, policyFile, "5");
  }

  /**
   * dpsql's answer to {@code sql} equals the backend's answer to {@code expected} (the same
   * statement over {@code BOUNDED_TRIPS}), numbers rounded to whole units.
   */
  private static void assertAnswer(String sql, String expected) throws SQLException {
    try (Connection c = connect()) {
      assertEquals(ResultRows.rounded(ResultRows.of(direct, expected)),
          ResultRows.rounded(ResultRows.of(c, sql)), sql);
    }
  }

  /** {@code sql} as asked, and over the trips bounded to 5 per rider as expected. */
  private static void assertBoundedAnswer(String sql) throws SQLException {
    assertAnswer(sql, sql.replace("FROM TRIPS", "FROM BOUNDED_TRIPS")
        .replace("JOIN TRIPS", "JOIN BOUNDED_TRIPS"));
  }

  @Test
  void countsAndSumsByColumnsOfBothTables() throws SQLException {
    assertBoundedAnswer("SELECT r.PLAN, t.REGION, COUNT(*), SUM(t.FARE) FROM TRIPS t "
        + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN, t.REGION "
        + "ORDER BY r.PLAN, t.REGION");
  }

  @Test
  void filtersOnEitherTableAndTheOtherJoinOrder() throws SQLException {
    assertBoundedAnswer("SELECT r.PLAN, COUNT(*), SUM(t.FARE) FROM RIDERS r "
        + "JOIN TRIPS t ON r.RIDER_ID = t.RIDER_ID WHERE r.SIGNUP_YEAR >= 2022 AND t.REGION "
        + "IN ('N', 'E') GROUP BY r.PLAN ORDER BY r.PLAN");
  }

  @Test
  void commaJoinWithTheUnitEqualityInWhere() throws SQLException {
    assertBoundedAnswer("SELECT r.SIGNUP_YEAR, COUNT(*) FROM TRIPS t, RIDERS r "
        + "WHERE t.RIDER_ID = r.RIDER_ID AND t.FARE > 2 GROUP BY r.SIGNUP_YEAR "
        + "ORDER BY r.SIGNUP_YEAR");
  }

  @Test
  void sameColumnNameInBothTables() throws SQLException {
    // TRIPS.REGION (where the trip was) and RIDERS.REGION (where the rider lives)
    assertBoundedAnswer("SELECT r.REGION AS home, t.REGION AS trip, COUNT(*) FROM TRIPS t "
        + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID WHERE t.FARE >= 1 "
        + "GROUP BY r.REGION, t.REGION ORDER BY 1, 2");
  }

  @Test
  void distinctRidersAndSubqueryOverTheJoin() throws SQLException {
    assertBoundedAnswer("SELECT r.PLAN, COUNT(DISTINCT t.RIDER_ID) AS riders FROM TRIPS t "
        + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN ORDER BY r.PLAN");
    assertBoundedAnswer("SELECT plan, n FROM (SELECT r.PLAN AS plan, COUNT(*) AS n FROM TRIPS t "
        + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN) x WHERE n > 10 "
        + "ORDER BY plan");
  }

  @Test
  void publicLookupOnTopOfThePrivateJoin() throws SQLException {
    assertBoundedAnswer("SELECT z.ZONE_NAME, r.PLAN, COUNT(*) FROM TRIPS t "
        + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID JOIN ZONES z ON z.REGION = t.REGION "
        + "GROUP BY z.ZONE_NAME, r.PLAN ORDER BY 1, 2");
  }

  /**
   * Three tables of the same riders, and expressions of columns of the join (a CASE band over
   * SIGNUP_YEAR, evaluated on its domain as for one table): answered over the relation
   * {@code TRIPS JOIN RIDERS JOIN CARDS}, bounded after the join. No rider has more than 5 rows
   * of it (CARDS has one row per rider), so the answers are the bounded backend's.
   */
  @Test
  void threeTablesAndExpressionsOverTheJoin() throws SQLException {
    assertBoundedAnswer("SELECT c.TIER, r.PLAN, COUNT(*), SUM(t.FARE) FROM TRIPS t "
        + "JOIN RIDERS r ON r.RIDER_ID = t.RIDER_ID JOIN CARDS c ON c.RIDER_ID = r.RIDER_ID "
        + "GROUP BY c.TIER, r.PLAN ORDER BY 1, 2");
    String band = "CASE WHEN r.SIGNUP_YEAR < 2022 THEN 'early' ELSE 'late' END";
    assertBoundedAnswer("SELECT " + band + " AS cohort, COUNT(*) FROM TRIPS t JOIN RIDERS r "
        + "ON r.RIDER_ID = t.RIDER_ID WHERE UPPER(t.REGION) IN ('N', 'S') GROUP BY " + band
        + " ORDER BY 1");
    // a NULL TIER (riders without a card) is outside the domain: no group, as for one table
    String chain = "SELECT r.PLAN, c.TIER, COUNT(t.FARE) FROM RIDERS r LEFT JOIN %s t "
        + "ON t.RIDER_ID = r.RIDER_ID LEFT JOIN CARDS c ON c.RIDER_ID = r.RIDER_ID %s"
        + "GROUP BY r.PLAN, c.TIER ORDER BY 1, 2";
    assertAnswer(String.format(chain, "TRIPS", ""),
        String.format(chain, "BOUNDED_TRIPS", "WHERE c.TIER IS NOT NULL "));
  }

  /**
   * Trips joined with payments multiply: rider 0 has 40 × 30 = 1,200 join rows, every other rider
   * trips × payments. Bounded after the join, each rider counts min(rows, 5): the count equals
   * that sum exactly, and rider 0 moves it by 5, the stated sensitivity of COUNT, not 1,200.
   */
  @Test
  void fanOutIsBoundedAfterTheJoin() throws SQLException {
    String perRider = "SELECT t.RIDER_ID, COUNT(*) AS n FROM TRIPS t JOIN PAYMENTS p "
        + "ON t.RIDER_ID = p.RIDER_ID GROUP BY t.RIDER_ID";
    List<List<Object>> exact = ResultRows.of(direct, "SELECT SUM(LEAST(n, 5)), "
        + "SUM(CASE WHEN RIDER_ID = 0 THEN n ELSE 0 END) FROM (" + perRider + ") x");
    long bounded = ((BigDecimal) exact.get(0).get(0)).longValueExact();
    assertEquals(HEAVY_TRIPS * HEAVY_PAYMENTS,
        ((BigDecimal) exact.get(0).get(1)).longValueExact());
    try (Connection c = connect()) {
      List<List<Object>> rows = ResultRows.rounded(ResultRows.of(c, "SELECT COUNT(*) "
          + "FROM TRIPS t JOIN PAYMENTS p ON t.RIDER_ID = p.RIDER_ID WHERE p.METHOD = 'CARD'"));
      long expectedCard = ((BigDecimal) ResultRows.of(direct, "SELECT SUM(LEAST(n, 5)) FROM ("
          + "SELECT t.RIDER_ID, COUNT(*) AS n FROM TRIPS t JOIN PAYMENTS p ON t.RIDER_ID = "
          + "p.RIDER_ID WHERE p.METHOD = 'CARD' GROUP BY t.RIDER_ID) x").get(0).get(0))
          .longValueExact();
      assertEquals(BigDecimal.valueOf(expectedCard).stripTrailingZeros(), rows.get(0).get(0));
      List<List<Object>> all = ResultRows.rounded(ResultRows.of(c, "SELECT COUNT(*) FROM TRIPS t "
          + "JOIN PAYMENTS p ON t.RIDER_ID = p.RIDER_ID"));
      assertEquals(BigDecimal.valueOf(bounded).stripTrailingZeros(), all.get(0).get(0));
    }
  }

  /**
   * Outer joins on the unit: a row null-extended by the join still belongs to one person (the
   * one whose row it keeps), so the join is one private relation as well. Riders without
   * payments keep their trips in the LEFT JOIN, with NULL payment columns (outside every domain).
   */
  @Test
  void outerJoinsOnTheUnit() throws SQLException {
    assertBoundedAnswer("SELECT t.REGION, COUNT(*), COUNT(c.TIER) FROM TRIPS t LEFT JOIN "
        + "CARDS c ON c.RIDER_ID = t.RIDER_ID GROUP BY t.REGION ORDER BY t.REGION");
    assertBoundedAnswer("SELECT r.PLAN, COUNT(t.FARE), SUM(t.FARE) FROM TRIPS t RIGHT JOIN "
        + "RIDERS r ON r.RIDER_ID = t.RIDER_ID GROUP BY r.PLAN ORDER BY r.PLAN");
    // LEFT JOIN as Metabase and Looker write it: the same rows as the inner join here
    assertBoundedAnswer("SELECT r.PLAN, COUNT(*) FROM TRIPS t LEFT JOIN RIDERS r "
        + "ON t.RIDER_ID = r.RIDER_ID WHERE r.SIGNUP_YEAR >= 2021 GROUP BY r.PLAN ORDER BY 1");
    // H2 has no FULL JOIN (PostgresBackendTest answers one)
    try (Connection c = connect(); Statement st = c.createStatement()) {
      assertRefused(st, "XDP03", "H2 has none", "SELECT COUNT(*) FROM TRIPS t FULL JOIN "
          + "PAYMENTS p ON p.RIDER_ID = t.RIDER_ID");
    }
  }

  /**
   * A join of private tables on another key than the unit pairs different persons' rows: it is
   * not one relation, but each table is aggregated on its own by the join key (a column with a
   * domain) and the released counts are combined, as for any join above private aggregates.
   */
  @Test
  void joinsOnOtherKeysCombineReleasesOfEachTable() throws SQLException {
    assertBoundedAnswer("SELECT r.PLAN, COUNT(*) FROM TRIPS t JOIN RIDERS r "
        + "ON t.REGION = r.REGION GROUP BY r.PLAN ORDER BY r.PLAN");
  }

  /** DPSQL.EXPLAIN of a private join: its candidate mechanisms and costs, nothing spent. */
  @Test
  void explainFunctionOfAPrivateJoin() throws SQLException {
    try (Connection c = connect()) {
      List<String> chosen = new java.util.ArrayList<>();
      try (Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT r.PLAN, COUNT(*) FROM TRIPS t LEFT JOIN "
              + "RIDERS r ON r.RIDER_ID = t.RIDER_ID GROUP BY r.PLAN'))")) {
        while (rs.next()) {
          if (rs.getBoolean("CHOSEN")) {
            chosen.add(rs.getString("MECHANISM") + " rho=" + rs.getBigDecimal("RHO").toPlainString());
          }
        }
      }
      assertEquals(List.of("discrete_gaussian rho=1000000"), chosen);
      assertEquals(0, BigDecimal.ZERO.compareTo(
          TestDatabase.session(c).accountant().spent().rho()), "nothing spent");
    }
  }

  @Test
  void explainNamesTheJoinAndItsBound() throws SQLException {
    String plan = explain("SELECT r.PLAN, COUNT(*) FROM TRIPS t JOIN RIDERS r "
        + "ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN");
    assertTrue(plan.contains("private aggregate over TRIPS JOIN RIDERS (privacy unit RIDER_ID, "
        + "at most 5 rows per unit, bounding per_query)"), plan);
    assertTrue(plan.contains("JOIN \"PUBLIC\".\"RIDERS\" \"J1\" ON \"J1\".\"RIDER_ID\" = "
        + "\"J0\".\"RIDER_ID\""), plan);
  }

  /**
   * RIDERS and CARDS both declare RIDER_ID their primary key: a rider has at most one row in each,
   * so one in their join, and the join is measured without a bounding window. TRIPS does not, so
   * its joins are bounded.
   */
  @Test
  void aJoinOfTablesWithUniqueUnitsIsNotBounded() throws SQLException {
    assertAnswer("SELECT r.PLAN, c.TIER, COUNT(*) FROM RIDERS r JOIN CARDS c "
        + "ON c.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN, c.TIER ORDER BY 1, 2",
        "SELECT r.PLAN, c.TIER, COUNT(*) FROM RIDERS r JOIN CARDS c "
        + "ON c.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN, c.TIER ORDER BY 1, 2");
    assertTrue(explain("SELECT c.TIER, COUNT(*) FROM RIDERS r JOIN CARDS c "
        + "ON c.RIDER_ID = r.RIDER_ID GROUP BY c.TIER").contains("in every joined table, one row "
        + "per unit"));
    String bounded = explain("SELECT c.TIER, COUNT(*) FROM TRIPS t JOIN CARDS c "
        + "ON c.RIDER_ID = t.RIDER_ID GROUP BY c.TIER");
    assertTrue(bounded.contains("DPSQL_RN"), bounded);
  }

  private static String explain(String sql) throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
      return plan.toString();
    }
  }

  @Test
  void joinsThatPairDifferentPersonsAreRefused() throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      assertRefused(st, "XDP03", "other conditions", "SELECT r.PLAN, COUNT(*) FROM RIDERS r "
          + "LEFT JOIN TRIPS t ON t.RIDER_ID = r.RIDER_ID AND t.FARE > 2 GROUP BY r.PLAN");
      assertRefused(st, "XDP03", "fill with NULLs", "SELECT r.PLAN, COUNT(*) FROM RIDERS r "
          + "LEFT JOIN (SELECT * FROM TRIPS WHERE FARE > 2) t ON t.RIDER_ID = r.RIDER_ID "
          + "GROUP BY r.PLAN");
      assertRefused(st, "XDP03", "adds one table", "SELECT r.PLAN, COUNT(*) FROM RIDERS r "
          + "LEFT JOIN (TRIPS t JOIN PAYMENTS p ON p.RIDER_ID = t.RIDER_ID) ON t.RIDER_ID = "
          + "r.RIDER_ID GROUP BY r.PLAN");
      assertRefused(st, "XDP03", "privacy units", "SELECT r.PLAN, COUNT(*) FROM TRIPS t "
          + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID OR t.REGION = r.REGION GROUP BY r.PLAN");
      assertRefused(st, "XDP03", "itself", "SELECT a.REGION, COUNT(*) FROM TRIPS a "
          + "JOIN TRIPS b ON a.RIDER_ID = b.RIDER_ID GROUP BY a.REGION");
      assertRefused(st, "XDP03", "another (unit driver)", "SELECT d.REGION, COUNT(*) FROM "
          + "TRIPS t JOIN DRIVERS d ON t.RIDER_ID = d.DRIVER_ID GROUP BY d.REGION");
      assertRefused(st, "XDP02", "raw rows", "SELECT r.PLAN, t.FARE FROM TRIPS t "
          + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID");
      // a filter by the units of a table without one row per unit (IN), or correlated (EXISTS),
      // points to the join on the unit
      assertRefused(st, "XDP03", "JOIN PAYMENTS o ON t.<unit> = o.<unit>", "SELECT COUNT(*) FROM "
          + "TRIPS WHERE RIDER_ID IN (SELECT RIDER_ID FROM PAYMENTS WHERE METHOD = 'CASH')");
      assertRefused(st, "XDP03", "join on the shared privacy unit", "SELECT REGION, COUNT(*) "
          + "FROM TRIPS t WHERE EXISTS (SELECT 1 FROM RIDERS r WHERE r.RIDER_ID = t.RIDER_ID AND "
          + "r.PLAN = 'plus') GROUP BY REGION");
      assertTrue(TestDatabase.session(c).accountant().spent().isZero());
    }
  }

  @Test
  void tablesWithoutASharedUnitAreNotJoined() throws Exception {
    Path p = Files.createTempFile("dpsql-joins-nounit", ".yaml");
    try {
      Files.writeString(p, policyText("").replace("    unit: rider\n    max_rows_per_unit: 1\n",
          "    max_rows_per_unit: 1\n"));
      try (Connection c = connect(p); Statement st = c.createStatement()) {
        assertRefused(st, "XDP03", "declares no shared unit", "SELECT r.PLAN, COUNT(*) FROM "
            + "TRIPS t JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID GROUP BY r.PLAN");
      }
    } finally {
      Files.deleteIfExists(p);
    }
  }

  /** The policy's {@code units:} bound replaces the largest of the members' bounds. */
  @Test
  void explicitBoundForTheJoin() throws Exception {
    Path p = Files.createTempFile("dpsql-joins-bound", ".yaml");
    try {
      Files.writeString(p, policyText("units:\n  rider: {max_rows_per_unit: 2}\n"));
      long expected = ((BigDecimal) ResultRows.of(direct, "SELECT SUM(LEAST(n, 2)) FROM (SELECT "
          + "t.RIDER_ID, COUNT(*) AS n FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID "
          + "GROUP BY t.RIDER_ID) x").get(0).get(0)).longValueExact();
      try (Connection c = connect(p)) {
        assertEquals(List.of(List.of(BigDecimal.valueOf(expected).stripTrailingZeros())),
            ResultRows.rounded(ResultRows.of(c, "SELECT COUNT(*) FROM TRIPS t JOIN RIDERS r "
                + "ON t.RIDER_ID = r.RIDER_ID")));
      }
      Files.writeString(p, policyText("units:\n  walker: {max_rows_per_unit: 2}\n"));
      SQLException e = assertThrows(SQLException.class, () -> connect(p).close());
      assertEquals("XDP04", e.getSQLState());
      assertTrue(e.getMessage().contains("units.walker"), e.getMessage());
    } finally {
      Files.deleteIfExists(p);
    }
  }

  private static void assertRefused(Statement st, String state, String fragment, String sql) {
    SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(sql).close(), sql);
    assertEquals(state, e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains(fragment), e.getMessage());
  }

  /**
   * {@code unit IN (SELECT unit FROM RIDERS WHERE ...)}: RIDERS's unit is its primary key, so the
   * distinct units are its rows and the filter is the join on the unit: the same canonical release
   * as the join written by hand: the second statement is free and returns the same rows.
   */
  @Test
  void aFilterByTheUnitsOfATableWithOneRowPerUnitIsTheJoin() throws Exception {
    String in = "SELECT REGION, COUNT(*) AS N FROM TRIPS WHERE RIDER_ID IN (SELECT RIDER_ID FROM "
        + "RIDERS WHERE PLAN = 'plus') GROUP BY REGION ORDER BY REGION";
    String join = "SELECT t.REGION, COUNT(*) AS N FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = "
        + "r.RIDER_ID WHERE r.PLAN = 'plus' GROUP BY t.REGION ORDER BY t.REGION";
    try (Connection c = connect()) {
      List<List<Object>> viaIn = ResultRows.of(c, in);
      org.dpsql.accounting.PrivacyCost spent = TestDatabase.session(c).accountant().spent();
      assertTrue(!spent.isZero());
      assertEquals(viaIn, ResultRows.of(c, join));
      assertEquals(spent, TestDatabase.session(c).accountant().spent(), "the same release, free");
      assertEquals(4, viaIn.size());
      String plan = ResultRows.of(c, "EXPLAIN PLAN FOR " + in).toString();
      assertTrue(plan.contains("TRIPS JOIN RIDERS"), plan);
    }
  }
}
