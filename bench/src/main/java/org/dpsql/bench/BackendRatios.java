package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * dpsql ÷ exact, per backend and contribution-bounding policy, in one table: the private
 * {@code SELECT G, COUNT(*) FROM T WHERE G >= ? GROUP BY G} (50 cells) through dpsql against the
 * same statement sent directly to the backend, on the {@link BenchDatabase} data (1,000,000 rows,
 * 220,500 skewed units) loaded into each backend, and then TPC-H on Trino ({@code tpch.sf1}:
 * orders with {@code custkey}, line items with {@code orderkey} as the privacy unit).
 *
 * <p>Backends: H2 in memory (always; also with an index on {@code UNIT}); PostgreSQL when
 * {@code DPSQL_TEST_PG_URL}, {@code DPSQL_TEST_PG_USER}, {@code DPSQL_TEST_PG_PASSWORD} name a
 * server; Trino when {@code DPSQL_TEST_TRINO_URL} does ({@code scripts/trino.sh start}). Each
 * round runs every path of a backend once, back to back; the table shows the median over the
 * measured rounds of the per-round ratio dpsql ÷ exact, and the exact query's median time.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.BackendRatios [warmup
 * [measured [tpch-schema [tpch-only [table]]]]]} (defaults 2, 7, sf1; {@code -} as schema skips
 * TPC-H; {@code tpch-only} runs the TPC-H comparison alone, and {@code table}, {@code orders} or
 * {@code lineitem}, only that table's statement). Run by
 * hand only.
 */
public final class BackendRatios {
  private static final String[] POLICIES = {"ROW", "UNIT per_query", "UNIT snapshot", "ID (primary key)"};

  private BackendRatios() {}

  /**
   * The TPC-H policy (docs/connecting.md, Scaling out with Trino): orders by customer, line items
   * by order.
   */
  static final String TPCH_POLICY = """
        allow_seed: true
        budget:
          accounting: zcdp
          per_connection: {rho: 1000000}
          default_query: {rho: 0.001}
        tables:
          orders:
            privacy_unit: custkey
            max_rows_per_unit: 20
            columns:
              orderstatus: {values: [F, O, P]}
              orderpriority: {values: [1-URGENT, 2-HIGH, 3-MEDIUM, 4-NOT SPECIFIED, 5-LOW]}
              totalprice: {clamp: [0, 600000]}
          lineitem:
            privacy_unit: orderkey
            max_rows_per_unit: 7
            columns:
              returnflag: {values: [A, N, R]}
              linestatus: {values: [F, O]}
              quantity: {clamp: [0, 50]}
        """;

  /** The two private TPC-H statements, with one parameter each (a new value every run). */
  static final String[] TPCH_QUERIES = {
      "SELECT orderpriority, COUNT(*), SUM(totalprice) FROM orders WHERE orderstatus <> ? GROUP BY orderpriority",
      "SELECT returnflag, linestatus, COUNT(*), SUM(quantity) FROM lineitem WHERE linestatus <> ? GROUP BY returnflag, linestatus"};

  /** One backend: how to reach it directly and through dpsql, and how to load T. */
  private record Backend(String name, String url, Properties login, String dpsqlUrl) {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int measured = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    String tpch = args.length > 2 ? args[2] : "sf1";
    if (args.length > 3 && args[3].equals("tpch-only")) {
      // the TPC-H comparison alone, without loading the 1M-row table into every backend
      String trino = System.getenv("DPSQL_TEST_TRINO_URL");
      if (trino == null) {
        throw new IllegalStateException("tpch-only needs DPSQL_TEST_TRINO_URL (scripts/trino.sh start)");
      }
      Properties login = new Properties();
      login.setProperty("user", "dpsql");
      System.out.printf("load average at start %s%n", loadAverage());
      tpch(trino, login, tpch, args.length > 4 ? args[4] : null, warmup, measured);
      System.out.printf("%nLoad average at end: %s%n", loadAverage());
      System.exit(0);
    }
    int rows = BenchDatabase.BIG_ROWS;
    System.out.printf("dpsql ÷ exact per backend; %d warm-up + %d measured rounds; %d cores; load "
        + "average at start %s%n", warmup, measured, Runtime.getRuntime().availableProcessors(),
        loadAverage());

    List<Backend> backends = new ArrayList<>();
    List<AutoCloseable> holders = new ArrayList<>();
    holders.add(BenchDatabase.create(BenchDatabase.BIG_URL, rows));
    backends.add(new Backend("H2", BenchDatabase.BIG_URL, new Properties(),
        BenchDatabase.dpsqlUrl(BenchDatabase.BIG_URL)));
    String indexedUrl = "jdbc:h2:mem:benchidx;DB_CLOSE_DELAY=-1";
    Connection indexed = BenchDatabase.create(indexedUrl, rows);
    try (Statement st = indexed.createStatement()) {
      st.execute("CREATE INDEX T_UNIT ON T(UNIT)");
    }
    holders.add(indexed);
    backends.add(new Backend("H2, UNIT indexed", indexedUrl, new Properties(),
        BenchDatabase.dpsqlUrl(indexedUrl)));
    String pg = System.getenv("DPSQL_TEST_PG_URL");
    if (pg != null) {
      Properties login = new Properties();
      login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_PG_USER", "postgres"));
      login.setProperty("password", System.getenv().getOrDefault("DPSQL_TEST_PG_PASSWORD", ""));
      loadPostgres(pg, login, rows);
      String url = pg + (pg.contains("?") ? "&" : "?") + "currentSchema=dpsql_bench";
      backends.add(new Backend("PostgreSQL", url, login, BenchDatabase.dpsqlUrl(url)));
    } else {
      System.out.println("PostgreSQL: skipped (DPSQL_TEST_PG_URL not set)");
    }
    String trino = System.getenv("DPSQL_TEST_TRINO_URL");
    Properties trinoLogin = new Properties();
    trinoLogin.setProperty("user", "dpsql");
    if (trino != null) {
      loadTrino(trino, trinoLogin, rows);
      String url = trino + "/memory/dpsql_bench";
      backends.add(new Backend("Trino", url, trinoLogin, BenchDatabase.dpsqlUrl(url)));
    } else {
      System.out.println("Trino: skipped (DPSQL_TEST_TRINO_URL not set; scripts/trino.sh start)");
    }

    Map<String, Map<String, String>> table = new LinkedHashMap<>();
    Map<String, String> exactMs = new LinkedHashMap<>();
    for (Backend b : backends) {
      Map<String, Double> ratios = new LinkedHashMap<>();
      Map<String, String> notes = new LinkedHashMap<>();
      exactMs.put(b.name(), String.format("%.0f ms", groupBy(b, warmup, measured, ratios, notes)));
      for (String p : POLICIES) {
        table.computeIfAbsent(p, k -> new LinkedHashMap<>()).put(b.name(),
            ratios.containsKey(p) ? String.format("%.2f×", ratios.get(p)) : notes.getOrDefault(p, "-"));
      }
      System.out.printf("  %s done (load average %s)%n", b.name(), loadAverage());
    }
    System.out.printf("%n%s%n", "SELECT G, COUNT(*) FROM T WHERE G >= ? GROUP BY G, "
        + String.format("%,d", rows) + " rows, 50 cells; dpsql ÷ exact (median of per-round ratios)");
    StringBuilder header = new StringBuilder("| policy |");
    StringBuilder rule = new StringBuilder("|---|");
    for (Backend b : backends) {
      header.append(' ').append(b.name()).append(" |");
      rule.append("---|");
    }
    System.out.println(header);
    System.out.println(rule);
    StringBuilder exactRow = new StringBuilder("| exact query (median) |");
    for (Backend b : backends) {
      exactRow.append(' ').append(exactMs.get(b.name())).append(" |");
    }
    System.out.println(exactRow);
    for (Map.Entry<String, Map<String, String>> e : table.entrySet()) {
      StringBuilder row = new StringBuilder("| " + e.getKey() + " |");
      for (Backend b : backends) {
        row.append(' ').append(e.getValue().get(b.name())).append(" |");
      }
      System.out.println(row);
    }
    if (trino != null && !tpch.equals("-")) {
      tpch(trino, trinoLogin, tpch, null, warmup, measured);
    }
    System.out.printf("%nLoad average at end: %s (2 cores: above ~1 means other work shared the CPU)%n",
        loadAverage());
    for (AutoCloseable h : holders) {
      BenchDatabase.shutdown((Connection) h);
    }
    System.exit(0);
  }

  /** Times the GROUP BY on backend b; fills the ratio per policy; returns the exact median (ms). */
  private static double groupBy(Backend b, int warmup, int measured, Map<String, Double> ratios,
      Map<String, String> notes) throws Exception {
    Map<String, PreparedStatement> paths = new LinkedHashMap<>();
    List<Connection> open = new ArrayList<>();
    Connection direct = DriverManager.getConnection(b.url(), b.login());
    open.add(direct);
    paths.put("exact", direct.prepareStatement(BenchDatabase.QUERY));
    for (String p : POLICIES) {
      String unit = switch (p) {
        case "ROW" -> "    privacy_unit: ROW\n";
        case "UNIT per_query" -> "    privacy_unit: UNIT\n    max_rows_per_unit: 5\n";
        case "UNIT snapshot" -> "    privacy_unit: UNIT\n    max_rows_per_unit: 5\n    bounding: snapshot\n";
        default -> "    privacy_unit: ID\n    max_rows_per_unit: 5\n";
      };
      if (p.startsWith("ID") && b.name().equals("Trino")) {
        notes.put(p, "n/a (no keys in Trino's memory connector)");
        continue;
      }
      Path policy = Files.createTempFile("dpsql-ratios", ".yaml");
      policy.toFile().deleteOnExit();
      Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 1000000}\n  default_query: {rho: 0.001}\ntables:\n  T:\n" + unit
          + "    columns:\n      G: {min: 0, max: 49, bin: 1}\n      V: {clamp: [0, 100]}\n");
      Properties props = new Properties();
      props.putAll(b.login());
      props.setProperty("policy", policy.toString());
      try {
        Connection c = DriverManager.getConnection(b.dpsqlUrl(), props);
        open.add(c);
        PreparedStatement ps = c.prepareStatement(BenchDatabase.QUERY);
        long t0 = System.nanoTime();
        BenchDatabase.run(ps, 1_000_000); // a snapshot is built here
        if (p.contains("snapshot")) {
          notes.put(p + " first", String.format("%.0f ms", (System.nanoTime() - t0) / 1e6));
        }
        paths.put(p, ps);
      } catch (SQLException e) {
        notes.put(p, "refused (" + e.getSQLState() + ")");
      }
    }
    Map<String, double[]> times = new LinkedHashMap<>();
    paths.keySet().forEach(p -> times.put(p, new double[measured]));
    int k = 0;
    for (int round = 0; round < warmup + measured; round++) {
      for (Map.Entry<String, PreparedStatement> e : paths.entrySet()) {
        System.gc();
        long s = System.nanoTime();
        BenchDatabase.run(e.getValue(), ++k);
        if (round >= warmup) {
          times.get(e.getKey())[round - warmup] = (System.nanoTime() - s) / 1e6;
        }
      }
    }
    double[] exact = times.get("exact");
    for (String p : paths.keySet()) {
      if (p.equals("exact")) {
        continue;
      }
      double[] r = new double[measured];
      for (int i = 0; i < measured; i++) {
        r[i] = times.get(p)[i] / exact[i];
      }
      ratios.put(p, FrontEndBench.median(r));
      System.out.printf("  %-18s %-18s median %8.1f ms (exact %8.1f ms)%n", b.name(), p,
          FrontEndBench.median(times.get(p)), FrontEndBench.median(exact));
    }
    for (Connection c : open) {
      BenchDatabase.closeQuietly(c);
    }
    return FrontEndBench.median(exact);
  }

  /**
   * TPC-H on Trino: private GROUP BYs with bounding against the same statements run directly; on
   * {@code schema}, both statements or only the one over {@code table} if not null.
   */
  private static void tpch(String trino, Properties login, String schema, String table,
      int warmup, int measured) throws Exception {
    Path policy = Files.createTempFile("dpsql-tpch", ".yaml");
    policy.toFile().deleteOnExit();
    Files.writeString(policy, TPCH_POLICY);
    String url = trino + "/tpch/" + schema;
    Properties props = new Properties();
    props.putAll(login);
    props.setProperty("policy", policy.toString());
    String[] queries = TPCH_QUERIES;
    System.out.printf("%nTPC-H %s on Trino (generated by the tpch connector on every read), dpsql ÷ exact:%n", schema);
    System.out.println("| statement | exact (median) | dpsql (median) | dpsql ÷ exact |");
    System.out.println("|---|---|---|---|");
    try (Connection direct = DriverManager.getConnection(url, login);
        Connection dpsql = DriverManager.getConnection(BenchDatabase.dpsqlUrl(url), props)) {
      for (String q : queries) {
        if (table != null && !q.contains("FROM " + table + " ")) {
          continue;
        }
        PreparedStatement ex = direct.prepareStatement(q);
        PreparedStatement dp = dpsql.prepareStatement(q);
        double[] te = new double[measured];
        double[] td = new double[measured];
        double[] r = new double[measured];
        for (int round = 0; round < warmup + measured; round++) {
          // a new value every run: dpsql would answer a repeated statement from its cache
          String never = "x" + round;
          double e = time(ex, never);
          double d = time(dp, never);
          if (round >= warmup) {
            te[round - warmup] = e;
            td[round - warmup] = d;
            r[round - warmup] = d / e;
          }
        }
        System.out.printf("| `%s` | %.0f ms | %.0f ms | %.2f× |%n", q.replace("?", "'x<n>'"),
            FrontEndBench.median(te), FrontEndBench.median(td), FrontEndBench.median(r));
      }
    }
  }

  private static double time(PreparedStatement ps, String value) throws SQLException {
    ps.setString(1, value);
    long s = System.nanoTime();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return (System.nanoTime() - s) / 1e6;
  }

  /** BenchDatabase's T in schema dpsql_bench of PostgreSQL (recreated). */
  private static void loadPostgres(String url, Properties login, int rows) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA IF EXISTS dpsql_bench CASCADE");
      st.execute("CREATE SCHEMA dpsql_bench");
      st.execute("CREATE TABLE dpsql_bench.t (id bigint PRIMARY KEY, unit int NOT NULL, g int NOT NULL, "
          + "v int NOT NULL)");
      st.execute("INSERT INTO dpsql_bench.t SELECT X, " + BenchDatabase.unitExpression(rows) + ", MOD(X * 7919, 50), "
          + "MOD(X, 100) FROM generate_series(1::bigint, " + rows + ") AS s(X)");
      st.execute("ANALYZE dpsql_bench.t");
    }
  }

  /** BenchDatabase's T in Trino's memory catalog, schema dpsql_bench (recreated). */
  static void loadTrino(String url, Properties login, int rows) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS memory.dpsql_bench.t");
      st.execute("CREATE SCHEMA IF NOT EXISTS memory.dpsql_bench");
      st.execute("CREATE TABLE memory.dpsql_bench.t AS SELECT X AS id, CAST(" + BenchDatabase.unitExpression(rows)
          + " AS integer) AS unit, CAST(MOD(X * 7919, 50) AS integer) AS g, CAST(MOD(X, 100) AS "
          + "integer) AS v FROM (SELECT i * 1000 + j AS X FROM UNNEST(sequence(0, " + (rows / 1000 - 1)
          + ")) AS a(i) CROSS JOIN UNNEST(sequence(1, 1000)) AS b(j))");
    }
  }

  /** The load average of the last 1, 5 and 15 minutes, as {@code /proc/loadavg} gives it. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "n/a";
    }
  }
}
