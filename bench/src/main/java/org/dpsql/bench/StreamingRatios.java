package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The measurement strategies side by side (issue 30): for each statement shape, the median time
 * of the exact statement on the backend, of dpsql with {@code measurement: streaming} and of
 * dpsql with {@code measurement: push_down}, interleaved round by round in one run, and the
 * ratios of both dpsql times to the exact one.
 *
 * <p>Data: {@code T(ID, UNIT, G, AGE, V, K)} with n rows, units skewed as in {@link
 * BenchDatabase} (220,500 units for n = 1,000,000: 200,000 light with 1-5 rows, 20,000 with 10,
 * 500 with 100), {@code G} 50 cells, {@code AGE} 0..99, {@code V} 0..99 (clamp [0, 100]), {@code
 * K} 100,000 private keys; {@code P(UNIT, PLAN)} one row per unit, 5 plans. k = 5 for T, 1 for P.
 *
 * <p>Shapes (each statement filtered by {@code AGE >= x}, a literal that changes per round and is
 * the same for the exact statement and dpsql's; dpsql runs each round on a new connection, opened
 * before the clock starts, so that no answer comes from its release cache; statements are sent
 * unprepared, so dpsql's times include its analysis): bounded COUNT GROUP BY G; SUM and AVG GROUP BY G;
 * the private join T ⋈ P on the unit, COUNT GROUP BY PLAN; the median of V per G (exact:
 * {@code PERCENTILE_CONT(0.5)}); partition selection over K (100,000 keys; exact: COUNT GROUP BY
 * K).
 *
 * <p>Usage: {@code java -Xmx8g -cp bench/target/benchmarks.jar org.dpsql.bench.StreamingRatios
 * BACKEND ROWS ROUNDS} with BACKEND {@code mem} (H2 in memory), {@code file} (an H2 file database
 * in a temporary directory) or {@code pg} (PostgreSQL from {@code DPSQL_TEST_PG_URL}, {@code
 * _USER}, {@code _PASSWORD}); {@code ROUNDS} measured rounds after one warm-up round. With
 * {@code heap} as a fourth argument, first the time and peak heap of one exact and one streamed
 * run of each shape (each after a GC), for the 10,000,000-row figures.
 * System properties, for profiling one shape: {@code -Dshapes=0,1} measures only those shapes
 * (0-based, in the order above), {@code -DpushDown=false} leaves push-down out (its column then
 * reads 0), {@code -Dclock=cpu} times each statement by the calling thread's CPU time instead of
 * the wall clock (on a shared machine; the whole statement runs on that thread with embedded H2,
 * but the garbage collector's and the JIT compiler's threads are left out), {@code -Dwarmup=N}
 * runs N discarded warm-up rounds per shape instead of one, {@code -DwarmupAll=N} first runs N
 * discarded passes of every shape (exact, streaming and push-down once each with the warm-up
 * rounds of {@code -Dwarmup}), so that the first shape is not measured while the JIT is still
 * compiling the code every shape shares, {@code -Dverbose=true} prints every round's times.
 */
public final class StreamingRatios {
  private StreamingRatios() {}

  private static final boolean CPU_CLOCK = "cpu".equals(System.getProperty("clock"));
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** Nanoseconds on the clock the run measures with. */
  private static long now() {
    return CPU_CLOCK ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }

  private static final int WARMUP = Integer.getInteger("warmup", 1);
  private static final int WARMUP_ALL = Integer.getInteger("warmupAll", 0);
  private static final boolean VERBOSE = Boolean.getBoolean("verbose");

  private static final boolean WITH_PUSH_DOWN =
      !"false".equals(System.getProperty("pushDown"));

  record Shape(String name, String exact, String dpsql, int expectedRowsAtLeast) {}

  static final List<Shape> SHAPES = List.of(
      new Shape("COUNT GROUP BY G (50 cells)",
          "SELECT G, COUNT(*) FROM T WHERE AGE >= ? GROUP BY G",
          "SELECT G, COUNT(*) FROM T WHERE AGE >= ? GROUP BY G", 50),
      new Shape("SUM, AVG GROUP BY G",
          "SELECT G, SUM(V), AVG(V) FROM T WHERE AGE >= ? GROUP BY G",
          "SELECT G, SUM(V), AVG(V) FROM T WHERE AGE >= ? GROUP BY G", 50),
      new Shape("private join T JOIN P, COUNT GROUP BY PLAN",
          "SELECT p.PLAN, COUNT(*) FROM T t JOIN P p ON t.UNIT = p.UNIT WHERE t.AGE >= ? "
              + "GROUP BY p.PLAN",
          "SELECT p.PLAN, COUNT(*) FROM T t JOIN P p ON t.UNIT = p.UNIT WHERE t.AGE >= ? "
              + "GROUP BY p.PLAN", 5),
      new Shape("median of V per G",
          "SELECT G, PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY V) FROM T WHERE AGE >= ? "
              + "GROUP BY G",
          "SELECT G, MEDIAN(V) FROM T WHERE AGE >= ? GROUP BY G", 50),
      new Shape("partition selection over K (100,000 keys)",
          "SELECT K, COUNT(*) FROM T WHERE AGE >= ? GROUP BY K",
          "SELECT K, COUNT(*) FROM T WHERE AGE >= ? GROUP BY K", 0));

  static String policy(String measurement) {
    return "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 1000000, delta: 1e-3}\n"
        + "  default_query: {rho: 0.5, delta: 1e-6}\n"
        + "measurement: " + measurement + "\n"
        + "tables:\n"
        + "  T:\n    privacy_unit: UNIT\n    unit: person\n    max_rows_per_unit: 5\n"
        + "    columns:\n      G: {min: 0, max: 49, bin: 1}\n      AGE: {min: 0, max: 99, bin: 1}\n"
        + "      V: {clamp: [0, 100]}\n      K: {keys: private}\n"
        + "  P:\n    privacy_unit: UNIT\n    unit: person\n    max_rows_per_unit: 1\n"
        + "    columns:\n      PLAN: {values: [basic, plus, family, student, senior]}\n";
  }

  public static void main(String[] args) throws Exception {
    String backend = args.length > 0 ? args[0] : "mem";
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
    boolean heap = args.length > 3 && args[3].equals("heap");
    String url;
    Properties direct = new Properties();
    Path tmp = Files.createTempDirectory("dpsql-streaming-bench");
    switch (backend) {
      case "mem" -> url = "jdbc:h2:mem:streaming;DB_CLOSE_DELAY=-1";
      case "file" -> url = "jdbc:h2:file:" + tmp.resolve("bench").toAbsolutePath();
      case "pg" -> {
        url = System.getenv("DPSQL_TEST_PG_URL");
        direct.setProperty("user", System.getenv("DPSQL_TEST_PG_USER"));
        direct.setProperty("password", System.getenv("DPSQL_TEST_PG_PASSWORD"));
      }
      default -> throw new IllegalArgumentException("backend: mem, file or pg");
    }
    long t0 = System.nanoTime();
    try (Connection c = DriverManager.getConnection(url, direct)) {
      load(c, rows, backend.equals("pg"));
      System.out.printf(Locale.ROOT, "backend %s, %,d rows loaded in %.1f s (%s)%n", backend,
          rows, (System.nanoTime() - t0) / 1e9, c.getMetaData().getDatabaseProductVersion());
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT COUNT(DISTINCT UNIT), COUNT(DISTINCT K) FROM T")) {
        rs.next();
        System.out.printf(Locale.ROOT, "units %,d, keys %,d, k = 5, Java heap max %.1f GiB%n",
            rs.getLong(1), rs.getLong(2), Runtime.getRuntime().maxMemory() / (double) (1L << 30));
      }
      Opener streaming = () -> open(url, direct, tmp, "streaming");
      Opener pushDown = () -> open(url, direct, tmp, "push_down");
      try (Connection s = streaming.open(); Connection p = pushDown.open()) {
        explainStrategy(s);
        explainStrategy(p);
      }
      String only = System.getProperty("shapes");
      if (heap) {
        heap(c, streaming, only);
      }
      System.out.println();
      System.out.println("| statement | exact (ms) | streaming (ms) | × exact | push-down (ms) "
          + "| × exact |");
      System.out.println("|---|---|---|---|---|---|");
      // -DwarmupAll=N: N unrecorded passes over every shape first, so that the first shape is not
      // measured while the JIT is still compiling the code all shapes share
      for (int pass = 0; pass < WARMUP_ALL; pass++) {
        for (int i = 0; i < SHAPES.size(); i++) {
          if (only == null || Arrays.asList(only.split(",")).contains(Integer.toString(i))) {
            measure(SHAPES.get(i), c, streaming, pushDown, 0, false);
          }
        }
      }
      for (int i = 0; i < SHAPES.size(); i++) {
        if (only == null || Arrays.asList(only.split(",")).contains(Integer.toString(i))) {
          measure(SHAPES.get(i), c, streaming, pushDown, rounds, true);
        }
      }
      if (!backend.equals("pg")) {
        try (Statement st = c.createStatement()) {
          st.execute("DROP ALL OBJECTS");
        }
      } else {
        try (Statement st = c.createStatement()) {
          st.execute("DROP TABLE T");
          st.execute("DROP TABLE P");
        }
      }
    }
  }

  private static Connection open(String url, Properties direct, Path dir, String measurement)
      throws Exception {
    Path p = dir.resolve("policy-" + measurement + ".yaml");
    if (!Files.exists(p)) {
      Files.writeString(p, policy(measurement));
    }
    Properties props = new Properties();
    props.putAll(direct);
    props.setProperty("policy", p.toString());
    return DriverManager.getConnection("jdbc:dpsql:" + url.substring("jdbc:".length()), props);
  }

  private static void load(Connection c, int rows, boolean pg) throws SQLException {
    try (Statement st = c.createStatement()) {
      if (pg) {
        st.execute("DROP TABLE IF EXISTS T");
        st.execute("DROP TABLE IF EXISTS P");
      }
      st.execute("CREATE TABLE T (ID BIGINT PRIMARY KEY, UNIT INT NOT NULL, G INT NOT NULL, "
          + "AGE INT NOT NULL, V INT NOT NULL, K INT NOT NULL)");
      String range = pg ? "generate_series(CAST(1 AS BIGINT), " + rows + ") AS R(X)"
          : "SYSTEM_RANGE(1, " + rows + ")";
      st.execute("INSERT INTO T SELECT X, " + BenchDatabase.unitExpression(rows)
          + ", MOD(X * 7919, 50), MOD(X * 13, 100), MOD(X, 100), MOD(X * 31, 100000) FROM "
          + range);
      st.execute("CREATE TABLE P (UNIT INT NOT NULL, PLAN VARCHAR(8) NOT NULL)");
      st.execute("INSERT INTO P SELECT UNIT, CASE MOD(UNIT, 5) WHEN 0 THEN 'basic' WHEN 1 THEN "
          + "'plus' WHEN 2 THEN 'family' WHEN 3 THEN 'student' ELSE 'senior' END FROM "
          + "(SELECT DISTINCT UNIT FROM T) U");
      st.execute("CREATE INDEX P_UNIT ON P (UNIT)"); // else H2 joins by nested loops
      if (pg) {
        st.execute("ANALYZE T");
        st.execute("ANALYZE P");
      }
    }
  }

  private static void explainStrategy(Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "EXPLAIN PLAN FOR SELECT G, COUNT(*) FROM T WHERE AGE >= 18 GROUP BY G")) {
      while (rs.next()) {
        String line = rs.getString(1);
        if (line.startsWith("measurement: ")) {
          System.out.println(line);
        }
      }
    }
  }

  /**
   * Per shape, the time and peak heap of one exact and one streamed run (each after a GC, with
   * the literal of round 0): the peak is an upper bound (see {@link HeapPeak}: garbage included,
   * pools summed) and includes the database itself when it lives in this heap (H2 in memory), so
   * the heap after the GC before the runs is printed as well, and the difference is what the
   * statement added at most.
   */
  private static void heap(Connection direct, Opener streaming, String only) throws Exception {
    System.out.println();
    System.out.println("| statement | exact (ms) | exact peak heap (GiB) | streaming (ms) | "
        + "streaming peak heap (GiB) | heap before (GiB) |");
    System.out.println("|---|---|---|---|---|---|");
    for (int i = 0; i < SHAPES.size(); i++) {
      if (only != null && !Arrays.asList(only.split(",")).contains(Integer.toString(i))) {
        continue;
      }
      Shape s = SHAPES.get(i);
      double[] exact = peakOf(direct, s.exact());
      double before = exact[2];
      double[] streamed;
      try (Connection c = streaming.open()) {
        streamed = peakOf(c, s.dpsql());
      }
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f | %.0f | %.2f | %.2f |%n", s.name(),
          exact[0], exact[1], streamed[0], streamed[1], Math.min(before, streamed[2]));
    }
  }

  /** {ms, peak heap GiB, heap GiB after the GC before it} of one run of {@code sql} (AGE >= 0). */
  private static double[] peakOf(Connection c, String sql) throws SQLException {
    System.gc();
    double before = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()
        .getUsed() / (double) (1L << 30);
    HeapPeak.reset();
    long t = System.nanoTime();
    drain(c, sql.replace("?", "0"));
    double ms = (System.nanoTime() - t) / 1e6;
    return new double[] {ms, HeapPeak.gib(), before};
  }

  /** Opens a new dpsql connection. */
  private interface Opener {
    Connection open() throws Exception;
  }

  /**
   * Each round runs the same statement, with the same literal, on the backend directly and
   * through dpsql: a new dpsql connection per round (opened before the clock starts), so no
   * earlier release answers it for free and every round measures.
   */
  private static void measure(Shape s, Connection direct, Opener streaming, Opener pushDown,
      int rounds, boolean report) throws Exception {
    Map<String, List<Double>> times = new LinkedHashMap<>();
    times.put("exact", new ArrayList<>());
    times.put("streaming", new ArrayList<>());
    times.put("push-down", new ArrayList<>());
    for (int round = 1 - WARMUP; round <= rounds; round++) {
      int age = Math.floorMod(round, 10);
      String[] order = round % 2 == 0 ? new String[] {"exact", "streaming", "push-down"}
          : new String[] {"push-down", "streaming", "exact"};
      for (String which : order) {
        if (which.equals("push-down") && !WITH_PUSH_DOWN) {
          continue;
        }
        Connection c = which.equals("exact") ? direct
            : which.equals("streaming") ? streaming.open() : pushDown.open();
        try {
          // literals, not parameters: the same text on both sides
          String sql = (c == direct ? s.exact() : s.dpsql()).replace("?", Integer.toString(age));
          long t = now();
          int n = drain(c, sql);
          double ms = (now() - t) / 1e6;
          if (c == direct && n < s.expectedRowsAtLeast()) {
            throw new IllegalStateException(s.name() + ": " + n + " rows");
          }
          if (round > 0) {
            times.get(which).add(ms);
          }
          if (VERBOSE) {
            System.out.printf(Locale.ROOT, "  %s round %d %s %.0f ms%n", s.name(), round, which,
                ms);
          }
        } finally {
          if (c != direct) {
            c.close();
          }
        }
      }
    }
    if (!report) {
      return;
    }
    double e = median(times.get("exact"));
    double str = median(times.get("streaming"));
    double pdm = WITH_PUSH_DOWN ? median(times.get("push-down")) : 0;
    System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.2f | %.0f | %.2f |%n", s.name(), e,
        str, str / e, pdm, pdm / e);
  }

  private static int drain(Connection c, String sql) throws SQLException {
    int n = 0;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int cols = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int i = 1; i <= cols; i++) {
          rs.getObject(i);
        }
        n++;
      }
    }
    return n;
  }

  private static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }
}
