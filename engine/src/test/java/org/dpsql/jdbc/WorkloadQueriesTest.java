package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Workloads through JDBC: UNION ALL batches, ROLLUP, DPSQL.WORKLOAD families and DPSQL.EXPLAIN are
 * answered jointly with one charge, and later queries inside a released synopsis are free.
 */
class WorkloadQueriesTest {
  private static TestDatabase db;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(3000, "budget:\n  accounting: zcdp\n  per_connection: {rho: 10, "
        + "delta: 1e-9}\n  default_query: {rho: 1}\n", null);
  }

  @AfterAll
  static void tearDown() throws Exception {
    db.close();
  }

  @Test
  void unionAllIsOneChargeWithConsistentAnswers() throws Exception {
    try (Connection c = db.connect(1L); Statement st = c.createStatement()) {
      String sql = "SELECT COUNT(*) FROM TRIPS WHERE AGE < 38 UNION ALL "
          + "SELECT COUNT(*) FROM TRIPS WHERE AGE >= 38 UNION ALL SELECT COUNT(*) FROM TRIPS";
      List<Object[]> r = TestDatabase.rows(st.executeQuery(sql));
      assertEquals(3, r.size());
      double a = (Double) r.get(0)[0];
      double b = (Double) r.get(1)[0];
      double total = (Double) r.get(2)[0];
      // least squares makes the answers consistent: the parts add up to the total
      assertEquals(total, a + b, 1e-6);
      assertEquals(db.exact("SELECT COUNT(*) FROM TRIPS"), total, 200);
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(1, ledger.size());
      assertEquals(new BigDecimal("1"), ledger.get(0).cost().rho().stripTrailingZeros());
      assertTrue(ledger.get(0).expectedRmse() > 0);
    }
  }

  @Test
  void rollupReleasesEveryGroupingSetWithNullKeys() throws Exception {
    try (Connection c = db.connect(2L); Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery(
          "SELECT REGION, PAYMENT, COUNT(*) AS N FROM TRIPS GROUP BY ROLLUP(REGION, PAYMENT)"));
      assertEquals(4 * 3 + 4 + 1, r.size());
      assertNull(r.get(r.size() - 1)[0]);
      assertNull(r.get(r.size() - 1)[1]);
      double sumRegions = 0;
      for (int i = 12; i < 16; i++) {
        sumRegions += (Double) r.get(i)[2];
      }
      assertEquals((Double) r.get(16)[2], sumRegions, 1e-6, "roll-up is consistent");
    }
  }

  @Test
  void allRangesFamilyThenRangeQueriesAreFree() throws Exception {
    try (Connection c = db.connect(3L); Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'rho=0.5'))"));
      assertEquals(6 * 7 / 2, r.size());
      assertEquals("AGE BETWEEN 18 AND 27", r.get(0)[0]);
      var accountant = TestDatabase.session(c).accountant();
      BigDecimal spent = accountant.spent().rho();
      assertEquals(0, new BigDecimal("0.5").compareTo(spent));
      for (int i = 0; i < 100; i++) {
        int first = i % 6;
        int last = first + (i / 6) % (6 - first); // every range of the six AGE bins
        int lo = 18 + 10 * first;
        int hi = 18 + 10 * last + 9;
        String sql = i % 2 == 0
            ? "SELECT COUNT(*) FROM TRIPS WHERE AGE BETWEEN " + lo + " AND " + hi
            : "SELECT COUNT(*) AS N FROM TRIPS WHERE AGE >= " + lo + " AND AGE < " + (hi + 1);
        try (ResultSet rs = st.executeQuery(sql)) {
          rs.next();
          rs.getLong(1);
        }
      }
      assertEquals(0, spent.compareTo(accountant.spent().rho()), "range queries were free");
      List<LedgerEntry> ledger = accountant.ledger();
      assertEquals(LedgerEntry.SYNOPSIS, ledger.get(ledger.size() - 1).source());
    }
  }

  @Test
  void joinsWithAPublicTableAreOneChargeAndTheirDrillDownsAreFree() throws Exception {
    try (Connection c = db.connect(9L); Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery("SELECT Z.NAME, COUNT(*) AS N FROM TRIPS T "
          + "JOIN ZONES Z ON T.REGION = Z.REGION GROUP BY Z.NAME ORDER BY Z.NAME"));
      assertEquals(List.of("East", "North", "South", "West"),
          r.stream().map(x -> x[0]).toList(), "every public name, in order");
      assertEquals("N", c.createStatement().executeQuery("SELECT Z.NAME, COUNT(*) AS N FROM "
          + "TRIPS T JOIN ZONES Z ON T.REGION = Z.REGION GROUP BY Z.NAME").getMetaData()
          .getColumnLabel(2));
      double north = (Double) r.get(1)[1];
      assertEquals(db.exact("SELECT COUNT(*) FROM TRIPS WHERE REGION = 'N'"), north, 150);
      var accountant = TestDatabase.session(c).accountant();
      assertEquals(1, accountant.ledger().stream()
          .filter(x -> x.source().equals(LedgerEntry.MEASURED)).count(), "one charge");
      BigDecimal spent = accountant.spent().rho();
      assertEquals(0, BigDecimal.ONE.compareTo(spent));
      // the same cells by the private column: answered from the released synopsis, free
      List<Object[]> again = TestDatabase.rows(st.executeQuery(
          "SELECT COUNT(*) FROM TRIPS WHERE REGION IN ('N', 'S')"));
      // a single COUNT is released as an integer: the rounded sum of the two released cells
      assertEquals((Double) r.get(1)[1] + (Double) r.get(2)[1],
          ((Number) again.get(0)[0]).doubleValue(), 0.5 + 1e-9);
      assertEquals(0, spent.compareTo(accountant.spent().rho()), "covered query was free");
      List<Object[]> plan = TestDatabase.rows(st.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT "
          + "Z.NAME, COUNT(*) FROM TRIPS T JOIN ZONES Z ON T.REGION = Z.REGION GROUP BY Z.NAME'))"));
      assertEquals(1, plan.stream().filter(x -> (Boolean) x[1]).count(), "one chosen candidate");
      assertEquals(0, spent.compareTo(accountant.spent().rho()), "explain spends nothing");
      SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT COUNT(*) FROM TRIPS T LEFT JOIN ZONES Z ON T.REGION = Z.REGION"));
      assertEquals("XDP03", e.getSQLState());
    }
  }

  @Test
  void explainListsCandidatesWithTheChosenOneAndTheBound() throws Exception {
    try (Connection c = db.connect(4L); Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN("
          + "'SELECT * FROM TABLE(DPSQL.WORKLOAD(''TRIPS'', ''ALL_RANGES(AGE)'', ''rho=0.5''))'))"));
      long chosen = r.stream().filter(x -> (Boolean) x[1]).count();
      assertEquals(1, chosen);
      assertTrue(r.stream().anyMatch(x -> x[0].equals("lower_bound")));
      assertTrue(r.stream().anyMatch(x -> x[0].equals("eigen")));
      assertEquals(0, TestDatabase.session(c).accountant().ledger().size(), "explain spends nothing");
    }
  }

  @Test
  void aMechanismThatCannotAnswerIsRefused() throws Exception {
    try (Connection c = db.connect(5L); Statement st = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT /*+ DP(mechanism='wavelet') */ COUNT(*) FROM TRIPS WHERE AGE < 38 UNION ALL "
              + "SELECT COUNT(*) FROM TRIPS"));
      assertEquals("XDP03", e.getSQLState());
    }
  }
  @Test
  void autoChoosesTheEigenDesignForAllRangesAndIdentityForAMarginal() throws Exception {
    String url = "jdbc:h2:mem:auto" + java.util.UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    java.nio.file.Path policy = java.nio.file.Files.createTempFile("dpsql-auto", ".yaml");
    try (Connection h2 = java.sql.DriverManager.getConnection(url);
        Statement st = h2.createStatement()) {
      st.execute("CREATE TABLE T (ID INT PRIMARY KEY, V INT NOT NULL, G INT NOT NULL)");
      st.execute("INSERT INTO T SELECT X, MOD(X, 1024), MOD(X, 7) FROM SYSTEM_RANGE(1, 5000)");
      java.nio.file.Files.writeString(policy, "budget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 1}\n  default_query: {rho: 0.1}\ntables:\n  T:\n"
          + "    privacy_unit: ROW\n    columns:\n      V: {min: 0, max: 1023, bin: 1}\n"
          + "      G: {min: 0, max: 6, bin: 1}\n");
      java.util.Properties p = new java.util.Properties();
      p.setProperty("policy", policy.toString());
      try (Connection c = java.sql.DriverManager.getConnection(
              "jdbc:dpsql:" + url.substring("jdbc:".length()), p);
          Statement s = c.createStatement()) {
        List<Object[]> ranges = TestDatabase.rows(s.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN("
            + "'SELECT * FROM TABLE(DPSQL.WORKLOAD(''T'', ''ALL_RANGES(V)'', ''''))'))"));
        Object[] chosen = ranges.stream().filter(x -> (Boolean) x[1]).findFirst().orElseThrow();
        double eigen = ranges.stream().filter(x -> x[0].equals("eigen"))
            .mapToDouble(x -> (Double) x[5]).findFirst().orElseThrow();
        double bound = ranges.stream().filter(x -> x[0].equals("lower_bound"))
            .mapToDouble(x -> (Double) x[5]).findFirst().orElseThrow();
        assertTrue((Double) chosen[5] <= 1.01 * eigen, "auto " + chosen[0] + " vs eigen");
        assertTrue(eigen >= bound && eigen <= 1.03 * bound, "eigen " + eigen + ", bound " + bound);
        List<Object[]> marginal = TestDatabase.rows(s.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN("
            + "'SELECT * FROM TABLE(DPSQL.WORKLOAD(''T'', ''MARGINALS(G; 1)'', ''''))'))"));
        Object[] m = marginal.stream().filter(x -> (Boolean) x[1]).findFirst().orElseThrow();
        assertEquals("identity", m[0]);
      }
    } finally {
      java.nio.file.Files.deleteIfExists(policy);
    }
  }
  @Test
  void pureAccountingUsesLaplaceNoiseAndOffersHdmm() throws Exception {
    try (TestDatabase pure = TestDatabase.create(2000, TestDatabase.PURE, null);
        Connection c = pure.connect(6L); Statement st = c.createStatement()) {
      List<Object[]> explain = TestDatabase.rows(st.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN("
          + "'SELECT * FROM TABLE(DPSQL.WORKLOAD(''TRIPS'', ''ALL_RANGES(AGE)'', ''epsilon=0.5''))'))"));
      assertTrue(explain.stream().anyMatch(x -> x[0].equals("hdmm")), "hdmm is a candidate");
      assertTrue(explain.stream().noneMatch(x -> x[0].equals("lower_bound")),
          "the svdb bound is for L2 noise only");
      List<Object[]> r = TestDatabase.rows(st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(AGE)', 'epsilon=0.5'))"));
      assertEquals(21, r.size());
      var accountant = TestDatabase.session(c).accountant();
      assertEquals(0, new BigDecimal("0.5").compareTo(accountant.spent().epsilon()));
    }
  }
}
