package org.dpsql.audit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one statement many times through {@link DriverManager}, exactly as an application would:
 * a fresh dpsql connection per run (so a fresh budget and no earlier release to answer from),
 * the noise fixed by the {@code seed} connection property (the audit policies set {@code
 * allow_seed: true}), and reads one {@link ReleasedValue} from each result. Seeds {@code
 * firstSeed, firstSeed + 1, ...} make every run reproducible; each seed's noise is an independent
 * SHA-256 stream (see {@code SeededRandomBits}).
 */
final class ReleaseSampler {
  private final String url;
  private final Path policy;
  private final List<String> before;
  private final String sql;
  private final ReleasedValue value;

  ReleaseSampler(String url, Path policy, String sql, ReleasedValue value) {
    this(url, policy, List.of(), sql, value);
  }

  /**
   * A sampler that runs {@code before} (e.g. the release of a synopsis) on each connection, then
   * {@code sql}, whose result the value is read from.
   */
  ReleaseSampler(String url, Path policy, List<String> before, String sql, ReleasedValue value) {
    this.url = url;
    this.policy = policy;
    this.before = List.copyOf(before);
    this.sql = sql;
    this.value = value;
  }

  private void runBefore(Connection c) throws SQLException {
    for (String s : before) {
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(s)) {
        while (rs.next()) {
          // read every row, as an application would
        }
      }
    }
  }

  /**
   * The values of {@code n} runs with seeds {@code firstSeed ..}, run by {@code threads}
   * concurrent workers (each run is its own connection; run i always has seed firstSeed + i and
   * lands at index i, so the result does not depend on the number of threads).
   */
  double[] sample(long firstSeed, int n, int threads) throws SQLException {
    double[] out = new double[n];
    AtomicInteger next = new AtomicInteger();
    Callable<Void> worker = () -> {
      for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
        try (Connection c = open(firstSeed + i)) {
          runBefore(c);
          try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            out[i] = value.of(rs);
          }
        }
      }
      return null;
    };
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(worker));
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException s) {
        throw s;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
    return out;
  }

  /** What the ledger charged for the statement, on one more run with {@code seed}. */
  ClaimedCost claimed(long seed) throws SQLException {
    try (Connection c = open(seed)) {
      runBefore(c);
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        value.of(rs);
      }
      return ClaimedCost.of(c);
    }
  }

  private Connection open(long seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", Long.toString(seed));
    return DriverManager.getConnection(url, p);
  }
}
