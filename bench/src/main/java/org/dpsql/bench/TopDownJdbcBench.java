package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The issue-scale InfTDA release through JDBC (seed 003): 30,000,000 trips in an H2 file database,
 * a 3-level hierarchy of 20 × 10 × 10 areas on each side (4,000,000 origin/destination leaf
 * pairs, {@code --pairs} of them non-empty, Pareto flows), and one statement
 *
 * <pre>SELECT /*+ DP(mechanism='inftda', rho='0.5') *&#47; O1, O2, O3, D1, D2, D3, COUNT(*)
 * FROM TRIPS GROUP BY O1, O2, O3, D1, D2, D3</pre>
 *
 * <p>which pushes one GROUP BY down, builds the destination tree, adds discrete Gaussian noise and
 * runs IntOpt at all 6 levels, and returns all 4,000,000 leaf rows. Prints the load time, the
 * backend aggregate alone (the same GROUP BY straight on H2, all groups read), the release through
 * dpsql (all rows read by the client) and the peak heap.
 *
 * <p>Run: {@code java -Xmx6g -cp bench/target/benchmarks.jar org.dpsql.bench.TopDownJdbcBench
 * [--trips N] [--pairs N] [--dir /tmp/dpsql-od] [--cache-kb 262144]}. The database is reused when it exists with the
 * same sizes. Timings on a shared 2-core machine are upper bounds.
 */
public final class TopDownJdbcBench {
  private TopDownJdbcBench() {}

  public static void main(String[] args) throws Exception {
    long trips = 30_000_000L;
    int pairs = 400_000;
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "dpsql-od");
    long cacheKb = 262_144; // H2's page cache lives in the same heap
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--trips" -> trips = Long.parseLong(args[++i]);
        case "--pairs" -> pairs = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--cache-kb" -> cacheKb = Long.parseLong(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Files.createDirectories(dir);
    String name = "od_" + trips + "_" + pairs;
    String backendUrl = "jdbc:h2:file:" + dir.resolve(name).toAbsolutePath()
        + ";CACHE_SIZE=" + cacheKb;
    System.out.printf("cores %d, max heap %.2f GiB, backend %s%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() / (double) (1L << 30), backendUrl);

    try (Connection direct = DriverManager.getConnection(backendUrl)) {
      load(direct, trips, pairs);
    }
    // the backend aggregate alone: the GROUP BY dpsql pushes down, every group read (a fresh
    // connection each time: H2 reuses the result of a repeated statement within one session)
    for (int run = 0; run < 2; run++) {
      long t0 = System.nanoTime();
      long groups = 0;
      try (Connection direct = DriverManager.getConnection(backendUrl);
          Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT O1, O2, O3, D1, D2, D3, COUNT(*) FROM TRIPS GROUP BY O1, O2, O3, D1, D2, D3")) {
        while (rs.next()) {
          groups++;
        }
      }
      System.out.printf("backend aggregate alone (run %d): %,d groups in %.1f s%n", run + 1,
          groups, (System.nanoTime() - t0) / 1e9);
    }
    Path policy = dir.resolve("od-policy.yaml");
    Files.writeString(policy, "budget:\n  accounting: zcdp\n  per_connection: {rho: 10, delta: "
        + "1e-8}\n  default_query: {rho: 0.5}\n"
        + "tables:\n  TRIPS:\n    privacy_unit: ROW\n    columns:\n"
        + "      O1: {min: 0, max: 19}\n      O2: {min: 0, max: 9}\n      O3: {min: 0, max: 9}\n"
        + "      D1: {min: 0, max: 19}\n      D2: {min: 0, max: 9}\n      D3: {min: 0, max: 9}\n"
        + "    hierarchies:\n      ORIGIN: [O1, O2, O3]\n      DESTINATION: [D1, D2, D3]\n");
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    Class.forName("org.dpsql.jdbc.DpsqlDriver");
    for (int run = 0; run < 2; run++) {
      System.gc();
      HeapPeak.reset();
      long t0 = System.nanoTime();
      long rows = 0;
      long total = 0;
      long negative = 0;
      try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + backendUrl.substring(5), p);
          Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
              "SELECT /*+ DP(mechanism='inftda', rho='0.5') */ O1, O2, O3, D1, D2, D3, "
                  + "COUNT(*) FROM TRIPS GROUP BY O1, O2, O3, D1, D2, D3")) {
        while (rs.next()) {
          long v = rs.getLong(7);
          total += v;
          negative += v < 0 ? 1 : 0;
          rows++;
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      System.out.printf("InfTDA release through JDBC (run %d): %,d rows, total %,d, %d negative,"
          + " %.1f s, peak heap %.2f GiB%n", run + 1, rows, total, negative, seconds,
          HeapPeak.gib());
    }
  }

  /** Loads {@code trips} rows over {@code pairs} random O/D leaf pairs with Pareto(1.5) flows. */
  private static void load(Connection c, long trips, int pairs) throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE IF NOT EXISTS TRIPS (O1 INT, O2 INT, O3 INT, D1 INT, D2 INT, D3 INT)");
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM TRIPS")) {
        rs.next();
        if (rs.getLong(1) == trips) {
          System.out.printf("reusing %,d trips%n", trips);
          return;
        }
      }
      st.execute("TRUNCATE TABLE TRIPS");
    }
    long t0 = System.nanoTime();
    SplittableRandom r = new SplittableRandom(77);
    Set<Long> seen = new HashSet<>();
    long[] pair = new long[pairs];
    double[] weight = new double[pairs];
    double sum = 0;
    for (int i = 0; i < pairs; i++) {
      long key;
      do {
        key = r.nextLong(2000L * 2000L);
      } while (!seen.add(key));
      pair[i] = key;
      weight[i] = Math.pow(1 - r.nextDouble(), -1 / 1.5); // Pareto, shape 1.5, scale 1
      sum += weight[i];
    }
    long[] count = new long[pairs];
    long assigned = 0;
    for (int i = 0; i < pairs; i++) {
      count[i] = Math.max(1, (long) Math.floor(weight[i] / sum * (trips - pairs)));
      assigned += count[i];
    }
    for (int i = 0; assigned < trips; i = (i + 1) % pairs) { // the remainder, one trip each
      count[i]++;
      assigned++;
    }
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO TRIPS SELECT ?, ?, ?, ?, ?, ? FROM SYSTEM_RANGE(1, ?)")) {
      for (int i = 0; i < pairs; i++) {
        int o = (int) (pair[i] / 2000);
        int d = (int) (pair[i] % 2000);
        ps.setInt(1, o / 100);
        ps.setInt(2, o / 10 % 10);
        ps.setInt(3, o % 10);
        ps.setInt(4, d / 100);
        ps.setInt(5, d / 10 % 10);
        ps.setInt(6, d % 10);
        ps.setLong(7, count[i]);
        ps.addBatch();
        if (i % 10_000 == 9_999) {
          ps.executeBatch();
          c.commit();
        }
      }
      ps.executeBatch();
      c.commit();
    }
    c.setAutoCommit(true);
    System.out.printf("loaded %,d trips over %,d pairs (largest flow %,d) in %.1f s%n", trips,
        pairs, java.util.Arrays.stream(count).max().orElse(0), (System.nanoTime() - t0) / 1e9);
  }
}
