package org.dpsql.server;

import static org.dpsql.server.TestServers.connect;
import static org.dpsql.server.TestServers.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restarts, TLS and refused configurations. */
class ServerLifecycleTest {
  @TempDir static Path dir;
  static String backend;

  @BeforeAll
  static void data() throws Exception {
    backend = TestServers.demoBackend("lifecycle-test", 2000);
  }

  @Test
  void spendingSurvivesAServerRestart() throws Exception {
    Path users = TestServers.users(dir, "gus 0.5");
    Path ledger = dir.resolve("restart-ledger");
    try (DpsqlServer first = DpsqlServer.start(TestServers.options(backend, users, ledger, null));
        Connection c = connect(first, "gus")) {
      single(c, "SELECT /*+ DP(rho='0.15') */ COUNT(*) FROM TRIPS");
      single(c, "SELECT /*+ DP(rho='0.05') */ COUNT(*) FROM TRIPS WHERE AGE >= 30");
    }
    try (DpsqlServer second = DpsqlServer.start(TestServers.options(backend, users, ledger, null));
        Connection c = connect(second, "gus")) {
      assertEquals(0, ((BigDecimal) single(c, "SELECT SPENT FROM DPSQL.BUDGET"))
          .compareTo(new BigDecimal("0.2")));
      assertEquals(2L, ((Number) single(c, "SELECT COUNT(*) FROM DPSQL.LEDGER")).longValue());
      SQLException e = assertThrows(SQLException.class,
          () -> single(c, "SELECT /*+ DP(rho='0.31') */ COUNT(*) FROM TRIPS WHERE AGE >= 40"));
      assertEquals("XDP01", e.getSQLState());
      single(c, "SELECT /*+ DP(rho='0.3') */ COUNT(*) FROM TRIPS WHERE AGE >= 40");
      assertTrue(second.ledger().audit("gus").consistent());
    }
  }

  @Test
  void releasesAreSharedByAnAnalystsConnectionsAndSurviveARestart() throws Exception {
    Path users = TestServers.users(dir, "hal 1");
    Path ledger = dir.resolve("releases-ledger");
    String count = "SELECT /*+ DP(rho='0.15') */ COUNT(*) FROM TRIPS";
    String ranges = "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'rho=0.1'))";
    String covered = "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN 30 AND 39";
    Object total;
    Object range;
    try (DpsqlServer first = DpsqlServer.start(TestServers.options(backend, users, ledger, null));
        Connection a = connect(first, "hal"); Connection b = connect(first, "hal")) {
      total = single(a, count);
      single(a, ranges);
      range = single(a, covered);
      // the analyst's other connection gets the same answers without paying again
      assertEquals(total, single(b, count));
      assertEquals(range, single(b, covered));
      assertEquals(0, ((BigDecimal) single(b, "SELECT SPENT FROM DPSQL.BUDGET"))
          .compareTo(new BigDecimal("0.25")));
    }
    try (DpsqlServer second = DpsqlServer.start(TestServers.options(backend, users, ledger, null));
        Connection c = connect(second, "hal")) {
      assertEquals(total, single(c, count));
      assertEquals(range, single(c, covered));
      assertEquals(0, ((BigDecimal) single(c, "SELECT SPENT FROM DPSQL.BUDGET"))
          .compareTo(new BigDecimal("0.25")), "nothing is charged again after the restart");
      assertTrue(second.ledger().audit("hal").consistent());
    }
  }

