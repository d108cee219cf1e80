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
  private final List<Object> parameters;
  private final java.time.Instant clock;

  ReleaseSampler(String url, Path policy, String sql, ReleasedValue value) {
    this(url, policy, List.of(), sql, value);
  }

  ReleaseSampler(String url, Path policy, List<String> before, String sql, ReleasedValue value) {
    this(url, policy, before, sql, value, List.of(), null);
  }

  /**
   * A sampler that runs {@code before} (e.g. the release of a synopsis) on each connection, then
   * {@code sql}, whose result the value is read from.
   */
  ReleaseSampler(String url, Path policy, List<String> before, String sql, ReleasedValue value,
      List<Object> parameters, java.time.Instant clock) {
    this.url = url;
    this.policy = policy;
    this.before = List.copyOf(before);
    this.sql = sql;
    this.value = value;
    this.parameters = List.copyOf(parameters);
    this.clock = clock;
  }

  /**
   * {@code sql}'s value on {@code c}: a prepared statement with the parameters bound when there
   * are any, else a plain statement.
   */
  private double run(Connection c) throws SQLException {
    if (parameters.isEmpty()) {
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
        return value.of(rs);
      }
    }
    try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < parameters.size(); i++) {
        ps.setObject(i + 1, parameters.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        return value.of(rs);
      }
    }
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
          out[i] = run(c);
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
      run(c);
      return ClaimedCost.of(c);
    }
  }

  private Connection open(long seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", Long.toString(seed));
    Connection c = DriverManager.getConnection(url, p);
    if (clock != null) {
      org.dpsql.jdbc.SessionAccess.session(c).setClock(
          java.time.Clock.fixed(clock, java.time.ZoneOffset.UTC));
    }
    return c;
  }
}
