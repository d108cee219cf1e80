package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpsql.ledger.LedgerAudit;
import org.dpsql.ledger.LedgerStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the server as a separate process ({@code DpsqlServer} main, demo backend, file ledger),
 * streams private queries at it from client threads of two analysts, and kills it with SIGKILL at
 * a random moment, 20 times under -Plong (3 in the default build). After every kill the ledger opens, every analyst's balance agrees
 * with their ledger rows, and the ledger has recorded at least every answer the clients received;
 * the audit log (beside the ledger) is whole JSON lines and has a charged {@code ok} line for at
 * least every answer received.
 */
@org.junit.jupiter.api.Order(2) // among the slowest: started first
@Tag("slow")
class ServerCrashTest {
  /** SIGKILLs of the server: 3 in the default build, 20 under -Plong. */
  private static final int KILLS = org.dpsql.TestScale.pick(3, 20);
  private static final String[] ANALYSTS = {"k0", "k1"};
  private static final int THREADS_PER_ANALYST = 2;
  private static final BigDecimal COST = new BigDecimal("0.001");
  private static final Pattern LISTENING =
      Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");

  @TempDir Path dir;

  @Test
  void everyAnswerReceivedIsInTheLedgerAfterEverySigkill() throws Exception {
    Path users = TestServers.users(dir, "k0 1000", "k1 1000");
    Path ledger = dir.resolve("ledger");
    String ledgerUrl = LedgerStore.h2File(ledger);
    SplittableRandom random = new SplittableRandom(20240607L);
    long[] recordedBefore = new long[ANALYSTS.length];
    long[] receivedTotal = new long[ANALYSTS.length];
    long[] auditedTotal = new long[ANALYSTS.length];
    long startedAt = System.nanoTime();
    for (int round = 0; round < KILLS; round++) {
      Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
          "-cp", System.getProperty("java.class.path"), DpsqlServer.class.getName(),
          "--demo", "--demo-rows", "500", "--users", users.toString(),
          "--ledger", ledger.toString(), "--port", "0")
          .redirectError(dir.resolve("server-" + round + ".err").toFile())
          .start();
      CompletableFuture<Integer> port = new CompletableFuture<>();
      Thread out = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(
            new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
              port.complete(Integer.parseInt(m.group(1)));
            }
          }
        } catch (Exception e) {
          // the pipe breaks when the server dies
        }
        port.complete(-1);
      });
      out.start();
      int p = port.get(60, TimeUnit.SECONDS);
      assertTrue(p > 0, "round " + round + ": the server did not start (see server-" + round
          + ".err)");

      AtomicLongArray received = new AtomicLongArray(ANALYSTS.length);
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> clients = new ArrayList<>();
      for (int a = 0; a < ANALYSTS.length; a++) {
        for (int t = 0; t < THREADS_PER_ANALYST; t++) {
          int analyst = a;
          Thread c = new Thread(() -> stream(p, analyst, received, stop));
          c.start();
          clients.add(c);
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (received.get(0) + received.get(1) == 0 && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
      assertTrue(received.get(0) + received.get(1) > 0, "round " + round + ": no answer");
      Thread.sleep(random.nextInt(400));
      server.destroyForcibly();
      assertTrue(server.waitFor(10, TimeUnit.SECONDS), "round " + round + ": still alive");
      assertEquals(128 + 9, server.exitValue(), "round " + round + ": not ended by SIGKILL");
      stop.set(true);
      for (Thread c : clients) {
        c.join(30_000);
        assertTrue(!c.isAlive(), "a client thread hangs");
      }
      out.join(10_000);

      try (LedgerStore store = LedgerStore.open(ledgerUrl, new Properties())) {
        assertEquals(List.of(ANALYSTS), store.analysts());
        for (int a = 0; a < ANALYSTS.length; a++) {
          LedgerAudit audit = store.audit(ANALYSTS[a]);
          assertNotNull(audit);
          assertTrue(audit.consistent(), "round " + round + ": " + audit);
          long recorded = audit.charged() - recordedBefore[a];
          assertTrue(recorded >= received.get(a), "round " + round + ", " + ANALYSTS[a]
              + ": the ledger recorded " + recorded + " charges but the clients received "
              + received.get(a) + " answers");
          assertEquals(0, audit.balance().rho().compareTo(
              COST.multiply(BigDecimal.valueOf(audit.charged()))), audit.toString());
          recordedBefore[a] = audit.charged();
          receivedTotal[a] += received.get(a);
        }
      }
      long[] audited = chargedAnswersInAudit(dir.resolve(ServerOptions.DEFAULT_AUDIT));
      for (int a = 0; a < ANALYSTS.length; a++) {
        assertTrue(audited[a] >= receivedTotal[a], "round " + round + ", " + ANALYSTS[a]
            + ": the audit log has " + audited[a] + " charged answers, the clients received "
            + receivedTotal[a]);
        auditedTotal[a] = audited[a];
      }
    }
    System.out.printf("ServerCrashTest: %d SIGKILLs of the server in %.1f s; answers received "
        + "%d and %d, charges recorded %d and %d, charged ok lines in the audit %d and %d "
        + "(recorded >= received after every kill)%n",
        KILLS, (System.nanoTime() - startedAt) / 1e9, receivedTotal[0], receivedTotal[1],
        recordedBefore[0], recordedBefore[1], auditedTotal[0], auditedTotal[1]);
  }

  /** Per analyst, the audit lines of answered statements that charged budget. */
  private static long[] chargedAnswersInAudit(Path file) throws Exception {
    ObjectMapper json = new ObjectMapper();
    long[] n = new long[ANALYSTS.length];
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      JsonNode l = json.readTree(line); // a line cut by the kill would fail here
      int a = List.of(ANALYSTS).indexOf(l.get("analyst").asText());
      if (a >= 0 && l.get("outcome").asText().equals("ok")
          && new BigDecimal(l.get("cost").get("rho").asText()).signum() > 0) {
        n[a]++;
      }
    }
    return n;
  }

  /**
   * One client: connects as the analyst and sends distinct private counts until {@code stop},
   * counting the answers it received; reconnects after a refusal for budget or a broken link.
   */
  /** Statements sent per analyst, over all connections and server restarts. */
  private static final java.util.concurrent.atomic.AtomicIntegerArray SENT =
      new java.util.concurrent.atomic.AtomicIntegerArray(ANALYSTS.length);

  private static void stream(int port, int analyst, AtomicLongArray received, AtomicBoolean stop) {
    String url = "jdbc:avatica:remote:url=http://127.0.0.1:" + port
        + ";serialization=protobuf;authentication=BASIC;avatica_user=" + ANALYSTS[analyst]
        + ";avatica_password=pw-" + ANALYSTS[analyst];
    while (!stop.get()) {
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        // each statement distinct over the whole test (an analyst's releases survive restarts and
        // are shared by their connections: a repeated statement would be free), so each answer
        // is a charge
        for (int i = 0; i < 1000 && !stop.get(); i++) {
          int k = SENT.incrementAndGet(analyst) - 1;
          if (k >= 70 * 24) {
            throw new IllegalStateException("out of distinct statements");
          }
          String sql = "SELECT /*+ DP(rho='0.001') */ COUNT(*) FROM TRIPS WHERE AGE >= "
              + (16 + k % 70) + " AND \"HOUR\" >= " + (k / 70);
          try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            rs.getLong(1);
            received.incrementAndGet(analyst);
          }
        }
      } catch (SQLException | RuntimeException e) {
        // the server died mid-call, or the connection's cap is spent: open a new connection
        try {
          Thread.sleep(5);
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }
}
