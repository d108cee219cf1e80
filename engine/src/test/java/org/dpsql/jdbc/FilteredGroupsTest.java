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
      st.execute("CREATE TABLE RIDERS (RIDER_ID INT PRIMARY KEY, PLAN VARCHAR(8))");
      st.execute("INSERT INTO RIDERS SELECT X, CASEWHEN(MOD(X, 3) = 0, 'basic', "
          + "CASEWHEN(MOD(X, 3) = 1, 'plus', 'pass')) FROM SYSTEM_RANGE(0, 1199)");
    }
    policy = Files.createTempFile("filtered-groups", ".yaml");
    Files.writeString(policy, FilteredGroups.NOISE_FREE_BUDGET + "tables:\n"
        + FilteredGroups.tripsPolicy("TRIPS", null).replace("max_rows_per_unit: 5\n",
            "max_rows_per_unit: 5\n    unit: rider\n")
        + "  RIDERS:\n    privacy_unit: rider_id\n    unit: rider\n    max_rows_per_unit: 1\n"
        + "    columns:\n      plan: {values: [basic, plus, pass]}\n");
  }

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
