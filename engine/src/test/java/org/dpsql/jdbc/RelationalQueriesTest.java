package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The relational front end through {@link DriverManager}: statements whose private parts are
 * aggregates inside subqueries, CTEs, HAVING, window functions, arithmetic, joins with public
 * tables and unions; schema probes; and the refusals that keep raw rows in.
 *
 * <p>Noise-free answers: every rider has at most 4 trips and the policy bounds at 5, so contribution
 * bounding drops nothing; the default query budget is ρ = 10⁶, so a count's noise has standard
 * deviation Δ/√(2ρ) = 5/√(2·10⁶) ≈ 0.0035 and rounds to 0 (P[|noise| ≥ 0.5] < 10⁻³⁰⁰⁰), and the
 * backend's own answer to the same statement is the exact expected value.
 */
class RelationalQueriesTest {
  private static String url;
  private static Connection direct;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:rel" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), PAYMENT VARCHAR(8), AGE INT, FARE INT, NOTE VARCHAR(20))");
      st.execute("CREATE TABLE ZONES (REGION VARCHAR(2), NAME VARCHAR(20), POPULATION INT)");
      st.execute("INSERT INTO ZONES VALUES ('N','North',1000),('S','South',2000),"
          + "('E','East',4000),('W','West',8000)");
    }
    String[] regions = {"N", "S", "E", "W"};
    String[] payments = {"CARD", "CASH", "APP"};
    SplittableRandom rnd = new SplittableRandom(11);
    try (PreparedStatement ps = direct.prepareStatement(
        "INSERT INTO TRIPS VALUES (?,?,?,?,?,?,?)")) {
      long id = 0;
      for (int rider = 0; rider < 900; rider++) {
        int trips = 1 + rider % 4; // at most 4 trips per rider: bounding at 5 drops nothing
        for (int t = 0; t < trips; t++) {
          ps.setLong(1, id++);
          ps.setInt(2, rider);
          ps.setString(3, regions[rnd.nextInt(4)]);
          ps.setString(4, payments[rnd.nextInt(3)]);
          ps.setInt(5, 18 + rnd.nextInt(60));
          ps.setInt(6, rnd.nextInt(0, 101));
          ps.setString(7, "n" + id);
          ps.addBatch();
        }
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-rel", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 100000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 1000000.0}\n"
        + "tables:\n"
        + "  TRIPS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "      PAYMENT: {values: [CARD, CASH, APP]}\n"
        + "      AGE: {min: 18, max: 77, bin: 1}\n"
        + "      FARE: {clamp: [0, 100]}\n"
        + "  ZONES: {public: true}\n");
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

  /** dpsql's answer equals the backend's own answer to the same statement (counts: exactly). */
  private static void assertSameAsBackend(String sql) throws SQLException {
    try (Connection c = connect()) {
      assertEquals(rows(direct, sql), rows(c, sql), sql);
    }
  }

  /** The refusal of {@code sql}, which must carry {@code state}. */
  private static SQLException refused(Connection c, String sql, String state) {
    SQLException e = assertThrows(SQLException.class, () -> rows(c, sql), sql);
    assertEquals(state, e.getSQLState(), sql + ": " + e.getMessage());
    return e;
  }

  private static PrivacyCost spent(Connection c) {
    return TestDatabase.session(c).accountant().spent();
  }

  @Test
  void subqueriesAndCtesThatProjectRenameAndFilterThePrivateTable() throws SQLException {
    assertSameAsBackend("SELECT COUNT(*) FROM (SELECT REGION, AGE FROM TRIPS WHERE AGE > 30) t");
    // literals of different lengths: SQL types them CHAR(4), 'APP ' must still match 'APP'
    assertSameAsBackend("SELECT COUNT(*) FROM (SELECT * FROM TRIPS) t WHERE PAYMENT IN ('APP', "
        + "'CASH')");
    assertSameAsBackend("SELECT r, COUNT(*) AS n FROM (SELECT REGION AS r, PAYMENT AS p FROM "
        + "TRIPS) t WHERE p = 'CASH' GROUP BY r ORDER BY r");
    assertSameAsBackend("WITH young AS (SELECT * FROM TRIPS WHERE AGE < 30), cash AS (SELECT "
        + "REGION, AGE FROM young WHERE PAYMENT = 'CASH') SELECT REGION, COUNT(AGE) AS n FROM cash "
        + "GROUP BY REGION ORDER BY n DESC, REGION");
    // Metabase's nested question: the source is itself a SELECT with an alias
    assertSameAsBackend("SELECT \"source\".\"PAYMENT\" AS \"PAYMENT\", count(*) AS \"count\" FROM "
        + "(SELECT \"TRIPS\".\"PAYMENT\" AS \"PAYMENT\", \"TRIPS\".\"AGE\" AS \"AGE\" FROM "
        + "\"TRIPS\" WHERE \"TRIPS\".\"AGE\" >= 40) AS \"source\" GROUP BY \"source\".\"PAYMENT\" "
        + "ORDER BY \"source\".\"PAYMENT\" ASC");
  }

  @Test
  void postProcessingAboveTheReleaseIsExact() throws SQLException {
    assertSameAsBackend("SELECT REGION, COUNT(*) AS n FROM TRIPS GROUP BY REGION "
        + "HAVING COUNT(*) > 600 ORDER BY REGION");
    assertSameAsBackend("SELECT REGION, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS rk "
        + "FROM TRIPS GROUP BY REGION ORDER BY REGION");
    // every cell of the domain is released (zeros included), so compare over a complete domain
    assertSameAsBackend("SELECT REGION, SUM(COUNT(*)) OVER (ORDER BY REGION) AS running FROM TRIPS "
        + "WHERE AGE < 25 GROUP BY REGION ORDER BY REGION");
    assertSameAsBackend("SELECT PAYMENT, COUNT(*) * 2 + 1 AS x, CASE WHEN COUNT(*) > 800 THEN "
        + "'many' ELSE 'few' END AS size FROM TRIPS GROUP BY PAYMENT ORDER BY PAYMENT");
    assertSameAsBackend("SELECT MAX(n) FROM (SELECT REGION, COUNT(*) AS n FROM TRIPS GROUP BY "
        + "REGION) t");
  }

  @Test
  void sharesOfATotalAreReadableNumbers() throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT REGION, 100.0 * COUNT(*) / SUM(COUNT(*)) OVER () "
            + "AS share FROM TRIPS GROUP BY REGION")) {
      double total = 0;
      while (rs.next()) {
        Object share = rs.getObject(2);
        // not H2's 60-digit exact quotient
        assertTrue(share instanceof Double || ((BigDecimal) share).scale() <= 10, share.toString());
        total += ((Number) share).doubleValue();
      }
      assertEquals(100.0, total, 1e-9);
    }
  }

  @Test
  void aReleaseJoinedWithAPublicTableGivesPerCapitaRates() throws SQLException {
    assertSameAsBackend("SELECT t.REGION, z.NAME, t.n * 1000 / z.POPULATION AS per_mille FROM "
        + "(SELECT REGION, COUNT(*) AS n FROM TRIPS GROUP BY REGION) t JOIN ZONES z ON "
        + "t.REGION = z.REGION ORDER BY t.REGION");
  }

  @Test
  void severalPrivateAggregatesShareOneStatementBudget() throws SQLException {
    String union = "SELECT 'cash' AS k, COUNT(*) AS n FROM TRIPS WHERE PAYMENT = 'CASH' "
        + "UNION ALL SELECT 'card', COUNT(*) FROM TRIPS WHERE PAYMENT = 'CARD'";
    try (Connection c = connect()) {
      assertEquals(rows(direct, union), rows(c, union));
      // one statement, one default query's budget: ρ = 10⁶ split into two halves
      assertEquals(0, new BigDecimal("1000000").compareTo(spent(c).rho()), spent(c).toString());
      // asked again: the same releases, free
      rows(c, union);
      assertEquals(0, new BigDecimal("1000000").compareTo(spent(c).rho()));
      List<List<Object>> plan = rows(c, "EXPLAIN PLAN FOR " + union);
      String text = plan.toString();
      assertTrue(text.contains("2 private aggregates"), text);
      assertTrue(text.contains("rho='500000"), text);
      assertEquals(0, new BigDecimal("1000000").compareTo(spent(c).rho()), "EXPLAIN is free");
    }
    assertSameAsBackend("SELECT a.REGION, a.n - b.n AS diff FROM (SELECT REGION, COUNT(*) AS n FROM "
        + "TRIPS WHERE PAYMENT = 'CARD' GROUP BY REGION) a JOIN (SELECT REGION, COUNT(*) AS n FROM "
        + "TRIPS WHERE PAYMENT = 'CASH' GROUP BY REGION) b ON a.REGION = b.REGION ORDER BY 1");
  }

  @Test
  void joinsAboveReleasesArePostProcessing() throws SQLException {
    // an aggregate over a join is split into one aggregate per side, joined and combined above
    // the releases (Calcite's aggregate-join transposition): a self-join's size is the sum over
    // regions of the released count squared, a semi-join with a public table a filter of cells
    String self = "SELECT COUNT(*) FROM TRIPS T JOIN TRIPS U ON T.REGION = U.REGION";
    try (Connection c = connect()) {
      assertEquals(rows(direct, self), rows(c, self));
      // both sides are the same release: the statement's whole budget goes to it, once
      assertEquals(0, new BigDecimal("1000000").compareTo(spent(c).rho()), spent(c).toString());
    }
    assertSameAsBackend("SELECT COUNT(*) FROM TRIPS WHERE REGION IN (SELECT REGION FROM ZONES "
        + "WHERE POPULATION > 1500)");
    assertSameAsBackend("SELECT PAYMENT, REGION, COUNT(*) FROM TRIPS JOIN (SELECT REGION AS r, "
        + "COUNT(*) AS n FROM TRIPS GROUP BY REGION ORDER BY n DESC LIMIT 2) top ON REGION = r "
        + "GROUP BY PAYMENT, REGION ORDER BY 1, 2");
  }

  @Test
  void theSameAggregateBehindDifferentPostProcessingIsReleasedOnce() throws SQLException {
    try (Connection c = connect()) {
      rows(c, "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION HAVING COUNT(*) > 100");
      PrivacyCost once = spent(c);
      rows(c, "WITH t AS (SELECT REGION, COUNT(*) AS n FROM TRIPS GROUP BY REGION) "
          + "SELECT REGION, n FROM t ORDER BY n DESC");
      assertEquals(once, spent(c));
    }
  }

  @Test
  void schemaProbesReturnThePolicyColumnsAndSpendNothing() throws SQLException {
    for (String probe : List.of("SELECT * FROM TRIPS WHERE 1 = 0", "SELECT * FROM TRIPS LIMIT 0",
        "SELECT * FROM (SELECT REGION, FARE FROM TRIPS) t WHERE 1 = 2")) {
      try (Connection c = connect(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery(probe)) {
        assertFalse(rs.next(), probe);
        ResultSetMetaData md = rs.getMetaData();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          names.add(md.getColumnLabel(i));
        }
        assertFalse(names.contains("NOTE"), "columns outside the policy stay hidden: " + names);
        assertFalse(names.contains("TRIP_ID"), names.toString());
        assertTrue(names.contains("REGION") && names.contains("FARE"), names.toString());
        assertTrue(spent(c).isZero(), probe);
      }
    }
  }

  @Test
  void lenientSqlOfBiToolsAndConsoles() throws SQLException {
    try (Connection c = connect()) {
      // H2 itself takes no GROUP BY ordinal: the backend's answer is asked by name
      assertEquals(rows(direct, "SELECT REGION AS \"value\", COUNT(*) AS \"count\" FROM TRIPS "
          + "GROUP BY REGION ORDER BY 1"), rows(c, "SELECT REGION AS \"value\", COUNT(*) AS "
          + "\"count\" FROM TRIPS GROUP BY 1 ORDER BY 1"));
      List<List<Object>> backTicks = rows(c,
          "select `region`, count(*) as `count` from `trips` group by `region` order by 2 desc, 1");
      assertEquals(4, backTicks.size());
      assertEquals(rows(direct, "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION ORDER BY 2 "
          + "DESC, 1"), backTicks);
      assertEquals(rows(direct, "SELECT PAYMENT, COUNT(*) FROM TRIPS GROUP BY PAYMENT ORDER BY 1 "
          + "LIMIT 2 OFFSET 1"), rows(c, "SELECT PAYMENT, COUNT(*) FROM (SELECT * FROM TRIPS) t "
          + "GROUP BY PAYMENT ORDER BY 1 LIMIT 2 OFFSET 1"));
    }
  }

  @Test
  void unaliasedAggregatesAreNamedAsInSingleTableStatements() throws SQLException {
    try (Connection c = connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT REGION, COUNT(*), AVG(FARE), SUM(FARE) * 2 FROM "
            + "(SELECT * FROM TRIPS) t GROUP BY REGION")) {
      ResultSetMetaData md = rs.getMetaData();
      assertEquals("REGION", md.getColumnLabel(1));
      assertEquals("COUNT", md.getColumnLabel(2));
      assertEquals("AVG_FARE", md.getColumnLabel(3));
      assertEquals("EXPR$3", md.getColumnLabel(4)); // an expression keeps SQL's generated name
    }
  }

  @Test
  void rawRowsStayIn() throws SQLException {
    try (Connection c = connect()) {
      for (String sql : List.of("SELECT * FROM TRIPS", "SELECT AGE FROM (SELECT * FROM TRIPS) t",
          "WITH t AS (SELECT REGION, AGE FROM TRIPS) SELECT * FROM t WHERE AGE > 50",
          "SELECT t.AGE, n FROM TRIPS t JOIN (SELECT REGION, COUNT(*) n FROM TRIPS GROUP BY REGION)"
              + " a ON t.REGION = a.REGION",
          "SELECT DISTINCT FARE FROM (SELECT FARE FROM TRIPS) t",
          // read through SQL's other table forms: the explicit table, a sample, a CTE that
          // shares the private table's name in another scope (each was passed to the backend)
          "TABLE TRIPS", "SELECT * FROM TRIPS TABLESAMPLE SYSTEM (50)",
          "SELECT * FROM (WITH TRIPS AS (SELECT 1 AS X) SELECT * FROM TRIPS) a, TRIPS")) {
        refused(c, sql, "XDP02");
      }
      assertTrue(spent(c).isZero());
    }
  }

  /**
   * A CTE may not have a private table's name: H2 reads the table under that name, so the
   * statement would be checked as reading the CTE and run reading the table (it was passed
   * through, and returned the exact count of the private table).
   */
  @Test
  void aCteMayNotHaveAPrivateTablesName() throws SQLException {
    try (Connection c = connect()) {
      SQLException e = refused(c, "WITH TRIPS AS (SELECT REGION FROM ZONES) "
          + "SELECT COUNT(*) FROM TRIPS", "XDP02");
      assertTrue(e.getMessage().contains("another name"), e.getMessage());
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("WITH Z AS (SELECT REGION FROM ZONES) "
              + "SELECT COUNT(*) FROM Z");
          Statement exact = direct.createStatement();
          ResultSet d = exact.executeQuery("SELECT COUNT(*) FROM ZONES")) {
        assertTrue(rs.next());
        d.next();
        assertEquals(d.getLong(1), rs.getLong(1), "a public statement: the backend's answer");
      }
      assertTrue(spent(c).isZero());
    }
  }

  @Test
  void whatCannotBeMadePrivateIsRefusedByName() throws SQLException {
    try (Connection c = connect()) {
      SQLException limited = assertThrows(SQLException.class, () -> rows(c,
          "SELECT COUNT(*) FROM (SELECT * FROM TRIPS LIMIT 10) t"));
      assertEquals("XDP03", limited.getSQLState());
      assertTrue(limited.getMessage().contains("sort"), limited.getMessage());
      // the rows of the raw table joined to a release are private: refused
      SQLException presence = assertThrows(SQLException.class, () -> rows(c,
          "SELECT x, u.FARE FROM (SELECT REGION, COUNT(*) AS x FROM TRIPS GROUP BY REGION) t "
              + "JOIN TRIPS u ON t.REGION = u.REGION"));
      assertEquals("XDP02", presence.getSQLState(), presence.getMessage());
      // MIN ignores the join's duplicates, so the planner joins the distinct regions that occur
      // in TRIPS: which ones occur is private, and the declared domain would change the answer
      SQLException occurring = assertThrows(SQLException.class, () -> rows(c,
          "SELECT MIN(x) FROM (SELECT REGION, COUNT(*) AS x FROM TRIPS GROUP BY REGION) t "
              + "JOIN TRIPS u ON t.REGION = u.REGION"));
      assertEquals("XDP02", occurring.getSQLState(), occurring.getMessage());
      assertTrue(occurring.getMessage().contains("values that occur"), occurring.getMessage());
      // a comparison across types inside a subquery: the backend would convert every row
      SQLException types = assertThrows(SQLException.class, () -> rows(c,
          "SELECT COUNT(*) FROM (SELECT * FROM TRIPS WHERE REGION = 3) t"));
      assertEquals("42000", types.getSQLState(), types.getMessage());
      // DPSQL.EXPLAIN of a statement with one private aggregate explains that release; with two
      // or more it points to EXPLAIN PLAN FOR
      assertTrue(rows(c, "SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT REGION, COUNT(*) FROM TRIPS "
          + "GROUP BY REGION HAVING COUNT(*) > 1'))").size() >= 2);
      SQLException explain = refused(c, "SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT a.n + b.n "
          + "FROM (SELECT COUNT(*) AS n FROM TRIPS) a CROSS JOIN (SELECT COUNT(*) AS n FROM "
          + "TRIPS WHERE REGION = ''N'') b'))", "XDP03");
      assertTrue(explain.getMessage().contains("EXPLAIN PLAN FOR"), explain.getMessage());
      SQLException correlated = refused(c, "SELECT z.NAME, (SELECT COUNT(*) FROM TRIPS t "
          + "WHERE t.REGION = z.REGION) FROM ZONES z", "XDP03");
      assertTrue(correlated.getMessage().contains("correlated"), correlated.getMessage());
      SQLException other = assertThrows(SQLException.class, () -> rows(c,
          "SELECT BIT_AND(AGE) FROM (SELECT AGE FROM TRIPS) t"));
      assertEquals("XDP03", other.getSQLState(), other.getMessage());
      assertTrue(spent(c).isZero());
      // a parameter inside a subquery is bound at execute: answered like the literal
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT COUNT(*) FROM (SELECT * FROM TRIPS WHERE AGE > ?) t")) {
        ps.setInt(1, 3);
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          assertTrue(rs.next());
        }
      }
      assertFalse(spent(c).isZero());
    }
  }

  @Test
  void aStatementThatDoesNotFitTheBudgetChargesNothing() throws Exception {
    Path small = Files.createTempFile("dpsql-rel-small", ".yaml");
    try {
      Files.writeString(small, Files.readString(policy)
          .replace("per_connection: {rho: 100000000.0", "per_connection: {rho: 1.5")
          .replace("default_query: {rho: 1000000.0}", "default_query: {rho: 0.1}"));
      Properties p = new Properties();
      p.setProperty("policy", small.toString());
      try (Connection c = DriverManager.getConnection(
          "jdbc:dpsql:" + url.substring("jdbc:".length()), p)) {
        String hinted = "SELECT /*+ DP(rho='2') */ a.n + b.n FROM (SELECT COUNT(*) AS n FROM TRIPS "
            + "WHERE AGE < 30) a, (SELECT COUNT(*) AS n FROM TRIPS WHERE AGE >= 30) b";
        SQLException e = assertThrows(SQLException.class, () -> rows(c, hinted));
        assertEquals("XDP01", e.getSQLState(), e.getMessage());
        assertTrue(spent(c).isZero(), "neither half was charged");
      }
    } finally {
      Files.deleteIfExists(small);
    }
  }

  @Test
  void expressionsOfDomainColumnsAreEvaluatedOnTheCells() throws SQLException {
    String band = "CASE WHEN AGE < 30 THEN 'young' WHEN AGE < 50 THEN 'middle' ELSE 'older' END";
    try (Connection c = connect()) {
      // grouping by a CASE band, by ordinal and by alias
      List<List<Object>> expected = rows(direct, "SELECT " + band + " AS b, COUNT(*) FROM TRIPS "
          + "GROUP BY " + band + " ORDER BY 1");
      assertEquals(expected, rounded(rows(c, "SELECT " + band + " AS b, COUNT(*) FROM TRIPS "
          + "GROUP BY 1 ORDER BY 1")));
      assertEquals(expected, rounded(rows(c, "SELECT " + band + " AS b, COUNT(*) FROM TRIPS "
          + "GROUP BY b ORDER BY b")));
      // binning arithmetic
      assertEquals(rows(direct, "SELECT FLOOR(AGE / 10) * 10 AS d, COUNT(*) FROM TRIPS GROUP BY "
          + "FLOOR(AGE / 10) * 10 ORDER BY 1"), rounded(rows(c, "SELECT FLOOR(AGE / 10) * 10 AS d, "
          + "COUNT(*) FROM TRIPS GROUP BY FLOOR(AGE / 10) * 10 ORDER BY 1")));
      // functions of categorical values in WHERE and GROUP BY
      assertEquals(rows(direct, "SELECT COUNT(*) FROM TRIPS WHERE LOWER(PAYMENT) = 'cash'"),
          rounded(rows(c, "SELECT COUNT(*) FROM TRIPS WHERE LOWER(PAYMENT) = 'cash'")));
      assertEquals(rows(direct, "SELECT SUBSTRING(PAYMENT, 1, 2) AS p, COUNT(*) FROM TRIPS WHERE "
          + "UPPER(REGION) IN ('N', 'S') GROUP BY SUBSTRING(PAYMENT, 1, 2) ORDER BY 1"),
          rounded(rows(c, "SELECT SUBSTRING(PAYMENT, 1, 2) AS p, COUNT(*) FROM TRIPS WHERE "
              + "UPPER(REGION) = 'N' OR UPPER(REGION) = 'S' GROUP BY SUBSTRING(PAYMENT, 1, 2) "
              + "ORDER BY 1")));
      // in a CTE that BI tools write as their "custom SQL" source
      assertEquals(expected, rounded(rows(c, "WITH src AS (SELECT " + band + " AS b, FARE FROM "
          + "TRIPS) SELECT b, COUNT(*) FROM src GROUP BY b ORDER BY b")));
    }
  }

  @Test
  void expressionsThatAreNoFunctionOfTheCellsAreRefused() throws SQLException {
    try (Connection c = connect()) {
      for (String sql : List.of(
          "SELECT FARE / 10 AS f, COUNT(*) FROM TRIPS GROUP BY FARE / 10",
          "SELECT REGION || PAYMENT AS rp, COUNT(*) FROM TRIPS GROUP BY REGION || PAYMENT",
          "SELECT CASE WHEN AGE < 30 THEN 'young' END AS b, COUNT(*) FROM TRIPS GROUP BY 1")) {
        refused(c, sql, "XDP03");
      }
      SQLException e = assertThrows(SQLException.class, () -> rows(c,
          "SELECT COUNT(*) FROM TRIPS WHERE 100 / (AGE - 30) > 1"));
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
      assertTrue(spent(c).isZero());
    }
  }

  @Test
  void aggregatesOfExpressionsAreBoundedByIntervalArithmetic() throws SQLException {
    try (Connection c = connect()) {
      // SUM(1) and COUNT(1) count rows: Δ = 5, σ = 5/√(2·10⁶) ≈ 0.0035, exact after rounding
      assertEquals(rows(direct, "SELECT REGION, COUNT(*), COUNT(*) FROM TRIPS GROUP BY REGION "
          + "ORDER BY 1"), rows(c, "SELECT REGION, SUM(1), COUNT(1) FROM TRIPS GROUP BY REGION "
          + "ORDER BY 1"));
      // FARE in [0, 100] (every value inside its clamp): FARE * 2 + 1 in [1, 201], so Δ = 5 · 201
      // and σ = Δ/√(2ρ) ≈ 0.71; the test allows 6σ
      assertClose(direct, c, "SELECT SUM(FARE * 2 + 1) FROM TRIPS", 6 * 1005 / Math.sqrt(2e6));
      // CASE over a categorical column and a clamped one: in [0, 100], Δ = 500
      assertClose(direct, c, "SELECT SUM(CASE WHEN PAYMENT = 'CASH' THEN FARE ELSE 0 END) FROM "
          + "TRIPS", 6 * 500 / Math.sqrt(2e6));
      // AVG of two bounded columns (AGE's ordered domain bounds it to [18, 77]): the ratio of two
      // noisy sums, within far less than 0.01 of the truth at this budget
      assertClose(direct, c, "SELECT AVG(CAST(FARE + AGE AS DOUBLE)) FROM TRIPS",
          0.01);
      String plan = rows(c, "EXPLAIN PLAN FOR SELECT SUM(FARE * 2 + 1) FROM TRIPS").toString();
      assertTrue(plan.contains("in [1, 201]"), plan);
    }
  }

  @Test
  void intervalArithmeticGivesTheStatedBounds() throws SQLException {
    // FARE is clamped to [0, 100], AGE's ordered domain bounds it to [18, 77]
    String[][] cases = {
        {"-FARE", "[-100, 0]"},
        {"FARE * FARE", "[0, 10000]"},
        {"(FARE - 50) * 2", "[-100, 100]"},
        {"FARE - AGE", "[-77, 82]"},
        {"CASE WHEN AGE > 60 THEN FARE WHEN AGE > 30 THEN 5 ELSE -1 END", "[-1, 100]"},
        {"COALESCE(FARE, 7) + 1", "[1, 101]"},
        {"ABS(FARE - 120)", "[20, 120]"},
        // integer division truncates: (0 + 1) / 2 is 0 in the backend, below 0.5
        {"(FARE + 1) / 2", "[0, 51]"},
    };
    try (Connection c = connect()) {
      for (String[] k : cases) {
        String plan = rows(c, "EXPLAIN PLAN FOR SELECT SUM(" + k[0] + ") FROM TRIPS").toString();
        assertTrue(plan.contains("in " + k[1]), k[0] + " should be in " + k[1] + ": " + plan);
        // sound on the data: every row's value lies in the bound
        List<Object> range = rows(direct, "SELECT MIN(" + k[0] + "), MAX(" + k[0] + ") FROM "
            + "TRIPS").get(0);
        String[] ends = k[1].substring(1, k[1].length() - 1).split(", ");
        assertTrue(((BigDecimal) range.get(0)).compareTo(new BigDecimal(ends[0])) >= 0, k[0]);
        assertTrue(((BigDecimal) range.get(1)).compareTo(new BigDecimal(ends[1])) <= 0, k[0]);
      }
      assertTrue(spent(c).isZero(), "EXPLAIN is free");
    }
  }

  @Test
  void aggregatedExpressionsWithoutAProvenBoundAreRefused() throws SQLException {
    try (Connection c = connect()) {
      for (String sql : List.of("SELECT SUM(FARE / AGE) FROM TRIPS",
          "SELECT SUM(CASE WHEN FARE / AGE > 1 THEN 1 ELSE 0 END) FROM TRIPS",
          "SELECT AVG(CHAR_LENGTH(PAYMENT)) FROM TRIPS",
          // 100 · 100000 · 1000 overflows an INTEGER: an overflow error would reveal the row
          "SELECT SUM(FARE * 100000 * 1000) FROM TRIPS")) {
        SQLException e = refused(c, sql, "XDP03");
        assertTrue(e.getMessage().contains("cannot bound"), e.getMessage());
      }
      assertTrue(spent(c).isZero());
    }
  }

  @Test
  void variancesAndStandardDeviationsFromThreeReleasedSums() throws SQLException {
    try (Connection c = connect()) {
      // rho 1e6 split over COUNT, SUM and SUM of squares: sigma(SUM(FARE * FARE)) = 5 * 10000 /
      // sqrt(2e6 / 3) = 61 against sums near 1.1e7, so the variance is within 0.5 of the truth
      for (String f : List.of("VAR_POP", "VAR_SAMP", "STDDEV_POP", "STDDEV_SAMP")) {
        assertClose(direct, c, "SELECT " + f + "(FARE) FROM TRIPS", f.startsWith("VAR") ? 0.5
            : 0.01);
      }
      List<List<Object>> truth = rows(direct, "SELECT REGION, STDDEV_SAMP(FARE * 2 + 1) FROM "
          + "TRIPS GROUP BY REGION ORDER BY REGION");
      List<List<Object>> got = rows(c, "SELECT REGION, STDDEV(FARE * 2 + 1) FROM TRIPS GROUP BY "
          + "REGION ORDER BY REGION");
      assertEquals(truth.size(), got.size());
      for (int i = 0; i < truth.size(); i++) {
        assertEquals(truth.get(i).get(0), got.get(i).get(0));
        assertEquals(((BigDecimal) truth.get(i).get(1)).doubleValue(),
            ((BigDecimal) got.get(i).get(1)).doubleValue(), 0.05, "region " + truth.get(i));
      }
      // the three measurements share the statement's budget, as EXPLAIN shows
      StringBuilder plan = new StringBuilder();
      for (List<Object> row : rows(c, "EXPLAIN PLAN FOR SELECT VAR_POP(FARE) FROM TRIPS")) {
        plan.append(row).append('\n');
      }
      assertTrue(plan.toString().contains("in [0, 10000]"), plan.toString());
      assertTrue(plan.toString().contains("measure SUM(DPSQL_V0) with discrete_gaussian(ρ=333333"),
          plan.toString());
    }
    // at a small budget the noisy moments can make the variance negative: it is floored at 0
    try (Connection c = connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='0.000001') */ REGION, VAR_POP(FARE) "
            + "AS v FROM TRIPS WHERE AGE < 19 GROUP BY REGION")) {
      while (rs.next()) {
        assertTrue(rs.getObject(2) == null || rs.getDouble(2) >= 0, "variance " + rs.getObject(2));
      }
    }
  }

  private static void assertClose(Connection direct, Connection c, String sql, double tolerance)
      throws SQLException {
    double truth = ((BigDecimal) rows(direct, sql).get(0).get(0)).doubleValue();
    double got = ((BigDecimal) rows(c, sql).get(0).get(0)).doubleValue();
    assertTrue(Math.abs(got - truth) <= tolerance, sql + ": " + got + " vs " + truth);
  }

  private static List<List<Object>> rounded(List<List<Object>> rows) {
    return ResultRows.rounded(rows);
  }
}
