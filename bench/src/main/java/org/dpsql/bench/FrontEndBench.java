package org.dpsql.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * The relational front end's cost, run by hand:
 *
 * <ol>
 *   <li>prepare (parse, validate, plan, privacy analysis, release planning) of statements of each
 *       shape on a warm JVM: median and 90th percentile over 500 prepares after 200 warm-up ones
 *       (the small table gets a TIMESTAMP column {@code TS} in 2024 with 366 day bins, for the
 *       time-series shapes);
 *   <li>end-to-end time on the 1,000,000-row table of {@link BenchDatabase} (policy (b): bounding
 *       to 5 rows per rider) of a private {@code GROUP BY} alone and of the same aggregate under
 *       post-processing (a subquery with {@code ORDER BY}, and {@code HAVING} with a window), run
 *       alternately, every execution with a new filter constant so that no release is reused.
 * </ol>
 *
 * <p>{@code java -cp bench/target/benchmarks.jar org.dpsql.bench.FrontEndBench [rounds]}
 */
public final class FrontEndBench {
  private FrontEndBench() {}

  private static final List<String> SHAPES = List.of(
      "SELECT G, COUNT(*) FROM T GROUP BY G",
      "SELECT G, COUNT(*) AS n FROM T GROUP BY G HAVING COUNT(*) > 10 ORDER BY n DESC",
      "SELECT g, n FROM (SELECT G AS g, COUNT(*) AS n FROM T WHERE V > 3 GROUP BY G) t ORDER BY n",
      "WITH s AS (SELECT G, SUM(V) AS total FROM T GROUP BY G) SELECT G, total, "
          + "RANK() OVER (ORDER BY total DESC) FROM s",
      "SELECT CASE WHEN G < 10 THEN 'low' ELSE 'high' END AS b, COUNT(*) FROM T GROUP BY 1",
      "SELECT SUM(V * 2 + 1), AVG(V) FROM T",
      "SELECT COUNT(*) FROM T WHERE G IN (SELECT G FROM T GROUP BY G HAVING COUNT(*) > 5)",
      "SELECT * FROM T WHERE 1 = 0",
      // time series over a TIMESTAMP column with 366 day bins
      "SELECT DATE_TRUNC('month', TS) AS m, COUNT(*) FROM T GROUP BY DATE_TRUNC('month', TS)",
      "SELECT CAST(TS AS DATE) AS d, COUNT(*) FROM T WHERE TS >= DATE '2024-03-01' AND TS < "
          + "DATE '2024-04-01' GROUP BY CAST(TS AS DATE) ORDER BY d");

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    System.out.println("dpsql front end bench, " + Runtime.getRuntime().availableProcessors()
        + " cores, Java " + System.getProperty("java.version"));
    Path policy = BenchDatabase.writePolicy(BenchDatabase.PolicyKind.BOUNDED);
    // the small table also gets a pick-up time in 2024, binned by day
    Path timePolicy = java.nio.file.Files.createTempFile("dpsql-frontend", ".yaml");
    java.nio.file.Files.writeString(timePolicy, java.nio.file.Files.readString(policy).replace(
        "    columns:\n", "    columns:\n      TS: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n"));
    Properties timed = new Properties();
    timed.setProperty("policy", timePolicy.toString());
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());

    try (Connection keep = BenchDatabase.create(BenchDatabase.SMALL_URL, BenchDatabase.SMALL_ROWS)) {
      try (Statement st = keep.createStatement()) {
        st.execute("ALTER TABLE T ADD COLUMN TS TIMESTAMP");
        st.execute("UPDATE T SET TS = DATEADD('MINUTE', MOD(ID * 7919, 527040), "
            + "TIMESTAMP '2024-01-01 00:00:00')");
      }
      Connection c = DriverManager.getConnection(BenchDatabase.dpsqlUrl(BenchDatabase.SMALL_URL),
          timed);
      System.out.println("\nprepare on a warm JVM (ms): median, p90 of 500 after 200 warm-up");
      // every shape prepared first, so that the first one measured does not pay for compiling
      // the code all shapes share
      for (int i = 0; i < 100; i++) {
        for (String sql : SHAPES) {
          c.prepareStatement(sql).close();
        }
      }
      for (String sql : SHAPES) {
        for (int i = 0; i < 200; i++) {
          c.prepareStatement(sql).close();
        }
        double[] ms = new double[500];
        for (int i = 0; i < ms.length; i++) {
          long t0 = System.nanoTime();
          c.prepareStatement(sql).close();
          ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf("  %7.3f %7.3f  %s%n", ms[ms.length / 2], ms[(int) (ms.length * 0.9)],
            sql);
      }
      boundValues(c);
      c.close();
    }

    if (rounds == 0) {
      return; // the front end only: no end-to-end rounds
    }
    System.out.println("\nbuilding " + BenchDatabase.BIG_ROWS + " rows ...");
    try (Connection keep = BenchDatabase.create(BenchDatabase.BIG_URL, BenchDatabase.BIG_ROWS);
        Connection c = DriverManager.getConnection(BenchDatabase.dpsqlUrl(BenchDatabase.BIG_URL),
            p)) {
      String plain = "SELECT G, COUNT(*) FROM T WHERE G >= %d GROUP BY G";
      String sorted = "SELECT g, n FROM (SELECT G AS g, COUNT(*) AS n FROM T WHERE G >= %d GROUP "
          + "BY G) t ORDER BY n DESC";
      String having = "SELECT G, COUNT(*) AS n, SUM(COUNT(*)) OVER (ORDER BY G) AS running FROM T "
          + "WHERE G >= %d GROUP BY G HAVING COUNT(*) > 0";
      double[][] ms = new double[3][rounds];
      int k = 1;
      for (int w = 0; w < 3; w++) { // warm-up
        run(c, String.format(plain, -k++));
        run(c, String.format(sorted, -k++));
        run(c, String.format(having, -k++));
      }
      for (int r = 0; r < rounds; r++) {
        ms[0][r] = run(c, String.format(plain, -k++));
        ms[1][r] = run(c, String.format(sorted, -k++));
        ms[2][r] = run(c, String.format(having, -k++));
      }
      double base = median(ms[0]);
      System.out.printf("%nend to end on %,d rows, median of %d alternating runs (ms):%n",
          BenchDatabase.BIG_ROWS, rounds);
      System.out.printf("  %8.1f        private GROUP BY alone%n", base);
      System.out.printf("  %8.1f  %5.3fx  the same under a subquery with ORDER BY%n",
          median(ms[1]), median(ms[1]) / base);
      System.out.printf("  %8.1f  %5.3fx  the same with HAVING and a running-total window%n",
          median(ms[2]), median(ms[2]) / base);
    }
  }

  /**
   * Statements with bound values, each planned once at prepare: the time of executing the
   * prepared statement with new values, with the same values again (its release reused: no
   * charge), and of the same statement written with literals through a plain Statement (prepare
   * and execute), each a median of 200 after 50 warm-up executions, alternating.
   */
  static void boundValues(Connection c) throws SQLException {
    // the values bound to the release's filter at each execution
    boundValues(c, "SELECT G, COUNT(*) AS n FROM T WHERE V > ? AND G >= ? GROUP BY G ORDER BY n",
        i -> new Object[] {-1_000_000 - i, 0},
        i -> "SELECT G, COUNT(*) AS n FROM T WHERE V > " + (-1_000_000 - i)
            + " AND G >= 0 GROUP BY G ORDER BY n", "bind to the measurement, release");
    // a new filter value (a new release) and HAVING ? bound to the post-processing
    boundValues(c, "SELECT G, COUNT(*) AS n FROM T WHERE V > ? GROUP BY G HAVING COUNT(*) > ?",
        i -> new Object[] {-1_000_000 - i, 10},
        i -> "SELECT G, COUNT(*) AS n FROM T WHERE V > " + (-1_000_000 - i)
            + " GROUP BY G HAVING COUNT(*) > 10", "bind, release, post-process");
    // only HAVING ? new: post-processing of the same release, free
    boundValues(c, "SELECT G, COUNT(*) AS n FROM T WHERE V > ? GROUP BY G HAVING COUNT(*) > ?",
        i -> new Object[] {-2_000_000, i},
        i -> "SELECT G, COUNT(*) AS n FROM T WHERE V > -2000000 GROUP BY G HAVING COUNT(*) > "
            + i, "post-process the same release");
    // a daily series between two timestamps: the values bound into the plan, the release checked
    // (the bounds on day bins) and released
    boundValues(c, "SELECT CAST(TS AS DATE) AS d, COUNT(*) AS n FROM T WHERE TS >= ? AND TS < ? "
        + "GROUP BY CAST(TS AS DATE)", i -> new Object[] {day(i % 350),
            day(i % 350 + 7 + i / 350)},
        i -> "SELECT CAST(TS AS DATE) AS d, COUNT(*) AS n FROM T WHERE TS >= TIMESTAMP '"
            + day(i % 350) + "' AND TS < TIMESTAMP '" + day(i % 350 + 7 + i / 350)
            + "' GROUP BY CAST(TS AS DATE)", "bind into the plan, check, release");
  }

  /** Midnight of day {@code k} of 2024 (0: January 1). */
  private static java.sql.Timestamp day(int k) {
    return java.sql.Timestamp.valueOf(java.time.LocalDate.of(2024, 1, 1).plusDays(k)
        .atStartOfDay());
  }

  /**
   * Executions of the prepared {@code bound} with the values {@code values} gives for a new
   * number each time, the same again with the same values, and the {@code literal} statement of a
   * further number prepared and executed, alternating.
   */
  static void boundValues(Connection c, String bound,
      java.util.function.IntFunction<Object[]> values, java.util.function.IntFunction<String> literal,
      String what) throws SQLException {
    int n = 250;
    double[][] ms = new double[3][n];
    int value = 0;
    try (java.sql.PreparedStatement ps = c.prepareStatement(bound)) {
      for (int i = 0; i < n; i++) {
        Object[] v = values.apply(value++);
        for (int k = 0; k < v.length; k++) {
          ps.setObject(k + 1, v[k]);
        }
        ms[0][i] = timed(ps);
        ms[1][i] = timed(ps);
        ms[2][i] = run(c, literal.apply(value++));
      }
    }
    System.out.println("\nbound values, " + bound + " (ms, median of " + (n - 50) + ")");
    System.out.printf("  %7.3f  execute with new values (%s)%n",
        median(Arrays.copyOfRange(ms[0], 50, n)), what);
    System.out.printf("  %7.3f  execute again with the same values (reused, free)%n",
        median(Arrays.copyOfRange(ms[1], 50, n)));
    System.out.printf("  %7.3f  the literal statement, prepared and executed%n",
        median(Arrays.copyOfRange(ms[2], 50, n)));
  }

  private static double timed(java.sql.PreparedStatement ps) throws SQLException {
    long t0 = System.nanoTime();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return (System.nanoTime() - t0) / 1e6;
  }

  /** Runs {@code sql} on {@code c}, reading every row; its time in milliseconds. */
  static double run(Connection c, String sql) throws SQLException {
    long t0 = System.nanoTime();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return (System.nanoTime() - t0) / 1e6;
  }

  /** The median of {@code v}. */
  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
