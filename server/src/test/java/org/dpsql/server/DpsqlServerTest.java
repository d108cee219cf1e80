package org.dpsql.server;

import static org.dpsql.server.TestServers.connect;
import static org.dpsql.server.TestServers.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.dpsql.jdbc.DpsqlDriver;
import org.dpsql.ledger.LedgerAudit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server end to end through the Avatica thin driver (protobuf over HTTP, Basic auth). */
class DpsqlServerTest {
  @TempDir static Path dir;
  static String backend;
  static DpsqlServer server;

  @BeforeAll
  static void start() throws Exception {
    backend = TestServers.demoBackend("server-test", 5000);
    Path users = TestServers.users(dir, "alice 3", "bob 0.5", "carol 2 0.3", "dora 1",
        "erin 0.5", "frank 1", "gina 1", "hana 1");
    server = DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), 7L));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static BigDecimal spent(Connection c) throws SQLException {
    return (BigDecimal) single(c, "SELECT SPENT FROM DPSQL.BUDGET");
  }

  @Test
  void privateCountIsAnsweredAndChargedToTheAnalyst() throws Exception {
    try (Connection c = connect(server, "alice")) {
      long count = ((Number) single(c, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS"))
          .longValue();
      // 5000 trips, each rider counted with at most 10: the noisy count is near 5000 (σ ≈ 2.2)
      assertTrue(Math.abs(count - 5000) < 100, "count " + count);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ACCOUNTING, TOTAL, SPENT, QUERIES FROM DPSQL.BUDGET")) {
        assertTrue(rs.next());
        assertEquals("zcdp", rs.getString(1));
        assertEquals(0, rs.getBigDecimal(2).compareTo(new BigDecimal("3")));
        assertEquals(0, rs.getBigDecimal(3).compareTo(new BigDecimal("0.1")));
        assertEquals(1, rs.getLong(4));
      }
    }
    LedgerAudit audit = server.ledger().audit("alice");
    assertTrue(audit.consistent());
    assertEquals(0, audit.balance().rho().compareTo(new BigDecimal("0.1")));
  }

  /**
   * A join of the demo's two private tables of the same riders (TRIPS and RIDERS, unit: rider)
   * through the thin client: one row per plan, charged once to the analyst, and the same
   * statement again is answered from the release at no cost.
   */
  @Test
  void privateJoinThroughTheThinClient() throws Exception {
    String join = "SELECT /*+ DP(rho='0.1') */ r.PLAN, COUNT(*) AS N FROM TRIPS t LEFT JOIN "
        + "RIDERS r ON r.RIDER_ID = t.RIDER_ID GROUP BY r.PLAN ORDER BY r.PLAN";
    try (Connection c = connect(server, "hana")) {
      List<String> plans = new ArrayList<>();
      long total = 0;
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(join)) {
        while (rs.next()) {
          plans.add(rs.getString(1));
          total += rs.getLong(2);
        }
      }
      assertEquals(List.of("basic", "pass", "plus"), plans);
      // 5,000 trips, each rider bounded to 10 rows of the join: near 5,000 (σ ≈ 22 per plan)
      assertTrue(total > 4000 && total <= 5300, "total " + total);
      assertEquals(0, spent(c).compareTo(new BigDecimal("0.1")));
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(join)) {
        while (rs.next()) {
          assertTrue(plans.contains(rs.getString(1)));
        }
      }
      assertEquals(0, spent(c).compareTo(new BigDecimal("0.1")), "the repeat is free");
    }
  }

  @Test
  void consolesLogInWithUserAndPasswordThroughTheDpsqlRemoteUrl() throws Exception {
    // what sqlline's "!connect url user password" and BI tools' user/password fields send
    String url = server.jdbcUrl().replace("jdbc:avatica:remote:", "jdbc:dpsql:remote:")
        .replace(";serialization=protobuf", "");
    try (Connection c = java.sql.DriverManager.getConnection(url, "gina", "pw-gina")) {
      // gina's own budget (1) from the users file: logged in as gina
      assertEquals(0, ((BigDecimal) single(c, "SELECT TOTAL FROM DPSQL.BUDGET"))
          .compareTo(BigDecimal.ONE));
      long n = ((Number) single(c, "SELECT n FROM (SELECT /*+ DP(rho='0.1') */ COUNT(*) AS n "
          + "FROM TRIPS) t")).longValue();
      assertTrue(Math.abs(n - 5000) < 100, "count " + n);
    }
    Exception wrong = assertThrows(Exception.class,
        () -> java.sql.DriverManager.getConnection(url, "gina", "not-ginas").close());
    assertTrue(String.valueOf(wrong.getMessage()).contains("401"), wrong.toString());
  }

  @Test
  void wrongMissingOrUnknownCredentialsAreRefused() {
    Exception wrong = assertThrows(Exception.class,
        () -> connect(server, "bob", "not-bobs", new Properties()).close());
    assertTrue(String.valueOf(wrong.getMessage()).contains("401"), wrong.toString());
    Exception unknown = assertThrows(Exception.class,
        () -> connect(server, "mallory", "pw-mallory", new Properties()).close());
    assertTrue(String.valueOf(unknown.getMessage()).contains("401"), unknown.toString());
    Exception none = assertThrows(Exception.class,
        () -> java.sql.DriverManager.getConnection(server.jdbcUrl()).close());
    assertTrue(String.valueOf(none.getMessage()).contains("401"), none.toString());
  }

  @Test
  void clientPropertiesCannotChangePolicySeedBackendOrAnalyst() throws Exception {
    // a policy that would make TRIPS public, and a seed other than the server's
    Path open = dir.resolve("open-policy.yaml");
    Files.writeString(open, "budget:\n  accounting: zcdp\n  per_connection: {rho: 100}\n"
        + "  default_query: {rho: 0.02}\ntables:\n  TRIPS: {public: true}\n");
    Properties hostile = new Properties();
    hostile.setProperty("policy", open.toString());
    hostile.setProperty("seed", "8");
    hostile.setProperty("user", "alice");
    hostile.setProperty("password", "");
    hostile.setProperty("url", "jdbc:h2:mem:elsewhere");
    String sql = "SELECT /*+ DP(rho='0.05') */ COUNT(*) FROM TRIPS";
    long remote;
    try (Connection c = connect(server, "dora", "pw-dora", hostile)) {
      SQLException raw = assertThrows(SQLException.class, () -> single(c, "SELECT * FROM TRIPS"));
      assertEquals("XDP02", raw.getSQLState());
      remote = ((Number) single(c, sql)).longValue();
      assertEquals(0, spent(c).compareTo(new BigDecimal("0.05")));
    }
    // the server's seed (7) fixed the noise, not the client's (8)
    assertEquals(embedded(sql, 7), remote);
    assertNotEquals(embedded(sql, 8), remote);
    // the charge went to dora, the authenticated analyst, not to alice
    assertEquals(0, server.ledger().audit("dora").balance().rho()
        .compareTo(new BigDecimal("0.05")));
    try (Connection c = connect(server, "alice")) {
      assertTrue(new ArrayList<>(ledgerStatements(c)).stream().noneMatch(s -> s.equals(sql)));
    }
  }

  private static long embedded(String sql, long seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", TestServers.POLICY);
    p.setProperty("seed", Long.toString(seed));
    try (Connection c = new DpsqlDriver().connect("jdbc:dpsql:" + backend.substring(5), p)) {
      return ((Number) single(c, sql)).longValue();
    }
  }

  private static List<String> ledgerStatements(Connection c) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM DPSQL.LEDGER")) {
      int col = rs.findColumn("STATEMENT");
      while (rs.next()) {
        out.add(rs.getString(col));
      }
    }
    return out;
  }

  @Test
  void oneAnalystsBudgetIsSharedByAllTheirConnections() throws Exception {
    try (Connection c1 = connect(server, "erin"); Connection c2 = connect(server, "erin")) {
      for (int age = 20; age < 23; age++) {
        single(c1, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE AGE >= " + age);
      }
      SQLException refused = assertThrows(SQLException.class,
          () -> single(c2, "SELECT /*+ DP(rho='0.3') */ COUNT(*) FROM TRIPS WHERE AGE >= 30"));
      assertEquals("XDP01", refused.getSQLState());
      single(c2, "SELECT /*+ DP(rho='0.2') */ COUNT(*) FROM TRIPS WHERE AGE >= 31");
      assertEquals(0, spent(c2).compareTo(new BigDecimal("0.5")));
      assertEquals(0, ((BigDecimal) single(c1, "SELECT REMAINING FROM DPSQL.BUDGET")).signum());
      assertEquals(4, ledgerStatements(c1).size());
    }
  }

  @Test
  void thePerConnectionCapOfTheUsersFileBindsEachConnection() throws Exception {
    try (Connection c1 = connect(server, "carol"); Connection c2 = connect(server, "carol")) {
      for (int h = 0; h < 3; h++) {
        single(c1, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE \"HOUR\" >= " + h);
      }
      SQLException refused = assertThrows(SQLException.class,
          () -> single(c1, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE \"HOUR\" >= 9"));
      assertEquals("XDP01", refused.getSQLState());
      single(c2, "SELECT /*+ DP(rho='0.3') */ COUNT(*) FROM TRIPS WHERE \"HOUR\" >= 9");
      assertEquals(0, spent(c2).compareTo(new BigDecimal("0.6")));
    }
  }

  @Test
  void refusalsReachTheClientWithTheirSqlStateAndNoStackTrace() throws Exception {
    try (Connection c = connect(server, "frank")) {
      String[][] cases = {
          {"SELECT * FROM TRIPS", "XDP02"},
          {"SELECT /*+ DP(rho='-1') */ COUNT(*) FROM TRIPS", "XDP05"},
          {"SELECT /*+ DP(rho='5') */ COUNT(*) FROM TRIPS", "XDP01"},
          {"DELETE FROM TRIPS", "XDP02"},
          {"SELEC COUNT(*) FROM TRIPS", "42"},
      };
      for (String[] k : cases) {
        SQLException e = assertThrows(SQLException.class, () -> single(c, k[0]), k[0]);
        assertTrue(e.getSQLState() != null && e.getSQLState().startsWith(k[1]),
            k[0] + " -> " + e.getSQLState() + " " + e.getMessage());
        if (e instanceof org.apache.calcite.avatica.AvaticaSqlException a) {
          assertTrue(a.getStackTraces().isEmpty(), a.getStackTraces().toString());
        }
        assertTrue(!e.getMessage().contains("\tat "), e.getMessage());
      }
      assertEquals(0, spent(c).signum()); // refusals charged nothing
    }
  }
}
