package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 16 client threads (4 analysts × 4 connections) each send 50 distinct private counts costing
 * ρ = 0.01 against analyst budgets of ρ = 1: exactly 100 answers and 100 XDP01 refusals per
 * analyst, and the ledger holds exactly the spend implied by the answers received.
 */
class ServerLoadTest {
  @TempDir Path dir;

  @Test
  void sixteenClientsNeverOverspendAndRefusalsAreExactlyAsPredicted() throws Exception {
    String backend = TestServers.demoBackend("load-test", 5000);
    String[] analysts = {"a0", "a1", "a2", "a3"};
    Path users = TestServers.users(dir, "a0 1", "a1 1", "a2 1", "a3 1");
    int threads = 16;
    int perThread = 50;
    AtomicIntegerArray answers = new AtomicIntegerArray(analysts.length);
    AtomicIntegerArray refusals = new AtomicIntegerArray(analysts.length);
    AtomicIntegerArray other = new AtomicIntegerArray(analysts.length);
    long[] latencies = new long[threads * perThread];
    long elapsed;
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null))) {
      List<Connection> connections = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        connections.add(TestServers.connect(server, analysts[t % analysts.length]));
      }
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        int analyst = t % analysts.length;
        Connection c = connections.get(t);
        futures.add(pool.submit(() -> {
          go.await();
          try (Statement s = c.createStatement()) {
            for (int i = 0; i < perThread; i++) {
              String sql = "SELECT /*+ DP(rho='0.01') */ COUNT(*) FROM TRIPS WHERE AGE >= "
                  + (16 + i) + " AND \"HOUR\" >= " + (thread % 24);
              long start = System.nanoTime();
              try (ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                rs.getLong(1);
                answers.incrementAndGet(analyst);
              } catch (SQLException e) {
                if ("XDP01".equals(e.getSQLState())) {
                  refusals.incrementAndGet(analyst);
                } else {
                  other.incrementAndGet(analyst);
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
        f.get(120, TimeUnit.SECONDS);
      }
      elapsed = System.nanoTime() - start;
      pool.shutdown();
      for (Connection c : connections) {
        c.close();
      }
      for (int a = 0; a < analysts.length; a++) {
        assertEquals(0, other.get(a), "unexpected errors for " + analysts[a]);
        assertEquals(100, answers.get(a), analysts[a]);
        assertEquals(100, refusals.get(a), analysts[a]);
        LedgerAudit audit = server.ledger().audit(analysts[a]);
        assertTrue(audit.consistent(), audit.toString());
        assertEquals(answers.get(a), audit.charged());
        BigDecimal implied = new BigDecimal("0.01").multiply(BigDecimal.valueOf(answers.get(a)));
        assertEquals(0, audit.balance().rho().compareTo(implied));
        assertTrue(audit.balance().rho().compareTo(BigDecimal.ONE) <= 0);
      }
    }
    Arrays.sort(latencies);
    double seconds = elapsed / 1e9;
    System.out.printf("ServerLoadTest: %d queries from %d clients in %.2f s = %.0f queries/s; "
        + "latency p50 %.1f ms, p99 %.1f ms (answers and refusals together)%n",
        latencies.length, threads, seconds, latencies.length / seconds,
        latencies[latencies.length / 2] / 1e6, latencies[(int) (latencies.length * 0.99)] / 1e6);
  }
}
