package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.dpsql.TestScale;
import org.dpsql.jdbc.DpsqlDriver;
import org.dpsql.ledger.LedgerAudit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connections of one analyst opened, used and closed from many threads at once, as connection
 * pools and BI tools do, through the dpsql remote driver ({@code jdbc:dpsql:remote:url=...}).
 *
 * <p>Each thread repeats: open a connection, create a statement, run two distinct paid statements,
 * close. Two analysts run the same load side by side, and a sampler thread checks at every moment
 * that the server's count of each analyst's open connections lies between what the clients know
 * to be open for sure and what they may have open (so it is exact up to calls in flight) and never
 * exceeds the per-analyst limit. Afterwards: no connection was lost, every connection closed
 * cleanly, every answer was charged once, and each analyst's ledger equals the sum of their
 * answers' costs.
 *
 * <p>The default build runs 8 rounds per thread, the long profile ({@code -Plong}) the 50;
 * with {@code -Ddpsql.soak.seconds=N} the first test runs the same load for N seconds instead (the
 * soak).
 */
class ConcurrentConnectionsTest {
  private static final BigDecimal COST = new BigDecimal("0.001");
  /** The server's default per-analyst connection limit, used by the test's servers. */
  private static final int MAX_CONNECTIONS = 16;
  private static final int THREADS = 16;
  private static final int ROUNDS = 50;
  /** Rounds per thread in the default build (the long profile runs {@link #ROUNDS}). */
  private static final int SHORT_ROUNDS = 8;

  @TempDir Path dir;

  /** What the clients of one analyst did, counted as they did it. */
  private static final class Load {
    final String analyst;
    /** Distinct statement number of the analyst (each is charged once). */
    final AtomicInteger statements = new AtomicInteger();
    final AtomicInteger answers = new AtomicInteger();
    final AtomicInteger refusals = new AtomicInteger();
    final AtomicInteger lost = new AtomicInteger();
    final AtomicInteger uncleanCloses = new AtomicInteger();
    final AtomicInteger rounds = new AtomicInteger();
    /** Open calls started, open calls returned, close calls started, close calls returned. */
    final AtomicLong openStarted = new AtomicLong();
    final AtomicLong opened = new AtomicLong();
    final AtomicLong closeStarted = new AtomicLong();
    final AtomicLong closed = new AtomicLong();
    final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());

