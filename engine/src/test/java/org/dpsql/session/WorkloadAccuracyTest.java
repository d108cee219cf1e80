package org.dpsql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.release.ResultTable;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.WorkloadQuery;
import org.junit.jupiter.api.Test;

/**
 * The expected error a workload reports is the error it has: over 1,000 seeded releases of a
 * fixed table, the empirical mean squared error per query matches the square of the ledger's
 * EXPECTED_RMSE within 5%, and the 90% intervals cover the truth at the nominal rate.
 *
 * <p>Tolerances: the mean of 1,000 squared Gaussian errors has relative standard deviation
 * sqrt(2/1000) = 4.5% per query; averaging 8 queries whose errors are only partly correlated brings
 * it near 2%, so 5% is over two standard deviations. Coverage of 8,000 interval-checks (at most
 * 1,000 independent per query) at p = 0.9 has standard deviation at most sqrt(0.09/1000) = 0.95%;
 * the band ±3.5% is more than 3.5 standard deviations.
 */
class WorkloadAccuracyTest {

  @Test
  void empiricalErrorMatchesTheReportedErrorAndIntervalsCoverAtTheNominalRate() throws Exception {
    String url = "jdbc:h2:mem:acc" + UUID.randomUUID().toString().replace("-", "");
    Path policy = Files.createTempFile("dpsql-acc", ".yaml");
    try (Connection backend = DriverManager.getConnection(url)) {
      try (Statement st = backend.createStatement()) {
        st.execute("CREATE TABLE P (ID INT PRIMARY KEY, AGE INT NOT NULL)");
      }
      SplittableRandom r = new SplittableRandom(3);
      try (PreparedStatement ps = backend.prepareStatement("INSERT INTO P VALUES (?, ?)")) {
        for (int i = 0; i < 2000; i++) {
          ps.setInt(1, i);
          ps.setInt(2, (int) Math.min(63, Math.abs(r.nextGaussian() * 15 + 30)));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 1000000}\n  default_query: {rho: 0.5}\n"
          + "tables:\n  P:\n    privacy_unit: ROW\n    columns:\n"
          + "      AGE: {min: 0, max: 63, bin: 1}\n");
      String[] ranges = {"0 AND 9", "10 AND 19", "20 AND 29", "30 AND 39", "0 AND 31", "32 AND 63",
          "25 AND 35", "0 AND 63"};
      StringBuilder sql = new StringBuilder();
      long[] truth = new long[ranges.length];
      for (int q = 0; q < ranges.length; q++) {
        sql.append(q == 0 ? "SELECT /*+ DP(ci='0.9') */ COUNT(*) FROM P WHERE AGE BETWEEN "
            : " UNION ALL SELECT COUNT(*) FROM P WHERE AGE BETWEEN ").append(ranges[q]);
        try (Statement st = backend.createStatement();
            ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM P WHERE AGE BETWEEN " + ranges[q])) {
          rs.next();
          truth[q] = rs.getLong(1);
        }
      }
      Properties info = new Properties();
      info.setProperty("policy", policy.toString());
      try (DpsqlSession session = DpsqlSession.open(url, info)) {
        AnalyzedStatement.PrivateWorkload st = (AnalyzedStatement.PrivateWorkload)
            new org.dpsql.sql.FrontEnd(session.policy(),
                session.catalog(), backend.getSchema(),
                SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData())).analyze(sql.toString());
        WorkloadQuery wq = st.query();
        Accountant accountant = Accountant.create(Accounting.ZCDP,
            PrivacyCost.zcdp(new java.math.BigDecimal("1000000")), null);
        ExactMeasurer measurer = new ExactMeasurer(backend,
            SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData()));
        int reps = 1000;
        double squared = 0;
        int covered = 0;
        for (int rep = 0; rep < reps; rep++) {
          // a fresh executor: no synopsis from the previous release
          WorkloadExecutor ex = new WorkloadExecutor(session.policy(), accountant, null,
              new SeededRandomBits(1000 + rep), measurer, Releases.inMemory(session.policy()));
          ResultTable t = ex.release(wq, sql.toString(), List.of());
          for (int q = 0; q < ranges.length; q++) {
            Object[] row = t.rows().get(q);
            double v = (Double) row[0];
            squared += (v - truth[q]) * (v - truth[q]);
            if ((Double) row[1] <= truth[q] && truth[q] <= (Double) row[2]) {
              covered++;
            }
          }
        }
        double expectedRmse = accountant.ledger().get(0).expectedRmse();
        double empiricalMse = squared / (reps * ranges.length);
        assertEquals(expectedRmse * expectedRmse, empiricalMse, 0.05 * expectedRmse * expectedRmse,
            "empirical MSE per query vs the reported expected RMSE²");
        double coverage = covered / (double) (reps * ranges.length);
        assertTrue(Math.abs(coverage - 0.9) < 0.035, "coverage " + coverage);
      }
    } finally {
      Files.deleteIfExists(policy);
    }
  }
}
