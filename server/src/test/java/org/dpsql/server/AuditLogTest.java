package org.dpsql.server;

import static org.dpsql.server.TestServers.connect;
import static org.dpsql.server.TestServers.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's audit log: one JSON line per statement received, with time, analyst, SQL
 * (truncated), outcome, cost charged and duration, whose costs add up to the ledger; and no
 * analyst can read it through SQL.
 */
class AuditLogTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static List<JsonNode> lines(Path file) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      out.add(JSON.readTree(line)); // fails unless every line is one JSON object
    }
    return out;
  }

  private static BigDecimal rho(JsonNode line) {
    return new BigDecimal(line.get("cost").get("rho").asText());
  }

  @Test
  void everyStatementIsLoggedWithOutcomeCostAndDurationAndCostsMatchTheLedger()
      throws Exception {
    String backend = TestServers.demoBackend("audit-test", 2000);
    Path users = TestServers.users(dir, "ann 1", "ben 1");
    Instant before = Instant.now();
    String longSql = "SELECT COUNT(*) FROM COUNTIES WHERE STATE IN ("
        + "'NY', ".repeat(600) + "'CA')";
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null))) {
      assertEquals(dir.resolve(ServerOptions.DEFAULT_AUDIT).toAbsolutePath(), server.auditFile());
      try (Connection ann = connect(server, "ann")) {
        single(ann, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE AGE >= 30");
        // the same statement again: answered from the release, free
        single(ann, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE AGE >= 30");
        SQLException budget = assertThrows(SQLException.class, () ->
            single(ann, "SELECT /*+ DP(rho='5') */ COUNT(*) FROM TRIPS"));
        assertEquals("XDP01", budget.getSQLState());
        SQLException syntax = assertThrows(SQLException.class, () ->
            single(ann, "SELECT COUNT(* FROM \"TRIPS\"\n WHERE 'it''s' = '\\'"));
        single(ann, longSql);
        try (PreparedStatement ps = ann.prepareStatement(
            "SELECT /*+ DP(rho='0.05') */ COUNT(*) FROM TRIPS WHERE AGE >= ?")) {
          ps.setInt(1, 40);
          try (ResultSet rs = ps.executeQuery()) {
            assertTrue(rs.next());
          }
        }
        try (Connection ben = connect(server, "ben")) {
          single(ben, "SELECT /*+ DP(rho='0.2') */ COUNT(*) FROM TRIPS");
        }

        List<JsonNode> lines = lines(server.auditFile());
        List<String> requests = new ArrayList<>();
        List<String> outcomes = new ArrayList<>();
        for (JsonNode l : lines) {
          requests.add(l.get("analyst").asText() + " " + l.get("request").asText());
          outcomes.add(l.get("outcome").asText());
          Instant t = Instant.parse(l.get("time").asText());
          assertFalse(t.isBefore(before.minusSeconds(1)), l.toString());
          assertTrue(l.get("duration_ms").asDouble() >= 0, l.toString());
          assertTrue(l.get("connection").asText().length() > 0, l.toString());
        }
        assertEquals(List.of("ann prepare_and_execute", "ann prepare_and_execute",
            "ann prepare_and_execute", "ann prepare_and_execute", "ann prepare_and_execute",
            "ann prepare", "ann execute", "ben prepare_and_execute"), requests);
        assertEquals(List.of("ok", "ok", "XDP01", syntax.getSQLState(), "ok", "ok", "ok", "ok"),
            outcomes);
        assertEquals("SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE AGE >= 30",
            lines.get(0).get("sql").asText());
        assertEquals("SELECT COUNT(* FROM \"TRIPS\"\n WHERE 'it''s' = '\\'",
            lines.get(3).get("sql").asText(), "escaping");
        assertEquals(AuditLog.MAX_SQL_CHARS, lines.get(4).get("sql").asText().length());
        assertTrue(lines.get(4).get("sql_truncated").asBoolean());
        assertTrue(longSql.startsWith(lines.get(4).get("sql").asText()));
        assertFalse(lines.get(0).get("sql_truncated").asBoolean());
        // the execute line names the SQL the server prepared
        assertEquals("SELECT /*+ DP(rho='0.05') */ COUNT(*) FROM TRIPS WHERE AGE >= ?",
            lines.get(6).get("sql").asText());
        // costs: charged once, free when repeated, nothing when refused or at prepare
        List<BigDecimal> costs = lines.stream().map(AuditLogTest::rho).toList();
        List<String> expected = List.of("0.1", "0", "0", "0", "0", "0", "0.05", "0.2");
        for (int i = 0; i < expected.size(); i++) {
          assertEquals(0, costs.get(i).compareTo(new BigDecimal(expected.get(i))),
              "line " + i + ": " + lines.get(i));
          assertEquals("0", lines.get(i).get("cost").get("epsilon").asText());
        }
        // the audit's costs add up to each analyst's ledger
        for (String analyst : List.of("ann", "ben")) {
          BigDecimal logged = BigDecimal.ZERO;
          for (JsonNode l : lines) {
            if (l.get("analyst").asText().equals(analyst)) {
              logged = logged.add(rho(l));
            }
          }
          PrivacyCost spent = server.ledger().audit(analyst).balance();
          assertEquals(0, logged.compareTo(spent.rho()), analyst);
        }
      }
    }
    if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
      assertEquals("rw-------", PosixFilePermissions.toString(
          Files.getPosixFilePermissions(dir.resolve(ServerOptions.DEFAULT_AUDIT))));
    }
    System.out.println("AuditLogTest: " + Files.readAllLines(dir.resolve(
        ServerOptions.DEFAULT_AUDIT)).size() + " audit lines, costs equal to the ledger");
  }

  @Test
  void anAnswerWhoseAuditLineCannotBeWrittenIsWithheld() throws Exception {
    String backend = TestServers.demoBackend("audit-failure-test", 500);
    Path users = TestServers.users(dir, "cat 1");
    try (DpsqlServer server =
        DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null));
        Connection cat = connect(server, "cat")) {
      single(cat, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE AGE >= 30");
      server.auditLog().close(); // as if the disk failed
      SQLException e = assertThrows(SQLException.class,
          () -> single(cat, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE AGE >= 40"));
      assertEquals("HY000", e.getSQLState());
      assertTrue(e.getMessage().contains("audit log cannot be written"), e.getMessage());
      // the budget was spent (the ledger comes first), the answer never left
      assertEquals(2, server.ledger().audit("cat").charged());
    }
  }

  @Test
  void theAuditFileDefaultsToBesideAFileLedger() {
    Path users = dir.resolve("users.yaml");
    ServerOptions beside = ServerOptions.parse(new String[] {"--demo", "--users",
        users.toString(), "--ledger", dir.resolve("data").resolve("ledger").toString()});
    assertEquals(dir.resolve("data").resolve(ServerOptions.DEFAULT_AUDIT).toAbsolutePath(),
        beside.audit());
    ServerOptions named = ServerOptions.parse(new String[] {"--demo", "--users",
        users.toString(), "--audit", dir.resolve("a.log").toString()});
    assertEquals(dir.resolve("a.log"), named.audit());
    ServerOptions remote = ServerOptions.parse(new String[] {"--demo", "--users",
        users.toString(), "--ledger", "jdbc:postgresql://db/ledger"});
    assertEquals(Path.of(ServerOptions.DEFAULT_AUDIT), remote.audit());
    assertThrows(IllegalArgumentException.class, () -> ServerOptions.parse(new String[] {
        "--demo", "--users", users.toString(), "--audit"}));
  }

  @Test
  void sqlIsEscapedIntoValidJson() throws Exception {
    String nasty = "a\"b\\c\n\r\t\u0001\u2028 caf\u00e9 \ud83d\ude00 lone \ud800 end";
    StringBuilder b = new StringBuilder();
    AuditLog.string(b, nasty);
    String back = JSON.readTree(b.toString()).asText();
    assertEquals(nasty, back);
    assertFalse(b.toString().chars().anyMatch(c -> c < 0x20 || c == 0x2028),
        "a raw line break or control character would split the JSON line");
  }

  @Test
  void noAnalystCanReadTheAuditLogThroughSql() throws Exception {
    String backend = TestServers.demoBackend("audit-isolation-test", 500);
    Path users = TestServers.users(dir, "ann 1", "ben 1");
    Path audit = dir.resolve("logs").resolve("audit.jsonl");
    ServerOptions base = TestServers.options(backend, users, dir.resolve("ledger"), null);
    ServerOptions options = new ServerOptions(base.backendUrl(), base.backendUser(),
        base.backendPassword(), base.policy(), 0, users, base.ledgerUrl(), null, null,
        "127.0.0.1", 0, null, null, false, null, 16, audit);
    String marker = "ANN_SECRET_MARKER_7351";
    try (DpsqlServer server = DpsqlServer.start(options)) {
      assertEquals(audit.toAbsolutePath(), server.auditFile());
      try (Connection ann = connect(server, "ann")) {
        single(ann, "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS WHERE STATE <> '" + marker
            + "'");
      }
      assertTrue(Files.readString(audit).contains(marker));
      String path = audit.toAbsolutePath().toString();
      List<String> attempts = List.of(
          "SELECT FILE_READ('" + path + "') FROM COUNTIES",
          "CALL FILE_READ('" + path + "')",
          "SELECT UTF8TOSTRING(FILE_READ('" + path + "'))",
          "SELECT * FROM CSVREAD('" + path + "')",
          "SELECT * FROM CSVREAD('" + path + "', NULL, 'fieldSeparator=|')",
          "RUNSCRIPT FROM '" + path + "'",
          "CREATE LINKED TABLE L('org.h2.Driver', 'jdbc:h2:" + path + "', '', '', 'X')",
          "SELECT * FROM INFORMATION_SCHEMA.TABLES",
          "SELECT * FROM DPSQL.LEDGER",
          "SELECT STATEMENT FROM DPSQL.LEDGER");
      List<String> refused = new ArrayList<>();
      try (Connection ben = connect(server, "ben")) {
        for (String sql : attempts) {
          try (Statement s = ben.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
              for (int i = 1; i <= n; i++) {
                Object v = rs.getObject(i);
                assertFalse(v != null && String.valueOf(v).contains(marker),
                    sql + " returned the audit's content");
              }
            }
          } catch (SQLException e) {
            assertFalse(String.valueOf(e.getMessage()).contains(marker), sql);
            refused.add(sql);
          }
        }
      }
      // the file functions are all refused
      for (int i = 0; i < 7; i++) {
        assertTrue(refused.contains(attempts.get(i)), "not refused: " + attempts.get(i));
      }
      // and ben's attempts are themselves in the audit, with their refusals
      long benLines = lines(audit).stream()
          .filter(l -> l.get("analyst").asText().equals("ben")).count();
      assertEquals(attempts.size(), benLines);
      System.out.println("AuditLogTest: " + refused.size() + " of " + attempts.size()
          + " attempts refused, none returned the audit's content");
    }
  }
}
