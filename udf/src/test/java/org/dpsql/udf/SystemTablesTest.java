package org.dpsql.udf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** DPSQL.BUDGET and DPSQL.LEDGER through JDBC, for each accounting. */
class SystemTablesTest {

  private static Connection open(String budget) throws Exception {
    String db = "h2:mem:u" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection("jdbc:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE P (ID INT, CITY VARCHAR(10), INCOME INT, ZIP VARCHAR(5))");
      st.execute("INSERT INTO P SELECT X, CASE MOD(X, 2) WHEN 0 THEN 'A' ELSE 'B' END, MOD(X, 90), "
          + "'z' || MOD(X, 3) FROM SYSTEM_RANGE(1, 200)");
    }
    Path policy = Files.createTempFile("udf-policy", ".yaml");
    Files.writeString(policy, budget + "tables:\n  P:\n    privacy_unit: ID\n    max_rows_per_unit: 1\n"
        + "    columns:\n      CITY: {values: [A, B]}\n      INCOME: {clamp: [0, 100]}\n"
        + "      ZIP: {keys: private}\n");
    policy.toFile().deleteOnExit();
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    return DriverManager.getConnection("jdbc:dpsql:" + db, p);
  }

  private static List<Object> row(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertTrue(rs.next());
      List<Object> out = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        out.add(rs.getObject(i));
      }
      assertFalse(rs.next());
      return out;
    }
  }

  @Test
  void zcdpShowsTheDeltaSpentByPartitionSelection() throws Exception {
    try (Connection c = open("budget:\n  accounting: zcdp\n  per_connection: {rho: 0.5, delta: 1e-6}\n"
        + "  default_query: {rho: 0.05, delta: 1e-8}\n"); Statement st = c.createStatement()) {
      st.executeQuery("SELECT ZIP, COUNT(*) FROM P GROUP BY ZIP").close();
      List<Object> b = row(st, "SELECT SPENT, DELTA, DELTA_SPENT, EPSILON_SPENT FROM DPSQL.BUDGET");
      assertEquals(0, new BigDecimal("0.05").compareTo((BigDecimal) b.get(0)));
      assertEquals(0, new BigDecimal("1e-6").compareTo((BigDecimal) b.get(1)));
      assertEquals(0, new BigDecimal("1e-8").compareTo((BigDecimal) b.get(2)));
      // ε of the spent ρ at the δ left: 1e-6 − 1e-8
      double left = 1e-6 - 1e-8;
      assertEquals(Math.min(0.05 + 2 * Math.sqrt(0.05 * Math.log(1 / left)),
          org.dpsql.accounting.TightConversion.zcdpNumeric(0.05, left).epsilon()),
          ((Number) b.get(3)).doubleValue(), 1e-9);
      try (ResultSet rs = st.executeQuery("SELECT MECHANISM, DELTA, RHO FROM DPSQL.LEDGER")) {
        assertTrue(rs.next());
        assertEquals("partition_selection+discrete_gaussian", rs.getString(1));
        assertEquals(0, new BigDecimal("1e-8").compareTo(rs.getBigDecimal(2)));
      }
    }
  }

  @Test
  void zcdpBudgetAndLedger() throws Exception {
    try (Connection c = open("budget:\n  accounting: zcdp\n  per_connection: {rho: 0.5, delta: 1e-6}\n"
        + "  default_query: {rho: 0.05}\n"); Statement st = c.createStatement()) {
      List<Object> before = row(st, "SELECT ACCOUNTING, UNIT, TOTAL, SPENT, REMAINING, DELTA, EPSILON_SPENT, "
          + "EPSILON_TOTAL, QUERIES FROM DPSQL.BUDGET");
      assertEquals("zcdp", before.get(0));
      assertEquals("rho", before.get(1));
      assertEquals(0, new BigDecimal("0.5").compareTo((BigDecimal) before.get(2)));
      assertEquals(0, BigDecimal.ZERO.compareTo((BigDecimal) before.get(3)));
      // the tightest conversion at rho = 0.5, delta = 1e-6: below the analytic
      // rho + 2 sqrt(rho ln(1/delta)) = 5.7565, equal to the one optimised over the Renyi order
      double analytic = 0.5 + 2 * Math.sqrt(0.5 * Math.log(1e6));
      double numeric = org.dpsql.accounting.TightConversion.zcdpNumeric(0.5, 1e-6).epsilon();
      double reported = ((Number) before.get(7)).doubleValue();
      assertTrue(reported < analytic - 0.1, "tighter than the analytic formula: " + reported);
      assertEquals(Math.min(analytic, numeric), reported, 1e-9);

      st.executeQuery("SELECT CITY, COUNT(*), SUM(INCOME) FROM P GROUP BY CITY").close();
      st.executeQuery("SELECT /*+ DP(rho='0.2') */ COUNT(*) FROM P").close();
      st.executeQuery("SELECT CITY, COUNT(*), SUM(INCOME) FROM P GROUP BY CITY").close(); // free repeat

      List<Object> after = row(st, "SELECT SPENT, REMAINING, EPSILON_SPENT, QUERIES FROM DPSQL.BUDGET");
      assertEquals(0, new BigDecimal("0.25").compareTo((BigDecimal) after.get(0)));
      assertEquals(0, new BigDecimal("0.25").compareTo((BigDecimal) after.get(1)));
      assertEquals(Math.min(0.25 + 2 * Math.sqrt(0.25 * Math.log(1e6)),
          org.dpsql.accounting.TightConversion.zcdpNumeric(0.25, 1e-6).epsilon()),
          ((Number) after.get(2)).doubleValue(), 1e-9);
      assertEquals(2L, ((Number) after.get(3)).longValue());

      try (ResultSet rs = st.executeQuery("SELECT SEQ, STATEMENT, MECHANISM, RHO FROM DPSQL.LEDGER ORDER BY SEQ")) {
        assertTrue(rs.next());
        assertTrue(rs.getString(2).startsWith("SELECT CITY, COUNT(*)"), rs.getString(2));
        assertEquals("discrete_gaussian", rs.getString(3));
        assertEquals(0, new BigDecimal("0.05").compareTo(rs.getBigDecimal(4)));
        assertTrue(rs.next());
        assertEquals(0, new BigDecimal("0.2").compareTo(rs.getBigDecimal(4)));
        assertFalse(rs.next(), "the free repeat is not charged, so not in the ledger");
      }
      // full SQL over system tables, and reading them is free
      assertEquals(List.of(2L), row(st, "SELECT COUNT(*) FROM DPSQL.LEDGER WHERE RHO > 0"));
      assertEquals(0, new BigDecimal("0.25").compareTo(
          (BigDecimal) row(st, "SELECT SPENT FROM DPSQL.BUDGET").get(0)));
    }
  }

  @Test
  void pureAndApproxBudgets() throws Exception {
    try (Connection c = open("budget:\n  accounting: pure\n  per_connection: {epsilon: 2}\n"
        + "  default_query: {epsilon: 0.5}\n"); Statement st = c.createStatement()) {
      st.executeQuery("SELECT COUNT(*) FROM P").close();
      List<Object> b = row(st, "SELECT UNIT, SPENT, REMAINING, DELTA, EPSILON_SPENT FROM DPSQL.BUDGET");
      assertEquals("epsilon", b.get(0));
      assertEquals(0, new BigDecimal("0.5").compareTo((BigDecimal) b.get(1)));
      assertEquals(0, new BigDecimal("1.5").compareTo((BigDecimal) b.get(2)));
      assertNull(b.get(3));
      assertEquals(0.5, ((Number) b.get(4)).doubleValue(), 1e-12);
    }
    try (Connection c = open("budget:\n  accounting: approx\n  per_connection: {epsilon: 2, delta: 1e-6}\n"
        + "  default_query: {epsilon: 0.5, delta: 1e-8}\n"); Statement st = c.createStatement()) {
      st.executeQuery("SELECT COUNT(*) FROM P").close();
      List<Object> b = row(st, "SELECT SPENT, DELTA, DELTA_SPENT FROM DPSQL.BUDGET");
      assertEquals(0, new BigDecimal("0.5").compareTo((BigDecimal) b.get(0)));
      assertEquals(0, new BigDecimal("1e-6").compareTo((BigDecimal) b.get(1)));
      assertEquals(0, new BigDecimal("1e-8").compareTo((BigDecimal) b.get(2)));
    }
  }

  @Test
  void systemTablesAreListedInTheCatalog() throws Exception {
    try (Connection c = open("budget:\n  accounting: zcdp\n  per_connection: {rho: 0.5}\n"
        + "  default_query: {rho: 0.05}\n")) {
      DatabaseMetaData md = c.getMetaData();
      List<String> t = new ArrayList<>();
      try (ResultSet rs = md.getTables(null, "DPSQL", "%", null)) {
        while (rs.next()) {
          t.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
        }
      }
      assertEquals(List.of("BUDGET:SYSTEM TABLE", "LEDGER:SYSTEM TABLE"), t);
      try (ResultSet rs = md.getColumns(null, "DPSQL", "LEDGER", "%")) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertEquals(9, n); // SEQ TIME STATEMENT MECHANISM EPSILON DELTA RHO SOURCE EXPECTED_RMSE
      }
      // without a reporting delta, zcdp has no epsilon to show
      try (Statement st = c.createStatement()) {
        assertNull(row(st, "SELECT EPSILON_TOTAL FROM DPSQL.BUDGET").get(0));
      }
    }
  }
}
