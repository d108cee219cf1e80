package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Properties;

/**
 * Private partition selection through dpsql against the exact statement sent to H2 directly:
 * {@code SELECT K, COUNT(DISTINCT UNIT) FROM P GROUP BY K} over 1,000,000 rows with 100,000
 * distinct keys (the comparison), {@code K} declared {@code keys: private}. dpsql bounds
 * each unit to {@code max_groups_per_unit} keys and {@code max_rows_per_unit} rows in the
 * backend, counts the distinct units per key there, and selects the keys in the JVM.
 *
 * <p>Data: 200,000 units; unit u has {@code 1 + (u * 7) % 9} rows (5 on average), each with a key
 * chosen by a multiplicative hash of (unit, row): half of the rows among 1,000 busy keys (about 500
 * rows each), half among the 99,000 others (about 5 rows each). Two policies: {@code max_groups_per_unit: 1} with {@code max_rows_per_unit: 5} (the
 * group choice and the row bound, two windows) and {@code max_groups_per_unit: 5} with {@code
 * max_rows_per_unit: 5} (k rows reach at most 5 ≤ m groups: the row bound alone).
 *
 * <p>Each round runs the statements once, back to back; the statement text changes every round
 * ({@code K <> 'x<round>'}), so dpsql measures anew. Printed: medians and the median of the
 * per-round ratios. Usage: {@code java -cp bench/target/benchmarks.jar
 * org.dpsql.bench.PartitionSelectionBench [warmup [measured]]} (defaults 2, 7). Run by hand only.
 */
public final class PartitionSelectionBench {
  static final int ROWS = 1_000_000;
  static final int KEYS = 100_000;

  private PartitionSelectionBench() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int measured = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    String url = "jdbc:h2:mem:partitionbench;DB_CLOSE_DELAY=-1";
    try (Connection direct = DriverManager.getConnection(url)) {
      load(direct);
      System.out.printf("partition selection, %,d rows, %,d keys, H2 in memory, %d warm-up + %d "
          + "measured rounds, %d cores%n", ROWS, KEYS, warmup, measured,
          Runtime.getRuntime().availableProcessors());
      for (int groups : new int[] {1, 5}) {
        Path policy = Files.createTempFile("dpsql-partition-bench", ".yaml");
        policy.toFile().deleteOnExit();
        Files.writeString(policy, "budget:\n  accounting: approx\n"
            + "  per_connection: {epsilon: 1000, delta: 0.001}\n"
            + "  default_query: {epsilon: 1, delta: 1e-7}\ntables:\n"
            + "  P:\n    privacy_unit: UNIT\n    max_rows_per_unit: 5\n"
            + "    columns:\n      K: {keys: private, max_groups_per_unit: " + groups + "}\n");
        Properties p = new Properties();
        p.setProperty("policy", policy.toString());
        try (Connection dp = DriverManager.getConnection("jdbc:dpsql:" + url.substring(5), p)) {
          RoundTimes t = RoundTimes.of(direct, dp, warmup, measured, round -> "SELECT K, "
              + "COUNT(DISTINCT UNIT) AS N FROM P WHERE K <> 'x" + round + "' GROUP BY K");
          int released = 0;
          try (Statement st = dp.createStatement(); ResultSet rs = st.executeQuery(
              "SELECT K, COUNT(DISTINCT UNIT) AS N FROM P WHERE K <> 'x0' GROUP BY K")) {
            while (rs.next()) {
              released++;
            }
          }
          System.out.printf("max_groups_per_unit %d, max_rows_per_unit 5: %s; %,d keys released "
              + "at ε = 1, δ = 1e-7%n", groups, t.summary("H2"), released);
        }
      }
      try (Statement st = direct.createStatement()) {
        st.execute("SHUTDOWN");
      }
    }
  }

  private static void load(Connection c) throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE P (ID BIGINT PRIMARY KEY, UNIT INT NOT NULL, K VARCHAR(12) "
          + "NOT NULL)");
      // half of the rows over 1,000 busy keys, half over the 99,000 others
      // (the hash's parity is that of u + r, so it is halved before the MOD)
      st.execute("INSERT INTO P SELECT ROW_NUMBER() OVER (), u.X, CASE WHEN MOD(u.X + r.X, 2) = 0 "
          + "THEN 'k' || MOD((u.X * 7919 + r.X * 104729) / 2, 1000) ELSE 'k' || (1000 + "
          + "MOD((u.X * 7919 + r.X * 104729) / 2, " + (KEYS - 1000) + ")) END "
          + "FROM SYSTEM_RANGE(0, 199999) u JOIN SYSTEM_RANGE(1, 9) r ON r.X <= 1 + MOD(u.X * 7, 9)");
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*), COUNT(DISTINCT K) FROM P")) {
        rs.next();
        System.out.printf("loaded %,d rows, %,d distinct keys%n", rs.getLong(1), rs.getLong(2));
      }
    }
  }
}
