package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * Issue 5 figures, run by hand: {@code java -cp bench/target/benchmarks.jar
 * org.dpsql.bench.WorkloadBench}.
 *
 * <ol>
 *   <li>A 200-query range workload ({@code UNION ALL} of {@code COUNT(*) ... WHERE V BETWEEN a AND
 *       b}) over a 1,000,000-row H2 table with a 1,024-cell domain, end to end through JDBC: the
 *       first run (strategy design included) and warm runs (cached strategy), each on a fresh
 *       connection so nothing is answered from an earlier release.
 *   <li>Rewriting overhead: {@code prepareStatement} (parse, validate, policy checks, plan) of
 *       typical BI statements, median over 2,000 repetitions.
 * </ol>
 */
public final class WorkloadBench {
  private WorkloadBench() {}

  public static void main(String[] args) throws Exception {
    String url = "jdbc:h2:mem:workloadbench;DB_CLOSE_DELAY=-1";
    try (Connection h2 = DriverManager.getConnection(url); Statement st = h2.createStatement()) {
      long t0 = System.nanoTime();
      st.execute("CREATE TABLE W (ID BIGINT PRIMARY KEY, V INT NOT NULL, G VARCHAR(2) NOT NULL)");
      st.execute("INSERT INTO W SELECT X, MOD(X * 7919, 1024), CASEWHEN(MOD(X, 3) = 0, 'A', 'B') "
          + "FROM SYSTEM_RANGE(1, 1000000)");
      System.out.printf("table: 1,000,000 rows in %.1f s%n", (System.nanoTime() - t0) / 1e9);
      Path policy = Files.createTempFile("dpsql-workload-bench", ".yaml");
      Files.writeString(policy, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1000}\n"
          + "  default_query: {rho: 0.1}\ntables:\n  W:\n    privacy_unit: ROW\n    columns:\n"
          + "      V: {min: 0, max: 1023, bin: 1}\n      G: {values: [A, B]}\n");
      Properties p = new Properties();
      p.setProperty("policy", policy.toString());
      String dpsql = "jdbc:dpsql:" + url.substring("jdbc:".length());

      SplittableRandom r = new SplittableRandom(42);
      StringBuilder sql = new StringBuilder();
      for (int q = 0; q < 200; q++) {
        int a = r.nextInt(1024);
        int b = r.nextInt(1024);
        sql.append(q == 0 ? "" : " UNION ALL ").append("SELECT COUNT(*) FROM W WHERE V BETWEEN ")
            .append(Math.min(a, b)).append(" AND ").append(Math.max(a, b));
      }
      double[] times = new double[6];
      for (int run = 0; run < times.length; run++) {
        try (Connection c = DriverManager.getConnection(dpsql, p);
            Statement s = c.createStatement()) {
          long start = System.nanoTime();
          int rows = 0;
          try (ResultSet rs = s.executeQuery(sql.toString())) {
            while (rs.next()) {
              rows++;
            }
          }
          times[run] = (System.nanoTime() - start) / 1e6;
          String mechanism;
          try (ResultSet rs = s.executeQuery("SELECT MECHANISM, EXPECTED_RMSE FROM DPSQL.LEDGER")) {
            rs.next();
            mechanism = rs.getString(1) + ", expected RMSE " + String.format("%.2f", rs.getDouble(2));
          }
          System.out.printf("200-range workload run %d: %.0f ms (%d rows, %s)%n", run, times[run],
              rows, mechanism);
        }
      }
      double[] warm = Arrays.copyOfRange(times, 1, times.length);
      Arrays.sort(warm);
      System.out.printf("warm median: %.0f ms (target < 2000 ms)%n", warm[warm.length / 2]);

      String[] typical = {
          "SELECT G, COUNT(*) FROM W WHERE V BETWEEN 10 AND 500 GROUP BY G",
          "SELECT COUNT(*) FROM W WHERE V < 100 OR G = 'A'",
          "SELECT G, COUNT(*) FROM W GROUP BY ROLLUP(G)",
          "SELECT COUNT(*) FROM W WHERE V < 10 UNION ALL SELECT COUNT(*) FROM W WHERE V >= 10",
      };
      try (Connection c = DriverManager.getConnection(dpsql, p)) {
        for (String q : typical) {
          double[] t = new double[2000];
          for (int i = 0; i < t.length; i++) {
            long start = System.nanoTime();
            try (PreparedStatement ps = c.prepareStatement(q)) {
              ps.getMetaData();
            }
            t[i] = (System.nanoTime() - start) / 1e6;
          }
          Arrays.sort(t);
          System.out.printf("prepare %-80s median %.2f ms, p99 %.2f ms%n", q, t[t.length / 2],
              t[(int) (t.length * 0.99)]);
        }
      }
      Files.deleteIfExists(policy);
    }
  }
}
