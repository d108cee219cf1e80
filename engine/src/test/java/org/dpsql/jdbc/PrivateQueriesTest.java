package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Private aggregates end to end: full domains, post-processing, free repeats, prepared statements. */
class PrivateQueriesTest {
  static TestDatabase db;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(3000, "budget:\n  accounting: zcdp\n  per_connection: {rho: 100, delta: 1e-9}\n"
        + "  default_query: {rho: 0.1}\n", null);
  }

  @AfterAll
  static void tearDown() throws Exception {
    db.close();
  }

  private static List<List<Object>> rows(ResultSet rs) throws SQLException {
    List<List<Object>> out = new ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      List<Object> row = new ArrayList<>();
      for (int i = 1; i <= n; i++) {
        row.add(rs.getObject(i));
      }
      out.add(row);
    }
    rs.close();
    return out;
  }

  @Test
  void everyCellOfTheDomainIsReturnedInPolicyOrder() throws SQLException {
    try (Connection c = db.connect(1L); Statement st = c.createStatement()) {
      // every cell, zeros included, in policy order
      List<List<Object>> r = rows(st.executeQuery(
          "SELECT REGION, PAYMENT, COUNT(*) AS N FROM TRIPS WHERE AGE < 90 GROUP BY REGION, PAYMENT"));
      assertEquals(12, r.size());
      int i = 0;
      for (String region : TestDatabase.REGIONS) {
        for (String payment : TestDatabase.PAYMENTS) {
          assertEquals(List.of(region, payment), r.get(i).subList(0, 2));
          i++;
        }
      }
      // the statement's own filter excludes the cells of the other regions: only N's 3 remain
      // (issue 32), still every payment of N, zeros included
      r = rows(st.executeQuery("SELECT REGION, PAYMENT, COUNT(*) AS N FROM TRIPS "
          + "WHERE REGION = 'N' GROUP BY REGION, PAYMENT"));
      assertEquals(3, r.size());
      for (int p = 0; p < 3; p++) {
        assertEquals(List.of("N", TestDatabase.PAYMENTS[p]), r.get(p).subList(0, 2));
      }
      // ordered domain: AGE 18..77 in bins of 10 -> 6 cells, lower edges
      List<List<Object>> ages = rows(st.executeQuery("SELECT AGE, COUNT(*) FROM TRIPS GROUP BY AGE"));
      assertEquals(6, ages.size());
      for (int k = 0; k < 6; k++) {
        assertEquals(18L + 10 * k, ((Number) ages.get(k).get(0)).longValue());
      }
      // no GROUP BY: one row
      assertEquals(1, rows(st.executeQuery("SELECT COUNT(*) FROM TRIPS WHERE AGE < 0")).size());
    }
  }

  @Test
  void noisyAnswersAreCloseToTheBoundedTruth() throws SQLException {
    try (Connection c = db.connect(2L); Statement st = c.createStatement()) {
      // rho = 50: sigma^2 = 5^2 / 100 = 0.25 -> counts are nearly exact; at most 5 rows per rider
      long noisy = rows(st.executeQuery("SELECT /*+ DP(rho='50') */ COUNT(*) FROM TRIPS")).get(0)
          .stream().mapToLong(o -> ((Number) o).longValue()).sum();
      long bounded = db.exact("SELECT SUM(LEAST(N, 5)) FROM (SELECT COUNT(*) N FROM TRIPS GROUP BY RIDER_ID)");
      assertTrue(Math.abs(noisy - bounded) <= 3, noisy + " vs " + bounded);
    }
  }

  @Test
  void sumCountColAndAvgUseClampAndNulls() throws SQLException {
    try (Connection c = db.connect(3L); Statement st = c.createStatement()) {
      ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='40') */ COUNT(*), COUNT(FARE), SUM(FARE), AVG(FARE) FROM TRIPS");
      assertTrue(rs.next());
      long all = rs.getLong(1);
      long nonNull = rs.getLong(2);
      BigDecimal sum = rs.getBigDecimal(3);
      double avg = rs.getDouble(4);
      assertTrue(nonNull < all, "NULL fares are not counted by COUNT(FARE): " + nonNull + " vs " + all);
      // at most 5 trips per rider and fares clamped to [0, 100]; rho split over 3 measurements
      // leaves sigma(sum) = 5 * 100 / sqrt(2 * 40 / 3) ~ 97 dollars. Which 5 trips of a heavy rider
      // are kept is random, so the truth lies between keeping the cheapest and the dearest 5.
      String bounded = "SELECT SUM(F) FROM (SELECT LEAST(FARE, 100) F, ROW_NUMBER() OVER "
          + "(PARTITION BY RIDER_ID ORDER BY FARE %s NULLS LAST) RN FROM TRIPS WHERE FARE IS NOT NULL) WHERE RN <= 5";
      double lo = db.exact(String.format(bounded, "ASC"));
      double hi = db.exact(String.format(bounded, "DESC")) + 1;
      assertTrue(sum.doubleValue() > lo - 500 && sum.doubleValue() < hi + 500,
          sum + " not within 5 sigma of [" + lo + ", " + hi + "]");
      assertTrue(Math.abs(avg - sum.doubleValue() / nonNull) < 1e-6 * Math.max(1, avg) + 1e-9,
          "AVG = noisy SUM / noisy COUNT(FARE)");
      assertTrue(avg >= 0 && avg <= 100, "AVG is clamped into the bounds: " + avg);
    }
  }

  @Test
  void identicalQueriesAreFreeAndReturnTheSameAnswer() throws SQLException {
    try (Connection c = db.connect(); Statement st = c.createStatement()) {
      List<List<Object>> first = rows(st.executeQuery("SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION"));
      BigDecimal spent = TestDatabase.session(c).accountant().spent().rho();
      List<List<Object>> again = rows(st.executeQuery("select  region , count(*) from trips\n group by region"));
      assertEquals(first, again, "the released answer is returned again");
      assertEquals(spent, TestDatabase.session(c).accountant().spent().rho(), "and costs nothing");
      rows(st.executeQuery("SELECT REGION, COUNT(*) FROM TRIPS WHERE AGE > 20 GROUP BY REGION"));
      assertTrue(TestDatabase.session(c).accountant().spent().rho().compareTo(spent) > 0,
          "a different query is charged");
      assertEquals(2, TestDatabase.session(c).accountant().ledger().size());
    }
  }

  @Test
  void preparedStatementsBindParametersAndRepeatFreely() throws SQLException {
    try (Connection c = db.connect(4L);
        PreparedStatement ps = c.prepareStatement(
            "SELECT PAYMENT, COUNT(*) AS N FROM TRIPS WHERE AGE BETWEEN ? AND ? GROUP BY PAYMENT")) {
      assertEquals(2, ps.getParameterMetaData().getParameterCount());
      assertEquals(java.sql.Types.INTEGER, ps.getParameterMetaData().getParameterType(1));
      assertEquals("N", ps.getMetaData().getColumnLabel(2));
      assertEquals(0, TestDatabase.session(c).accountant().ledger().size(), "preparing is free");
      ps.setInt(1, 20);
      ps.setInt(2, 40);
      List<List<Object>> a = rows(ps.executeQuery());
      assertEquals(3, a.size());
      List<List<Object>> again = rows(ps.executeQuery());
      assertEquals(a, again);
      assertEquals(1, TestDatabase.session(c).accountant().ledger().size());
      ps.setInt(2, 60);
      List<List<Object>> b = rows(ps.executeQuery());
      assertNotEquals(a, b);
      assertEquals(2, TestDatabase.session(c).accountant().ledger().size());
    }
  }

  @Test
  void unsetParameterIsAnErrorAndChargesNothing() throws SQLException {
    try (Connection c = db.connect();
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM TRIPS WHERE AGE > ?")) {
      SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, ps::executeQuery);
      assertTrue(e.getMessage().contains("parameter"), e.getMessage());
      assertEquals(0, TestDatabase.session(c).accountant().ledger().size());
    }
  }

  @Test
  void orderByAndLimitPostProcessTheReleasedTable() throws SQLException {
    try (Connection c = db.connect(5L); Statement st = c.createStatement()) {
      List<List<Object>> r = rows(st.executeQuery(
          "SELECT REGION, COUNT(*) AS N FROM TRIPS GROUP BY REGION ORDER BY N DESC LIMIT 2"));
      assertEquals(2, r.size());
      assertTrue(((Number) r.get(0).get(1)).longValue() >= ((Number) r.get(1).get(1)).longValue());
    }
  }

  @Test
  void confidenceIntervalsFollowEachNoisyColumn() throws SQLException {
    try (Connection c = db.connect(6L); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='0.1', ci='0.9') */ REGION, COUNT(*) AS N, "
            + "AVG(FARE) AS A FROM TRIPS GROUP BY REGION")) {
      var md = rs.getMetaData();
      assertEquals(List.of("REGION", "N", "N_LOW", "N_HIGH", "A", "A_LOW", "A_HIGH"),
          List.of(md.getColumnLabel(1), md.getColumnLabel(2), md.getColumnLabel(3), md.getColumnLabel(4),
              md.getColumnLabel(5), md.getColumnLabel(6), md.getColumnLabel(7)));
      while (rs.next()) {
        assertTrue(rs.getLong(3) <= rs.getLong(2) && rs.getLong(2) <= rs.getLong(4));
        assertTrue(rs.getDouble(6) <= rs.getDouble(7));
      }
    }
  }

  @Test
  void explainDescribesThePushedDownAggregationAndSpendsNothing() throws SQLException {
    try (Connection c = db.connect(); Statement st = c.createStatement()) {
      List<List<Object>> plan = rows(st.executeQuery(
          "EXPLAIN PLAN FOR SELECT REGION, COUNT(*), SUM(FARE) FROM TRIPS WHERE AGE > 30 GROUP BY REGION"));
      String text = plan.stream().map(r -> r.get(0).toString()).reduce("", (x, y) -> x + "\n" + y);
      String sql = plan.get(plan.size() - 1).get(0).toString().replace("backend SQL: ", "");
      assertTrue(sql.contains("GROUP BY") && sql.contains("COUNT(*)") && sql.contains("SUM("), text);
      assertTrue(sql.contains("ROW_NUMBER() OVER (PARTITION BY \"RIDER_ID\""), text);
      assertTrue(text.contains("cells: 4"), text);
      assertEquals(0, TestDatabase.session(c).accountant().ledger().size());
      // The backend plans it as an aggregation: the rows are scanned and grouped inside H2, and
      // only one row per non-empty cell (here at most 4) comes back to the engine.
      try (Statement direct = db.direct.createStatement();
          ResultSet rs = direct.executeQuery("EXPLAIN " + sql)) {
        assertTrue(rs.next());
        String h2Plan = rs.getString(1);
        assertTrue(h2Plan.contains("GROUP BY"), h2Plan);
      }
      try (Statement direct = db.direct.createStatement(); ResultSet rs = direct.executeQuery(sql)) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertTrue(n <= 4, "the backend returns aggregates, not rows: " + n);
      }
    }
  }

  @Test
  void avgIsNullWhenTheNoisyCountIsNotPositive() throws SQLException {
    try (Connection c = db.connect(7L); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='1') */ AVG(FARE) FROM TRIPS WHERE AGE > 1000")) {
      assertTrue(rs.next());
      double v = rs.getDouble(1);
      if (rs.wasNull()) {
        assertNull(rs.getObject(1));
      } else {
        assertTrue(v >= 0 && v <= 100);
      }
    }
  }

  @Test
  void snapshotBoundingAnswersThroughJdbcAndExplainsItself() throws Exception {
    try (TestDatabase snap = TestDatabase.create(1500, TestDatabase.ZCDP, null)) {
      java.nio.file.Files.writeString(snap.policyFile, java.nio.file.Files.readString(snap.policyFile)
          .replace("    max_rows_per_unit: 5\n", "    max_rows_per_unit: 5\n    bounding: snapshot\n"));
      try (Connection c = snap.connect(8L); Statement st = c.createStatement()) {
        String plan = rows(st.executeQuery("EXPLAIN PLAN FOR SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION"))
            .toString();
        assertTrue(plan.contains("bounding snapshot") && plan.contains("DPSQL_SNAPSHOT_"), plan);
        assertTrue(!plan.contains("ROW_NUMBER"), "queries read the bounded snapshot: " + plan);
        long total = 0;
        for (List<Object> r : rows(st.executeQuery(
            "SELECT /*+ DP(rho='0.9') */ REGION, COUNT(*) FROM TRIPS GROUP BY REGION"))) {
          total += ((Number) r.get(1)).longValue();
        }
        long bounded = snap.exact("SELECT SUM(LEAST(N, 5)) FROM (SELECT COUNT(*) N FROM TRIPS GROUP BY RIDER_ID)");
        // 4 cells of discrete Gaussian noise with sigma^2 = 25 / 1.8: |sum| < 5 * sqrt(4 * 13.9)
        assertTrue(Math.abs(total - bounded) < 40, total + " vs " + bounded);
      }
    }
  }
}
