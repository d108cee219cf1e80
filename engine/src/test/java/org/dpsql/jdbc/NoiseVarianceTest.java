package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

/**
 * The noise a user sees through JDBC has the variance the mechanism's formula says: many
 * connections (each a fresh budget, seeded 1..n so the test is deterministic) ask the same
 * COUNT(*) GROUP BY over 4 cells; the empirical variance of (noisy - exact) is compared with the
 * exact variance of the calibrated noise. Tolerance: 5 standard errors of the sample variance,
 * sqrt((mu4 - sigma^4) / N) with the empirical fourth moment; a correct mechanism fails with
 * probability below 1e-6 for a random seed.
 */
class NoiseVarianceTest {
  private static final int CONNECTIONS = 300;

  private static void check(String budgetYaml, String sql, double expectedVariance) throws Exception {
    // every row its own unit here so the exact answer is deterministic
    try (TestDatabase db = TestDatabase.create(2000, budgetYaml, null)) {
      java.nio.file.Files.writeString(db.policyFile, java.nio.file.Files.readString(db.policyFile)
          .replace("privacy_unit: RIDER_ID\n    max_rows_per_unit: 5", "privacy_unit: ROW"));
      Map<String, Long> exact = new HashMap<>();
      try (Statement st = db.direct.createStatement();
          ResultSet rs = st.executeQuery("SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION")) {
        while (rs.next()) {
          exact.put(rs.getString(1), rs.getLong(2));
        }
      }
      double sum = 0;
      double sum2 = 0;
      double sum4 = 0;
      int n = 0;
      for (long seed = 1; seed <= CONNECTIONS; seed++) {
        try (Connection c = db.connect(seed); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery(sql)) {
          while (rs.next()) {
            double e = rs.getLong(2) - exact.getOrDefault(rs.getString(1), 0L);
            sum += e;
            sum2 += e * e;
            sum4 += e * e * e * e;
            n++;
          }
        }
      }
      double mean = sum / n;
      double var = sum2 / n - mean * mean;
      double mu4 = sum4 / n;
      double se = Math.sqrt(Math.max(mu4 - var * var, 0) / n);
      assertTrue(Math.abs(mean) < 5 * Math.sqrt(expectedVariance / n), "mean " + mean);
      assertTrue(Math.abs(var - expectedVariance) < 5 * se,
          "variance " + var + " vs formula " + expectedVariance + " (se " + se + ")");
    }
  }

  @Test
  void discreteGaussianUnderZcdp() throws Exception {
    // rho = 0.1 per query, sensitivity 1 (a row is a unit): sigma^2 = 1 / (2 * 0.1) = 5
    double v = new DiscreteGaussianDistribution(Rational.of(5)).variance();
    check(TestDatabase.ZCDP, "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION", v);
  }

  @Test
  void geometricUnderPureDp() throws Exception {
    // epsilon = 0.5, sensitivity 1: two-sided geometric with scale 2
    double v = new DiscreteLaplaceDistribution(Rational.of(2)).variance();
    check(TestDatabase.PURE, "SELECT /*+ DP(epsilon='0.5') */ REGION, COUNT(*) FROM TRIPS GROUP BY REGION", v);
  }

  @Test
  void geometricUnderZcdpSpendsRhoAsEpsilonSquaredOverTwo() throws Exception {
    // rho = 0.125 -> epsilon = sqrt(0.25) = 0.5 -> scale 2
    double v = new DiscreteLaplaceDistribution(Rational.of(2)).variance();
    check(TestDatabase.ZCDP, "SELECT /*+ DP(rho='0.125', mechanism='geometric') */ REGION, COUNT(*) "
        + "FROM TRIPS GROUP BY REGION", v);
  }

  @Test
  void discreteGaussianUnderApproxDp() throws Exception {
    // (epsilon, delta) = (0.5, 1e-7): rho = (sqrt(eps + L) - sqrt(L))^2, L = ln(1e7)
    double l = Math.log(1e7);
    double rho = Math.pow(Math.sqrt(0.5 + l) - Math.sqrt(l), 2);
    double v = new DiscreteGaussianDistribution(Rational.ofDouble(1 / (2 * rho))).variance();
    check(TestDatabase.APPROX, "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION", v);
  }
}
