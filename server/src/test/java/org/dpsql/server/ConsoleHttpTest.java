package org.dpsql.server;

import static org.dpsql.server.TestServers.connect;
import static org.dpsql.server.TestServers.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpsql.ledger.LedgerAudit;
import org.dpsql.server.console.Layout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data-owner console over plain HTTP (no browser): who may open it (owner 200, analyst 403,
 * nobody 401), what every answer's headers are, that it is read-only (405), that analysts' SQL is
 * shown as text, and that its figures, filters and sorting are those of the ledger and audit log.
 */
class ConsoleHttpTest {
  private static final String SCRIPT = "<script>alert('owned')</script>";
  private static final List<String> PAGES = List.of("/console", "/console/",
      "/console/analyst?name=alice", "/console/audit", "/console/audit?analyst=bob&outcome=ok",
      "/console/policy", "/console?sort=spent&dir=desc");

  @TempDir static Path dir;
  static DpsqlServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    String backend = TestServers.demoBackend("console-http", 2000);
    Path users = TestServers.users(dir, "alice 2 0.5", "bob 1", "olivia owner",
        "oscar owner 0.5");
    server = DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), 7L));
    try (Connection alice = connect(server, "alice"); Connection bob = connect(server, "bob")) {
      single(alice, "SELECT /*+ DP(rho='0.01') */ COUNT(*) FROM TRIPS WHERE AGE >= 30");
      single(alice, "SELECT /*+ DP(rho='0.02') */ COUNT(*) FROM TRIPS WHERE AGE >= 40 /* "
          + SCRIPT + " */");
      // the same statement again: the stored answer, not in the ledger
      single(alice, "SELECT /*+ DP(rho='0.01') */ COUNT(*) FROM TRIPS WHERE AGE >= 30");
      // a workload, then a range it covers: free, in the ledger as a synopsis answer
      single(alice, "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'rho=0.1'))");
      single(alice, "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN 30 AND 39");
      SQLException refused = assertThrows(SQLException.class, () -> single(alice,
          "SELECT /*+ DP(rho='0.9') */ COUNT(*) FROM TRIPS WHERE STATE = 'NY' /* " + SCRIPT + " */"));
      assertEquals("XDP01", refused.getSQLState());
      single(bob, "SELECT /*+ DP(rho='0.05') */ COUNT(*) FROM TRIPS");
      assertThrows(SQLException.class, () -> single(bob, "SELECT * FROM TRIPS"));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static HttpResponse<String> get(String path, String user) throws Exception {
    return send("GET", path, user, "pw-" + user);
  }

  private static HttpResponse<String> send(String method, String path, String user,
      String password) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.port() + path));
    b.method(method, method.equals("GET") || method.equals("HEAD") || method.equals("DELETE")
        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString("budget=99"));
    if (user != null) {
      b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static void assertSecureHeaders(HttpResponse<?> r, String what) {
    assertEquals(Layout.CONTENT_SECURITY_POLICY,
        r.headers().firstValue("Content-Security-Policy").orElse(null), what);
    assertTrue(Layout.CONTENT_SECURITY_POLICY.startsWith("default-src 'none'; style-src 'sha256-"));
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null), what);
    assertEquals("nosniff", r.headers().firstValue("X-Content-Type-Options").orElse(null), what);
    assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(null), what);
  }

  @Test
  void ownerGetsEveryPageAnalystsGetAnIdenticalBareForbiddenAndStrangersUnauthorized()
      throws Exception {
    List<String> forbiddenBodies = new ArrayList<>();
    for (String page : PAGES) {
      HttpResponse<String> owner = get(page, "olivia");
      assertEquals(200, owner.statusCode(), page);
      assertTrue(owner.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
      assertTrue(owner.body().startsWith("<!DOCTYPE html>"), page);
      assertSecureHeaders(owner, page);
      for (String analyst : List.of("alice", "bob")) {
        HttpResponse<String> r = get(page, analyst);
        assertEquals(403, r.statusCode(), analyst + " " + page);
        assertSecureHeaders(r, analyst + " " + page);
        forbiddenBodies.add(r.body());
      }
      HttpResponse<String> none = send("GET", page, null, null);
      assertEquals(401, none.statusCode(), page);
      assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").toLowerCase()
          .startsWith("basic realm="),
          none.headers().toString());
      assertSecureHeaders(none, "no credentials " + page);
      assertEquals(401, send("GET", page, "olivia", "not-olivias").statusCode(), page);
      assertEquals(401, send("GET", page, "mallory", "pw-mallory").statusCode(), page);
    }
    // a page that does not exist looks the same to an analyst as one that does
    forbiddenBodies.add(get("/console/no-such-page", "alice").body());
    forbiddenBodies.add(get("/console/analyst?name=nobody", "bob").body());
    for (String body : forbiddenBodies) {
      assertEquals("403 Forbidden\n", body);
    }
    assertEquals(404, get("/console/no-such-page", "olivia").statusCode());
    // encoded or dotted paths reach the same constraint as their decoded form
    assertEquals(403, get("/%63onsole/audit", "alice").statusCode());
    assertEquals(200, get("/%63onsole/audit", "olivia").statusCode());
    assertEquals(403, get("/console/x/../audit", "alice").statusCode());
    assertEquals(403, get("/x/../console/policy", "bob").statusCode());
    assertEquals(404, get("/console/analyst?name=nobody", "olivia").statusCode());
    assertEquals(401, send("GET", "/console", null, null).statusCode());
    assertEquals("401 Unauthorized\n", send("GET", "/console", null, null).body());
  }

  @Test
  void anOwnerWithoutABudgetCannotRunStatements() throws Exception {
    Exception e = assertThrows(Exception.class,
        () -> connect(server, "olivia").close());
    assertTrue(String.valueOf(e.getMessage()).contains("403"), e.toString());
    assertEquals(null, server.ledger().audit("olivia"));
    assertFalse(get("/console", "olivia").body().contains("data-analyst=\"olivia\""));
  }

  @Test
  void anOwnerGivenABudgetBothQueriesAndOpensTheConsole() throws Exception {
    try (Connection c = connect(server, "oscar")) {
      single(c, "SELECT /*+ DP(rho='0.01') */ COUNT(*) FROM TRIPS WHERE PAYMENT = 'CASH'");
    }
    assertEquals(200, get("/console", "oscar").statusCode());
    assertEquals("1", cell(row(get("/console", "olivia").body(), "oscar"), "paid"));
  }

  @Test
  void theConsoleIsReadOnlyEveryOtherMethodIs405AndChangesNothing() throws Exception {
    LedgerAudit before = server.ledger().audit("alice");
    for (String method : List.of("POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE")) {
      for (String page : List.of("/console", "/console/analyst?name=alice", "/console/policy")) {
        HttpResponse<String> r = send(method, page, "olivia", "pw-olivia");
        assertEquals(405, r.statusCode(), method + " " + page);
        assertEquals("GET", r.headers().firstValue("Allow").orElse(null), method);
        assertSecureHeaders(r, method + " " + page);
        // an analyst is refused before the method is even looked at
        assertEquals(403, send(method, page, "alice", "pw-alice").statusCode(), method);
      }
    }
    assertEquals(before, server.ledger().audit("alice"));
    // no page has a form that is not a GET, or a script
    for (String page : PAGES) {
      String body = get(page, "olivia").body();
      assertFalse(body.toLowerCase().contains("method=\"post\""), page);
      assertFalse(body.toLowerCase().contains("<script"), page);
    }
  }

  @Test
  void analystsSqlIsShownAsTextOnTheAnalystAndAuditPages() throws Exception {
    String escaped = "&lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;";
    String analyst = get("/console/analyst?name=alice", "olivia").body();
    assertTrue(analyst.contains(escaped), "the ledger's statement, escaped");
    String audit = get("/console/audit?analyst=alice", "olivia").body();
    assertTrue(audit.contains(escaped), "the audit's statement, escaped");
    for (String page : List.of(analyst, audit)) {
      assertFalse(page.contains(SCRIPT));
      assertFalse(page.toLowerCase().contains("<script"));
    }
    // a hostile filter value is echoed as text
    String echoed = get("/console/audit?analyst=%3Cscript%3Ex%3C%2Fscript%3E&outcome=%22%3E%3Cb%3E",
        "olivia").body();
    assertFalse(echoed.contains("<script>x"));
    assertFalse(echoed.contains("\"><b>"));
    assertTrue(echoed.contains("&lt;script&gt;x&lt;/script&gt;"));
  }

  @Test
  void figuresAreThoseOfTheAnalystsOwnBudgetTable() throws Exception {
    String page = get("/console", "olivia").body();
    for (String analyst : List.of("alice", "bob")) {
      try (Connection c = connect(server, analyst); Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT TOTAL, SPENT, EPSILON_SPENT, QUERIES "
              + "FROM DPSQL.BUDGET")) {
        assertTrue(rs.next());
        String row = row(page, analyst);
        assertEquals(0, rs.getBigDecimal(1).compareTo(new BigDecimal(cell(row, "total"))));
        assertEquals(0, rs.getBigDecimal(2).compareTo(new BigDecimal(cell(row, "spent"))));
        assertEquals(0, rs.getBigDecimal(1).subtract(rs.getBigDecimal(2))
            .compareTo(new BigDecimal(cell(row, "remaining"))));
        assertEquals(rs.getDouble(3), Double.parseDouble(cell(row, "eps-spent")),
            1e-5 * rs.getDouble(3));
        assertEquals(rs.getLong(4), Long.parseLong(cell(row, "paid")));
      }
    }
    assertEquals("1", cell(row(page, "alice"), "free"));
    // alice's chart: one point per paid answer
    String alice = get("/console/analyst?name=alice", "olivia").body();
    assertEquals(server.ledger().audit("alice").charged(), count(alice, "<circle class=\"paid\""));
    assertEquals(3, count(alice, "<circle class=\"paid\""));
  }

  @Test
  void auditFiltersAndSortingWork() throws Exception {
    String bob = get("/console/audit?analyst=bob", "olivia").body();
    String rows = bob.substring(bob.indexOf("<tbody>"));
    assertTrue(rows.contains("<td>bob</td>"));
    assertFalse(rows.contains("<td>alice</td>"));
    String refused = get("/console/audit?outcome=XDP01", "olivia").body();
    String refusedRows = refused.substring(refused.indexOf("<tbody>"));
    assertEquals(1, count(refusedRows, "<td class=\"state\">XDP01</td>"));
    assertEquals(0, count(refusedRows, "class=\"ok\">ok"));
    String ok = get("/console/audit?outcome=ok", "olivia").body();
    assertEquals(0, count(ok.substring(ok.indexOf("<tbody>")), "class=\"bad\">failed"));
    String failed = get("/console/audit?outcome=failed", "olivia").body();
    assertTrue(count(failed.substring(failed.indexOf("<tbody>")), "class=\"bad\">failed") >= 2);

    String bySpent = get("/console?sort=spent&dir=desc", "olivia").body();
    assertTrue(bySpent.indexOf("data-analyst=\"alice\"") < bySpent.indexOf("data-analyst=\"bob\""),
        "alice spent 0.13, bob 0.05");
    String byFree = get("/console?sort=free&dir=asc", "olivia").body();
    assertTrue(byFree.indexOf("data-analyst=\"bob\"") < byFree.indexOf("data-analyst=\"alice\""),
        "bob has no free answer, alice one");
    String byName = get("/console?sort=name&dir=asc", "olivia").body();
    assertTrue(byName.indexOf("data-analyst=\"alice\"") < byName.indexOf("data-analyst=\"bob\""));
  }

  @Test
  void thePolicyPageShowsTheFingerprintColumnsAndBudgetsButNoPasswordHash() throws Exception {
    String page = get("/console/policy", "olivia").body();
    assertTrue(page.matches("(?s).*<code id=\"fingerprint\">[0-9a-f]{64}</code>.*"));
    assertTrue(page.contains("GEO = STATE → COUNTY"));
    assertTrue(page.contains("[0, 100]"), "FARE's clamp");
    assertTrue(page.contains("[16, 90], bin 1"), "AGE's domain");
    assertTrue(page.contains("<td>PICKUP_AT</td><td>[2025-01-01, 2025-12-31], bin 1 day</td>"
        + "<td class=\"num\">365</td>"), "the time domain, with its 365 days");
    assertTrue(page.contains("ρ=1, δ=0.000000001"), "the policy's per-connection budget");
    assertTrue(page.contains("<td>alice</td><td>analyst</td><td>ρ=2</td><td>ρ=0.5</td>"));
    assertTrue(page.contains("<td>olivia</td><td>owner</td><td>no budget</td>"));
    assertFalse(page.contains("pbkdf2"));
  }

  /** The {@code <tr>} of one analyst on the analysts page. */
  static String row(String page, String analyst) {
    int start = page.indexOf("<tr data-analyst=\"" + analyst + "\">");
    assertTrue(start >= 0, analyst);
    return page.substring(start, page.indexOf("</tr>", start));
  }

  /** The text of the cell with class {@code cls} in a row. */
  static String cell(String row, String cls) {
    Matcher m = Pattern.compile("<td class=\"num " + cls + "\">([^<]*)</td>").matcher(row);
    assertTrue(m.find(), cls + " in " + row);
    return m.group(1);
  }

  static long count(String s, String what) {
    long n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }
}