  @Test
  void tlsServesTheThinDriverWithATrustedSelfSignedCertificate() throws Exception {
    Path keystore = dir.resolve("server.p12");
    Path cert = dir.resolve("server.cer");
    Path truststore = dir.resolve("trust.p12");
    keytool("-genkeypair", "-alias", "dpsql", "-keyalg", "RSA", "-keysize", "2048", "-validity",
        "2", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-keystore",
        keystore.toString(), "-storetype", "PKCS12", "-storepass", "changeit", "-keypass",
        "changeit");
    keytool("-exportcert", "-alias", "dpsql", "-keystore", keystore.toString(), "-storepass",
        "changeit", "-file", cert.toString());
    keytool("-importcert", "-noprompt", "-alias", "dpsql", "-file", cert.toString(), "-keystore",
        truststore.toString(), "-storetype", "PKCS12", "-storepass", "changeit");
    Path users = TestServers.users(dir, "hana 1", "otto owner");
    ServerOptions plain = TestServers.options(backend, users, dir.resolve("tls-ledger"), null);
    ServerOptions tls = new ServerOptions(plain.backendUrl(), TestServers.READER,
        TestServers.READER_PASSWORD, plain.policy(), 0,
        users, plain.ledgerUrl(), null, null, "127.0.0.1", 0, keystore, "changeit", false, null,
        16);
    try (DpsqlServer server = DpsqlServer.start(tls)) {
      assertTrue(server.jdbcUrl().startsWith("jdbc:avatica:remote:url=https://"));
      String url = "jdbc:avatica:remote:url=https://localhost:" + server.port()
          + ";serialization=protobuf;authentication=BASIC;avatica_user=hana;"
          + "avatica_password=pw-hana;truststore=" + truststore + ";truststore_password=changeit";
      long bounded;
      try (Connection admin = DriverManager.getConnection(backend)) {
        bounded = ((Number) TestServers.single(admin, "SELECT SUM(LEAST(N, 10)) FROM (SELECT COUNT(*) AS N "
            + "FROM TRIPS GROUP BY RIDER_ID) t")).longValue();
      }
      try (Connection c = DriverManager.getConnection(url)) {
        long n = ((Number) single(c, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS"))
            .longValue();
        // the trips with at most 10 per rider, plus noise of sigma 10 / sqrt(0.2) = 22: 5 sigma
        assertTrue(Math.abs(n - bounded) < 112, "count " + n + ", bounded truth " + bounded);
      }
      // the data-owner console is on the same port, over the same TLS, for the owner only
      java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
      try (java.io.InputStream in = java.nio.file.Files.newInputStream(truststore)) {
        trust.load(in, "changeit".toCharArray());
      }
      javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
          javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      javax.net.ssl.SSLContext ssl = javax.net.ssl.SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      HttpClient https = HttpClient.newBuilder().sslContext(ssl).build();
      assertEquals("https://127.0.0.1:" + server.port() + "/console", server.consoleUrl());
      for (String[] who : new String[][] {{"otto", "200"}, {"hana", "403"}}) {
        HttpResponse<String> page = https.send(HttpRequest.newBuilder(
                URI.create("https://localhost:" + server.port() + "/console"))
            .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                (who[0] + ":pw-" + who[0]).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(Integer.parseInt(who[1]), page.statusCode(), who[0]);
      }
      // without the server's certificate in a trust store the handshake fails
      String untrusted = "jdbc:avatica:remote:url=https://localhost:" + server.port()
          + ";serialization=protobuf;authentication=BASIC;avatica_user=hana;"
          + "avatica_password=pw-hana";
      assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
          assertThrows(Exception.class, () -> DriverManager.getConnection(untrusted).close()));
      // plain HTTP to the TLS port gets no answer (the Avatica client would retry forever on
      // that, so ask with a plain HTTP client)
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
      HttpRequest request = HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + server.port() + "/")).timeout(Duration.ofSeconds(10))
          .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {1})).build();
      try {
        int status = client.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode();
        assertTrue(status >= 400, "HTTP " + status);
      } catch (java.io.IOException expected) {
        // the TLS connector closed the connection
      }
    }
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
  }

  @Test
  void plainHttpOnAPublicAddressIsRefusedUnlessAskedFor() throws Exception {
    Path users = TestServers.users(dir, "ivan 1");
    ServerOptions o = new ServerOptions(backend, TestServers.READER, TestServers.READER_PASSWORD,
        TestServers.POLICY, 0, users,
        org.dpsql.ledger.LedgerStore.h2File(dir.resolve("public-ledger")), null, null, "0.0.0.0",
        0, null, null, false, null, 16);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DpsqlServer.start(o).close());
    assertTrue(e.getMessage().contains("--keystore"), e.getMessage());
  }

  @Test
  void aBackendUserWithAdministratorRightsIsRefused() throws Exception {
    // with H2 admin rights a public-table query could call FILE_READ / CSVWRITE
    Path users = TestServers.users(dir, "kim 1");
    ServerOptions o = new ServerOptions(backend, null, null, TestServers.POLICY, 0, users,
        org.dpsql.ledger.LedgerStore.h2File(dir.resolve("admin-ledger")), null, null, "127.0.0.1",
        0, null, null, false, null, 16);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DpsqlServer.start(o).close());
    assertTrue(e.getMessage().contains("administrator rights"), e.getMessage());
  }

  @Test
  void aSeedThePolicyForbidsStopsTheServerFromStarting() throws Exception {
    Path policy = dir.resolve("no-seed.yaml");
    java.nio.file.Files.writeString(policy, "allow_seed: false\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 1}\n  default_query: {rho: 0.02}\ntables:\n"
        + "  COUNTIES: {public: true}\n");
    Path users = TestServers.users(dir, "jane 1");
    ServerOptions o = new ServerOptions(backend, TestServers.READER, TestServers.READER_PASSWORD,
        policy.toString(), 0, users,
        org.dpsql.ledger.LedgerStore.h2File(dir.resolve("seed-ledger")), null, null, "127.0.0.1",
        0, null, null, false, 42L, 16);
    SQLException e = assertThrows(SQLException.class, () -> DpsqlServer.start(o).close());
    assertEquals("XDP05", e.getSQLState());
  }
}
