package org.dpsql.bench;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpsql.bench.BenchDatabase.PolicyKind;

/**
 * A plain (non-JMH) report of what private answering costs relative to the backend alone, for
 * quoting. Every path is timed warm and interleaved: each round runs every path once, the first
 * rounds are warm-up, and the medians of the measured rounds are printed with the ratios
 * private/direct.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.Ratios [warmup [measured]]}
 * (defaults 3 and 9).
 */
public final class Ratios {
  private interface Timed {
    long run(int k) throws Exception;
  }

  private Ratios() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int measured = args.length > 1 ? Integer.parseInt(args[1]) : 9;

    System.out.printf("dpsql bench: private vs. direct H2, %d warm-up + %d measured rounds, "
        + "interleaved; medians in ms%n", warmup, measured);
    System.out.printf("JVM %s, %d cores, max heap %,d MB, load average at start: %s%n",
        System.getProperty("java.vm.version"), Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() >> 20, loadAverage());

    long t0 = System.nanoTime();
    Connection holder = BenchDatabase.create(BenchDatabase.BIG_URL, BenchDatabase.BIG_ROWS);
    Connection smallHolder = BenchDatabase.create(BenchDatabase.SMALL_URL, BenchDatabase.SMALL_ROWS);
    System.out.printf("%nTable T: %,d rows (generated in %.1f s); G: 50 groups, V: 0..99; riders (UNIT):%n",
        BenchDatabase.BIG_ROWS, (System.nanoTime() - t0) / 1e6 / 1000);
    for (String line : BenchDatabase.unitShape(holder)) {
      System.out.println("  " + line);
    }
    System.out.println("Query: " + BenchDatabase.QUERY.replace("?", "-k")
        + "  (k new on every run: covers all rows, defeats dpsql's and H2's caches)");

    Map<String, Timed> paths = new LinkedHashMap<>();
    Map<String, String> notes = new LinkedHashMap<>();
    List<AutoCloseable> open = new ArrayList<>();

    Connection direct = DriverManager.getConnection(BenchDatabase.BIG_URL);
    open.add(direct);
    PreparedStatement directPs = direct.prepareStatement(BenchDatabase.QUERY);
    paths.put("direct", k -> BenchDatabase.run(directPs, k));
    notes.put("direct", "plain H2 connection, no dpsql");

    Map<PolicyKind, String> names = Map.of(PolicyKind.ROW_UNIT, "(a) private, ROW unit",
        PolicyKind.BOUNDED, "(b) private, UNIT bounded 5", PolicyKind.SNAPSHOT,
        "(c) private, UNIT bounded 5, snapshot");
    Map<PolicyKind, String> descr = Map.of(PolicyKind.ROW_UNIT, "privacy_unit: ROW, no bounding",
        PolicyKind.BOUNDED, "privacy_unit: UNIT, max_rows_per_unit: 5, bounding in each backend query",
        PolicyKind.SNAPSHOT, "as (b) + bounding: snapshot (bounded rows materialised once per connection)");
    Map<String, String> skipped = new LinkedHashMap<>();
    for (PolicyKind kind : PolicyKind.values()) {
      String name = names.get(kind);
      Path policy = BenchDatabase.writePolicy(kind);
      try {
        Connection c = BenchDatabase.openPrivate(BenchDatabase.BIG_URL, policy);
        open.add(c);
        PreparedStatement ps = c.prepareStatement(BenchDatabase.QUERY);
        long first0 = System.nanoTime();
        BenchDatabase.run(ps, 1_000_000); // probe: the policy works (and a snapshot is built)
        notes.put(name, descr.get(kind) + String.format("; first query %.0f ms",
            (System.nanoTime() - first0) / 1e6));
        paths.put(name, k -> BenchDatabase.run(ps, k));
      } catch (SQLException e) {
        if (kind == PolicyKind.SNAPSHOT && BenchDatabase.isPolicyError(e)) {
          skipped.put(name, "SKIPPED: the engine refuses `bounding: snapshot` (XDP04): " + e.getMessage());
        } else {
          throw e;
        }
      }
    }