    Load(String analyst) {
      this.analyst = analyst;
    }
  }

  /** The sampler's findings. */
  private static final class Samples {
    final AtomicLong count = new AtomicLong();
    final AtomicInteger maxSeen = new AtomicInteger();
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  }

  @Test
  void sixteenThreadsOfTwoAnalystsOpenUseAndCloseConnectionsWithoutLosingAny() throws Exception {
    connectionsOfTwoAnalysts(TestScale.pick(SHORT_ROUNDS, ROUNDS),
        Long.getLong("dpsql.soak.seconds", 0));
  }

  @Test
  void whenTheBudgetRunsOutMidLoadItHoldsAndEveryConnectionStillClosesCleanly()
      throws Exception {
    budgetRunsOut(TestScale.pick(SHORT_ROUNDS, ROUNDS));
  }

  private void connectionsOfTwoAnalysts(int rounds, long soakSeconds) throws Exception {
    String backend = TestServers.demoBackend("concurrent-connections", 1000);
    BigDecimal total = new BigDecimal("1000");
    Path users = TestServers.users(dir, "bob " + total, "carol " + total);
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null))) {
      List<Load> loads = run(server, List.of(new Load("bob"), new Load("carol")), rounds,
          soakSeconds);
      for (Load load : loads) {
        assertNothingLost(load);
        int expected = soakSeconds > 0 ? load.rounds.get() * 2 : THREADS * rounds * 2;
        assertEquals(expected, load.answers.get(), load.analyst + " answers");
        assertEquals(0, load.refusals.get(), load.analyst + " refusals");
        assertLedgerEqualsAnswers(server, load, total);
      }
    }
  }

  private void budgetRunsOut(int rounds) throws Exception {
    String backend = TestServers.demoBackend("concurrent-exhaustion", 1000);
    int statements = THREADS * rounds * 2;
    // dave: a total that pays for 5/16 of his statements, then XDP01 from the total;
    // erin: a per-connection cap of 1.5 statements, so each connection's second one is refused
    int daveAffords = statements * 5 / 16;
    BigDecimal daveTotal = COST.multiply(BigDecimal.valueOf(daveAffords));
    Path users = TestServers.users(dir, "dave " + daveTotal.toPlainString(),
        "erin 10 " + COST.multiply(new BigDecimal("1.5")).toPlainString());
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null))) {
      List<Load> loads = run(server, List.of(new Load("dave"), new Load("erin")), rounds, 0);
      Load dave = loads.get(0);
      Load erin = loads.get(1);
      for (Load load : loads) {
        assertNothingLost(load);
        assertEquals(statements, load.answers.get() + load.refusals.get(),
            load.analyst + ": every statement answered or refused with XDP01");
      }
      assertEquals(daveAffords, dave.answers.get(), "dave's answers: what his total pays for");
      assertLedgerEqualsAnswers(server, dave, daveTotal);
      assertEquals(THREADS * rounds, erin.answers.get(), "erin: one answer per connection");
      assertLedgerEqualsAnswers(server, erin, new BigDecimal("10"));
    }
  }

  private static void assertNothingLost(Load load) {
    assertTrue(load.unexpected.isEmpty(), load.analyst + ": unexpected errors: "
        + load.unexpected.subList(0, Math.min(5, load.unexpected.size())));
    assertEquals(0, load.lost.get(), load.analyst + ": lost connections");
    assertEquals(0, load.uncleanCloses.get(), load.analyst + ": connections that failed to close");
    assertEquals(load.openStarted.get(), load.closed.get(), load.analyst + ": opened == closed");
  }

  private static void assertLedgerEqualsAnswers(DpsqlServer server, Load load, BigDecimal total)
      throws Exception {
    LedgerAudit audit = server.ledger().audit(load.analyst);
    assertTrue(audit.consistent(), audit.toString());
    assertEquals(load.answers.get(), audit.charged(), load.analyst + ": ledger charges");
    BigDecimal implied = COST.multiply(BigDecimal.valueOf(load.answers.get()));
    assertEquals(0, audit.balance().rho().compareTo(implied),
        load.analyst + ": spent " + audit.balance().rho() + ", answers imply " + implied);
    assertTrue(audit.balance().rho().compareTo(total) <= 0, load.analyst + " overspent");
    assertEquals(0, server.openConnections(load.analyst), load.analyst + ": connections left");
  }

  /**
   * Runs {@link #THREADS} threads per analyst, each {@code rounds} rounds (or for {@code seconds}
   * seconds when positive), with the sampler beside them.
   */
  private static List<Load> run(DpsqlServer server, List<Load> loads, int rounds, long seconds)
      throws Exception {
    String url = DpsqlDriver.REMOTE_PREFIX + "url=http://127.0.0.1:" + server.port();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS * loads.size() + 1);
    CountDownLatch go = new CountDownLatch(1);
    AtomicBoolean done = new AtomicBoolean();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Samples samples = new Samples();
    Future<?> sampler = pool.submit(() -> {
      go.await();
      while (!done.get()) {
        for (Load load : loads) {
          sample(server, load, samples);
        }
        Thread.sleep(1);
      }
      return null;
    });
    List<Future<?>> futures = new ArrayList<>();
    for (Load load : loads) {
      for (int t = 0; t < THREADS; t++) {
        futures.add(pool.submit(() -> {
          go.await();
          for (int r = 0; seconds > 0 ? System.nanoTime() < deadline : r < rounds; r++) {
            round(url, load);
          }
          return null;
        }));
      }
    }
    long start = System.nanoTime();
    go.countDown();
    try {
      for (Future<?> f : futures) {
        f.get(Math.max(600, seconds * 2), TimeUnit.SECONDS);
      }
    } finally {
      done.set(true);
      sampler.get(60, TimeUnit.SECONDS);
      pool.shutdownNow();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    for (Load load : loads) {
      System.out.printf("ConcurrentConnectionsTest: %s %d rounds (%d connections), %d answers, "
          + "%d XDP01, %d lost, %d unclean closes, %d other errors in %.1f s%n", load.analyst,
          load.rounds.get(), load.closed.get(), load.answers.get(), load.refusals.get(),
          load.lost.get(), load.uncleanCloses.get(), load.unexpected.size(), elapsed);
      synchronized (load.unexpected) {
        load.unexpected.stream().map(e -> e.replaceAll("[0-9a-f-]{36}", "<id>")).distinct()
            .limit(3).forEach(e -> System.out.println("  e.g. " + e));
      }
    }
    System.out.printf("ConcurrentConnectionsTest: %d samples, at most %d open connections of one "
        + "analyst, %d violations%n", samples.count.get(), samples.maxSeen.get(),
        samples.violations.size());
    assertTrue(samples.count.get() > 0, "the sampler ran");
    assertTrue(samples.violations.isEmpty(), "connection counts: "
        + samples.violations.subList(0, Math.min(5, samples.violations.size())));
    return loads;
  }

  /**
   * One check of an analyst's server-side count: it may not exceed the limit, nor the connections
   * whose open had started minus those whose close had returned before it was read (no
   * over-count), nor fall below those whose open had returned minus those whose close had started
   * (no under-count).
   */
  private static void sample(DpsqlServer server, Load load, Samples samples) {
    long closed = load.closed.get();
    int upperRead = server.openConnections(load.analyst);
    long openStarted = load.openStarted.get();
    long opened = load.opened.get();
    int lowerRead = server.openConnections(load.analyst);
    long closeStarted = load.closeStarted.get();
    samples.count.incrementAndGet();
    samples.maxSeen.accumulateAndGet(Math.max(upperRead, lowerRead), Math::max);
    if (upperRead > MAX_CONNECTIONS || lowerRead > MAX_CONNECTIONS) {
      samples.violations.add(load.analyst + " above the limit: " + upperRead + "/" + lowerRead);
    }
    if (upperRead > openStarted - closed) {
      samples.violations.add(load.analyst + " over-count: " + upperRead + " > "
          + (openStarted - closed));
    }
    if (lowerRead < opened - closeStarted) {
      samples.violations.add(load.analyst + " under-count: " + lowerRead + " < "
          + (opened - closeStarted));
    }
  }

  /** Open, create a statement, two distinct paid statements, close. */
  private static void round(String url, Load load) {
    Properties props = new Properties();
    props.setProperty("user", load.analyst);
    props.setProperty("password", "pw-" + load.analyst);
    load.openStarted.incrementAndGet();
    Connection c;
    try {
      c = DriverManager.getConnection(url, props);
    } catch (SQLException | RuntimeException e) {
      load.unexpected.add("open: " + describe(e));
      load.closed.incrementAndGet(); // nothing to close
      return;
    }
    load.opened.incrementAndGet();
    try (Statement s = c.createStatement()) {
      for (int q = 0; q < 2; q++) {
        String sql = statement(load.statements.getAndIncrement());
        try (ResultSet rs = s.executeQuery(sql)) {
          int rows = 0;
          while (rs.next()) {
            rs.getString(1);
            rs.getDouble(2);
            rows++;
          }
          assertEquals(3, rows, "one row per PAYMENT");
          load.answers.incrementAndGet();
        } catch (SQLException e) {
          if ("XDP01".equals(e.getSQLState())) {
            load.refusals.incrementAndGet();
          } else {
            throw e;
          }
        }
      }
    } catch (SQLException | RuntimeException e) {
      if (e instanceof SQLException s && "08003".equals(s.getSQLState())) {
        load.lost.incrementAndGet();
      }
      load.unexpected.add(describe(e));
    } finally {
      load.closeStarted.incrementAndGet();
      try {
        c.close();
      } catch (SQLException | RuntimeException e) {
        load.uncleanCloses.incrementAndGet();
        load.unexpected.add("close: " + describe(e));
      }
      load.closed.incrementAndGet();
      load.rounds.incrementAndGet();
    }
  }

  /**
   * The analyst's statement number {@code id}: a paid count per PAYMENT whose filter differs from
   * every other number's (194,400 distinct filters), so none is a free repeat.
   */
  static String statement(int id) {
    if (id >= 45 * 30 * 12 * 12) {
      throw new IllegalStateException("more statements than distinct filters");
    }
    int ageFrom = 16 + id % 45;
    int ageTo = 90 - (id / 45) % 30;
    int hourFrom = (id / 1350) % 12;
    int hourTo = 23 - id / 16200;
    return "SELECT /*+ DP(rho='" + COST + "') */ PAYMENT, COUNT(*) FROM TRIPS WHERE AGE BETWEEN "
        + ageFrom + " AND " + ageTo + " AND \"HOUR\" BETWEEN " + hourFrom + " AND " + hourTo
        + " GROUP BY PAYMENT";
  }

  private static String describe(Throwable e) {
    String state = e instanceof SQLException s ? s.getSQLState() + " " : "";
    return e.getClass().getSimpleName() + " " + state + e.getMessage();
  }
}
