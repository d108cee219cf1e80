package org.dpsql.server;

import static org.dpsql.server.TestServers.connect;
import static org.dpsql.server.TestServers.hash;
import static org.dpsql.server.TestServers.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.ledger.LedgerAudit;
import org.dpsql.ledger.LedgerStore;
import org.dpsql.server.console.Formats;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Server mode for real deployments: δ budgets under zCDP (private partition selection over the
 * thin client, δ charged and shown in the console), the users file re-read while connections keep
 * working, {@code /health} and {@code /metrics} read by real clients (the metrics parsed by the
 * Prometheus Python client's text-format parser), and graceful shutdown.
 */
@org.junit.jupiter.api.Order(4) // among the slowest: started first
class ServerOperationsTest {
  @TempDir Path dir;

  /** GROUP BY over the demo's keys: private column. */
  private static final String PARTITIONS =
      "SELECT PICKUP_ZONE, COUNT(*) FROM TRIPS GROUP BY PICKUP_ZONE";
  /** The δ one partition selection charges by default (the demo policy's default_query.delta). */
  private static final BigDecimal QUERY_DELTA = new BigDecimal("1e-11");

  private static String user(String name, String budget, String extra) {
    return "  " + name + ":\n    password: " + hash("pw-" + name) + "\n"
        + (budget == null ? "" : "    budget: " + budget + "\n") + (extra == null ? "" : extra);
  }

  /** Writes {@code yaml} to {@code file} atomically (as an editor saving by rename does). */
  private static void write(Path file, String yaml) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, yaml, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private DpsqlServer start(String backendName, Path users) throws Exception {
    String backend = TestServers.demoBackend(backendName, 1000);
    return DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), 7L));
  }

  private static HttpResponse<String> get(DpsqlServer server, String path, String user)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + path)).GET();
    if (user != null) {
      b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          (user + ":pw-" + user).getBytes(StandardCharsets.UTF_8)));
    }
    return HttpClient.newHttpClient().send(b.build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static int rows(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = 0;
      while (rs.next()) {
        n++;
      }
      return n;
    }
  }

  @Test
  void partitionSelectionOverTheThinClientChargesDeltaShownInTheConsole() throws Exception {
    Path users = dir.resolve("users.yaml");
    write(users, "analysts:\n" + user("alice", "{rho: 1, delta: 4e-10}", null)
        + user("bob", "{rho: 1}", null) + user("olivia", null, "    role: owner\n"));
    try (DpsqlServer server = start("ops-delta", users);
        Connection alice = connect(server, "alice");
        Connection bob = connect(server, "bob")) {
      rows(alice, PARTITIONS); // the zones enough riders use (few or none in this small data)
      LedgerAudit a = server.ledger().audit("alice");
      assertEquals(0, a.balance().delta().compareTo(QUERY_DELTA), a.balance().toString());
      assertEquals(0, a.balance().rho().compareTo(new BigDecimal("0.02")), a.balance().toString());
      assertTrue(a.consistent());

      // an analyst whose budget has no δ is refused, naming the fix, and charged nothing
      SQLException refused = assertThrows(SQLException.class, () -> rows(bob, PARTITIONS));
      assertEquals("XDP05", refused.getSQLState());
      assertTrue(refused.getMessage().contains("users file need a delta"), refused.getMessage());
      assertEquals(PrivacyCost.ZERO, server.ledger().audit("bob").balance());

      // the console shows δ spent and granted, on the analysts page and the analyst's page
      HttpResponse<String> page = get(server, "/console/analyst?name=alice", "olivia");
      assertEquals(200, page.statusCode());
      assertTrue(page.body().contains("id=\"delta-spent\">" + Formats.exact(QUERY_DELTA) + "<"),
          page.body());
      assertTrue(page.body().contains("id=\"delta-total\">"
          + Formats.exact(new BigDecimal("4e-10")) + "<"), page.body());
      HttpResponse<String> list = get(server, "/console", "olivia");
      assertTrue(list.body().contains("class=\"num delta-spent\">" + Formats.exact(QUERY_DELTA)
          + "<"), list.body());
    }
  }

  @Test
  void aBudgetWithMoreDeltaThanThePolicyCanReportIsRefusedAtStart() throws Exception {
    Path users = dir.resolve("users.yaml");
    // the demo policy reports ε at δ = 1e-9: an analyst may spend at most half of it
    write(users, "analysts:\n" + user("alice", "{rho: 1, delta: 6e-10}", null));
    String backend = TestServers.demoBackend("ops-bad-delta", 200);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DpsqlServer.start(TestServers.options(backend, users, dir.resolve("l2"), 7L)));
    assertTrue(e.getMessage().contains("analysts.alice.budget.delta"), e.getMessage());
  }

  @Test
  void usersFileEditsArePickedUpWhileAnotherAnalystsConnectionKeepsWorking() throws Exception {
    Path users = dir.resolve("users.yaml");
    String bobEntry = user("bob", "{rho: 0.05}", null);
    String daveEntry = user("dave", "{rho: 1}", null);
    String eveEntry = user("eve", "{rho: 1}", null);
    write(users, "analysts:\n" + user("alice", "{rho: 1}", null) + bobEntry + daveEntry
        + eveEntry + user("olivia", null, "    role: owner\n"));
    try (DpsqlServer server = start("ops-reload", users);
        Connection bob = connect(server, "bob");
        Connection dave = connect(server, "dave")) {
      Connection eve = connect(server, "eve"); // closed by the server below
      String query = "SELECT COUNT(*) FROM TRIPS WHERE FARE > ";
      single(bob, query + 1); // ρ 0.02 of 0.05 (each new statement is paid; a repeated one free)
      single(dave, query + 1);
      single(dave, query + 2); // dave spent ρ 0.04
      single(eve, query + 1);
      try (Connection alice = connect(server, "alice")) { // her login is now remembered
        single(alice, "SELECT 1");
      }
      assertThrows(Exception.class, () -> connect(server, "carol"));

      // the owner edits the file: carol added, alice's password changed, bob's budget raised,
      // dave's lowered below what he spent, eve removed
      String edited = "analysts:\n"
          + "  alice:\n    password: " + hash("new-pw") + "\n    budget: {rho: 1}\n"
          + bobEntry.replace("{rho: 0.05}", "{rho: 0.5}")
          + daveEntry.replace("{rho: 1}", "{rho: 0.03}")
          + user("carol", "{rho: 1}", null) + user("olivia", null, "    role: owner\n");
      write(users, edited);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (!server.users().analysts().containsKey("carol")) {
        if (System.nanoTime() > deadline) {
          fail("the edited users file was not picked up");
        }
        single(bob, "SELECT 1"); // bob's connection keeps working meanwhile (free)
        Thread.sleep(50);
      }

      // bob's connection, opened before the edit, still works and can now spend the raised budget
      for (int i = 2; i < 5; i++) {
        single(bob, query + i);
      }
      assertEquals(0, server.ledger().audit("bob").balance().rho()
          .compareTo(new BigDecimal("0.08")));
      // carol can log in; alice only with her new password
      try (Connection carol = connect(server, "carol")) {
        single(carol, query + 1);
      }
      assertThrows(Exception.class, () -> connect(server, "alice")); // remembered, yet refused
      try (Connection alice = connect(server, "alice", "new-pw", new java.util.Properties())) {
        single(alice, query + 1);
      }
      // dave's lowered budget was refused and his old entry kept: he still has ρ 1
      assertEquals(PrivacyCost.zcdp(BigDecimal.ONE), server.users().analysts().get("dave").total());
      single(dave, query + 3);
      // eve's open connection was closed, and she can no longer log in
      assertThrows(Exception.class, () -> single(eve, query + 2));
      assertThrows(Exception.class, () -> connect(server, "eve"));
      String metrics = get(server, "/metrics", "olivia").body();
      assertTrue(metrics.contains("\ndpsql_open_connections 2"), "bob's and dave's: " + metrics);
      assertTrue(metrics.contains("dpsql_users_file_reloads_total{outcome=\"applied_partly\"} 1"),
          metrics);

      // an invalid file is refused whole: everything stays in force
      write(users, "analysts: [nonsense]\n");
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (!get(server, "/metrics", "olivia").body()
          .contains("dpsql_users_file_reloads_total{outcome=\"invalid\"} 1")) {
        if (System.nanoTime() > deadline) {
          fail("the invalid users file was not seen");
        }
        Thread.sleep(50);
      }
      single(bob, query + 5);
      assertTrue(server.users().analysts().containsKey("carol"));
      try {
        eve.close(); // the client's side only: the server closed it and refuses eve
      } catch (SQLException expected) {
        // HTTP 401
      }
    }
  }

  @Test
  void healthAndMetricsAreReadByRealClients() throws Exception {
    Path users = dir.resolve("users.yaml");
    write(users, "analysts:\n" + user("alice", "{rho: 1, delta: 4e-10}", null)
        + user("olivia", null, "    role: owner\n"));
    try (DpsqlServer server = start("ops-metrics", users)) {
      HttpResponse<String> health = get(server, "/health", null);
      assertEquals(200, health.statusCode());
      assertEquals("{\"status\":\"up\",\"ledger\":\"up\",\"backend\":\"up\"}", health.body().trim());

      try (Connection alice = connect(server, "alice")) {
        single(alice, "SELECT COUNT(*) FROM TRIPS");
        single(alice, "SELECT COUNT(*) FROM TRIPS");
        rows(alice, PARTITIONS);
        assertThrows(SQLException.class, () -> single(alice, "SELECT nonsense FROM TRIPS"));
        assertEquals(401, get(server, "/metrics", null).statusCode());
        assertEquals(403, get(server, "/metrics", "alice").statusCode());
        HttpResponse<String> scrape = get(server, "/metrics", "olivia");
        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.headers().firstValue("Content-Type").orElse("")
            .startsWith("text/plain; version=0.0.4"), scrape.headers().toString());

        Map<String, Double> samples = PrometheusParser.parse(scrape.body());
        String ok = "dpsql_statements_total{kind=prepare_and_execute,outcome=ok,sqlstate=00000}";
        assertEquals(3.0, samples.get(ok), samples.toString());
        String failed = samples.keySet().stream().filter(k -> k.startsWith(
            "dpsql_statements_total{kind=prepare_and_execute,outcome=error,sqlstate=42"))
            .findFirst().orElseThrow(() -> new AssertionError(samples.toString()));
        assertEquals(1.0, samples.get(failed));
        LedgerAudit a = server.ledger().audit("alice");
        assertEquals(a.balance().rho().doubleValue(),
            samples.get("dpsql_rho_charged_total{analyst=alice}"), 1e-12);
        assertEquals(a.balance().delta().doubleValue(),
            samples.get("dpsql_delta_charged_total{analyst=alice}"), 1e-24);
        assertEquals(4.0, samples.get(
            "dpsql_statement_duration_seconds_count{kind=prepare_and_execute}"));
        assertEquals(4.0, samples.get(
            "dpsql_statement_duration_seconds_bucket{kind=prepare_and_execute,le=+Inf}"));
        assertEquals(1.0, samples.get("dpsql_open_connections"));
        assertEquals(0.0, samples.get("dpsql_ledger_write_failures_total"));
      }
    }
  }

  @Test
  void healthIsDownWhenThePartsAreUnreachableAndSaysNothingMore() throws Exception {
    Server jetty = new Server(0);
    jetty.setHandler(new HealthHandler(() -> true, () -> false));
    jetty.start();
    try {
      int port = ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/health")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(503, r.statusCode());
      assertEquals("{\"status\":\"down\",\"ledger\":\"up\",\"backend\":\"down\"}", r.body().trim());
    } finally {
      jetty.stop();
    }
  }

  @Test
  void closingLetsTheRunningStatementFinishThenClosesTheLedger() throws Exception {
    Path users = dir.resolve("users.yaml");
    write(users, "analysts:\n" + user("alice", "{rho: 1}", null));
    String backend = TestServers.demoBackend("ops-graceful", 1000);
    try (Connection admin = DriverManager.getConnection(backend);
        Statement s = admin.createStatement()) {
      s.execute("CREATE TRIGGER GATE BEFORE SELECT ON TRIPS CALL '" + Gate.class.getName() + "'");
    }
    DpsqlServer server = DpsqlServer.start(TestServers.options(backend, users,
        dir.resolve("ledger"), 7L));
    CompletableFuture<Void> stopped = null;
    try (Connection alice = connect(server, "alice")) {
      Gate.arm();
      CompletableFuture<Object> answer = CompletableFuture.supplyAsync(() -> {
        Object value;
        try {
          Statement st = alice.createStatement();
          ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM TRIPS");
          rs.next();
          value = rs.getObject(1);
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
        return value; // closing the statement afterwards would find the server stopped
      });
      assertTrue(Gate.entered.await(20, TimeUnit.SECONDS), "the statement reached the backend");
      stopped = CompletableFuture.runAsync(() -> {
        try {
          server.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      // the server stops accepting while the statement runs, and waits for it
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      boolean refusing = false;
      while (!refusing && System.nanoTime() < deadline) {
        try (java.net.Socket probe = new java.net.Socket("127.0.0.1", server.port())) {
          Thread.sleep(20);
        } catch (IOException e) {
          refusing = true;
        }
      }
      assertTrue(refusing, "new connections are refused once stopping");
      assertFalse(stopped.isDone(), "the stop waits for the running statement");
      Gate.release();
      assertTrue(((Number) answer.get(20, TimeUnit.SECONDS)).longValue() > 0,
          "the running statement's answer reached the client");
    } catch (SQLException closing) {
      // closing the thin connection after the stop cannot reach the server: expected
    } finally {
      Gate.release();
    }
    assertTrue(stopped != null, "the server was stopped");
    stopped.get(30, TimeUnit.SECONDS);
    // the ledger was closed (the file lock released): another process may open it now
    try (LedgerStore reopened = LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")),
        new java.util.Properties())) {
      assertEquals(0, reopened.audit("alice").balance().rho().compareTo(new BigDecimal("0.02")));
    }
  }

  @Test
  @Tag("slow") // spawns a server JVM: about 5 s idle, up to 30 s on a loaded machine
  void sigtermStopsTheServerProcessAndClosesTheLedger() throws Exception {
    Path users = dir.resolve("users.yaml");
    write(users, "analysts:\n" + user("alice", "{rho: 1}", null));
    Path ledger = dir.resolve("ledger");
    Path err = dir.resolve("server.err");
    Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), DpsqlServer.class.getName(),
        "--demo", "--demo-rows", "300", "--users", users.toString(),
        "--ledger", ledger.toString(), "--port", "0", "--shutdown-timeout", "5")
        .redirectError(err.toFile())
        .start();
    try {
      java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(
          server.getInputStream(), StandardCharsets.UTF_8));
      java.util.regex.Pattern listening =
          java.util.regex.Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
      int port = -1;
      for (String line = out.readLine(); line != null && port < 0; line = out.readLine()) {
        java.util.regex.Matcher m = listening.matcher(line);
        if (m.find()) {
          port = Integer.parseInt(m.group(1));
        }
      }
      assertTrue(port > 0, "the server did not start: " + Files.readString(err));
      try (Connection alice = DriverManager.getConnection("jdbc:avatica:remote:url=http://"
          + "127.0.0.1:" + port + ";serialization=protobuf;authentication=BASIC;"
          + "avatica_user=alice;avatica_password=pw-alice")) {
        assertTrue(((Number) single(alice, "SELECT COUNT(*) FROM TRIPS")).longValue() > 0);
      }
      server.destroy(); // SIGTERM
      assertTrue(server.waitFor(30, TimeUnit.SECONDS), "the server stopped");
      assertEquals(143, server.exitValue(), "exit status of a JVM ended by SIGTERM");
      String log = Files.readString(err);
      assertTrue(log.contains("dpsql-server: stopping; waiting up to 5 s")
          && log.contains("dpsql-server: stopped; ledger and audit log closed"), log);
    } finally {
      server.destroyForcibly();
    }
    try (LedgerStore reopened = LedgerStore.open(LedgerStore.h2File(ledger),
        new java.util.Properties())) {
      assertEquals(0, reopened.audit("alice").balance().rho().compareTo(new BigDecimal("0.02")));
    }
  }

  /** An H2 SELECT trigger that holds a statement on TRIPS while armed, until released. */
  public static final class Gate implements org.h2.api.Trigger {
    static volatile boolean armed;
    static volatile CountDownLatch entered = new CountDownLatch(1);
    static volatile CountDownLatch open = new CountDownLatch(1);

    static void arm() {
      entered = new CountDownLatch(1);
      open = new CountDownLatch(1);
      armed = true;
    }

    static void release() {
      armed = false;
      open.countDown();
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
      if (armed) {
        entered.countDown();
        try {
          open.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * The Prometheus text format parsed by the Prometheus Python client's parser ({@code
   * prometheus_client.parser.text_string_to_metric_families}; Debian's python3-prometheus-client):
   * no Java parser of the text format is published by the Prometheus project.
   */
  static final class PrometheusParser {
    private static final String SCRIPT = String.join("\n",
        "import sys",
        "from prometheus_client.parser import text_string_to_metric_families",
        "for family in text_string_to_metric_families(sys.stdin.read()):",
        "    for s in family.samples:",
        "        labels = ','.join(k + '=' + v for k, v in sorted(s.labels.items()))",
        "        print(s.name + ('{' + labels + '}' if labels else '') + '\\t' + repr(s.value))");

    /** Debian's python3, where its python3-prometheus-client is installed. */
    private static final String PYTHON =
        Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";

    /** Samples by {@code name{label=value,...}} (labels sorted), or the test is skipped. */
    static Map<String, Double> parse(String text) throws Exception {
      Process p;
      try {
        p = new ProcessBuilder(PYTHON, "-c", "import prometheus_client.parser")
            .redirectErrorStream(true).start();
        Assumptions.assumeTrue(p.waitFor() == 0, "python3-prometheus-client is not installed");
      } catch (IOException e) {
        Assumptions.abort("python3 is not installed");
      }
      p = new ProcessBuilder(PYTHON, "-c", SCRIPT).start();
      p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), "the Prometheus parser refused the scrape: " + err);
      Map<String, Double> samples = new HashMap<>();
      for (String line : out.split("\n")) {
        if (!line.isEmpty()) {
          String[] kv = line.split("\t");
          samples.put(kv[0], Double.valueOf(kv[1]));
        }
      }
      return samples;
    }
  }
}
