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
      // quantiles with a count: one canonical aggregate, one release of both parts
      List<List<Object>> mixed = rows(c, "SELECT r, MEDIAN(f), COUNT(*) FROM (SELECT REGION AS "
          + "r, FARE AS f FROM TRIPS) t GROUP BY r");
      assertExactQuantiles(mixed, FARE, 0.5);
      assertEquals(truth("COUNT(*)").stream().map(r -> r.get(1)).toList(),
          mixed.stream().map(r -> r.get(2)).toList());
      assertEquals(4, ledger(c).size());
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

  /**
   * Quantiles with other aggregates in one SELECT (what BI tools send): one release, charged once
   * the statement's total (ρ = 10⁶, split 1:1 between one count and one quantile, or 3:1 between
   * COUNT(*), SUM(AGE), COUNT(AGE) and one quantile), noise-free here: the counts are H2's own
   * (discrete Gaussian of σ ≤ 0.006) and the median an exact one: H2's PERCENTILE_DISC or, when
   * n is even, any grid point from it up to the next value (all have rank error 0).
   */
  @Test
  void quantilesWithOtherAggregatesAreOneReleaseOfTheStatementsBudget() throws SQLException {
    try (Connection c = connect()) {
      String sql = "SELECT REGION, COUNT(*) AS N, MEDIAN(FARE) AS M FROM TRIPS GROUP BY REGION";
      List<List<Object>> released = rows(c, sql);
      List<List<Object>> truth = truth("COUNT(*)", "PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY "
          + FARE + ")");
      assertEquals(4, released.size());
      for (int r = 0; r < 4; r++) {
        assertEquals(truth.get(r).get(0), released.get(r).get(0));
        assertEquals(truth.get(r).get(1), released.get(r).get(1), "the exact count");
        double disc = (Double) truth.get(r).get(2);
        double m = (Double) released.get(r).get(2);
        try (Connection h2 = DriverManager.getConnection(url)) {
          Object next = rows(h2, "SELECT MIN(" + FARE + ") FROM TRIPS WHERE REGION = '"
              + REGIONS[r] + "' AND " + FARE + " > " + disc).get(0).get(0);
          // n odd: H2's value; n even: any point from it up to the next value is a median
          long n = (Long) released.get(r).get(1);
          double top = n % 2 == 0 && next != null ? (Double) next : disc;
          assertTrue(m >= disc - 1e-9 && m <= top + 1e-9, m + " against PERCENTILE_DISC " + disc
              + " (next " + next + ")");
        }
      }
      List<List<Object>> medians = new ArrayList<>();
      for (List<Object> row : released) {
        medians.add(List.of(row.get(0), row.get(2)));
      }
      assertExactQuantiles(medians, FARE, 0.5);
      assertEquals(1, ledger(c).size());
      assertEquals("discrete_gaussian+exponential", ledger(c).get(0).mechanism());
      assertEquals(0, new BigDecimal("1000000").compareTo(ledger(c).get(0).cost().rho()));
      assertEquals(released, rows(c, sql)); // the same release again: the same answer, free
      assertEquals(1, ledger(c).size());

      // ORDER BY a quantile, LIMIT, AVG: post-processing of the joined rows
      List<List<Object>> top = rows(c, "SELECT REGION, AVG(AGE) AS A, "
          + "PERCENTILE_DISC(0.25) WITHIN GROUP (ORDER BY AGE) AS Q1 FROM TRIPS GROUP BY REGION "
          + "ORDER BY Q1 DESC, REGION FETCH FIRST 3 ROWS ONLY");
      assertEquals(3, top.size());
      List<List<Object>> averages = truth("AVG(CAST(AGE AS DOUBLE))");
      List<List<Object>> quartiles = new ArrayList<>();
      for (List<Object> row : top) {
        int r = java.util.Arrays.asList(REGIONS).indexOf(row.get(0));
        assertEquals((Double) averages.get(r).get(1), (Double) row.get(1), 0.01, row.toString());
        quartiles.add(List.of(row.get(0), row.get(2)));
      }
      for (int i = 1; i < top.size(); i++) {
        assertTrue((Double) top.get(i - 1).get(2) >= (Double) top.get(i).get(2), top.toString());
      }
      assertEquals(2, ledger(c).size());
      assertEquals(0, new BigDecimal("1000000").compareTo(ledger(c).get(1).cost().rho()));

      // parameters bind in both parts
      try (PreparedStatement ps = c.prepareStatement("SELECT REGION, MEDIAN(AGE), COUNT(*) "
          + "FROM TRIPS WHERE AGE >= ? GROUP BY REGION")) {
        ps.setInt(1, 40);
        List<List<Object>> filtered = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            filtered.add(List.of(rs.getString(1), rs.getDouble(2), rs.getLong(3)));
          }
        }
        List<List<Object>> counts = truth("SUM(CASE WHEN AGE >= 40 THEN 1 ELSE 0 END)");
        for (int r = 0; r < 4; r++) {
          assertTrue((Double) filtered.get(r).get(1) >= 40, filtered.toString());
          assertEquals(((Number) counts.get(r).get(1)).longValue(), filtered.get(r).get(2));
        }
      }
      assertEquals(3, ledger(c).size());

      // through the relational front end: a standard deviation (three noisy sums) and a median
      List<List<Object>> spread = rows(c, "SELECT REGION, STDDEV_POP(AGE) AS SD, MEDIAN(AGE) AS M "
          + "FROM TRIPS GROUP BY REGION");
      List<List<Object>> sd = truth("STDDEV_POP(CAST(AGE AS DOUBLE))");
      List<List<Object>> ages = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        assertEquals((Double) sd.get(r).get(1), (Double) spread.get(r).get(1), 0.05,
            spread.toString());
        ages.add(List.of(spread.get(r).get(0), spread.get(r).get(2)));
      }
      assertExactQuantiles(ages, "AGE", 0.5);
      assertEquals(4, ledger(c).size());
      assertEquals(0, new BigDecimal("1000000").compareTo(ledger(c).get(3).cost().rho()));
    }
  }

  @Test
  void explainShowsTheSplitOfQuantilesAndOtherAggregatesAndSpendsNothing()
      throws SQLException {
    try (Connection c = connect()) {
      String sql = "SELECT REGION, COUNT(*), AVG(AGE), MEDIAN(FARE) FROM TRIPS GROUP BY REGION";
      String all = String.join("\n", rows(c, "EXPLAIN PLAN FOR " + sql).stream()
          .map(r -> (String) r.get(0)).toList());
      assertTrue(all.startsWith("private aggregates and quantiles over TRIPS"), all);
      assertTrue(all.contains("cost: ρ=1000000 (zcdp accounting"), all);
      assertTrue(all.contains("charged once for both parts, split in proportion to their "
          + "releases (3 noisy measurements, 1 quantile release): noisy aggregates ρ=750000 + "
          + "quantiles ρ=250000"), all);
      assertTrue(all.contains("noisy aggregates: measure COUNT(*) with discrete_gaussian"), all);
      assertTrue(all.contains("quantiles: quantile MEDIAN_FARE = the 0.5-quantile of FARE with "
          + "exponential(ε=1414.21"), all); // ε²/8 ≤ 250000
      assertTrue(all.contains("quantiles: backend SQL (histogram of FARE)"), all);
      List<List<Object>> explain = rows(c,
          "SELECT * FROM TABLE(DPSQL.EXPLAIN('" + sql + "'))");
      double chosen = 0;
      for (List<Object> r : explain) {
        if (Boolean.TRUE.equals(r.get(1)) && !"exponential".equals(r.get(0))) {
          assertEquals(750000.0, r.get(4), r.toString());
        }
      }
      List<Object> quantile = explain.stream().filter(r -> r.get(0).equals("exponential"))
          .findFirst().orElseThrow();
      assertEquals(250000.0, quantile.get(4));
      assertTrue(explain.stream().anyMatch(r -> r.get(0).equals("discrete_gaussian")
          && r.get(6).equals("COUNT(*)")), explain.toString());
      assertEquals(List.of(), ledger(c));
      rows(c, sql);
      assertEquals(1, ledger(c).size());
      assertEquals(0, new BigDecimal("1000000").compareTo(ledger(c).get(0).cost().rho()));
    }
  }

  /** A backend failure in either part of a mixed statement charges nothing and is not cached. */
  @Test
  void aFailingBackendChargesNothingForQuantilesWithOtherAggregates() throws SQLException {
    try (Connection c = connect(); Connection h2 = DriverManager.getConnection(url);
        Statement direct = h2.createStatement()) {
      // the count reads no FARE and is measured first: the histogram fails after it
      String sql = "SELECT REGION, COUNT(*), MEDIAN(FARE) FROM TRIPS WHERE AGE > 21 GROUP BY REGION";
      direct.execute("ALTER TABLE TRIPS ALTER COLUMN FARE RENAME TO FARE_AWAY");
      try {
        SQLException e = assertThrows(SQLException.class, () -> rows(c, sql));
        assertTrue(e.getMessage().contains("Nothing was charged"), e.getMessage());
      } finally {
        direct.execute("ALTER TABLE TRIPS ALTER COLUMN FARE_AWAY RENAME TO FARE");
      }
      assertEquals(List.of(), ledger(c));
      assertEquals(4, rows(c, sql).size());
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
      SQLException mixedCi = assertThrows(SQLException.class, () -> rows(c,
          "SELECT /*+ DP(ci='0.9') */ REGION, COUNT(*), MEDIAN(FARE) FROM TRIPS GROUP BY REGION"));
      assertEquals("XDP03", mixedCi.getSQLState(), mixedCi.getMessage());
      assertTrue(mixedCi.getMessage().contains("ci is not available for quantiles"),
          mixedCi.getMessage());
      SQLException mixedMechanism = assertThrows(SQLException.class, () -> rows(c,
          "SELECT /*+ DP(mechanism='htf') */ COUNT(*), MEDIAN(FARE) FROM TRIPS"));
      assertEquals("XDP03", mixedMechanism.getSQLState(), mixedMechanism.getMessage());
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
      SQLException mixedBudget = assertThrows(SQLException.class, () -> rows(c,
          "SELECT /*+ DP(rho='1000000') */ COUNT(*), MEDIAN(AGE) FROM TRIPS WHERE AGE > 0"));
      assertEquals("XDP01", mixedBudget.getSQLState(), mixedBudget.getMessage());
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
            + "  default_query: {epsilon: 0.5}\n", "ε = 0.25 each", "0.5", "0", "0",
            "noisy aggregates ε=0.1666666666666666 + quantiles ε=0.3333333333333334", "0"},
        {"budget:\n  accounting: approx\n  per_connection: {epsilon: 5, delta: 1e-6}\n"
            + "  default_query: {epsilon: 0.5, delta: 1e-8}\n", "ε = 0.25 each", "0.5", "0", "0",
            "noisy aggregates ε=0.1666666666666666, δ=", "1e-8"},
        {"budget:\n  accounting: zcdp\n  per_connection: {rho: 5}\n"
            + "  default_query: {rho: 0.04}\n", "ε = 0.4 each", "0", "0", "0.04",
            "noisy aggregates ρ=0.01333333333333333 + quantiles ρ=0.02666666666666667", "0"}};
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
          // with a count: a third of the budget to it, two thirds to the two quantiles, and the
          // charge is the statement's total: ε, (ε, δ) with the discrete Gaussian, or ρ
          String mixed = "SELECT REGION, COUNT(*), MIN(AGE), MEDIAN(AGE) FROM TRIPS GROUP BY REGION";
          plan = String.join("\n", rows(c, "EXPLAIN PLAN FOR " + mixed).stream()
              .map(r -> (String) r.get(0)).toList());
          assertTrue(plan.contains(k[5]), plan);
          assertEquals(4, rows(c, mixed).size());
          cost = ledger(c).get(1).cost();
          assertEquals(0, new BigDecimal(k[2]).compareTo(cost.epsilon()), cost.toString());
          assertEquals(0, new BigDecimal(k[6]).compareTo(cost.delta()), cost.toString());
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
