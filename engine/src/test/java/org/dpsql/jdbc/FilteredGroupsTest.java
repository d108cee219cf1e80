package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 on H2: a statement's own filter on a grouped column leaves out the groups it excludes,
 * on every path that releases cells (single aggregates, composite statements, joins on the unit,
 * quantiles, UNION ALL batches and grouping sets), and EXPLAIN says how many cells it releases and
 * how many the filter excludes. The same cases run on PostgreSQL and Trino ({@code
 * PostgresBackendTest}, {@code TrinoBackendTest}).
 */
class FilteredGroupsTest {
  static String url;
  static Connection direct;
  static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:f" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "STATE VARCHAR(2), PAYMENT VARCHAR(8), \"HOUR\" INT, FARE DECIMAL(8,2))");
      for (String chunk : FilteredGroups.valueChunks()) {
        st.execute("INSERT INTO TRIPS VALUES " + chunk);
      }
      // the demo's geography: county i of the 15 lies in its state (5, 4, 3 and 3 counties)
      st.execute("CREATE TABLE GEO_TRIPS (RIDER_ID INT, STATE VARCHAR(2), COUNTY VARCHAR(20))");
      StringBuilder geo = new StringBuilder();
      for (int i = 0; i < 900; i++) {
        int county = i % COUNTIES.size();
        geo.append(i == 0 ? "" : ", ").append("(").append(i).append(", '")
            .append(STATE_OF.get(county)).append("', '").append(COUNTIES.get(county)).append("')");
      }
      st.execute("INSERT INTO GEO_TRIPS VALUES " + geo);
      st.execute("CREATE TABLE RIDERS (RIDER_ID INT PRIMARY KEY, PLAN VARCHAR(8))");
      st.execute("INSERT INTO RIDERS SELECT X, CASEWHEN(MOD(X, 3) = 0, 'basic', "
          + "CASEWHEN(MOD(X, 3) = 1, 'plus', 'pass')) FROM SYSTEM_RANGE(0, 1199)");
    }
    policy = Files.createTempFile("filtered-groups", ".yaml");
    Files.writeString(policy, FilteredGroups.NOISE_FREE_BUDGET + "tables:\n"
        + FilteredGroups.tripsPolicy("TRIPS", null).replace("max_rows_per_unit: 5\n",
            "max_rows_per_unit: 5\n    unit: rider\n")
        + "  RIDERS:\n    privacy_unit: rider_id\n    unit: rider\n    max_rows_per_unit: 1\n"
        + "    columns:\n      plan: {values: [basic, plus, pass]}\n"
        + "  GEO_TRIPS:\n    privacy_unit: rider_id\n    max_rows_per_unit: 1\n    columns:\n"
        + "      state: {values: [NY, CA, TX, IL]}\n"
        + "      county: {values: {NY: ['New York', Kings, Queens, Bronx, Richmond], "
        + "CA: [Los Angeles, San Diego, Alameda, San Francisco], TX: [Harris, Dallas, Travis], "
        + "IL: [Cook, DuPage, Lake]}}\n"
        + "    hierarchies:\n      GEO: [state, county]\n");
  }

  static final List<String> COUNTIES = List.of("New York", "Kings", "Queens", "Bronx",
      "Richmond", "Los Angeles", "San Diego", "Alameda", "San Francisco", "Harris", "Dallas",
      "Travis", "Cook", "DuPage", "Lake");
  static final List<String> STATE_OF = List.of("NY", "NY", "NY", "NY", "NY", "CA", "CA", "CA",
      "CA", "TX", "TX", "TX", "IL", "IL", "IL");

  @AfterAll
  static void tearDown() throws Exception {
    TestConnections.shutDown(direct, policy);
  }

  private static Connection connect() throws Exception {
    return TestConnections.open(url, policy, "1");
  }

  private static List<List<Object>> rows(Connection c, String sql) throws Exception {
    return ResultRows.of(c, sql);
  }

  @Test
  void theIssuesFourStatementsReturnOneTwoThreeAndNineRowsOfTheBackendsTruth() throws Exception {
    try (Connection c = connect()) {
      FilteredGroups.assertIssueStatements(c, direct, "TRIPS", "\"HOUR\"");
    }
  }

  @Test
  void cellsTheFilterMayContainAreKeptZerosIncluded() throws Exception {
    try (Connection c = connect()) {
      // no trip has STATE = 'NY' and HOUR = 1 (trip i: state i mod 4, hour i mod 24), yet the
      // filter may contain the cell: it is returned, with a count of 0
      List<List<Object>> r = rows(c, "SELECT STATE, HOUR, COUNT(*) FROM TRIPS WHERE STATE = 'NY' "
          + "AND HOUR <= 1 GROUP BY STATE, HOUR");
      assertEquals(2, r.size(), r.toString());
      assertEquals(List.of("NY", java.math.BigDecimal.ONE, java.math.BigDecimal.ZERO), r.get(1));
      // a condition on a column that is not grouped cannot exclude a group: every state stays
      assertEquals(4, rows(c, "SELECT STATE, COUNT(*) FROM TRIPS WHERE HOUR = 7 GROUP BY STATE")
          .size());
      // nor can an expression dpsql does not decide (it keeps the cells, the backend filters)
      assertEquals(24, rows(c, "SELECT HOUR, COUNT(*) FROM TRIPS WHERE HOUR * 2 = 14 "
          + "GROUP BY HOUR").size());
      // NOT, OR and <> are decided as SQL does
      assertEquals(List.of("CA", "TX", "IL"), keys(rows(c, "SELECT STATE, COUNT(*) FROM TRIPS "
          + "WHERE NOT (STATE = 'NY' OR HOUR > 30) GROUP BY STATE")));
      assertEquals(List.of("TX", "IL"), keys(rows(c, "SELECT STATE, COUNT(*) FROM TRIPS "
          + "WHERE STATE <> 'NY' AND STATE NOT IN ('CA') GROUP BY STATE")));
      // a filter no cell can satisfy: no rows
      assertEquals(0, rows(c, "SELECT HOUR, COUNT(*) FROM TRIPS WHERE HOUR > 23 GROUP BY HOUR")
          .size());
      // without GROUP BY the one row is always returned
      assertEquals(1, rows(c, "SELECT COUNT(*) FROM TRIPS WHERE HOUR > 23").size());
    }
  }

  /**
   * Leaving cells out changes neither the noise nor the charge of the cells returned: every cell
   * is still noised, in order, so with the same seed TX's noisy count is bit-identical whether the
   * filter leaves the other states out ({@code STATE = 'TX'}) or cannot be decided and keeps them
   * ({@code OR HOUR * 0 = 1}, never true, so the exact counts are the same), and both statements
   * are charged the same.
   */
  @Test
  void theReturnedCellsKeepTheNoiseAndChargeOfTheFullRelease() throws Exception {
    String hint = "/*+ DP(rho='0.001') */ ";
    for (int seed = 1; seed <= 5; seed++) {
      List<List<Object>> only;
      List<List<Object>> all;
      java.math.BigDecimal chargedOnly;
      java.math.BigDecimal chargedAll;
      try (Connection c = TestConnections.open(url, policy, Integer.toString(seed))) {
        only = rows(c, "SELECT " + hint + "STATE, COUNT(*) AS N FROM TRIPS WHERE STATE = 'TX' "
            + "GROUP BY STATE");
        chargedOnly = TestDatabase.session(c).accountant().spent().rho();
      }
      try (Connection c = TestConnections.open(url, policy, Integer.toString(seed))) {
        all = rows(c, "SELECT " + hint + "STATE, COUNT(*) AS N FROM TRIPS WHERE STATE = 'TX' "
            + "OR HOUR * 0 = 1 GROUP BY STATE");
        chargedAll = TestDatabase.session(c).accountant().spent().rho();
      }
      assertEquals(1, only.size());
      assertEquals(4, all.size());
      // TX is the third cell: its noise is the third draw in both releases
      assertEquals(all.get(2), only.get(0), "seed " + seed);
      assertEquals(0, chargedAll.compareTo(chargedOnly));
    }
  }

  @Test
  void parametersDecideTheCellsAtExecute() throws Exception {
    try (Connection c = connect();
        PreparedStatement ps = c.prepareStatement("SELECT HOUR, COUNT(*) FROM TRIPS "
            + "WHERE HOUR BETWEEN ? AND ? GROUP BY HOUR")) {
      ps.setInt(1, 7);
      ps.setInt(2, 9);
      assertEquals(3, count(ps));
      ps.setInt(1, 20);
      ps.setInt(2, 30);
      assertEquals(4, count(ps));
    }
  }

  @Test
  void sumsAveragesAndQuantilesLeaveOutTheSameCells() throws Exception {
    try (Connection c = connect()) {
      List<List<Object>> r = rows(c, "SELECT STATE, COUNT(*), SUM(FARE), AVG(FARE) FROM TRIPS "
          + "WHERE STATE IN ('NY', 'CA') GROUP BY STATE");
      assertEquals(List.of("NY", "CA"), keys(r));
      List<List<Object>> truth = rows(direct, "SELECT STATE, COUNT(*), SUM(FARE) FROM TRIPS "
          + "WHERE STATE IN ('NY', 'CA') GROUP BY STATE ORDER BY STATE DESC");
      // counts are exact at this budget; a sum's noise (σ ≈ 0.06 dollars: 5 rows × 100 dollars in
      // steps of 0.001) is below half a dollar in all but a negligible fraction of draws
      for (int i = 0; i < 2; i++) {
        assertEquals(truth.get(i).get(1), r.get(i).get(1));
        assertEquals(ResultRows.rounded(List.of(truth.get(i))).get(0).get(2),
            ResultRows.rounded(List.of(r.get(i))).get(0).get(2));
      }
      assertEquals(List.of("TX"), keys(rows(c, "SELECT STATE, MEDIAN(FARE) FROM TRIPS "
          + "WHERE STATE = 'TX' GROUP BY STATE")));
      List<List<Object>> mixed = rows(c, "SELECT HOUR, COUNT(*), MEDIAN(FARE) FROM TRIPS "
          + "WHERE HOUR IN (8, 17) GROUP BY HOUR");
      assertEquals(2, mixed.size(), mixed.toString());
      assertEquals(new java.math.BigDecimal(8), mixed.get(0).get(0));
      assertEquals(new java.math.BigDecimal(17), mixed.get(1).get(0));
    }
  }

  @Test
  void compositeStatementsJoinsOnTheUnitAndWorkloads() throws Exception {
    try (Connection c = connect()) {
      // a composite statement: the private aggregate inside is released with its own filter
      assertEquals(1, rows(c, "SELECT STATE, N * 2 AS M FROM (SELECT STATE, COUNT(*) AS N "
          + "FROM TRIPS WHERE STATE = 'NY' GROUP BY STATE) s").size());
      assertEquals(3, rows(c, "SELECT h, n FROM (SELECT HOUR AS h, COUNT(*) AS n FROM TRIPS "
          + "WHERE HOUR BETWEEN 7 AND 9 GROUP BY HOUR) t ORDER BY h").size());
      // a join of two private tables on their shared unit
      assertEquals(List.of("NY", "CA"), keys(rows(c, "SELECT t.STATE, COUNT(*) FROM TRIPS t "
          + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID WHERE t.STATE IN ('NY', 'CA') "
          + "GROUP BY t.STATE")));
      assertEquals(List.of("basic"), keys(rows(c, "SELECT r.PLAN, COUNT(*) FROM TRIPS t "
          + "JOIN RIDERS r ON t.RIDER_ID = r.RIDER_ID WHERE r.PLAN = 'basic' GROUP BY r.PLAN")));
      // a UNION ALL batch: each part keeps the groups its own filter may contain
      List<List<Object>> batch = rows(c, "SELECT STATE, COUNT(*) FROM TRIPS WHERE STATE = 'NY' "
          + "GROUP BY STATE UNION ALL SELECT STATE, COUNT(*) FROM TRIPS WHERE STATE IN ('CA', "
          + "'TX') GROUP BY STATE");
      assertEquals(List.of("NY", "CA", "TX"), keys(batch));
      assertEquals(ResultRows.rounded(rows(direct, "SELECT STATE, COUNT(*) FROM TRIPS WHERE "
          + "STATE IN ('NY', 'CA', 'TX') GROUP BY STATE ORDER BY CASE STATE WHEN 'NY' THEN 0 "
          + "WHEN 'CA' THEN 1 ELSE 2 END")), ResultRows.rounded(batch));
      // grouping sets over a filtered column: 3 hours, 3 x 3 pairs and the total
      assertEquals(13, rows(c, "SELECT HOUR, PAYMENT, COUNT(*) FROM TRIPS WHERE HOUR BETWEEN 7 "
          + "AND 9 GROUP BY ROLLUP(HOUR, PAYMENT)").size());
    }
  }

  /**
   * A roll-up over a hierarchy whose levels are nested in the policy returns the tree's nodes
   * only: the total, 4 states and their 15 counties (20 rows, not 1 + 4 + 60), with InfTDA and
   * with the matrix mechanism; a GROUP BY of both levels returns the 15 declared pairs, and a
   * filter on the coarser level is decided on the finer one through the nesting.
   */
  @Test
  void aRollUpOverANestedHierarchyReturnsTheTreesNodesOnly() throws Exception {
    try (Connection c = connect()) {
      for (String hint : List.of("", "/*+ DP(mechanism='inftda') */ ",
          "/*+ DP(mechanism='identity') */ ")) {
        List<List<Object>> r = rows(c, "SELECT " + hint + "STATE, COUNTY, COUNT(*) AS N "
            + "FROM GEO_TRIPS GROUP BY ROLLUP(STATE, COUNTY)");
        assertEquals(20, r.size(), hint + r);
        for (List<Object> row : r) {
          if (row.get(1) != null) {
            assertEquals(STATE_OF.get(COUNTIES.indexOf(row.get(1))), row.get(0), row.toString());
            assertEquals(60L, ((java.math.BigDecimal) row.get(2)).setScale(0,
                java.math.RoundingMode.HALF_EVEN).longValueExact(), row.toString());
          }
        }
      }
      List<List<Object>> pairs = rows(c, "SELECT STATE, COUNTY, COUNT(*) FROM GEO_TRIPS "
          + "GROUP BY STATE, COUNTY");
      assertEquals(15, pairs.size());
      assertEquals(List.of("Harris", "Dallas", "Travis"), keys(rows(c, "SELECT COUNTY, COUNT(*) "
          + "FROM GEO_TRIPS WHERE STATE = 'TX' GROUP BY COUNTY")));
      // a filtered roll-up: the total, NY and TX, and their 8 counties (answered from the tree)
      assertEquals(11, rows(c, "SELECT STATE, COUNTY, COUNT(*) FROM GEO_TRIPS WHERE STATE IN "
          + "('NY', 'TX') GROUP BY ROLLUP(STATE, COUNTY)").size());
    }
  }

  @Test
  void aFilterOnTheCoarserLevelIsDecidedOnTheFinerThroughTheNesting() throws Exception {
    try (Connection c = connect()) { // no release of the tree yet: measured as a single query
      assertEquals(List.of("Harris", "Dallas", "Travis"), keys(rows(c, "SELECT COUNTY, "
          + "COUNT(*) FROM GEO_TRIPS WHERE STATE = 'TX' GROUP BY COUNTY")));
      assertEquals(List.of("New York", "Kings", "Queens", "Bronx", "Richmond", "Cook", "DuPage",
          "Lake"), keys(rows(c, "SELECT COUNTY, COUNT(*) FROM GEO_TRIPS WHERE STATE IN ('IL', "
          + "'NY') GROUP BY COUNTY")));
    }
  }

  @Test
  void aNestingThatNamesNoValueOfTheLevelAboveIsRefusedWhenTheConnectionOpens() throws Exception {
    Path bad = Files.createTempFile("bad-nesting", ".yaml");
    try {
      Files.writeString(bad, FilteredGroups.NOISE_FREE_BUDGET + "tables:\n  GEO_TRIPS:\n"
          + "    privacy_unit: rider_id\n    max_rows_per_unit: 1\n    columns:\n"
          + "      state: {values: [NY, CA]}\n"
          + "      county: {values: {NY: [Kings], WA: [King]}}\n"
          + "    hierarchies:\n      GEO: [state, county]\n");
      java.sql.SQLException e = org.junit.jupiter.api.Assertions.assertThrows(
          java.sql.SQLException.class, () -> TestConnections.open(url, bad, null));
      assertEquals("XDP04", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("WA is not a value of"), e.getMessage());
    } finally {
      Files.deleteIfExists(bad);
    }
  }

  @Test
  void explainSaysHowManyCellsAreReleasedAndHowManyTheFilterExcludes() throws Exception {
    try (Connection c = connect(); Statement st = c.createStatement()) {
      String plan = TestDatabase.explainPlan(st, "SELECT HOUR, PAYMENT, COUNT(*) FROM TRIPS "
          + "WHERE HOUR BETWEEN 7 AND 9 GROUP BY HOUR, PAYMENT");
      assertTrue(plan.contains("cells: 9 released of 72 in the policy domain, 63 excluded by the "
          + "statement's own filter"), plan);
      plan = TestDatabase.explainPlan(st, "SELECT STATE, MEDIAN(FARE) FROM TRIPS "
          + "WHERE STATE = 'TX' GROUP BY STATE");
      assertTrue(plan.contains("cells: 1 released of 4 in the policy domain, 3 excluded"), plan);
      plan = TestDatabase.explainPlan(st, "SELECT STATE, COUNT(*) FROM TRIPS GROUP BY STATE");
      assertTrue(plan.contains("cells: 4 released of 4 in the policy domain;"), plan);
      plan = TestDatabase.explainPlan(st, "SELECT STATE, COUNT(*) FROM TRIPS WHERE STATE = 'NY' "
          + "GROUP BY STATE UNION ALL SELECT STATE, COUNT(*) FROM TRIPS GROUP BY STATE");
      assertTrue(plan.contains("part 1 groups: 1 released of 4, 3 excluded"), plan);
      assertTrue(plan.contains("part 2 groups: 4 released of 4\n"), plan);
    }
  }

  private static int count(PreparedStatement ps) throws Exception {
    int n = 0;
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        n++;
      }
    }
    return n;
  }

  private static List<Object> keys(List<List<Object>> rows) {
    List<Object> out = new ArrayList<>();
    for (List<Object> r : rows) {
      out.add(r.get(0));
    }
    return out;
  }
}
