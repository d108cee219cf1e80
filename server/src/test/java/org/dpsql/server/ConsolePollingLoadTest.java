package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpsql.ledger.LedgerAudit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console does not slow down charging: 8 client threads (4 analysts × 2 connections) send
 * paid private counts in rounds, alternately with and without an owner polling the console once a
 * second (one page a second, going round the analysts, one analyst's, the audit and the policy
 * page), and the throughput of the polled rounds is compared with that of the others (alternating rounds, so that the load of other processes on the machine falls on both
 * alike). The numbers are printed; the test fails if polling costs more than 15 % (the console
 * would then be taking locks that charges wait for) or if any poll or charge fails.
 */
// alone: it compares throughputs, which other classes running beside it would disturb
@org.junit.jupiter.api.parallel.Isolated
// first: JUnit's second worker takes the classes from the front, so this class waits only for the
// short class the first worker started, not for a slow class in the middle of the run
@org.junit.jupiter.api.Order(0)
@Tag("slow")
class ConsolePollingLoadTest {
  private static final int THREADS = 8;
  private static final int PER_ROUND = 40;
  /** Pairs of rounds (polled, not polled): 3 in the default build, 5 under -Plong. */
  private static final int ROUND_PAIRS = org.dpsql.TestScale.pick(3, 5);
  /** Console pages fetched each second (1 by default; -Ddpsql.consolePagesPerSecond=4: all). */
  private static final int PAGES_PER_SECOND =
      Math.max(1, Integer.getInteger("dpsql.consolePagesPerSecond", 1));
  private static final List<String> PAGES = List.of("/console", "/console/analyst?name=a0",
      "/console/audit", "/console/policy");

  @TempDir Path dir;

  @Test
  void pollingTheConsoleOnceASecondKeepsChargeThroughput() throws Exception {
    String backend = TestServers.demoBackend("console-load", 1000);
    Path users = TestServers.users(dir, "a0 100", "a1 100", "a2 100", "a3 100", "olivia owner");
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null))) {
      List<Connection> connections = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        connections.add(TestServers.connect(server, "a" + (t % 4)));
      }
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      double[] polledSeconds = new double[1];
      double[] plainSeconds = new double[1];
      AtomicInteger polls = new AtomicInteger();
      AtomicInteger answers = new AtomicInteger();
      int round = 0;
      // a warm-up round, not counted
      runRound(pool, connections, round++, answers);
      for (int pair = 0; pair < ROUND_PAIRS; pair++) {
        for (boolean polled : pair % 2 == 0 ? new boolean[] {false, true}
            : new boolean[] {true, false}) {
          AtomicBoolean stop = new AtomicBoolean();
          Thread poller = polled ? poller(server, stop, polls) : null;
          long start = System.nanoTime();
          runRound(pool, connections, round++, answers);
          double seconds = (System.nanoTime() - start) / 1e9;
          stop.set(true);
          if (poller != null) {
            poller.join(30_000);
          }
          (polled ? polledSeconds : plainSeconds)[0] += seconds;
        }
      }
      pool.shutdown();
      for (Connection c : connections) {
        c.close();
      }
      int queriesPerMode = ROUND_PAIRS * THREADS * PER_ROUND;
      double plain = queriesPerMode / plainSeconds[0];
      double polled = queriesPerMode / polledSeconds[0];
      System.out.printf("ConsolePollingLoadTest: %d paid queries per mode from %d clients; "
          + "without console polling %.1f queries/s, with %d console page(s) a second (round the "
          + "4 pages) %.1f queries/s (%+.1f %%; %d page views, all 200, mean %.0f ms)%n",
          queriesPerMode, THREADS, plain, PAGES_PER_SECOND, polled, 100 * (polled / plain - 1),
          polls.get(),
          pageMillis.get() / (double) Math.max(1, polls.get()));
      assertEquals((2 * ROUND_PAIRS + 1) * THREADS * PER_ROUND, answers.get());
      // the poller fetches a page as it starts, then one a second: at least one per polled round
      assertTrue(polls.get() >= ROUND_PAIRS, "the console was polled in every polled round");
      for (int a = 0; a < 4; a++) {
        LedgerAudit audit = server.ledger().audit("a" + a);
        assertTrue(audit.consistent());
        assertEquals(0, audit.balance().rho().compareTo(new BigDecimal("0.001")
            .multiply(BigDecimal.valueOf(audit.charged()))));
      }
      if (PAGES_PER_SECOND == 1) {
        assertTrue(polled >= 0.85 * plain, "polling the console cost more than 15 %: " + polled
            + " vs " + plain + " queries/s");
      }
    }
  }

  /** Every thread sends {@link #PER_ROUND} distinct paid counts; returns when all are answered. */
  private static void runRound(ExecutorService pool, List<Connection> connections, int round,
      AtomicInteger answers) throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Connection c = connections.get(t);
      futures.add(pool.submit(() -> {
        go.await();
        try (Statement s = c.createStatement()) {
          for (int i = 0; i < PER_ROUND; i++) {
            // distinct per round, thread and query: none is answered from an earlier release
            String sql = "SELECT /*+ DP(rho='0.001') */ COUNT(*) FROM TRIPS WHERE AGE >= "
                + (16 + i) + " AND \"HOUR\" >= " + round + " AND \"HOUR\" <= " + (16 + thread);
            try (ResultSet rs = s.executeQuery(sql)) {
              rs.next();
              answers.incrementAndGet();
            }
          }
        }
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : futures) {
      f.get(300, TimeUnit.SECONDS);
    }
  }

  private static final java.util.concurrent.atomic.AtomicLong pageMillis =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * A thread that GETs one console page a second as the owner, going round the four pages, until
   * stopped.
   */
  private static Thread poller(DpsqlServer server, AtomicBoolean stop, AtomicInteger polls) {
    HttpClient http = HttpClient.newHttpClient();
    String auth = "Basic " + Base64.getEncoder().encodeToString(
        "olivia:pw-olivia".getBytes(StandardCharsets.UTF_8));
    Thread t = new Thread(() -> {
      try {
        // the first page is fetched even if the round ends before this thread runs
        for (int i = 0; i == 0 || !stop.get(); ) {
          long next = System.nanoTime() + 1_000_000_000L;
          for (int k = 0; k < PAGES_PER_SECOND && (i == 0 || !stop.get()); k++, i++) {
            String page = PAGES.get(i % PAGES.size());
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + page))
                .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
              throw new IllegalStateException(page + ": HTTP " + r.statusCode());
            }
            polls.incrementAndGet();
            pageMillis.addAndGet((System.nanoTime() - t0) / 1_000_000);
          }
          while (!stop.get() && System.nanoTime() < next) {
            Thread.sleep(10);
          }
        }
      } catch (Exception e) {
        polls.set(Integer.MIN_VALUE); // fails the test's check
        throw new RuntimeException(e);
      }
    }, "console-poller");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
