package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Roll-ups over a hierarchy declared in the policy are answered by InfTDA through JDBC: one charged
 * release of an integral, non-negative, consistent tree; later roll-ups and drill-downs are free.
 */
@org.junit.jupiter.api.Order(9) // among the slowest: started first
class TopDownQueriesTest {
  private static String url;
  private static Connection h2;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:geo" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    h2 = DriverManager.getConnection(url);
    try (Statement st = h2.createStatement()) {
      st.execute("CREATE TABLE PEOPLE (ID INT PRIMARY KEY, HH INT NOT NULL, STATE VARCHAR(2) NOT "
          + "NULL, COUNTY VARCHAR(3) NOT NULL)");
    }
    SplittableRandom r = new SplittableRandom(5);
    String[] states = {"NY", "CA", "TX", "IL"};
    try (PreparedStatement ps = h2.prepareStatement("INSERT INTO PEOPLE VALUES (?,?,?,?)")) {
      for (int i = 0; i < 8000; i++) {
        ps.setInt(1, i);
        ps.setInt(2, i / 2);
        ps.setString(3, states[Math.min(3, (int) Math.abs(r.nextGaussian() * 1.3))]);
        ps.setString(4, "C" + (1 + Math.min(4, (int) Math.abs(r.nextGaussian() * 2))));
        ps.addBatch();
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-td", ".yaml");
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 2}\n  default_query: {rho: 0.5}\n"
        + "tables:\n  PEOPLE:\n    privacy_unit: HH\n    max_rows_per_unit: 2\n    columns:\n"
        + "      STATE: {values: [NY, CA, TX, IL]}\n"
        + "      COUNTY: {values: [C1, C2, C3, C4, C5]}\n"
        + "    hierarchies:\n      GEO: [STATE, COUNTY]\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    h2.close();
    Files.deleteIfExists(policy);
  }

  private static Connection connect(Path p, long seed) throws SQLException {
    Properties props = new Properties();
    props.setProperty("policy", p.toString());
    props.setProperty("seed", Long.toString(seed));
    return DriverManager.getConnection("jdbc:dpsql:" + url.substring("jdbc:".length()), props);
  }

  @Test
  void aRollupIsOneConsistentIntegralReleaseAndDrillDownsAreFree() throws Exception {
    try (Connection c = connect(policy, 1); Statement st = c.createStatement()) {
      List<Object[]> rows = new ArrayList<>();
      try (ResultSet rs = st.executeQuery(
          "SELECT STATE, COUNTY, COUNT(*) AS N FROM PEOPLE GROUP BY ROLLUP(STATE, COUNTY)")) {
        while (rs.next()) {
          rows.add(new Object[] {rs.getString(1), rs.getString(2), rs.getDouble(3)});
        }
      }
      assertEquals(4 * 5 + 4 + 1, rows.size());
      double total = (Double) rows.get(24)[2];
      assertNull(rows.get(24)[0]);
      double statesSum = 0;
      for (int s = 0; s < 4; s++) {
        double state = (Double) rows.get(20 + s)[2];
        double counties = 0;
        for (int k = 0; k < 5; k++) {
          double v = (Double) rows.get(5 * s + k)[2];
          assertEquals(Math.rint(v), v, 0.0, "integral");
          assertTrue(v >= 0, "non-negative");
          counties += v;
        }
        assertEquals(state, counties, 0.0, "a state is the sum of its counties");
        statesSum += state;
      }
      assertEquals(total, statesSum, 0.0, "the total is the sum of the states");
      assertTrue(Math.abs(total - 8000) < 200, "total " + total);
      var accountant = TestDatabase.session(c).accountant();
      assertEquals("inftda", accountant.ledger().get(0).mechanism());

      // a drill-down inside the released tree: free, and equal to the released states
      try (ResultSet rs = st.executeQuery("SELECT STATE, COUNT(*) FROM PEOPLE GROUP BY STATE")) {
        for (int s = 0; s < 4; s++) {
          rs.next();
          assertEquals(((Double) rows.get(20 + s)[2]).longValue(), rs.getLong(2));
        }
      }
      List<LedgerEntry> ledger = accountant.ledger();
      assertEquals(2, ledger.size());
      assertEquals(LedgerEntry.SYNOPSIS, ledger.get(1).source());
      assertEquals(0, new java.math.BigDecimal("0.5").compareTo(accountant.spent().rho()));
    }
  }

