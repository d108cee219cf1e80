package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.dpsql.discrete.DesignObjective;
import org.dpsql.discrete.Neighbourhood;
import org.dpsql.discrete.NoisePmf;
import org.dpsql.discrete.OptimalPmfLibrary;
import org.junit.jupiter.api.Test;

/** The optimal_pmf mechanism through JDBC: modulo release in the answer range, auto choice, errors. */
class OptimalPmfQueriesTest {

  /** 40 trips, each its own unit, so counts per region lie in [0, 40]. */
  private static TestDatabase smallRowUnitDb(String budget, String tableExtra) throws Exception {
    TestDatabase db = TestDatabase.create(40, budget, null);
    java.nio.file.Files.writeString(db.policyFile, java.nio.file.Files.readString(db.policyFile)
        .replace("privacy_unit: RIDER_ID\n    max_rows_per_unit: 5", "privacy_unit: ROW\n" + tableExtra));
    return db;
  }

  @Test
  void releasedCountsStayInTheRangeAndFollowTheDesignedPmf() throws Exception {
    try (TestDatabase db = smallRowUnitDb(TestDatabase.PURE, "    answer_range: [0, 40]")) {
      Map<String, Long> exact = new HashMap<>();
      try (Statement st = db.direct.createStatement();
          ResultSet rs = st.executeQuery("SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION")) {
        while (rs.next()) {
          exact.put(rs.getString(1), rs.getLong(2));
        }
      }
      // epsilon 0.5 over one measurement; one row changes one cell by 1: M = {1, n} at 0.5
      NoisePmf pmf = OptimalPmfLibrary.design(Neighbourhood.symmetricBounded(40, 1),
          new java.math.BigDecimal("0.5"), java.math.BigDecimal.ZERO, DesignObjective.CIRCULAR_MSE);
      long[] observed = new long[41];
      int draws = 0;
      for (long seed = 1; seed <= 250; seed++) {
        try (Connection c = db.connect(seed); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT /*+ DP(epsilon='0.5', mechanism='optimal_pmf') */ "
                + "REGION, COUNT(*) FROM TRIPS GROUP BY REGION")) {
          while (rs.next()) {
            long v = rs.getLong(2);
            assertTrue(v >= 0 && v <= 40, "released inside [0, 40]: " + v);
            int eta = (int) Math.floorMod(v - exact.getOrDefault(rs.getString(1), 0L), 41);
            observed[eta]++;
            draws++;
          }
          if (seed == 1) {
            assertEquals("optimal_pmf", TestDatabase.session(c).accountant().ledger().get(0).mechanism());
          }
        }
      }
      // chi-square of the noise against the designed PMF, bins with expected count >= 5 plus a pooled rest
      double chi2 = 0;
      int bins = 0;
      double restExpected = 0;
      long restObserved = 0;
      for (int eta = 0; eta <= 40; eta++) {
        double e = draws * pmf.mass(eta);
        if (e >= 5) {
          chi2 += (observed[eta] - e) * (observed[eta] - e) / e;
          bins++;
        } else {
          restExpected += e;
          restObserved += observed[eta];
        }
      }
      if (restExpected > 0) {
        chi2 += (restObserved - restExpected) * (restObserved - restExpected) / restExpected;
        bins++;
      }
      double p = 1 - new org.apache.commons.math3.distribution.ChiSquaredDistribution(bins - 1)
          .cumulativeProbability(chi2);
      assertTrue(p > 1e-3, "noise follows the designed PMF: chi2 " + chi2 + " on " + (bins - 1) + " df, p " + p);
    }
  }

  @Test
  void autoPicksOptimalPmfWhenTheRangeIsSmallAndExplainShowsTheCandidates() throws Exception {
    try (TestDatabase db = smallRowUnitDb(TestDatabase.PURE, "    answer_range: [0, 40]");
        Connection c = db.connect(3L); Statement st = c.createStatement()) {
      StringBuilder plan = new StringBuilder();
      try (ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR SELECT /*+ DP(epsilon='0.1') */ REGION, COUNT(*) "
          + "FROM TRIPS GROUP BY REGION")) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
      assertTrue(plan.toString().contains("candidate geometric"), plan.toString());
      assertTrue(plan.toString().contains("candidate optimal_pmf") && plan.toString().contains("<- chosen"), plan.toString());
      assertTrue(plan.toString().lines().anyMatch(l -> l.startsWith("candidate optimal_pmf") && l.endsWith("<- chosen")),
          plan.toString());
      st.executeQuery("SELECT /*+ DP(epsilon='0.1') */ REGION, COUNT(*) FROM TRIPS GROUP BY REGION").close();
      assertEquals("optimal_pmf", TestDatabase.session(c).accountant().ledger().get(0).mechanism());
    }
  }

  @Test
  void withoutARangeOptimalPmfIsNotSupported() throws Exception {
    try (TestDatabase db = smallRowUnitDb(TestDatabase.PURE, "");
        Connection c = db.connect(); Statement st = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT /*+ DP(mechanism='optimal_pmf') */ COUNT(*) FROM TRIPS"));
      assertEquals("XDP03", e.getSQLState());
      assertTrue(e.getMessage().contains("answer_range"), e.getMessage());
      // the hint can give the range
      st.executeQuery("SELECT /*+ DP(mechanism='optimal_pmf', answer_range='0,63') */ COUNT(*) FROM TRIPS").close();
      assertEquals(1, TestDatabase.session(c).accountant().ledger().size());
    }
  }

  @Test
  void zcdpAndApproxChargeTheirOwnUnits() throws Exception {
    try (TestDatabase db = smallRowUnitDb(TestDatabase.ZCDP, "    answer_range: [0, 40]");
        Connection c = db.connect(4L); Statement st = c.createStatement()) {
      st.executeQuery("SELECT /*+ DP(rho='0.125', mechanism='optimal_pmf') */ REGION, COUNT(*) FROM TRIPS GROUP BY REGION").close();
      assertEquals(0, new java.math.BigDecimal("0.125").compareTo(TestDatabase.session(c).accountant().spent().rho()));
    }
    try (TestDatabase db = smallRowUnitDb(TestDatabase.APPROX, "    answer_range: [0, 40]");
        Connection c = db.connect(5L); Statement st = c.createStatement()) {
      st.executeQuery("SELECT /*+ DP(epsilon='0.5', delta='5e-7', mechanism='optimal_pmf') */ "
          + "COUNT(*) FROM TRIPS WHERE REGION = 'N'").close();
      var spent = TestDatabase.session(c).accountant().spent();
      assertEquals(0, new java.math.BigDecimal("0.5").compareTo(spent.epsilon()));
      assertEquals(0, new java.math.BigDecimal("5e-7").compareTo(spent.delta()), "one cell, k = 1: an (ε,δ) PMF");
    }
  }
}
