package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.dpsql.ledger.LedgerAudit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load: 16 client threads (4 analysts × 4 connections, opened at the same moment when
 * the load starts) each send 200 distinct private
 * counts costing ρ = 0.01, against four different analyst budgets, one of them also capped per
 * connection. For every analyst the ledger afterwards holds exactly the spend implied by the answers
 * received, never more than the budget, and the numbers of answers and XDP01 refusals (in total and
 * per connection) are exactly what the budget arithmetic predicts.
 */
// alone: it measures latency, which other classes running beside it would disturb
@org.junit.jupiter.api.parallel.Isolated
// first: JUnit's second worker takes the classes from the front, so this class waits only for the
// short class the first worker started, not for a slow class in the middle of the run
@org.junit.jupiter.api.Order(0)
@Tag("slow")
class ServerLoadTest {
  private static final BigDecimal COST = new BigDecimal("0.01");
  /** The demo policy's per-connection budget ρ. */
  private static final BigDecimal POLICY_PER_CONNECTION = BigDecimal.ONE;

  @TempDir Path dir;

  /** An analyst of the test: name, total ρ, and per-connection cap ρ (null: the policy's). */
  private record Budget(String name, BigDecimal total, BigDecimal cap) {
    String usersEntry() {
      return name + " " + total.toPlainString() + (cap == null ? "" : " " + cap.toPlainString());
    }

    /** Answers one connection that sends {@code queries} can get at most, by its cap alone. */
    int perConnectionLimit(int queries) {
      BigDecimal c = cap == null ? POLICY_PER_CONNECTION : cap.min(POLICY_PER_CONNECTION);
      return Math.min(queries, c.divide(COST, 0, RoundingMode.FLOOR).intValueExact());
    }

    /**
     * Answers the analyst gets in all: charges are refused only when the total or the charging
     * connection's cap is used up, so either the total is spent or every connection reached its
     * cap or its last query.
     */
    int predictedAnswers(int connections, int queries) {
      int byTotal = total.divide(COST, 0, RoundingMode.FLOOR).intValueExact();
      return Math.min(byTotal, connections * perConnectionLimit(queries));
    }
  }

  @Test
  void sixteenClientsTimesTwoHundredQueriesNeverOverspendAndRefusalsAreAsPredicted()
      throws Exception {
    String backend = TestServers.demoBackend("load-test", 1000);
    Budget[] budgets = {
        new Budget("a0", new BigDecimal("1"), null),
        new Budget("a1", new BigDecimal("2"), null),
        new Budget("a2", new BigDecimal("8"), new BigDecimal("0.5")),
        new Budget("a3", new BigDecimal("0.5"), null)};
    Path users = TestServers.users(dir, Arrays.stream(budgets).map(Budget::usersEntry)
        .toArray(String[]::new));
    int threads = 16;
    int perThread = 200;
    int connectionsPerAnalyst = threads / budgets.length;
    AtomicIntegerArray answers = new AtomicIntegerArray(budgets.length);
    AtomicIntegerArray refusals = new AtomicIntegerArray(budgets.length);
    AtomicIntegerArray other = new AtomicIntegerArray(budgets.length);
    int[] answersPerThread = new int[threads];
    long[] latencies = new long[threads * perThread];
    List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
    long elapsed;
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null))) {
      // each client opens its connection when the load starts, all at once, as a pool does
      List<Connection> connections =
          java.util.Collections.synchronizedList(new ArrayList<>());
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        int analyst = t % budgets.length;
        futures.add(pool.submit(() -> {
          go.await();
          Connection c = TestServers.connect(server, budgets[analyst].name());
          connections.add(c);
          try (Statement s = c.createStatement()) {
            for (int i = 0; i < perThread; i++) {
              // 200 distinct statements per connection, and distinct across the analyst's
              // connections (thread / 4): a repeated one would be free, as the analyst's
              // releases are shared by their connections
              String sql = "SELECT /*+ DP(rho='0.01') */ COUNT(*) FROM TRIPS WHERE AGE >= "
                  + (16 + i % 50) + " AND \"HOUR\" >= " + (i / 50) + " AND \"HOUR\" <= "
                  + (20 + thread / 4);
              long start = System.nanoTime();
              try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                rs.getLong(1);
                answers.incrementAndGet(analyst);
                answersPerThread[thread]++;
              } catch (SQLException e) {
                if ("XDP01".equals(e.getSQLState())) {
                  refusals.incrementAndGet(analyst);
                } else {
                  other.incrementAndGet(analyst);
                  unexpected.add(e.getSQLState() + ": " + e.getMessage());
                }
              }
              latencies[thread * perThread + i] = System.nanoTime() - start;
            }
          }
          return null;
        }));
      }
      long start = System.nanoTime();
      go.countDown();
      for (Future<?> f : futures) {
        f.get(180, TimeUnit.SECONDS);
      }
      elapsed = System.nanoTime() - start;
      pool.shutdown();
      for (Connection c : connections) {
        c.close();
      }
      assertTrue(unexpected.isEmpty(), "unexpected errors: " + unexpected);
      for (int a = 0; a < budgets.length; a++) {
        Budget b = budgets[a];
        int predicted = b.predictedAnswers(connectionsPerAnalyst, perThread);
        assertEquals(0, other.get(a), "unexpected errors for " + b.name());
        assertEquals(predicted, answers.get(a), b.name() + " answers");
        assertEquals(connectionsPerAnalyst * perThread - predicted, refusals.get(a),
            b.name() + " XDP01 refusals");
        LedgerAudit audit = server.ledger().audit(b.name());
        assertTrue(audit.consistent(), audit.toString());
        assertEquals(answers.get(a), audit.charged(), b.name() + " ledger charges");
        BigDecimal implied = COST.multiply(BigDecimal.valueOf(answers.get(a)));
        assertEquals(0, audit.balance().rho().compareTo(implied), b.name() + " spent");
        assertTrue(audit.balance().rho().compareTo(b.total()) <= 0, b.name() + " overspent");
        if (b.cap() != null) {
          // the cap binds before the total: every connection got exactly its cap's worth
          for (int t = a; t < threads; t += budgets.length) {
            assertEquals(b.perConnectionLimit(perThread), answersPerThread[t],
                b.name() + " connection " + t);
          }
        }
      }
    }
    long[] sorted = latencies.clone();
    Arrays.sort(sorted);
    double seconds = elapsed / 1e9;
    int totalAnswers = 0;
    for (int a = 0; a < budgets.length; a++) {
      totalAnswers += answers.get(a);
    }
    System.out.printf("ServerLoadTest: %d queries (%d answers, %d XDP01 refusals) from %d clients "
        + "in %.2f s = %.0f queries/s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
        sorted.length, totalAnswers, sorted.length - totalAnswers, threads, seconds,
        sorted.length / seconds, sorted[sorted.length / 2] / 1e6,
        sorted[(int) (sorted.length * 0.99)] / 1e6, sorted[sorted.length - 1] / 1e6);
  }
}
