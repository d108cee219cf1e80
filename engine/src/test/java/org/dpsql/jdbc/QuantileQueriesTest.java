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
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quantiles through {@code DriverManager} on H2: {@code PERCENTILE_CONT}, {@code
 * PERCENTILE_DISC}, {@code MEDIAN}, {@code MIN} and {@code MAX} per group, their EXPLAIN, cost and
 * refusals.
 *
 * <p>Noise-free answers: with ρ = 10⁶ per statement and k = 5, η = ε/(2k) ≥ 94 for up to three
 * quantiles, so a point whose score is 1/4 or more above the best one is chosen with probability
 * below e^(−23) times the grid's size: the answer is an exact quantile of the bounded, clamped,
 * grid-rounded values, a point v with #{x < v} ≤ t ≤ #{x ≤ v} for the target rank t = p·n
 * clamped into [1/2, n − 1/2], counted by H2 itself (every rider has at most k = 5 trips, and the
 * fares have one decimal, so they lie on the grid of FARE's clamp); MIN and MAX are H2's own.
 */
class QuantileQueriesTest {
  private static final String[] REGIONS = {"N", "S", "E", "W"};
  private static String url;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:q" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), AGE INT, FARE DECIMAL(8, 1), PASSENGERS INT)");
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO TRIPS VALUES (?,?,?,?,?,?)")) {
        long id = 0;
        for (int rider = 0; rider < 401; rider++) {
          for (int t = 0; t <= rider % 3; t++) {
            ps.setLong(1, id++);
            ps.setInt(2, rider);
            ps.setString(3, REGIONS[rider % 4]);
            ps.setInt(4, 18 + (rider * 7 + t * 13) % 50 + (rider % 4) * 5);
            // fares with one decimal, a few above the clamp's 100 and one NULL per 50 riders
            if (rider % 50 == 7 && t == 0) {
              ps.setNull(5, java.sql.Types.DECIMAL);
            } else {
              ps.setBigDecimal(5, BigDecimal.valueOf((rider * 37L + t * 101L) % 1300, 1)
                  .add(BigDecimal.valueOf(rider % 4 * 3)));
            }
            ps.setInt(6, 1 + t);
            ps.addBatch();
          }
        }
        ps.executeBatch();
      }
    }
    policy = Files.createTempFile("dpsql-quantiles", ".yaml");
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 100000000.0, delta: 1e-9}\n  default_query: {rho: 1000000.0}\n"
        + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    max_rows_per_unit: 5\n"
        + "    columns:\n      REGION: {values: [N, S, E, W]}\n"
        + "      AGE: {min: 16, max: 90, bin: 1}\n      FARE: {clamp: [0, 100]}\n"
        + "      PASSENGERS: {values: [1, 2, 3]}\n"
        + "      TRIP_ID: {min: 0, max: 2000000, bin: 1}\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    Files.deleteIfExists(policy);
  }

  private static Connection connect() throws SQLException {
    return TestConnections.open(url, policy, "17");
  }

  private static List<List<Object>> rows(Connection c, String sql) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.add(v instanceof Number x && !(v instanceof Long) ? x.doubleValue() : v);
        }
        out.add(row);
      }
    }
    return out;
  }

  /** H2's own answer: {@code aggregates} per region, as doubles. */
  private static List<List<Object>> truth(String... aggregates) throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      List<List<Object>> out = new ArrayList<>();
      for (String r : REGIONS) {
        out.addAll(rows(c, "SELECT '" + r + "', " + String.join(", ", aggregates)
            + " FROM TRIPS WHERE REGION = '" + r + "'"));
      }
      return out;
    }
  }

  private static final String FARE = "LEAST(GREATEST(FARE, 0), 100)";

  /**
   * Checks that {@code released}, one row per region (region, then one value per fraction), holds
   * exact p-quantiles of {@code expr} in each region: #{x < v} ≤ t ≤ #{x ≤ v}, counted by H2.
   */
  private static void assertExactQuantiles(List<List<Object>> released, String expr,
      double... fractions) throws SQLException {
    assertEquals(REGIONS.length, released.size(), released.toString());
    try (Connection c = DriverManager.getConnection(url)) {
      for (int r = 0; r < REGIONS.length; r++) {
        assertEquals(REGIONS[r], released.get(r).get(0));
        for (int i = 0; i < fractions.length; i++) {
          double v = (Double) released.get(r).get(1 + i);
          List<Object> counts = rows(c, "SELECT COUNT(" + expr + "), SUM(CASE WHEN " + expr
              + " < " + v + " THEN 1 ELSE 0 END), SUM(CASE WHEN " + expr + " <= " + v
              + " THEN 1 ELSE 0 END) FROM TRIPS WHERE REGION = '" + REGIONS[r] + "'").get(0);
          long n = (Long) counts.get(0);
          double t = Math.min(Math.max(fractions[i] * n, 0.5), n - 0.5);
          String what = REGIONS[r] + " p=" + fractions[i] + " v=" + v + " n=" + n + " " + counts;
          assertTrue(((Number) counts.get(1)).doubleValue() <= t, what);
          assertTrue(((Number) counts.get(2)).doubleValue() >= t, what);
        }
      }
    }
  }

  @Test
  void percentilesPerGroupAreTheExactQuantilesWhenTheBudgetIsHuge() throws SQLException {
    try (Connection c = connect()) {
      assertExactQuantiles(rows(c, "SELECT REGION, MEDIAN(FARE) FROM TRIPS GROUP BY REGION"),
          FARE, 0.5);
      assertExactQuantiles(rows(c, "SELECT REGION, PERCENTILE_DISC(0.9) WITHIN GROUP "
          + "(ORDER BY AGE) AS P90 FROM TRIPS GROUP BY REGION"), "AGE", 0.9);
      assertExactQuantiles(rows(c, "SELECT REGION, PERCENTILE_CONT(0.9) WITHIN GROUP "
          + "(ORDER BY AGE DESC) FROM TRIPS GROUP BY REGION"), "AGE", 0.1);
      // three quartiles of one column in one statement: each exact here, and monotone
      List<List<Object>> quartiles = rows(c, "SELECT REGION, "
          + "PERCENTILE_CONT(0.75) WITHIN GROUP (ORDER BY FARE) AS Q3, "
          + "PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY FARE) AS Q1, "
          + "PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY FARE) AS Q2 FROM TRIPS GROUP BY REGION");
      assertExactQuantiles(quartiles, FARE, 0.75, 0.25, 0.5);
      for (List<Object> row : quartiles) {
        assertTrue((Double) row.get(2) <= (Double) row.get(3)
            && (Double) row.get(3) <= (Double) row.get(1), row.toString());
      }
    }
  }

  @Test
  void subqueriesAndPostProcessingGoThroughTheRelationalFrontEnd() throws SQLException {
    try (Connection c = connect()) {
      List<List<Object>> released = rows(c, "SELECT r, MEDIAN(f) AS m, "
          + "PERCENTILE_DISC(0.9) WITHIN GROUP (ORDER BY f DESC) AS low "
          + "FROM (SELECT REGION AS r, FARE AS f FROM TRIPS WHERE AGE > 25) t GROUP BY r");
      List<List<Object>> direct = rows(c, "SELECT REGION, MEDIAN(FARE), "
          + "PERCENTILE_CONT(0.1) WITHIN GROUP (ORDER BY FARE) FROM TRIPS WHERE AGE > 25 "
          + "GROUP BY REGION");
      assertEquals(direct, released); // exact here, whichever way it is written
      assertEquals(2, ledger(c).size());
      List<List<Object>> again = rows(c, "WITH t AS (SELECT REGION AS r, FARE AS f FROM TRIPS "
          + "WHERE AGE > 25) SELECT r, MEDIAN(f) AS m, PERCENTILE_DISC(0.9) WITHIN GROUP "
          + "(ORDER BY f DESC) AS low FROM t GROUP BY r");
      assertEquals(released, again);
      assertEquals(2, ledger(c).size()); // the same canonical aggregate: released once
      List<List<Object>> filtered = rows(c, "SELECT REGION, MAX(FARE) - MIN(FARE) AS spread "
          + "FROM TRIPS GROUP BY REGION HAVING MAX(FARE) > 50 ORDER BY spread DESC");
      List<List<Object>> truth = truth("MAX(" + FARE + ") - MIN(" + FARE + ")");
      truth.sort((a, b) -> Double.compare((Double) b.get(1), (Double) a.get(1)));
      assertEquals(truth, filtered);
      assertEquals(3, ledger(c).size()); // MIN and MAX: one release of two quantiles
      SQLException mixed = assertThrows(SQLException.class, () -> rows(c,
          "SELECT r, COUNT(*), MEDIAN(f) FROM (SELECT REGION AS r, FARE AS f FROM TRIPS) t "
              + "GROUP BY r"));
      assertEquals("XDP03", mixed.getSQLState(), mixed.getMessage());
      SQLException expression = assertThrows(SQLException.class, () -> rows(c,
          "SELECT MEDIAN(f) FROM (SELECT FARE * 2 AS f FROM TRIPS) t"));
      assertEquals("XDP03", expression.getSQLState(), expression.getMessage());
      assertTrue(expression.getMessage().contains("\"FARE\" * 2"), expression.getMessage());
    }
  }

  @Test
  void minAndMaxAreTheZeroAndOneQuantiles() throws SQLException {
    try (Connection c = connect()) {
      assertEquals(truth("MIN(AGE)", "MAX(" + FARE + ")"),
          rows(c, "SELECT REGION, MIN(AGE), MAX(FARE) AS TOP FROM TRIPS GROUP BY REGION"));
      assertEquals(List.of(List.of(18.0, 100.0)),
          rows(c, "SELECT MIN(AGE), MAX(FARE) FROM TRIPS"));
      // the unaliased names
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT REGION, MIN(AGE), MEDIAN(FARE), PERCENTILE_CONT(0.5) WITHIN GROUP "
              + "(ORDER BY AGE) FROM TRIPS WHERE AGE > 30 GROUP BY REGION ORDER BY REGION")) {
        assertEquals("MIN_AGE", rs.getMetaData().getColumnLabel(2));
        assertEquals("MEDIAN_FARE", rs.getMetaData().getColumnLabel(3));
        assertEquals("PERCENTILE_CONT_AGE", rs.getMetaData().getColumnLabel(4));
        assertEquals(java.sql.Types.DOUBLE, rs.getMetaData().getColumnType(3));
        List<String> regions = new ArrayList<>();
        while (rs.next()) {
          regions.add(rs.getString(1));
          assertTrue(rs.getDouble(2) > 30, "the filter applies: " + rs.getDouble(2));
        }
        assertEquals(List.of("E", "N", "S", "W"), regions);
      }
    }
  }

  @Test
  void explainShowsTheMechanismAndCostAndSpendsNothing() throws SQLException {
    try (Connection c = connect()) {
      List<String> plan = new ArrayList<>();
      for (List<Object> r : rows(c, "EXPLAIN PLAN FOR SELECT REGION, "
          + "PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY FARE), MEDIAN(FARE), MAX(FARE) "
          + "FROM TRIPS GROUP BY REGION")) {
        plan.add((String) r.get(0));
      }
      String all = String.join("\n", plan);
      assertTrue(all.contains("cost: ρ=1000000"), all);
      // the two fractions in (0, 1) are one JointExp release, MAX is released alone
      assertTrue(all.contains("among 2 releases"), all);
      assertTrue(all.contains("0.25-quantile of FARE with jointexp(ε=2000, Δ=10"), all);
      assertTrue(all.contains("0.5-quantile of FARE with jointexp(ε=2000, Δ=10"), all);
      assertTrue(all.contains("1-quantile of FARE with exponential(ε=2000, Δ=5"), all);
      assertTrue(all.contains("1001 points 0, 0.1, ..., 100"), all);
      assertTrue(all.contains("rank error ≤"), all);
      assertTrue(all.contains("GROUP BY") && all.contains("ROW_NUMBER()"), all);
      List<List<Object>> explain = rows(c,
          "SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT MEDIAN(AGE) FROM TRIPS'))");
      assertEquals(1, explain.size());
      assertEquals("exponential", explain.get(0).get(0));
      assertEquals(true, explain.get(0).get(1));
      assertEquals(List.of("jointexp", "jointexp"), rows(c, "SELECT * FROM TABLE(DPSQL.EXPLAIN("
          + "'SELECT PERCENTILE_DISC(0.1) WITHIN GROUP (ORDER BY AGE), MEDIAN(AGE) FROM TRIPS'))")
          .stream().map(r -> r.get(0)).toList());
      assertEquals(1000000.0, explain.get(0).get(4));
      assertTrue(((String) explain.get(0).get(6)).contains("0.5-quantile of AGE, ε=2828.43"),
          explain.toString());
      assertEquals(List.of(), ledger(c));
      rows(c, "SELECT MEDIAN(AGE) FROM TRIPS");
      assertEquals(1, ledger(c).size());
      assertEquals("exponential", ledger(c).get(0).mechanism());
      assertEquals(0, new BigDecimal("1000000").compareTo(ledger(c).get(0).cost().rho()));
      rows(c, "SELECT MEDIAN(AGE) FROM TRIPS"); // the same release again: free
      assertEquals(1, ledger(c).size());
    }
  }

  @Test
  void refusalsNameTheProblemAndChargeNothing() throws SQLException {
    try (Connection c = connect()) {
      SQLException noRange = assertThrows(SQLException.class,
          () -> rows(c, "SELECT REGION, MEDIAN(PASSENGERS) FROM TRIPS GROUP BY REGION"));
      assertEquals("XDP02", noRange.getSQLState(), noRange.getMessage());
      assertTrue(noRange.getMessage().contains("public range for PASSENGERS"),
          noRange.getMessage());
      SQLException text = assertThrows(SQLException.class,
          () -> rows(c, "SELECT MEDIAN(REGION) FROM TRIPS"));
      assertEquals("42000", text.getSQLState(), text.getMessage()); // Calcite: numeric types only
      assertTrue(text.getMessage().contains("NUMERIC"), text.getMessage());
      SQLException outside = assertThrows(SQLException.class, () -> rows(c,
          "SELECT PERCENTILE_CONT(1.5) WITHIN GROUP (ORDER BY FARE) FROM TRIPS"));
      assertEquals("22003", outside.getSQLState(), outside.getMessage());
      SQLException negative = assertThrows(SQLException.class, () -> rows(c,
          "SELECT PERCENTILE_DISC(-0.1) WITHIN GROUP (ORDER BY FARE) FROM TRIPS"));
      assertEquals("22003", negative.getSQLState(), negative.getMessage());
      SQLException mixed = assertThrows(SQLException.class,
          () -> rows(c, "SELECT REGION, COUNT(*), MEDIAN(FARE) FROM TRIPS GROUP BY REGION"));
      assertEquals("XDP03", mixed.getSQLState(), mixed.getMessage());
      SQLException ci = assertThrows(SQLException.class,
          () -> rows(c, "SELECT /*+ DP(ci='0.9') */ MEDIAN(FARE) FROM TRIPS"));
      assertEquals("XDP03", ci.getSQLState(), ci.getMessage());
      SQLException expression = assertThrows(SQLException.class,
          () -> rows(c, "SELECT MAX(FARE * 2) FROM TRIPS"));
      assertEquals("XDP03", expression.getSQLState(), expression.getMessage());
      SQLException rollup = assertThrows(SQLException.class,
          () -> rows(c, "SELECT REGION, MEDIAN(AGE) FROM TRIPS GROUP BY ROLLUP(REGION)"));
      assertEquals("XDP03", rollup.getSQLState(), rollup.getMessage());
      SQLException huge = assertThrows(SQLException.class,
          () -> rows(c, "SELECT MEDIAN(TRIP_ID) FROM TRIPS"));
      assertEquals("XDP03", huge.getSQLState(), huge.getMessage());
      assertTrue(huge.getMessage().contains("2000001 grid points"), huge.getMessage());
      SQLException unknown = assertThrows(SQLException.class,
          () -> rows(c, "SELECT MEDIAN(RIDER_ID) FROM TRIPS"));
      assertEquals("XDP02", unknown.getSQLState(), unknown.getMessage());
      for (int i = 0; i < 100; i++) { // spend the whole budget: 100 statements' worth
        rows(c, "SELECT COUNT(*) FROM TRIPS WHERE AGE > " + i);
      }
      SQLException budget = assertThrows(SQLException.class, () -> rows(c,
          "SELECT /*+ DP(rho='1000000') */ MEDIAN(AGE), MAX(AGE) FROM TRIPS WHERE AGE > 0"));
      assertEquals("XDP01", budget.getSQLState(), budget.getMessage());
      SQLException badRho = assertThrows(SQLException.class,
          () -> rows(c, "SELECT /*+ DP(rho='-1') */ MEDIAN(AGE) FROM TRIPS"));
      assertEquals("XDP05", badRho.getSQLState(), badRho.getMessage());
      assertEquals(100, ledger(c).size()); // the counts only
    }
  }

  /**
   * The charge goes through the connection's accountant: ε under pure accounting (ε/q per
   * quantile), (ε, 0) under approx, ρ under zCDP with ε_q the largest value with ε_q²/8 ≤ ρ/q;
   * parameters bind as in any private query.
   */
  @Test
  void chargesEpsilonOrRhoAsTheAccountingSays() throws Exception {
    String[][] cases = {
        {"budget:\n  accounting: pure\n  per_connection: {epsilon: 5}\n"
            + "  default_query: {epsilon: 0.5}\n", "ε = 0.25 each", "0.5", "0", "0"},
        {"budget:\n  accounting: approx\n  per_connection: {epsilon: 5, delta: 1e-6}\n"
            + "  default_query: {epsilon: 0.5, delta: 1e-8}\n", "ε = 0.25 each", "0.5", "0", "0"},
        {"budget:\n  accounting: zcdp\n  per_connection: {rho: 5}\n"
            + "  default_query: {rho: 0.04}\n", "ε = 0.4 each", "0", "0", "0.04"}};
    for (String[] k : cases) {
      Path p = Files.createTempFile("dpsql-quantile-budget", ".yaml");
      try {
        Files.writeString(p, k[0] + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n"
            + "    max_rows_per_unit: 5\n    columns:\n      REGION: {values: [N, S, E, W]}\n"
            + "      AGE: {min: 16, max: 90, bin: 1}\n");
        Properties props = new Properties();
        props.setProperty("policy", p.toString());
        try (Connection c = DriverManager.getConnection(
            "jdbc:dpsql:" + url.substring("jdbc:".length()), props)) {
          String sql = "SELECT REGION, MIN(AGE), MEDIAN(AGE) FROM TRIPS WHERE AGE >= ? "
              + "GROUP BY REGION";
          String plan = String.join("\n", rows(c, "EXPLAIN PLAN FOR " + sql.replace("?", "20"))
              .stream().map(r -> (String) r.get(0)).toList());
          assertTrue(plan.contains(k[1]), plan);
          assertEquals(List.of(), ledger(c));
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, 40);
            try (ResultSet rs = ps.executeQuery()) {
              int n = 0;
              while (rs.next()) {
                n++;
                assertTrue(rs.getDouble(2) >= 16 && rs.getDouble(2) <= rs.getDouble(3)
                    && rs.getDouble(3) <= 90, "monotone, in the domain");
              }
              assertEquals(4, n);
            }
          }
          org.dpsql.accounting.PrivacyCost cost = ledger(c).get(0).cost();
          assertEquals(0, new BigDecimal(k[2]).compareTo(cost.epsilon()), cost.toString());
          assertEquals(0, new BigDecimal(k[3]).compareTo(cost.delta()), cost.toString());
          assertEquals(0, new BigDecimal(k[4]).compareTo(cost.rho()), cost.toString());
        }
      } finally {
        Files.deleteIfExists(p);
      }
    }
  }

  private static List<org.dpsql.accounting.LedgerEntry> ledger(Connection c) {
    return TestDatabase.session(c).accountant().ledger();
  }
}
