package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.BackendDialects;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.backend.MeasurementSql;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract suite on a Trino backend ({@code jdbc:dpsql:trino://HOST:PORT/memory/SCHEMA}): the
 * tables live in Trino's memory catalog, in a schema of their own per run. Runs when
 * DPSQL_TEST_TRINO_URL (e.g. {@code jdbc:trino://localhost:18080}) names a server;
 * {@code scripts/trino.sh start} (called by .ci/run) starts one. Otherwise every test is skipped
 * and the reason printed.
 *
 * <p>Noise-free answers: the measurement vectors dpsql pushes down are compared with Trino's own
 * answers to the plain SQL, and end-to-end answers are released with a budget so large (ρ = 10^8
 * per query) that the discrete Gaussian noise is 0 in all but a negligible fraction of draws.
 */
@org.junit.jupiter.api.Order(2) // among the slowest: started first
class TrinoBackendTest {
  static final String ENV = "DPSQL_TEST_TRINO_URL";
  static String url;
  static Properties login;
  static String schema;
  static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    String base = System.getenv(ENV);
    if (base == null || !base.startsWith("jdbc:trino:")) {
      String reason = "Trino backend tests skipped: " + ENV + " is not set (run scripts/trino.sh "
          + "start, which needs a JDK 24+ under /usr/lib/jvm, and export the line it prints)";
      System.out.println(reason);
      Assumptions.assumeTrue(false, reason);
    }
    url = base.replaceAll("/+$", "");
    login = new Properties();
    login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_TRINO_USER", "dpsql"));
    schema = "dpsql_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA memory." + schema);
      String s = "memory." + schema;
      // 5,000 trips of 1,700 riders (at most 3 trips each, so bounding to 5 keeps every row and
      // the noise-free answers are Trino's own)
      st.execute("CREATE TABLE " + s + ".trips AS SELECT CAST(g AS bigint) AS trip_id, "
          + "CAST(g % 1700 AS integer) AS rider_id, "
          + "element_at(ARRAY['N', 'S', 'E', 'W'], 1 + CAST(g % 4 AS integer)) AS region, "
          + "CAST(g % 3 AS integer) AS county, CAST(18 + g % 60 AS integer) AS age, "
          + "CAST((g % 9000) / 100.0 AS decimal(8, 2)) AS fare, CAST(g % 500 AS double) / 10 AS km, "
          + "CAST(g % 16 AS integer) AS x, CAST((g / 16) % 16 AS integer) AS y "
          + "FROM UNNEST(sequence(1, 5000)) AS t(g)");
      // 5,000 tolls of 0.01 to 50.00 (cents: their quantiles' grid of step 3 divides them
      // unevenly), at most 3 per rider
      st.execute("CREATE TABLE " + s + ".tolls AS SELECT CAST(g % 1700 AS integer) AS rider_id, "
          + "element_at(ARRAY['N', 'S', 'E', 'W'], 1 + CAST(g % 4 AS integer)) AS region, "
          + "CAST(g * DECIMAL '0.01' AS decimal(8, 2)) AS toll FROM UNNEST(sequence(1, 5000)) AS t(g)");
      // 1,000 visits of 1,000 riders and 200 of one heavy rider
      st.execute("CREATE TABLE " + s + ".visits AS SELECT CAST(IF(g > 1000, 999999, g) AS integer) "
          + "AS rider_id, element_at(ARRAY['N', 'S', 'E', 'W'], 1 + CAST(g % 4 AS integer)) AS region "
          + "FROM UNNEST(sequence(1, 1200)) AS t(g)");
      // bounding by scaling, the case of ScaledBoundingSqlTest computed by hand (k = 3)
      st.execute("CREATE TABLE " + s + ".heavy (u integer, g varchar, v integer, w decimal(8, 5))");
      st.execute("INSERT INTO " + s + ".heavy VALUES (1, 'a', 2, 1.5), (1, 'b', -3, -0.25), "
          + "(1, 'b', NULL, 2), (NULL, 'a', 1, NULL), (NULL, 'a', 1, NULL), (2, 'a', 3, 0.00001), "
          + "(2, 'a', 3, 0.00001), (2, 'a', 3, 0.00001), (2, 'a', 3, 0.00001), (2, 'a', 1, 0.00001), "
          + "(2, 'b', -20, -7), (2, 'b', -20, 0.00001), (2, 'b', -1, 0.00001), (2, 'c', NULL, NULL), "
          + "(2, 'c', NULL, NULL), (3, 'c', 10, NULL), (3, 'c', 10, NULL), (3, 'c', 10, NULL), "
          + "(3, 'c', 10, NULL)");
      // the same rows under a policy with more cells than one row per unit takes (the pair window)
      st.execute("CREATE TABLE " + s + ".heavy_wide AS SELECT * FROM " + s + ".heavy");
      st.execute("CREATE TABLE " + s + ".zones (region varchar, name varchar)");
      st.execute("INSERT INTO " + s + ".zones VALUES ('N', 'North'), ('S', 'South'), ('E', 'East')");
      // SafeTab: 600 persons in 2 states, each in 1 or 2 of 3 iterations
      st.execute("CREATE TABLE " + s + ".persons AS SELECT CAST(g AS integer) AS pid, "
          + "IF(g % 2 = 0, 'S1', 'S2') AS state, IF(g % 3 = 0, 'F', 'M') AS sex, "
          + "CAST(g % 90 AS integer) AS age FROM UNNEST(sequence(1, 600)) AS t(g)");
      st.execute("CREATE TABLE " + s + ".person_iteration AS SELECT pid, iteration FROM ("
          + "SELECT pid, 'I1' AS iteration FROM " + s + ".persons UNION ALL "
          + "SELECT pid, 'I2' FROM " + s + ".persons WHERE pid % 5 = 0 UNION ALL "
          + "SELECT pid, 'I3' FROM " + s + ".persons WHERE pid % 7 = 0)");
    }
    policy = Files.createTempFile("trino-policy", ".yaml");
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (schema == null || url == null) {
      return;
    }
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      for (String t : List.of("trips", "tolls", "visits", "heavy", "heavy_wide", "zones", "persons",
          "person_iteration", "baskets")) {
        st.execute("DROP TABLE IF EXISTS memory." + schema + "." + t);
      }
      st.execute("DROP SCHEMA IF EXISTS memory." + schema);
    }
    Files.deleteIfExists(policy);
  }

  private static final String TABLES = "tables:\n  trips:\n    privacy_unit: rider_id\n"
      + "    unit: rider\n    max_rows_per_unit: 5\n    bounding: BOUNDING\n    columns:\n"
      + "      region: {values: [N, S, E, W]}\n      county: {values: [0, 1, 2]}\n"
      + "      age: {min: 18, max: 77, bin: 10}\n      fare: {clamp: [0, 100]}\n"
      + "      km: {clamp: [0, 50]}\n      x: {min: 0, max: 15}\n      y: {min: 0, max: 15}\n"
      + "    hierarchies:\n      GEO: [region, county]\n    spatial:\n      LOC: [x, y]\n"
      + "  visits:\n    privacy_unit: rider_id\n    unit: rider\n    max_rows_per_unit: 5\n    bounding: BOUNDING\n"
      + "    columns:\n      region: {values: [N, S, E, W]}\n"
      + "  tolls:\n    privacy_unit: rider_id\n    unit: rider\n    max_rows_per_unit: 5\n"
      + "    bounding: BOUNDING\n    columns:\n      region: {values: [N, S, E, W]}\n"
      + "      toll: {clamp: [0, 3000]}\n"
      + "  heavy:\n    privacy_unit: u\n    max_rows_per_unit: 3\n    columns:\n"
      + "      g: {values: [a, b, c]}\n      v: {clamp: [-10, 10]}\n      w: {clamp: [-5, 5]}\n"
      + "  heavy_wide:\n    privacy_unit: u\n    max_rows_per_unit: 3\n    columns:\n"
      + "      g: {values: [a, b, c, z0, z1, z2, z3, z4, z5, z6, z7]}\n"
      + "      v: {clamp: [-10, 10]}\n      w: {clamp: [-5, 5]}\n"
      + "  zones: {public: true}\n";

  private static final String ADAPTIVE = "adaptive_tables:\n  DHC:\n"
      + "    persons: {table: persons, person: pid, sex: sex, age: age}\n"
      + "    iterations: {table: person_iteration, person: pid, iteration: iteration}\n"
      + "    mechanism: geometric\n    gamma: 0.1\n    thresholds: [10, 100, 1000]\n"
      + "    sexes: [M, F]\n    ages: {max: 115, bins: census}\n    levels:\n"
      + "      NATION: {iterations: &its [I1, I2, I3], budget: {epsilon: 100000000}, stability: 3}\n"
      + "      STATE: {geography: state, geographies: [S1, S2], iterations: *its, "
      + "budget: {epsilon: 100000000}, stability: 3}\n";

  private static void writePolicy(String accounting, String bounding) throws Exception {
    String budget = accounting.equals("pure")
        ? "budget:\n  accounting: pure\n  per_connection: {epsilon: 1000000000}\n"
            + "  default_query: {epsilon: 100000000}\n"
        : "budget:\n  accounting: zcdp\n  per_connection: {rho: 1000000000}\n"
            + "  default_query: {rho: 100000000}\n";
    Files.writeString(policy, "allow_seed: true\n" + budget + TABLES.replace("BOUNDING", bounding)
        + (accounting.equals("pure") ? ADAPTIVE : ""));
  }

  /** The dpsql URL: {@code jdbc:dpsql:trino://HOST:PORT/memory/SCHEMA}. */
  private static String dpsqlUrl() {
    return "jdbc:dpsql:" + url.substring("jdbc:".length()) + "/memory/" + schema;
  }

  private static Connection connect(String accounting, String bounding) throws Exception {
    writePolicy(accounting, bounding);
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", "11");
    return DriverManager.getConnection(dpsqlUrl(), p);
  }

  /**
   * GROUP BY the bins of an ordered domain of a decimal column whose bin divides its values
   * unevenly (tolls in cents, bins of 3): Trino's decimal division rounds 26.99 / 3 up to 9.00, and
   * the bin index must still be 8. The noise-free counts per bin equal the tolls counted in Java.
   */
  @Test
  void decimalBinsAreRoundedDownExactly() throws Exception {
    Path own = Files.createTempFile("trino-bins", ".yaml");
    Files.writeString(own, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 1000000000}\n  default_query: {rho: 100000000}\ntables:\n"
        + "  tolls:\n    privacy_unit: rider_id\n    max_rows_per_unit: 5\n    columns:\n"
        + "      toll: {min: 0, max: 50.99, bin: 3}\n");
    Map<Long, Long> expected = new java.util.TreeMap<>();
    try (Connection t = trino(); Statement st = t.createStatement();
        ResultSet rs = st.executeQuery("SELECT toll FROM tolls")) {
      while (rs.next()) {
        long bin = rs.getBigDecimal(1).divide(java.math.BigDecimal.valueOf(3), 0,
            java.math.RoundingMode.FLOOR).longValueExact();
        expected.merge(bin * 3, 1L, Long::sum);
      }
    }
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", own.toString());
    p.setProperty("seed", "3");
    Map<Long, Long> got = new java.util.TreeMap<>();
    try (Connection c = DriverManager.getConnection(dpsqlUrl(), p);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT toll, COUNT(*) FROM tolls GROUP BY toll")) {
      while (rs.next()) {
        got.put(rs.getBigDecimal(1).longValueExact(), rs.getLong(2));
      }
    } finally {
      Files.deleteIfExists(own);
    }
    assertEquals(expected, got);
  }

  /**
   * GROUP BY a column declared keys: private on Trino: 300 buyers of 6 products (3 rows each,
   * bounded to 2) and 50 buyers of a product of their own; max_groups_per_unit 1 < k = 2, so each
   * buyer's groups are chosen by the window SQL. At ε = 10⁵ the noise is 0 and τ = 2: the 6
   * shared products are released with their bounded counts, no buyer's own product is.
   */
  @Test
  void groupsOverPrivateKeys() throws Exception {
    try (Connection c = trino(); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE baskets AS SELECT CAST(b AS integer) AS buyer, 'p' || CAST(b % 6 AS "
          + "varchar) AS product FROM UNNEST(sequence(0, 299)) AS t(b) CROSS JOIN "
          + "UNNEST(sequence(1, 3)) AS u(r) UNION ALL SELECT CAST(b AS integer), 'solo' || "
          + "CAST(b AS varchar) FROM UNNEST(sequence(300, 349)) AS t(b)");
    }
    Path own = PartitionSelectionQueriesTest.basketsPolicy("trino-partitions");
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", own.toString());
    p.setProperty("seed", "5");
    try (Connection c = DriverManager.getConnection(dpsqlUrl(), p);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT product, COUNT(*), COUNT(DISTINCT buyer) FROM "
            + "baskets GROUP BY product ORDER BY product")) {
      for (int i = 0; i < 6; i++) {
        assertTrue(rs.next(), "product p" + i);
        assertEquals("p" + i, rs.getString(1));
        assertEquals(100, rs.getLong(2));
        assertEquals(50, rs.getLong(3));
      }
      assertFalse(rs.next(), "no buyer's own product");
    } finally {
      Files.deleteIfExists(own);
    }
  }

  /**
   * A prepared statement on Trino whose {@code CASE} threshold is bound into the plan, whose
   * region is bound to the measurement and whose {@code HAVING ?} post-processes the release:
   * planned once at prepare, the noise-free answers Trino's own for each set of values (under
   * -Plong: each statement is several Trino queries).
   */
  @Test
  void boundValuesArePlannedOnce() throws Exception {
    Assumptions.assumeTrue(org.dpsql.TestScale.isLong(), "under -Plong");
    try (Connection c = connect("zcdp", "per_query"); PreparedStatement ps = c.prepareStatement(
        "SELECT CASE WHEN county < ? THEN 'low' ELSE 'high' END AS g, COUNT(*) AS n FROM trips "
            + "WHERE region = ? GROUP BY 1 HAVING COUNT(*) > ? ORDER BY g")) {
      org.dpsql.session.DpsqlSession session = TestDatabase.session(c);
      long planned = session.analyzer().plannedStatements();
      for (int county : new int[] {1, 2}) {
        ps.setInt(1, county);
        ps.setString(2, "N");
        ps.setInt(3, 0);
        Map<String, Long> got = new LinkedHashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            got.put(rs.getString(1), Math.round(rs.getDouble(2)));
          }
        }
        assertEquals(trinoCounts("SELECT CASE WHEN county < " + county + " THEN 'low' ELSE "
            + "'high' END AS g, COUNT(*) FROM trips WHERE region = 'N' GROUP BY 1 ORDER BY g"), got,
            "county < " + county);
      }
      assertEquals(planned, session.analyzer().plannedStatements(), "planned at prepare only");
    }
  }

  private static Connection trino() throws SQLException {
    return DriverManager.getConnection(url + "/memory/" + schema, login);
  }

  /** Trino's own answer: the first column as text, the second as a long. */
  private static Map<String, Long> trinoCounts(String sql) throws SQLException {
    Map<String, Long> out = new LinkedHashMap<>();
    try (Connection c = trino(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    }
    return out;
  }

  private static long trinoScalar(String sql) throws SQLException {
    try (Connection c = trino(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      assertTrue(rs.next());
      return rs.getLong(1);
    }
  }

  private static Map<String, Long> dpsqlCounts(Connection c, String sql) throws SQLException {
    Map<String, Long> out = new LinkedHashMap<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.put(rs.getString(1), Math.round(rs.getDouble(2))); // workload estimates are doubles
      }
    }
    return out;
  }

  /** The exact measurement vectors dpsql pushes down to Trino for {@code sql}. */
  private static long[][] measure(String sql) throws Exception {
    writePolicy("zcdp", "per_query");
    try (Connection backend = trino()) {
      SqlDialect dialect = BackendDialects.of(backend.getMetaData());
      return new ExactMeasurer(backend, dialect).measure(plan(backend, sql), List.of());
    }
  }

  /** The statement dpsql sends to Trino to measure {@code sql}. */
  private static String measurementSql(String sql) throws Exception {
    writePolicy("zcdp", "per_query");
    try (Connection backend = trino()) {
      return MeasurementSql.of(plan(backend, sql), BackendDialects.of(backend.getMetaData())).sql();
    }
  }

  private static MeasurementPlan plan(Connection backend, String sql) throws Exception {
    Policy p = PolicyLoader.load(policy.toString(), backend);
    SqlDialect dialect = BackendDialects.of(backend.getMetaData());
    assertTrue(BackendDialects.isTrino(dialect));
    FrontEnd analyzer = new FrontEnd(p, BackendCatalog.read(backend, p),
        backend.getSchema(), dialect);
    AnalyzedStatement.PrivateAggregate q = (AnalyzedStatement.PrivateAggregate) analyzer.analyze(sql);
    return MeasurementPlan.of(q.query());
  }

  @Test
  void noiseFreeMeasurementsAreTrinosOwnAnswers() throws Exception {
    long[][] x = measure("SELECT region, COUNT(*), SUM(fare), COUNT(km) FROM trips "
        + " GROUP BY region");
    Map<String, Long> counts = trinoCounts("SELECT region, COUNT(*) FROM trips "
        + "GROUP BY region");
    Map<String, Long> sums = trinoCounts("SELECT region, CAST(SUM(fare) * 1000 AS bigint) FROM trips "
        + " GROUP BY region");
    List<String> regions = List.of("N", "S", "E", "W");
    for (int i = 0; i < 4; i++) {
      assertEquals(counts.get(regions.get(i)), x[0][i], regions.get(i));
      assertEquals(sums.get(regions.get(i)), x[1][i], "SUM(fare) in steps of 0.001, " + regions.get(i));
      assertEquals(counts.get(regions.get(i)), x[2][i], regions.get(i));
    }
  }

  @Test
  void theHeavyRiderIsBoundedToFiveRows() throws Exception {
    long[][] x = measure("SELECT region, COUNT(*) FROM visits GROUP BY region");
    long total = x[0][0] + x[0][1] + x[0][2] + x[0][3];
    assertEquals(1000 + 5, total, "the rider with 200 visits counts 5");
    assertEquals(1005, trinoScalar("SELECT SUM(LEAST(n, 5)) FROM (SELECT COUNT(*) n FROM visits "
        + "GROUP BY rider_id) t"));
    assertEquals(1200, trinoScalar("SELECT COUNT(*) FROM visits"));
    // bounded by scaling (ScaledBoundingSql, one row per unit): the rider's 50 visits in each
    // region, in the policy's order N, S, E, W, count floor(5 * 50i / 200) - floor(5 * 50(i - 1)
    // / 200) = 1, 1, 1, 2
    assertEquals(List.of(251L, 251L, 251L, 252L), List.of(x[0][0], x[0][1], x[0][2], x[0][3]),
        "N, S, E, W");
  }

  @Test
  void aSchemaTrinoDoesNotListIsFoundByItsName() throws Exception {
    // Trino's tpch connector answers for tpch.sf10 although SHOW SCHEMAS FROM tpch does not list
    // it; its tables (nation: 25 rows, generated) are found as those of the current schema
    Path nation = Files.createTempFile("dpsql-sf10", ".yaml");
    try {
      Files.writeString(nation, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 1000000}\n  default_query: {rho: 1000000}\ntables:\n"
          + "  nation:\n    privacy_unit: ROW\n    columns:\n"
          + "      regionkey: {min: 0, max: 4}\n");
      Properties p = new Properties();
      p.putAll(login);
      p.setProperty("policy", nation.toString());
      p.setProperty("seed", "11");
      try (Connection c = DriverManager.getConnection("jdbc:dpsql:"
              + url.substring("jdbc:".length()) + "/tpch/sf10", p);
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT regionkey, COUNT(*) FROM nation GROUP BY regionkey")) {
        long total = 0;
        int rows = 0;
        while (rs.next()) {
          total += rs.getLong(2);
          rows++;
        }
        assertEquals(5, rows);
        assertEquals(25, total, 2, "25 nations, noise of ρ = 10^6 below one in every region");
      }
    } finally {
      Files.deleteIfExists(nation);
    }
  }

  @Test
  void explainSaysWhichScalingBoundsTheStatement() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      String visits = TestDatabase.explainPlan(st, "SELECT region, COUNT(*) FROM visits "
          + "GROUP BY region");
      assertTrue(visits.contains("bounding by scaling (one row per unit): a unit with n > 5 "
          + "filtered rows adds 5/n of each of its cells"), visits);
      assertTrue(TestDatabase.explainPlan(st, "SELECT g, SUM(v) FROM heavy_wide GROUP BY g")
          .contains("bounding by scaling (window over (unit, cell) pairs)"));
      // COUNT(DISTINCT ...) keeps the row window: no scaling line
      assertFalse(TestDatabase.explainPlan(st, "SELECT region, COUNT(DISTINCT rider_id) FROM "
          + "visits GROUP BY region").contains("bounding by scaling"));
    }
  }

  @Test
  void heavyUnitsAreScaledToKRowsAsOnH2() throws Exception {
    // the values ScaledBoundingSqlTest computes by hand and checks on H2: Trino's integer and
    // decimal arithmetic (MOD, exact division) give the same contributions, in both forms: one
    // row per unit (3 cells) and the window over (unit, cell) pairs (11 cells, 8 of them empty)
    for (String table : List.of("heavy", "heavy_wide")) {
      String sql = "SELECT g, COUNT(*), COUNT(v), SUM(v), SUM(w) FROM " + table + " GROUP BY g";
      assertEquals(table.equals("heavy"), measurementSql(sql).contains("FILTER (WHERE"), table);
      long[][] x = measure(sql);
      assertEquals(List.of(4L, 3L, 4L), firstThree(x[0]), "COUNT(*), " + table);
      assertEquals(List.of(4L, 2L, 3L), firstThree(x[1]), "COUNT(v), " + table);
      assertEquals(List.of(7L, -9L, 30L), firstThree(x[2]), "SUM(v), " + table);
      assertEquals(List.of(150001L, 25001L, 0L), firstThree(x[3]), "SUM(w), steps 10^-5, " + table);
      long[][] y = measure("SELECT g, COUNT(*) FROM " + table + " WHERE g <> 'a' GROUP BY g");
      assertEquals(List.of(0L, 3L, 5L), firstThree(y[0]), "COUNT(*) without cell a, " + table);
    }
  }

  /** The cells a, b, c of a measurement; the others (no row has them) are 0. */
  private static List<Long> firstThree(long[] cells) {
    for (int i = 3; i < cells.length; i++) {
      assertEquals(0, cells[i], "empty cell " + i);
    }
    return List.of(cells[0], cells[1], cells[2]);
  }

  /**
   * Issue 32 on Trino: the four statements return 1, 2, 3 and 9 rows, each count equal to Trino's
   * own answer (noise-free budget), in a schema of the memory catalog holding a demo-shaped TRIPS.
   */
  @Test
  void aFilterOnAGroupedColumnLeavesOutTheGroupsItExcludes() throws Exception {
    String own = schema + "_f";
    Path filteredPolicy = Files.createTempFile("trino-filtered", ".yaml");
    try (Connection direct = DriverManager.getConnection(url, login);
        Statement st = direct.createStatement()) {
      st.execute("CREATE SCHEMA memory." + own);
      st.execute("CREATE TABLE memory." + own + ".trips (trip_id bigint, rider_id integer, "
          + "state varchar, payment varchar, hour integer, fare decimal(8, 2))");
      for (String chunk : FilteredGroups.valueChunks()) {
        st.execute("INSERT INTO memory." + own + ".trips VALUES " + chunk);
      }
      Files.writeString(filteredPolicy, FilteredGroups.NOISE_FREE_BUDGET + "tables:\n"
          + FilteredGroups.tripsPolicy("trips", "per_query"));
      Properties p = new Properties();
      p.putAll(login);
      p.setProperty("policy", filteredPolicy.toString());
      p.setProperty("seed", "11");
      try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + url.substring(
          "jdbc:".length()) + "/memory/" + own, p)) {
        FilteredGroups.assertIssueStatements(c, direct, "memory." + own + ".trips", "hour");
      }
    } finally {
      try (Connection direct = DriverManager.getConnection(url, login);
          Statement st = direct.createStatement()) {
        st.execute("DROP TABLE IF EXISTS memory." + own + ".trips");
        st.execute("DROP SCHEMA IF EXISTS memory." + own);
      }
      Files.deleteIfExists(filteredPolicy);
    }
  }

  @Test
  void privateAggregatesPublicTablesAndTheBudget() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      Map<String, Long> truth = trinoCounts("SELECT region, COUNT(*) FROM trips "
          + "WHERE age BETWEEN 20 AND 49 GROUP BY region");
      Map<String, Long> got = dpsqlCounts(c, "SELECT REGION, COUNT(*) FROM Trips "
          + "WHERE age BETWEEN 20 AND 49 GROUP BY region");
      assertEquals(List.of("N", "S", "E", "W"), new ArrayList<>(got.keySet()));
      assertEquals(truth, got);
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT age, COUNT(*) FROM trips WHERE age BETWEEN ? AND ? GROUP BY age")) {
        ps.setInt(1, 20);
        ps.setInt(2, 40);
        // ages 20..40 lie in 3 of the 6 bins: the filter itself excludes the others (issue 32)
        assertEquals(3, TestDatabase.rows(ps.executeQuery()).size());
      }
      try (ResultSet rs = st.executeQuery("SELECT AVG(km), SUM(fare) FROM trips")) {
        assertTrue(rs.next());
        double avg = rs.getDouble(1);
        double truthAvg = trinoScalar("SELECT CAST(AVG(km) * 1000 AS bigint) FROM trips") / 1000.0;
        assertEquals(truthAvg, avg, 0.01);
      }
      try (ResultSet rs = st.executeQuery("SELECT name FROM zones WHERE region = 'N'")) {
        assertTrue(rs.next());
        assertEquals("North", rs.getString(1));
      }
      assertEquals(0, new java.math.BigDecimal("300000000").compareTo(
          TestDatabase.session(c).accountant().spent().rho()), "three private statements of 1e8");
    }
  }

  @Test
  void snapshotBoundingIsRefusedBecauseTrinoHasNoTemporaryTables() throws Exception {
    SQLException e = assertThrows(SQLException.class, () -> connect("zcdp", "snapshot").close());
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("bounding: per_query"), e.getMessage());
    assertTrue(e.getMessage().contains("temporary table"), e.getMessage());
  }

  @Test
  void statementsAroundPrivateAggregatesAndJoinsWithPublicTables() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      Map<String, Long> truth = trinoCounts("SELECT z.name, COUNT(*) FROM trips t JOIN zones z "
          + "ON t.region = z.region GROUP BY z.name");
      Map<String, Long> lookup = dpsqlCounts(c, "SELECT z.name, COUNT(*) FROM trips t JOIN zones z "
          + "ON t.region = z.region GROUP BY z.name");
      assertEquals(truth.size(), lookup.size());
      truth.forEach((k, v) -> assertEquals(v, lookup.get(k), k));
      // a release joined with a public table above it, HAVING and a window over releases
      Map<String, Long> above = dpsqlCounts(c, "SELECT z.name, t.n FROM (SELECT region, COUNT(*) AS n "
          + "FROM trips GROUP BY region) t JOIN zones z ON z.region = t.region");
      truth.forEach((k, v) -> assertEquals(v, above.get(k), k));
      List<Object[]> ranked = TestDatabase.rows(st.executeQuery("SELECT region, COUNT(*) AS n, "
          + "RANK() OVER (ORDER BY COUNT(*) DESC) AS rk FROM trips "
          + "GROUP BY region HAVING COUNT(*) > 0"));
      assertEquals(4, ranked.size());
      // a derived column evaluated by Trino on the domain
      Map<String, Long> lower = dpsqlCounts(c, "SELECT LOWER(region) AS r, COUNT(*) FROM trips "
          + " GROUP BY LOWER(region) ORDER BY 1");
      assertEquals(List.of("e", "n", "s", "w"), new ArrayList<>(lower.keySet()));
      assertEquals(trinoScalar("SELECT COUNT(*) FROM trips WHERE region = 'E'"),
          lower.get("e"));
      try (ResultSet rs = st.executeQuery("SELECT * FROM trips WHERE 1 = 0")) {
        assertFalse(rs.next());
      }
    }
  }

  /**
   * A join of two private tables on their shared unit, bounded by Trino after the join: riders
   * 1..1000 have one visit and at most 3 trips, so no joined rider exceeds 5 rows and the
   * noise-free counts are Trino's own join.
   */
  @Test
  void privateJoinOnTheSharedUnit() throws Exception {
    try (Connection c = connect("zcdp", "per_query")) {
      Map<String, Long> truth = trinoCounts("SELECT v.region, COUNT(*) FROM trips t JOIN visits v "
          + "ON t.rider_id = v.rider_id GROUP BY v.region");
      Map<String, Long> joined = dpsqlCounts(c, "SELECT /*+ DP(rho='100000') */ v.region, "
          + "COUNT(*) FROM trips t JOIN visits v ON t.rider_id = v.rider_id GROUP BY v.region");
      assertEquals(truth, joined);
    }
  }

  @Test
  void workloadsAndTheWorkloadFunction() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      List<Object[]> batch = TestDatabase.rows(st.executeQuery("SELECT COUNT(*) FROM trips WHERE "
          + "age BETWEEN 18 AND 27 UNION ALL SELECT COUNT(*) FROM trips WHERE "
          + "age BETWEEN 28 AND 47"));
      assertEquals(2, batch.size());
      assertEquals(trinoScalar("SELECT COUNT(*) FROM trips WHERE age BETWEEN 18 AND 27"),
          ((Number) batch.get(0)[0]).doubleValue(), 0.5);
      assertEquals(trinoScalar("SELECT COUNT(*) FROM trips WHERE age BETWEEN 28 AND 47"),
          ((Number) batch.get(1)[0]).doubleValue(), 0.5);
      List<Object[]> ranges = TestDatabase.rows(st.executeQuery("SELECT * FROM TABLE(DPSQL.WORKLOAD("
          + "'trips', 'PREFIX(age)', 'rho=1000000'))"));
      assertEquals(6, ranges.size());
      long all = trinoScalar("SELECT COUNT(*) FROM trips");
      assertEquals(all, ((Number) ranges.get(5)[1]).doubleValue(), 0.5, "the last prefix is every row");
    }
  }

  @Test
  void rollupOverAHierarchyIsAnsweredByInfTda() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      List<Object[]> rows = TestDatabase.rows(st.executeQuery("SELECT /*+ DP(mechanism='topdown') */ "
          + "region, county, COUNT(*) FROM trips GROUP BY ROLLUP(region, county)"));
      Map<String, Long> truth = trinoCounts("SELECT region || '/' || CAST(county AS varchar), COUNT(*) "
          + "FROM trips GROUP BY region, county");
      int leaves = 0;
      for (Object[] r : rows) {
        if (r[0] != null && r[1] != null) {
          leaves++;
          long expected = truth.getOrDefault(r[0] + "/" + r[1], 0L);
          assertEquals(expected, ((Number) r[2]).longValue(), r[0] + "/" + r[1]);
        }
      }
      assertEquals(12, leaves);
    }
  }

  @Test
  void htfRectangles() throws Exception {
    try (Connection c = connect("zcdp", "per_query");
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM trips WHERE x BETWEEN ? AND ? "
            + "AND y BETWEEN ? AND ?")) {
      ps.setInt(1, 0);
      ps.setInt(2, 15);
      ps.setInt(3, 0);
      ps.setInt(4, 15);
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(5000, rs.getLong(1), 5000 * 0.02, "the whole grid");
      }
      java.math.BigDecimal paid = TestDatabase.session(c).accountant().spent().rho();
      ps.setInt(1, 0);
      ps.setInt(2, 7);
      ps.setInt(3, 0);
      ps.setInt(4, 7);
      long truth = trinoScalar("SELECT COUNT(*) FROM trips WHERE x <= 7 AND y <= 7");
      try (ResultSet rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(truth, rs.getLong(1), truth * 0.1, "a quarter of the grid");
      }
      assertEquals(0, paid.compareTo(TestDatabase.session(c).accountant().spent().rho()),
          "the second rectangle is answered from the released tree, free");
    }
  }

  @Test
  void adaptiveTable() throws Exception {
    try (Connection c = connect("pure", "per_query"); Statement st = c.createStatement()) {
      List<Object[]> rows = TestDatabase.rows(st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))"));
      List<String> names = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))")) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          names.add(rs.getMetaData().getColumnLabel(i).toUpperCase(java.util.Locale.ROOT));
        }
      }
      assertFalse(rows.isEmpty());
      int checked = 0;
      int[] at = new int[8];
      String[] cols = {"LEVEL", "GEOGRAPHY", "ITERATION", "DETAIL", "SEX", "AGE_LOW", "AGE_HIGH", "COUNT"};
      for (int i = 0; i < cols.length; i++) {
        at[i] = names.indexOf(cols[i]);
        assertTrue(at[i] >= 0, cols[i] + " in " + names);
      }
      // each row's truth is one Trino query: about 12 rows, spread over the levels, in the
      // default build; every row under -Plong
      int stride = org.dpsql.TestScale.isLong() ? 1 : Math.max(1, rows.size() / 12);
      for (int j = 0; j < rows.size(); j += stride) {
        Object[] row = rows.get(j);
        Object[] r = new Object[8];
        for (int i = 0; i < 8; i++) {
          r[i] = row[at[i]];
        }
        String where = " WHERE pi.iteration = '" + r[2] + "'"
            + (r[0].equals("STATE") ? " AND p.state = '" + r[1] + "'" : "")
            + (r[4] == null ? "" : " AND p.sex = '" + r[4] + "'")
            + (r[5] == null ? "" : " AND p.age >= " + r[5] + " AND p.age <= " + r[6]);
        long truth = trinoScalar("SELECT COUNT(DISTINCT p.pid) FROM persons p JOIN person_iteration pi "
            + "ON p.pid = pi.pid" + where);
        assertEquals(truth, ((Number) r[7]).longValue(), java.util.Arrays.toString(r));
        checked++;
      }
      assertTrue(checked >= 6);
    }
  }

  /**
   * The histogram a quantile pushes down to Trino is the one computed here from the rows, on a grid
   * whose step divides the tolls' cents unevenly: toll is clamped to [0, 3000] (step 3), Trino's
   * decimal division rounds 26.99 / 3 = 8.9967 to 9.00 at the dividend's scale, and a plain FLOOR
   * would count 26.99 at point 27 (above its value); HistogramSql corrects that. A noise-free
   * median is then an exact one of the tolls rounded down to the grid.
   */
  @Test
  void quantileHistogramsAreRoundedDownExactly() throws Exception {
    writePolicy("zcdp", "per_query");
    long[][] histogram;
    org.dpsql.rewrite.QuantileGrid grid;
    try (Connection backend = trino()) {
      Policy p = PolicyLoader.load(policy.toString(), backend);
      SqlDialect dialect = BackendDialects.of(backend.getMetaData());
      FrontEnd analyzer = new FrontEnd(p, BackendCatalog.read(backend, p),
          backend.getSchema(), dialect);
      AnalyzedStatement.PrivateAggregate q = (AnalyzedStatement.PrivateAggregate) analyzer.analyze(
          "SELECT region, MEDIAN(toll) FROM tolls GROUP BY region");
      MeasurementPlan plan = MeasurementPlan.of(q.query());
      org.dpsql.policy.ColumnPolicy fare = q.query().table().column("toll").orElseThrow();
      grid = org.dpsql.rewrite.QuantileGrid.of(fare, "MEDIAN");
      assertEquals(0, new java.math.BigDecimal("3").compareTo(grid.step()));
      histogram = new ExactMeasurer(backend, dialect).histogram(plan, fare, grid, List.of());
    }
    Map<String, List<java.math.BigDecimal>> tolls;
    try (Connection t = trino()) {
      tolls = QuantileChecks.values(t, "tolls", "region", "toll");
    }
    List<String> regions = List.of("N", "S", "E", "W");
    for (int r = 0; r < 4; r++) {
      long[] expected = new long[grid.size()];
      for (java.math.BigDecimal x : tolls.get(regions.get(r))) {
        expected[x.divide(grid.step(), 0, java.math.RoundingMode.FLOOR).intValueExact()]++;
      }
      assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(histogram[r]),
          regions.get(r));
    }
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT region, MEDIAN(toll) FROM tolls GROUP BY region")) {
      while (rs.next()) {
        QuantileChecks.assertExactQuantile(tolls.get(rs.getString(1)), 0.5, rs.getDouble(2),
            java.math.BigDecimal.ZERO, java.math.BigDecimal.valueOf(3000), grid.step(),
            rs.getString(1));
      }
    }
  }

  /**
   * Quantiles on Trino, noise-free (ρ = 10⁸ per statement): a median per group with a count in the
   * same statement, and the three quartiles (one JointExp release), are exact quantiles of the
   * grid-rounded fares (step 0.1), checked against the rows read from Trino itself, which has only
   * approx_percentile (see {@link QuantileChecks}); the count is Trino's COUNT(*).
   */
  @Test
  void quantilesAreExactWhenTheBudgetIsHuge() throws Exception {
    Map<String, List<java.math.BigDecimal>> fares;
    try (Connection t = trino()) {
      fares = QuantileChecks.values(t, "trips", "region", "fare");
    }
    Map<String, Long> counts = trinoCounts("SELECT region, COUNT(*) FROM trips GROUP BY region");
    java.math.BigDecimal lo = java.math.BigDecimal.ZERO;
    java.math.BigDecimal hi = java.math.BigDecimal.valueOf(100);
    java.math.BigDecimal step = new java.math.BigDecimal("0.1");
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      List<String> regions = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT region, COUNT(*) AS n, MEDIAN(fare) AS m "
          + "FROM trips GROUP BY region")) {
        while (rs.next()) {
          String r = rs.getString(1);
          regions.add(r);
          assertEquals(counts.get(r), rs.getLong(2), "the count of " + r);
          QuantileChecks.assertExactQuantile(fares.get(r), 0.5, rs.getDouble(3), lo, hi, step,
              r);
        }
      }
      assertEquals(List.of("N", "S", "E", "W"), regions);
      try (ResultSet rs = st.executeQuery("SELECT region, "
          + "PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY fare) AS q1, "
          + "PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY fare) AS q2, "
          + "PERCENTILE_CONT(0.75) WITHIN GROUP (ORDER BY fare) AS q3 FROM trips GROUP BY region")) {
        assertEquals(4, QuantileChecks.assertExactQuartiles(rs, fares, lo, hi, step));
      }
      assertEquals(0, new java.math.BigDecimal("200000000").compareTo(
          TestDatabase.session(c).accountant().spent().rho()), "two statements of 1e8");
    }
  }

  @Test
  void refusalsAndWithheldBackendErrors() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Statement st = c.createStatement()) {
      assertEquals("XDP02", assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT * FROM trips")).getSQLState());
      assertEquals("XDP02", assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT rider_id, COUNT(*) FROM trips GROUP BY rider_id")).getSQLState());
      assertEquals("XDP03", assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT BIT_AND(age) FROM trips")).getSQLState());
      assertEquals("XDP02", assertThrows(SQLException.class,
          () -> st.executeQuery("DELETE FROM trips")).getSQLState());
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM trips WHERE age > ?")) {
        ps.setString(1, "not a number");
        // a bound value that is not of the parameter's type is refused before the backend sees it
        SQLException e = assertThrows(SQLException.class, ps::executeQuery);
        assertEquals("22018", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains("parameter 1"), e.getMessage());
      }
    }
  }

  /**
   * On Trino: {@code AVG(x) FILTER (WHERE c)} measured as the CASE form in Trino's dialect equals
   * Trino's own average (noise-free budget, nothing bounded away); a roll-up over the GEO
   * hierarchy is released by InfTDA with BIGINT counts; a listing of a declared domain is
   * answered without reading Trino.
   */
  @Test
  void averageFilterRollUpTypesAndDomainListing() throws Exception {
    try (Connection c = connect("zcdp", "per_query"); Connection t = trino()) {
      List<List<Object>> exact = ResultRows.of(t, "SELECT region, AVG(CAST(fare AS double)) "
          + "FILTER (WHERE age >= 48) FROM trips GROUP BY region ORDER BY region");
      List<List<Object>> released = ResultRows.of(c, "SELECT region, AVG(fare) FILTER (WHERE "
          + "age >= 48) AS a FROM trips GROUP BY region ORDER BY region");
      assertEquals(exact.size(), released.size());
      for (int r = 0; r < exact.size(); r++) {
        assertEquals(exact.get(r).get(0), released.get(r).get(0));
        assertEquals(((java.math.BigDecimal) exact.get(r).get(1)).doubleValue(),
            ((java.math.BigDecimal) released.get(r).get(1)).doubleValue(), 0.01);
      }
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT region, "
          + "county, COUNT(*) AS n FROM trips GROUP BY ROLLUP(region, county)")) {
        assertEquals(java.sql.Types.BIGINT, rs.getMetaData().getColumnType(3));
        int rows = 0;
        while (rs.next()) {
          rows++;
          assertTrue(rs.getObject(3) instanceof Long);
        }
        assertEquals(1 + 4 + 12, rows);
      }
      assertEquals(List.of(List.of("E"), List.of("N"), List.of("S"), List.of("W")),
          ResultRows.of(c, "SELECT DISTINCT region FROM trips ORDER BY region LIMIT 1000"));
    }
  }
}