    Path rowPolicy = BenchDatabase.writePolicy(PolicyKind.ROW_UNIT);
    String open1 = "connection open + first query";
    paths.put(open1, k -> {
      try (Connection c = BenchDatabase.openPrivate(BenchDatabase.SMALL_URL, rowPolicy);
          PreparedStatement ps = c.prepareStatement(BenchDatabase.QUERY)) {
        return BenchDatabase.run(ps, k);
      }
    });
    notes.put(open1, "new dpsql connection (policy (a)), one private query on a "
        + String.format("%,d", BenchDatabase.SMALL_ROWS) + "-row T, close");

    // Opening a connection is cheap but runs code (policy loading, schema checks, Calcite set-up)
    // that the query paths do not: give the JIT its own warm-up, as JMH's many invocations do.
    int preWarm = 0;
    long sink = 0;
    int k = 0;
    long preWarmEnd = System.nanoTime() + 15_000_000_000L;
    while (preWarm < 300 && System.nanoTime() < preWarmEnd) {
      sink += paths.get(open1).run(++k);
      preWarm++;
    }
    notes.put(open1, notes.get(open1) + "; " + preWarm + " extra warm-up runs");

    Map<String, double[]> times = new LinkedHashMap<>();
    for (String p : paths.keySet()) {
      times.put(p, new double[measured]);
    }
    for (int round = 0; round < warmup + measured; round++) {
      for (Map.Entry<String, Timed> e : paths.entrySet()) {
        k++;
        System.gc(); // untimed: no path pays for the garbage of the one before it
        long s = System.nanoTime();
        sink += e.getValue().run(k);
        double ms = (System.nanoTime() - s) / 1e6;
        if (round >= warmup) {
          times.get(e.getKey())[round - warmup] = ms;
        }
      }
    }

    System.out.printf("%n%-40s %10s %10s %10s   %s%n", "path", "median ms", "min ms", "max ms", "what");
    for (Map.Entry<String, double[]> e : times.entrySet()) {
      double[] t = e.getValue().clone();
      Arrays.sort(t);
      System.out.printf("%-40s %10.1f %10.1f %10.1f   %s%n", e.getKey(), median(t), t[0],
          t[t.length - 1], notes.get(e.getKey()));
    }
    for (Map.Entry<String, String> e : skipped.entrySet()) {
      System.out.printf("%-40s %10s %10s %10s   %s%n", e.getKey(), "-", "-", "-", e.getValue());
    }

    double[] directTimes = times.get("direct");
    double directMs = median(directTimes);
    System.out.printf("%nRatios private / direct, same query and data: median/median, and in brackets "
        + "the median of the %d per-round ratios (each round runs every path once, back to back):%n",
        measured);
    for (PolicyKind kind : PolicyKind.values()) {
      String name = names.get(kind);
      if (times.containsKey(name)) {
        double[] t = times.get(name);
        double[] paired = new double[measured];
        for (int i = 0; i < measured; i++) {
          paired[i] = t[i] / directTimes[i];
        }
        double m = median(t);
        System.out.printf("  %-40s %6.2fx  (paired %.2fx)   %.1f ms vs %.1f ms%n", name,
            m / directMs, median(paired), m, directMs);
      } else {
        System.out.printf("  %-40s %7s   (%s)%n", name, "-", "skipped");
      }
    }
    System.out.printf("Connection open + first query (warm JVM, %,d-row table): median %.1f ms%n",
        BenchDatabase.SMALL_ROWS, median(times.get(open1)));
    System.out.printf("Load average at end: %s (2 cores: above ~1 means other work shared the CPU)%n",
        loadAverage());
    if (sink == 42) {
      System.out.println();
    }

    for (AutoCloseable c : open) {
      BenchDatabase.closeQuietly(c);
    }
    BenchDatabase.shutdown(holder);
    BenchDatabase.shutdown(smallHolder);
  }

  private static String loadAverage() {
    try {
      String[] f = java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (Exception e) {
      return "n/a";
    }
  }

  private static double median(double[] values) {
    double[] t = values.clone();
    Arrays.sort(t);
    int n = t.length;
    return n % 2 == 1 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
  }
}
