package org.dpsql.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The broken variants break what they say and nothing else: each fault rewrites the pushed-down
 * SQL shapes it targets (checked on the statements dpsql really sends, by their measured
 * values), and the faulty backend is reachable only through the test-only driver URL.
 */
class BackendFaultTest {

  @Test
  void faultsRewriteOnlyTheirOwnStep() {
    String bounded = "SELECT \"K0\", COUNT(*) AS \"M0\" FROM (SELECT \"G\" AS \"K0\", ROW_NUMBER() "
        + "OVER (PARTITION BY \"UNIT\" ORDER BY RAND()) AS \"DPSQL_RN\" FROM \"PUBLIC\".\"T\" "
        + "WHERE \"G\" IN ('A', 'B')) \"DPSQL_B\" WHERE \"DPSQL_RN\" <= 2 GROUP BY \"K0\"";
    assertTrue(BackendFault.BOUNDING_OFF.rewrite(bounded).contains("\"DPSQL_RN\" <= 2147483647"));
    assertTrue(BackendFault.COUNTED_TWICE.rewrite(bounded).contains("\"DPSQL_B\" CROSS JOIN"));
    assertEquals(bounded, BackendFault.CLAMP_IGNORED.rewrite(bounded));
    String clamp = "ROUND(CAST(CASE WHEN \"V\" IS NULL THEN NULL WHEN \"V\" < 0 THEN 0 WHEN \"V\" > "
        + "10 THEN 10 ELSE \"V\" END AS DECIMAL(38, 12)), 0)";
    assertEquals("ROUND(CAST(CASE WHEN \"V\" IS NULL THEN NULL ELSE \"V\" END AS DECIMAL(38, 12)), 0)",
        BackendFault.CLAMP_IGNORED.rewrite(clamp));
    assertEquals(clamp, BackendFault.BOUNDING_OFF.rewrite(clamp));
    String scaled = "SUM(CASE WHEN \"DPSQL_N\" <= 2 THEN \"C0\" ELSE 1 END) AS \"M0\"";
    assertEquals("SUM(CASE WHEN \"DPSQL_N\" <= 2147483647 THEN \"C0\" ELSE 1 END) AS \"M0\"",
        BackendFault.SCALING_OFF.rewrite(scaled));
    assertEquals(bounded, BackendFault.SCALING_OFF.rewrite(bounded));
    assertEquals(scaled, BackendFault.BOUNDING_OFF.rewrite(scaled));
  }

  @Test
  void eachFaultChangesTheExactMeasurementOnDPrime() throws Exception {
    // seed fixed: the same noise on both, so the difference is the fault's alone
    AuditCase c = AuditCases.sumGeometric();
    try (NeighbouringDatabases dbs = NeighbouringDatabases.create(c.schemaAndBackground(),
        c.unitRows(), c.policyYaml())) {
      ReleaseSampler honest = new ReleaseSampler(dbs.dpsqlUrl(NeighbouringDatabases.Side.WITH,
          null), dbs.policy(), c.sql(), c.value());
      double h = honest.sample(42, 1, 1)[0];
      // the unit's 2 kept rows of 1000, clamped to 10 (20) or not (2000): 1980 more
      assertEquals(h + 1980, sampleWith(dbs, c, BackendFault.CLAMP_IGNORED), 0.0);
      // the 40 background rows of V = 0 and the unit's 2 clamped rows, each counted twice: 20 more
      assertEquals(h + 20, sampleWith(dbs, c, BackendFault.COUNTED_TWICE), 0.0);
      // all 100 rows of the unit, clamped: 980 more
      assertEquals(h + 980, sampleWith(dbs, c, BackendFault.BOUNDING_OFF), 0.0);
    }
  }

  private static double sampleWith(NeighbouringDatabases dbs, AuditCase c, BackendFault f)
      throws SQLException {
    return new ReleaseSampler(dbs.dpsqlUrl(NeighbouringDatabases.Side.WITH, f), dbs.policy(),
        c.sql(), c.value()).sample(42, 1, 1)[0];
  }

  @Test
  void theHonestUrlDoesNotGoThroughTheFaultyDriver() throws Exception {
    AuditCase c = AuditCases.countGeometric();
    try (NeighbouringDatabases dbs = NeighbouringDatabases.create(c.schemaAndBackground(),
        c.unitRows(), c.policyYaml())) {
      String url = dbs.dpsqlUrl(NeighbouringDatabases.Side.WITH, null);
      assertTrue(url.startsWith("jdbc:dpsql:h2:mem:"), url);
      long before = FaultyBackendDriver.rewrites(BackendFault.COUNTED_TWICE);
      Properties p = new Properties();
      p.setProperty("policy", dbs.policy().toString());
      try (Connection conn = DriverManager.getConnection(url, p)) {
        conn.createStatement().executeQuery(c.sql()).close();
      }
      assertEquals(before, FaultyBackendDriver.rewrites(BackendFault.COUNTED_TWICE));
    }
  }
}
