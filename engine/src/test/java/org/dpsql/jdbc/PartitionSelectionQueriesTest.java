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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code GROUP BY} over a column declared {@code keys: private} through {@code DriverManager} on
 * H2: which groups are released, their aggregates, the bounding of each unit to {@code
 * max_groups_per_unit} groups, the charge, EXPLAIN and the refusals.
 *
 * <p>Data: 1,000 "regular" buyers, each buying 1 to 7 times one of 20 popular products; 300 "rare"
 * buyers, each buying once a product nobody else buys; 60 "browsers" buying 3 times each of 4
 * popular products. With ε = 10⁵ the noise is 0 with overwhelming probability and the threshold is
 * 2 units, so the popular products are released, each with exactly its bounded count, and no rare
 * product ever is.
 */
class PartitionSelectionQueriesTest {
  private static String url;
  private static Path approx;
  private static Path zcdp;
  private static Path pure;
  private static final String HUGE = "/*+ DP(epsilon='100000', delta='1e-6') */ ";

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:ps" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE SALES (SALE_ID BIGINT PRIMARY KEY, BUYER INT NOT NULL, "
          + "PRODUCT VARCHAR(20), REGION VARCHAR(1), AMOUNT INT, KIND VARCHAR(10))");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO SALES VALUES (?,?,?,?,?,?)")) {
        long id = 0;
        for (int b = 0; b < 1000; b++) {
          for (int t = 0; t <= b % 7; t++) {
            id = add(ps, id, b, String.format("P%02d", b % 20), b % 3 == 0 ? "N" : "S",
                (b * 13 + t * 7) % 120);
          }
        }
        for (int b = 1000; b < 1300; b++) {
          id = add(ps, id, b, "RARE-" + b, "N", 50);
        }
        for (int b = 1300; b < 1360; b++) {
          for (int p = 0; p < 4; p++) {
            for (int t = 0; t < 3; t++) {
              id = add(ps, id, b, String.format("P%02d", p * 5), "S", 10);
            }
          }
        }
        ps.executeBatch();
      }
      // 1,000 shoppers with 3 rows of each of 10 items
      st.execute("CREATE TABLE BASKETS AS SELECT X AS SHOPPER, 'I' || MOD(Y, 10) AS ITEM "
          + "FROM SYSTEM_RANGE(0, 999) A(X), SYSTEM_RANGE(0, 29) B(Y)");
    }
    String table = "tables:\n  SALES:\n    privacy_unit: BUYER\n    max_rows_per_unit: 5\n"
        + "    columns:\n      PRODUCT: {keys: private}\n      REGION: {values: [N, S]}\n"
        + "      AMOUNT: {clamp: [0, 100]}\n      KIND: {values: [regular, rare, browser]}\n"
        + "  BASKETS:\n    privacy_unit: SHOPPER\n    max_rows_per_unit: 5\n"
        + "    columns:\n      ITEM: {keys: private, max_groups_per_unit: 2}\n";
    approx = policy("approx", "{epsilon: 10000000, delta: 0.001}", "{epsilon: 1.0, delta: 1e-6}",
        table);
    zcdp = policy("zcdp", "{rho: 10000000, delta: 1e-3}", "{rho: 0.5, delta: 1e-8}", table);
    pure = policy("pure", "{epsilon: 100}", "{epsilon: 1}", table);
  }

  /**
   * The policy of the backend tests' {@code baskets(buyer, product)} table: approx accounting with
   * ε = 10⁵ per statement (noise 0, τ = 2), buyers bounded to 2 rows in 1 product.
   */
  static Path basketsPolicy(String prefix) throws Exception {
    Path p = Files.createTempFile(prefix, ".yaml");
    Files.writeString(p, "allow_seed: true\nbudget:\n  accounting: approx\n"
        + "  per_connection: {epsilon: 1000000, delta: 0.01}\n"
        + "  default_query: {epsilon: 100000, delta: 1e-6}\ntables:\n  baskets:\n"
        + "    privacy_unit: buyer\n    max_rows_per_unit: 2\n    columns:\n"
        + "      product: {keys: private, max_groups_per_unit: 1}\n");
    return p;
  }

  private static long add(PreparedStatement ps, long id, int buyer, String product, String region,
      int amount) throws SQLException {
    ps.setLong(1, id);
    ps.setInt(2, buyer);
    ps.setString(3, product);
    ps.setString(4, region);
    ps.setInt(5, amount);
    ps.setString(6, buyer < 1000 ? "regular" : buyer < 1300 ? "rare" : "browser");
    ps.addBatch();
    return id + 1;
  }

  private static Path policy(String accounting, String perConnection, String defaultQuery,
      String tables) throws Exception {
    Path p = Files.createTempFile("dpsql-partitions", ".yaml");
    Files.writeString(p, "allow_seed: true\nbudget:\n  accounting: " + accounting
        + "\n  per_connection: " + perConnection + "\n  default_query: " + defaultQuery + "\n"
        + tables);
    return p;
  }

  @AfterAll
  static void tearDown() throws Exception {
    Files.deleteIfExists(zcdp);
    Files.deleteIfExists(pure);
    TestConnections.shutDown(DriverManager.getConnection(url), approx);
  }

  /** Rows as lists (numbers as longs, text as is), in the answer's order. */
  private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof Number x ? (Object) x.longValue() : v);
        }
        out.add(row);
      }
    }
    return out;
  }

  /** H2's own answer over the rows that bounding keeps (each buyer of one product: min(n, 5)). */
  private static Map<String, Long> boundedCounts(String where) throws SQLException {
    Map<String, Long> out = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT PRODUCT, SUM(LEAST(N, 5)), COUNT(*) FROM (SELECT "
            + "BUYER, PRODUCT, COUNT(*) N FROM SALES WHERE BUYER < 1300 " + where
            + " GROUP BY BUYER, PRODUCT) GROUP BY PRODUCT HAVING COUNT(*) >= 2 ORDER BY 1")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    }
    return out;
  }

  @Test
  void releasesTheGroupsManyUnitsHoldWithTheirBoundedCounts() throws Exception {
    try (Connection c = TestConnections.open(url, approx, "11")) {
      // the browsers are left out by the filter, so every buyer has one product
      List<List<Object>> got = rows(c, "SELECT " + HUGE + "PRODUCT, COUNT(*) FROM SALES "
          + "WHERE KIND <> 'browser' GROUP BY PRODUCT");
      Map<String, Long> truth = boundedCounts("");
      assertEquals(20, truth.size());
      Map<String, Long> released = new TreeMap<>();
      for (List<Object> r : got) {
        released.put((String) r.get(0), (Long) r.get(1));
      }
      assertEquals(truth, released, "the 20 popular products, none of the 300 rare ones");
      // rows come in the keys' order
      assertEquals("P00", got.get(0).get(0));
      // a filter on the private key itself runs in the backend, before bounding
      List<List<Object>> filtered = rows(c, "SELECT " + HUGE + "PRODUCT, COUNT(*) FROM SALES "
          + "WHERE KIND <> 'browser' AND PRODUCT LIKE 'P0%' GROUP BY PRODUCT");
      assertEquals(10, filtered.size());
      for (List<Object> r : filtered) {
        assertEquals(truth.get((String) r.get(0)), r.get(1));
      }
    }
  }

  @Test
  void combinesDeclaredCellsWithPrivateKeysAndAggregates() throws Exception {
    try (Connection c = TestConnections.open(url, approx, "12")) {
      List<List<Object>> got = rows(c, "SELECT " + HUGE + "REGION, PRODUCT, COUNT(*), "
          + "SUM(AMOUNT), COUNT(DISTINCT BUYER) FROM SALES WHERE KIND <> 'browser' "
          + "GROUP BY REGION, PRODUCT");
      Map<String, List<Object>> truth = new TreeMap<>();
      try (Connection d = DriverManager.getConnection(url);
          Statement st = d.createStatement();
          ResultSet rs = st.executeQuery("SELECT REGION, PRODUCT, SUM(N), SUM(S), COUNT(*) FROM "
              + "(SELECT BUYER, REGION, PRODUCT, COUNT(*) N, SUM(LEAST(AMOUNT, 100)) S FROM SALES "
              + "WHERE BUYER < 1000 GROUP BY BUYER, REGION, PRODUCT) GROUP BY REGION, PRODUCT")) {
        while (rs.next()) {
          truth.put(rs.getString(1) + "/" + rs.getString(2),
              List.of(rs.getLong(3), rs.getLong(4), rs.getLong(5)));
        }
      }
      Map<String, List<Object>> released = new TreeMap<>();
      for (List<Object> r : got) {
        released.put(r.get(0) + "/" + r.get(1), List.of(r.get(2), r.get(3), r.get(4)));
      }
      // the regular buyers have at most 7 purchases: compare the buyers with at most 5
      assertEquals(truth.keySet(), released.keySet());
      for (Map.Entry<String, List<Object>> e : released.entrySet()) {
        assertEquals(truth.get(e.getKey()).get(2), e.getValue().get(2), e.getKey());
        assertTrue((Long) e.getValue().get(0) <= (Long) truth.get(e.getKey()).get(0), e.getKey());
      }
      // N before S: the declared cells' order, then the keys'
      assertEquals("N", got.get(0).get(0));
      assertEquals("S", got.get(got.size() - 1).get(0));
    }
  }

  @Test
  void boundsEachUnitToItsGroupsAndRows() throws Exception {
    // the 60 browsers alone: 12 purchases each over 4 products; max_groups_per_unit 1, k 5
    try (Connection c = TestConnections.open(url, approx, "13")) {
      List<List<Object>> got = rows(c, "SELECT " + HUGE + "PRODUCT, COUNT(*), "
          + "COUNT(DISTINCT BUYER) FROM SALES WHERE KIND = 'browser' GROUP BY PRODUCT");
      long rowsTotal = 0;
      long unitsTotal = 0;
      for (List<Object> r : got) {
        rowsTotal += (Long) r.get(1);
        unitsTotal += (Long) r.get(2);
      }
      // each browser keeps one of its 4 products, and 3 rows of it (k = 5 > 3)
      assertEquals(60, unitsTotal);
      assertEquals(180, rowsTotal);
      assertTrue(got.size() >= 3, "the 60 browsers spread over the 4 products: " + got);
    }
  }

  /**
   * The backend SQL alone (read from EXPLAIN, run on H2 directly, so that groups of one unit are
   * seen too): every shopper reaches exactly 2 of its 10 items and 5 of its 6 rows there, and
   * the items are chosen uniformly: the 2,000 choices spread over the 10 items pass a chi-square
   * test of uniformity at significance 10⁻⁴ (9 degrees of freedom: statistic ≤ 33.7; the choices
   * of one shopper are without replacement, which only lowers the variance).
   */
  @Test
  void boundsEveryUnitToMaxGroupsPerUnitChosenUniformly() throws Exception {
    String sql;
    try (Connection c = TestConnections.open(url, approx, "19")) {
      List<List<Object>> plan = rows(c, "EXPLAIN PLAN FOR SELECT ITEM, COUNT(*) FROM BASKETS "
          + "GROUP BY ITEM");
      sql = plan.stream().map(r -> (String) r.get(0)).filter(l -> l.startsWith("backend SQL: "))
          .findFirst().orElseThrow().substring("backend SQL: ".length());
      assertTrue(sql.contains("DENSE_RANK()"), sql);
    }
    try (Connection d = DriverManager.getConnection(url); Statement st = d.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      long units = 0;
      long rowsKept = 0;
      double chi2 = 0;
      int items = 0;
      while (rs.next()) {
        items++;
        long u = rs.getLong("DPSQL_UNITS");
        units += u;
        rowsKept += rs.getLong("M0");
        chi2 += (u - 200.0) * (u - 200.0) / 200.0;
      }
      assertEquals(10, items);
      assertEquals(2000, units, "2 items per shopper");
      assertEquals(5000, rowsKept, "5 rows per shopper");
      assertTrue(chi2 <= 33.7, "chi-square " + chi2);
    }
  }

  @Test
  void answersTopGroupsAndKeyListsAsBiToolsWriteThem() throws Exception {
    try (Connection c = TestConnections.open(url, approx, "14")) {
      List<List<Object>> top = rows(c, "SELECT " + HUGE + "PRODUCT, COUNT(*) AS N FROM SALES "
          + "WHERE KIND <> 'browser' GROUP BY PRODUCT ORDER BY N DESC LIMIT 3");
      assertEquals(3, top.size());
      Map<String, Long> truth = boundedCounts("");
      long third = truth.values().stream().sorted((a, b) -> Long.compare(b, a)).skip(2)
          .findFirst().orElseThrow();
      for (List<Object> r : top) {
        assertTrue((Long) r.get(1) >= third, r.toString());
      }
      List<List<Object>> keys = rows(c, "SELECT " + HUGE + "PRODUCT FROM SALES "
          + "WHERE KIND <> 'browser' GROUP BY PRODUCT");
      assertEquals(20, keys.size());
      List<List<Object>> distinct = rows(c, "SELECT " + HUGE + "DISTINCT PRODUCT FROM SALES "
          + "WHERE KIND <> 'browser'");
      assertEquals(20, distinct.size());
    }
  }

  @Test
  void givesConfidenceIntervalsOnTheSelectedGroups() throws Exception {
    try (Connection c = TestConnections.open(url, approx, "20");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT /*+ DP(epsilon='2', delta='1e-6', ci='0.9') */ "
            + "PRODUCT, COUNT(*) AS N FROM SALES WHERE KIND <> 'browser' GROUP BY PRODUCT")) {
      assertEquals(List.of("PRODUCT", "N", "N_LOW", "N_HIGH"), List.of(
          rs.getMetaData().getColumnLabel(1), rs.getMetaData().getColumnLabel(2),
          rs.getMetaData().getColumnLabel(3), rs.getMetaData().getColumnLabel(4)));
      int rows = 0;
      while (rs.next()) {
        rows++;
        assertTrue(rs.getLong(3) <= rs.getLong(2) && rs.getLong(2) <= rs.getLong(4));
      }
      // the 20 popular products have 50 buyers each, far above τ = 16 at ε = 1 (their share)
      assertEquals(20, rows);
    }
  }

  @Test
  void chargesTheStatementsBudgetOnceAndExplainsIt() throws Exception {
    try (Connection c = TestConnections.open(url, approx, "15")) {
      rows(c, "SELECT PRODUCT, COUNT(*) FROM SALES GROUP BY PRODUCT");
      org.dpsql.accounting.PrivacyCost spent = TestDatabase.session(c).accountant().spent();
      assertEquals(0, BigDecimal.ONE.compareTo(spent.epsilon()),
          "the default ε = 1, split between the selection and the count: " + spent);
      assertTrue(spent.delta().compareTo(new BigDecimal("1e-6")) <= 0, spent.toString());
      assertTrue(spent.delta().compareTo(new BigDecimal("5e-7")) >= 0, spent.toString());
      rows(c, "SELECT PRODUCT, COUNT(*) FROM SALES GROUP BY PRODUCT");
      assertEquals(spent, TestDatabase.session(c).accountant().spent(), "a repeat is free");
      List<List<Object>> plan = rows(c, "EXPLAIN PLAN FOR SELECT PRODUCT, COUNT(*) FROM SALES "
          + "GROUP BY PRODUCT");
      String text = plan.toString();
      assertTrue(text.contains("selected privately over PRODUCT"), text);
      assertTrue(text.contains("τ = "), text);
      assertTrue(text.contains("selection ε=0.5, δ=5e-7"), text);
    }
  }

  @Test
  void zcdpSpendsRhoAndTheStatementsDelta() throws Exception {
    try (Connection c = TestConnections.open(url, zcdp, "16")) {
      List<List<Object>> got = rows(c, "SELECT /*+ DP(rho='100000') */ PRODUCT, COUNT(*) "
          + "FROM SALES WHERE KIND <> 'browser' GROUP BY PRODUCT");
      assertEquals(boundedCounts(""), toMap(got));
      org.dpsql.accounting.PrivacyCost spent = TestDatabase.session(c).accountant().spent();
      assertEquals(0, new BigDecimal("1e-8").compareTo(spent.delta()), "the default δ: " + spent);
      assertEquals(0, new BigDecimal("100000").compareTo(spent.rho()), "ρ, all of it: " + spent);
    }
  }

  private static Map<String, Long> toMap(List<List<Object>> rows) {
    Map<String, Long> out = new TreeMap<>();
    for (List<Object> r : rows) {
      out.put((String) r.get(0), (Long) r.get(1));
    }
    return out;
  }

  @Test
  void refusesWhatCannotBeAnsweredNamingTheColumn() throws Exception {
    try (Connection c = TestConnections.open(url, pure, "17")) {
      SQLException e = assertThrows(SQLException.class,
          () -> rows(c, "SELECT PRODUCT, COUNT(*) FROM SALES GROUP BY PRODUCT"));
      assertEquals("XDP05", e.getSQLState());
      assertTrue(e.getMessage().contains("PRODUCT"), e.getMessage());
      assertTrue(TestDatabase.session(c).accountant().spent().isZero(), "nothing charged");
    }
    try (Connection c = TestConnections.open(url, approx, "18")) {
      for (String sql : List.of(
          "SELECT PRODUCT, REGION, COUNT(*) FROM SALES GROUP BY ROLLUP(REGION, PRODUCT)",
          "SELECT PRODUCT, MEDIAN(AMOUNT) FROM SALES GROUP BY PRODUCT",
          "SELECT /*+ DP(mechanism='eigen') */ PRODUCT, COUNT(*) FROM SALES GROUP BY PRODUCT")) {
        SQLException e = assertThrows(SQLException.class, () -> rows(c, sql), sql);
        assertEquals("XDP03", e.getSQLState(), sql + ": " + e.getMessage());
      }
    }
  }
}
