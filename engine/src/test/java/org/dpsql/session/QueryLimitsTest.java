package org.dpsql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.policy.QueryLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data owner's hardening limits (policy {@code limits}): a backend statement running longer
 * than {@code statement_timeout_s} is cancelled and reported as HYT00 with nothing charged, and a
 * private query whose data vector exceeds {@code max_cells} is refused at prepare (XDP03).
 */
class QueryLimitsTest {
  @TempDir Path dir;
  private Connection direct;
  private String url;

  @BeforeEach
  void setUp() throws Exception {
    url = "jdbc:h2:mem:l" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE PEOPLE (ID INT PRIMARY KEY, AGE INT, REGION VARCHAR(2))");
      // 2,000 × 50,000,000 rows: minutes to count, unless the statement is cancelled
      st.execute("CREATE VIEW SLOW_PEOPLE AS SELECT P.ID, P.AGE, P.REGION FROM PEOPLE P, "
          + "SYSTEM_RANGE(1, 50000000) R");
      st.execute("CREATE VIEW SLOW_PUBLIC AS SELECT X FROM SYSTEM_RANGE(1, 2000000000)");
    }
    SplittableRandom r = new SplittableRandom(5);
    try (PreparedStatement ps = direct.prepareStatement("INSERT INTO PEOPLE VALUES (?, ?, ?)")) {
      for (int i = 0; i < 2000; i++) {
        ps.setInt(1, i);
        ps.setInt(2, r.nextInt(0, 80));
        ps.setString(3, r.nextBoolean() ? "N" : "S");
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    try (Statement st = direct.createStatement()) {
      st.execute("DROP ALL OBJECTS");
    }
    direct.close();
  }

  private static String policyText(String limits) {
    return "budget:\n  accounting: zcdp\n  per_connection: {rho: 1, delta: 1e-9}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n"
        + "  PEOPLE:\n    privacy_unit: ROW\n    columns:\n"
        + "      AGE: {min: 0, max: 79, bin: 1}\n      REGION: {values: [N, S]}\n"
        + "  SLOW_PEOPLE:\n    privacy_unit: ROW\n    columns:\n"
        + "      AGE: {min: 0, max: 79, bin: 1}\n      REGION: {values: [N, S]}\n"
        + "  SLOW_PUBLIC: {public: true}\n"
        + (limits == null ? "" : "limits: " + limits + "\n");
  }

  private DpsqlSession open(String limits) throws Exception {
    Path p = dir.resolve("policy-" + UUID.randomUUID() + ".yaml");
    Files.writeString(p, policyText(limits));
    Properties props = new Properties();
    props.setProperty(DpsqlSession.POLICY, p.toString());
    return DpsqlSession.open(url, props);
  }

  private static SQLException refused(DpsqlSession s, String sql) {
    return assertThrows(SQLException.class, () -> s.execute(s.prepare(sql), List.of()));
  }

  // ------------------------------------------------------------------------------- the policy

  @Test
  void limitsAreParsedAndOptional() throws Exception {
    Policy none = PolicyLoader.parse(policyText(null), "inline");
    assertEquals(QueryLimits.NONE, none.limits());
    Policy both = PolicyLoader.parse(policyText("{statement_timeout_s: 30, max_cells: 1000000}"),
        "inline");
    assertEquals(new QueryLimits(30, 1_000_000), both.limits());
    Policy one = PolicyLoader.parse(policyText("{max_cells: 500}"), "inline");
    assertNull(one.limits().statementTimeoutSeconds());
    assertEquals(500, one.limits().maxCells());
  }

  @Test
  void badLimitsAreRefusedWithTheirPath() {
    String[][] cases = {
        {"{statement_timeout_s: 0}", "limits.statement_timeout_s", "positive integer"},
        {"{statement_timeout_s: -5}", "limits.statement_timeout_s", "positive integer"},
        {"{statement_timeout_s: 1.5}", "limits.statement_timeout_s", "positive integer"},
        {"{statement_timeout_s: 90000}", "limits.statement_timeout_s", "at most 86400"},
        {"{max_cells: 0}", "limits.max_cells", "positive integer"},
        {"{max_cells: 10000000000}", "limits.max_cells", "at most"},
        {"{max_rows: 10}", "limits", "max_rows"},
        {"30", "limits", ""}};
    for (String[] c : cases) {
      SQLException e = assertThrows(SQLException.class,
          () -> PolicyLoader.parse(policyText(c[0]), "inline"), c[0]);
      assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(c[2]),
          c[0] + " -> " + e.getMessage());
    }
  }