  /** The lines of {@code EXPLAIN PLAN FOR sql}. */
  private static String plan(Statement st, String sql) throws SQLException {
    return TestDatabase.explainPlan(st, sql);
  }

  @Test
  void explainShowsPerLevelNoiseAndTheBound() throws Exception {
    try (Connection c = connect(policy, 2); Statement st = c.createStatement()) {
      String plan = plan(st, "SELECT STATE, COUNTY, COUNT(*) FROM PEOPLE GROUP BY "
          + "ROLLUP(STATE, COUNTY)");
      assertTrue(plan.contains("level 2 (COUNTY, 20 nodes): discrete Gaussian sigma^2"), plan);
      assertTrue(plan.contains("Theorem 4"), plan);
    }
  }

  @Test
  void topDownIsRefusedWhereItCannotAnswer() throws Exception {
    Path pure = Files.createTempFile("dpsql-td-pure", ".yaml");
    try {
      Files.writeString(pure, Files.readString(policy).replace(
          "  accounting: zcdp\n  per_connection: {rho: 2}\n  default_query: {rho: 0.5}\n",
          "  accounting: pure\n  per_connection: {epsilon: 2}\n  default_query: {epsilon: 0.5}\n"));
      try (Connection c = connect(pure, 3); Statement st = c.createStatement()) {
        SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
            "SELECT /*+ DP(mechanism='inftda') */ STATE, COUNT(*) FROM PEOPLE GROUP BY "
                + "ROLLUP(STATE)"));
        assertEquals("XDP03", e.getSQLState());
        // auto falls back to the matrix mechanism under pure accounting
        try (ResultSet rs = st.executeQuery(
            "SELECT STATE, COUNT(*) FROM PEOPLE GROUP BY ROLLUP(STATE)")) {
          int n = 0;
          while (rs.next()) {
            n++;
          }
          assertEquals(5, n);
        }
        assertTrue(!TestDatabase.session(c).accountant().ledger().get(0).mechanism()
            .equals("inftda"));
      }
    } finally {
      Files.deleteIfExists(pure);
    }
  }
  @Test
  void aSingleLevelGroupByAskedOfInftdaIsOneTreeRelease() throws Exception {
    try (Connection c = connect(policy, 4); Statement st = c.createStatement()) {
      long sum = 0;
      int n = 0;
      try (ResultSet rs = st.executeQuery(
          "SELECT /*+ DP(mechanism='inftda') */ STATE, COUNT(*) FROM PEOPLE GROUP BY STATE")) {
        while (rs.next()) {
          n++;
          assertTrue(rs.getLong(2) >= 0);
          sum += rs.getLong(2);
        }
      }
      assertEquals(4, n);
      assertTrue(Math.abs(sum - 8000) < 200, "sum " + sum);
      assertEquals("inftda", TestDatabase.session(c).accountant().ledger().get(0).mechanism());
      try (ResultSet rs = st.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT /*+ "
          + "DP(mechanism=''inftda'') */ STATE, COUNT(*) FROM PEOPLE GROUP BY STATE'))")) {
        rs.next();
        assertEquals("inftda", rs.getString(1));
      }
    }
  }
  @Test
  void originDestinationFlowsAreOneDestinationTreeRelease() throws Exception {
    try (Statement st = h2.createStatement()) {
      st.execute("CREATE TABLE FLOWS (ID INT PRIMARY KEY, RIDER INT NOT NULL, O_REG VARCHAR(1) NOT "
          + "NULL, O_PROV VARCHAR(2) NOT NULL, D_REG VARCHAR(1) NOT NULL, D_PROV VARCHAR(2) NOT NULL)");
      st.execute("INSERT INTO FLOWS SELECT X, X, CHAR(65 + MOD(X, 3)), 'P' || MOD(X / 3, 4), "
          + "CHAR(65 + MOD(X / 12, 3)), 'P' || MOD(X / 36, 4) FROM SYSTEM_RANGE(1, 6000)");
    }
    Path od = Files.createTempFile("dpsql-od", ".yaml");
    try {
      Files.writeString(od, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 2}\n  default_query: {rho: 0.5}\n"
          + "tables:\n  FLOWS:\n    privacy_unit: ROW\n    columns:\n"
          + "      O_REG: {values: [A, B, C]}\n      O_PROV: {values: [P0, P1, P2, P3]}\n"
          + "      D_REG: {values: [A, B, C]}\n      D_PROV: {values: [P0, P1, P2, P3]}\n"
          + "    hierarchies:\n      ORIGIN: [O_REG, O_PROV]\n      DESTINATION: [D_REG, D_PROV]\n");
      try (Connection c = connect(od, 7); Statement st = c.createStatement()) {
        double total = 0;
        int n = 0;
        try (ResultSet rs = st.executeQuery("SELECT /*+ DP(mechanism='inftda') */ O_REG, O_PROV, "
            + "D_REG, D_PROV, COUNT(*) FROM FLOWS GROUP BY O_REG, O_PROV, D_REG, D_PROV")) {
          while (rs.next()) {
            n++;
            assertTrue(rs.getLong(5) >= 0);
            total += rs.getLong(5);
          }
        }
        assertEquals(12 * 12, n);
        assertTrue(Math.abs(total - 6000) < 300, "total " + total);
        // region-to-region flows: inside the released tree, free
        try (ResultSet rs = st.executeQuery("SELECT /*+ DP(mechanism='inftda') */ O_REG, D_REG, "
            + "COUNT(*) FROM FLOWS GROUP BY O_REG, D_REG")) {
          double sum = 0;
          while (rs.next()) {
            sum += rs.getLong(3);
          }
          assertEquals(total, sum, 1e-9, "coarse flows add up to the fine ones");
        }
        var ledger = TestDatabase.session(c).accountant().ledger();
        assertEquals("inftda", ledger.get(0).mechanism());
        assertEquals(LedgerEntry.SYNOPSIS, ledger.get(1).source());
        String plan = plan(st, "SELECT /*+ DP(mechanism='inftda') */ O_REG, D_REG, COUNT(*) "
            + "FROM FLOWS GROUP BY O_REG, D_REG");
        assertTrue(plan.contains("level 1 (origin all x destination D_REG"), plan);
      }
    } finally {
      Files.deleteIfExists(od);
    }
  }

  @Test
  void treesLargerThanTheCellLimitOfOtherQueriesAreReleasedByInfTda() throws Exception {
    try (Statement st = h2.createStatement()) {
      st.execute("CREATE TABLE BIG (A INT NOT NULL, B INT NOT NULL)");
      st.execute("INSERT INTO BIG SELECT MOD(X * 7919, 1024), MOD(X * 104729, 1024) "
          + "FROM SYSTEM_RANGE(1, 20000)");
    }
    Path p = Files.createTempFile("dpsql-big", ".yaml");
    try {
      Files.writeString(p, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 2}\n  default_query: {rho: 0.5}\n"
          + "tables:\n  BIG:\n    privacy_unit: ROW\n    columns:\n"
          + "      A: {min: 0, max: 1023}\n      B: {min: 0, max: 1023}\n"
          + "    hierarchies:\n      AB: [A, B]\n");
      try (Connection c = connect(p, 3); Statement st = c.createStatement()) {
        // 1,048,576 leaves: more than the 1,000,000 cells of other queries
        SQLException e = assertThrows(SQLException.class,
            () -> st.executeQuery("SELECT A, B, COUNT(*) FROM BIG GROUP BY A, B"));
        assertEquals("XDP03", e.getSQLState());
        assertTrue(e.getMessage().contains("InfTDA"), e.getMessage());
        long rows = 0;
        long total = 0;
        try (ResultSet rs = st.executeQuery(
            "SELECT /*+ DP(mechanism='inftda') */ A, B, COUNT(*) FROM BIG GROUP BY A, B")) {
          while (rs.next()) {
            long v = rs.getLong(3);
            assertTrue(v >= 0, "non-negative");
            total += v;
            rows++;
          }
        }
        assertEquals(1024 * 1024, rows);
        assertEquals(20000, total, 200, "the root is the noisy total (unbounded DP)");
      }
    } finally {
      Files.deleteIfExists(p);
    }
  }
}