  // ---------------------------------------------------------------------- statement timeout

  @Test
  void everyBackendStatementCarriesTheTimeout() throws Exception {
    try (DpsqlSession limited = open("{statement_timeout_s: 7}");
        Statement a = limited.backend().createStatement();
        PreparedStatement b = limited.backend().prepareStatement("SELECT 1")) {
      assertEquals(7, a.getQueryTimeout());
      assertEquals(7, b.getQueryTimeout());
    }
    try (DpsqlSession free = open(null); Statement a = free.backend().createStatement()) {
      assertEquals(0, a.getQueryTimeout());
    }
  }

  @Test
  void aSlowPrivateQueryIsCancelledAndChargesNothing() throws Exception {
    try (DpsqlSession s = open("{statement_timeout_s: 1}")) {
      long start = System.nanoTime();
      SQLException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
          () -> refused(s, "SELECT /*+ DP(rho='0.2') */ COUNT(*) FROM SLOW_PEOPLE WHERE AGE > 20"));
      double seconds = (System.nanoTime() - start) / 1e9;
      assertEquals("HYT00", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("statement_timeout_s") && e.getMessage().contains("1 s"),
          e.getMessage());
      assertTrue(seconds < 10, "cancelled after " + seconds + " s");
      assertEquals(0, s.accountant().spent().rho().signum(), "a cancelled query was charged");
      assertTrue(s.accountant().ledger().isEmpty());
      // the connection stays usable, and a fast query is answered and charged
      s.execute(s.prepare("SELECT /*+ DP(rho='0.2') */ COUNT(*) FROM PEOPLE WHERE AGE > 20"),
          List.of());
      assertEquals(0, s.accountant().spent().rho().compareTo(new BigDecimal("0.2")));
      System.out.printf("QueryLimitsTest: private query cancelled after %.2f s (limit 1 s)%n",
          seconds);
    }
  }

  @Test
  void aSlowPublicStatementIsCancelled() throws Exception {
    try (DpsqlSession s = open("{statement_timeout_s: 1}")) {
      long start = System.nanoTime();
      SQLException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
          () -> refused(s, "SELECT COUNT(*) FROM SLOW_PUBLIC WHERE X > 5"));
      double seconds = (System.nanoTime() - start) / 1e9;
      assertEquals("HYT00", e.getSQLState(), e.getMessage());
      assertTrue(seconds < 10, "cancelled after " + seconds + " s");
      assertEquals(0, s.accountant().spent().rho().signum());
    }
  }

  // ----------------------------------------------------------------------------- max cells

  @Test
  void queriesOverMoreCellsThanTheLimitAreRefusedAtPrepare() throws Exception {
    try (DpsqlSession s = open("{max_cells: 100}")) {
      // AGE has 80 cells, AGE × REGION 160
      s.execute(s.prepare("SELECT AGE, COUNT(*) FROM PEOPLE GROUP BY AGE"), List.of());
      for (String sql : List.of(
          "SELECT AGE, REGION, COUNT(*) FROM PEOPLE GROUP BY AGE, REGION",
          "SELECT AGE, REGION, COUNT(*) FROM PEOPLE GROUP BY GROUPING SETS ((AGE), (REGION))",
          "SELECT AGE, COUNT(*) FROM PEOPLE WHERE REGION = 'N' GROUP BY GROUPING SETS ((AGE), ())")) {
        SQLException e = assertThrows(SQLException.class, () -> s.prepare(sql), sql);
        assertEquals("XDP03", e.getSQLState(), sql + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("160 cells") && e.getMessage().contains("max_cells"),
            e.getMessage());
      }
      assertEquals(0, s.accountant().spent().rho().compareTo(new BigDecimal("0.1")),
          "only the allowed query was charged");
    }
    // without the limit the same queries are answered
    try (DpsqlSession s = open(null)) {
      s.execute(s.prepare("SELECT AGE, REGION, COUNT(*) FROM PEOPLE GROUP BY AGE, REGION"),
          List.of());
      s.execute(s.prepare(
          "SELECT AGE, REGION, COUNT(*) FROM PEOPLE GROUP BY GROUPING SETS ((AGE), (REGION))"),
          List.of());
    }
  }
}
