package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every SQLState of contract §6 with its trigger, through DriverManager; refusals charge nothing. */
class ErrorStatesTest {
  static TestDatabase db;

  @BeforeAll
  static void setUp() throws Exception {
    db = TestDatabase.create(3000, TestDatabase.ZCDP, null);
  }

  @AfterAll
  static void tearDown() throws Exception {
    db.close();
  }

  private static SQLException refused(String sql) throws SQLException {
    try (Connection c = db.connect(); Statement st = c.createStatement()) {
      SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(sql).close(), sql);
      assertEquals(PrivacyCost.zcdp(BigDecimal.ZERO), TestDatabase.session(c).accountant().spent(),
          "a refused statement must charge nothing: " + sql);
      return e;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT * FROM TRIPS",
      "SELECT REGION FROM TRIPS",
      "SELECT NOTE, COUNT(*) FROM TRIPS GROUP BY NOTE",
      "SELECT COUNT(*) FROM TRIPS WHERE NOTE = 'x'",
      "SELECT COUNT(*) FROM TRIPS WHERE RIDER_ID = 3",
      "SELECT SUM(TRIP_ID) FROM TRIPS",
      "SELECT DISTINCT FARE FROM TRIPS",
      "SELECT DISTINCT NOTE FROM TRIPS ORDER BY NOTE LIMIT 1000",
      "SELECT COUNT(*) FROM TRIPS GROUP BY FARE",
      "DELETE FROM TRIPS",
      "UPDATE TRIPS SET FARE = 0",
      "INSERT INTO TRIPS (TRIP_ID) VALUES (99999)",
      "INSERT INTO ZONES VALUES ('X', 'x')",
      "DROP TABLE TRIPS",
      "CREATE TABLE X (A INT)",
      "TRUNCATE TABLE TRIPS",
      "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'ALL_RANGES(FARE)', ''))",
      // backend functions that run SQL given as text or touch files would bypass dpsql's checks
      "SELECT CSVWRITE('/tmp/dpsql-leak.csv', 'SELECT RIDER_ID, FARE FROM TRIPS') FROM ZONES",
      "SELECT FILE_READ('/etc/hostname') FROM ZONES",
      "SELECT NAME FROM ZONES WHERE REGION = FILE_READ('/etc/hostname')",
      "SELECT * FROM CSVREAD('/tmp/dpsql-leak.csv')",
      "SELECT FILE_READ('/etc/hostname') FROM DPSQL.BUDGET"})
  void notAllowedIsXdp02(String sql) throws SQLException {
    SQLException e = refused(sql);
    assertEquals("XDP02", e.getSQLState(), e.getMessage());
    assertTrue(!e.getMessage().startsWith("Error 0"), "message is dpsql's own: " + e.getMessage());
  }

  /**
   * A roll-up combined with public rows by UNION was refused (XDP03) until roll-ups reached the
   * relational front end as grouping sets: now the roll-up is one release and the UNION is
   * post-processing over its rows, so the public row is among the answer's rows.
   */
  @org.junit.jupiter.api.Test
  void aRollUpUnionPublicRowsIsAnsweredAboveTheRelease() throws SQLException {
    String sql = "SELECT REGION, COUNT(*) FROM TRIPS GROUP BY ROLLUP(REGION) UNION SELECT 'X', 1 "
        + "FROM ZONES";
    try (Connection c = db.connect(); Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(sql)) {
      boolean publicRow = false;
      boolean total = false;
      while (rs.next()) {
        publicRow |= "X".equals(rs.getString(1));
        total |= rs.getString(1) == null;
      }
      assertTrue(publicRow, "the public row 'X' is in the answer");
      assertTrue(total, "the roll-up's total row (REGION null) is in the answer");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT MODE(FARE) FROM TRIPS",
      "SELECT BIT_AND(AGE) FROM TRIPS",
      "SELECT COUNT(DISTINCT UPPER(REGION)) FROM TRIPS",
      "SELECT COUNT(*) FROM TRIPS WHERE AGE < 35 UNION ALL SELECT COUNT(*) FROM TRIPS",
      "SELECT T.REGION, COUNT(*) FROM TRIPS T FULL JOIN ZONES Z ON T.REGION = Z.REGION GROUP BY T.REGION",
      "SELECT COUNT(*) FROM TRIPS WHERE 10 / (AGE - 30) > 1",
      "SELECT COUNT(*) FROM TRIPS WHERE CAST(REGION AS INTEGER) = 1",
      "SELECT COUNT(*) FROM TRIPS WHERE AGE IS NULL UNION ALL SELECT COUNT(*) FROM TRIPS",
      "SELECT * FROM TABLE(DPSQL.WORKLOAD('TRIPS', 'SQUARES(AGE)', ''))",
      "SELECT /*+ DP(mechanism='eigen') */ COUNT(*) FROM TRIPS"})
  void notSupportedIsXdp03(String sql) throws SQLException {
    SQLException e = refused(sql);
    assertEquals("XDP03", e.getSQLState(), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT /*+ DP(rho='-1') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(rho='0') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(epsilon='-0.5', delta='1e-9') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(epsilon='1', delta='2') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(epsilon='1', delta='0') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(rho='abc') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(mechanism='magic') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(rho='0.1', ci='1.5') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(rho='0.1', epsilon='1') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(budget='0.1') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(answer_range='5') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(answer_range='9,3') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ NOISE(x='1') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(rho='1e-999999999') */ COUNT(*) FROM TRIPS",
      "SELECT /*+ DP(epsilon='1e+999999999', delta='1e-9') */ COUNT(*) FROM TRIPS"})
  void badPrivacyParameterIsXdp05(String sql) throws SQLException {
    SQLException e = refused(sql);
    assertEquals("XDP05", e.getSQLState(), e.getMessage());
  }

  @Test
  void budgetExhaustedIsXdp01AndChargesNothing() throws SQLException {
    try (Connection c = db.connect(); Statement st = c.createStatement()) {
      st.executeQuery("SELECT /*+ DP(rho='0.6') */ COUNT(*) FROM TRIPS").close();
      SQLException e = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT /*+ DP(rho='0.6') */ REGION, COUNT(*) FROM TRIPS GROUP BY REGION"));
      assertEquals("XDP01", e.getSQLState());
      assertTrue(e.getMessage().contains("0.6") && e.getMessage().contains("0.4"), e.getMessage());
      assertEquals(0, new BigDecimal("0.6").compareTo(TestDatabase.session(c).accountant().spent().rho()));
      // what is left can still be spent exactly
      st.executeQuery("SELECT /*+ DP(rho='0.4') */ REGION, COUNT(*) FROM TRIPS GROUP BY REGION").close();
      assertEquals(0, BigDecimal.ONE.compareTo(TestDatabase.session(c).accountant().spent().rho()));
    }
  }

  @Test
  void sqlErrorsAre42xxx() throws SQLException {
    assertEquals("42000", refused("SELEC COUNT(*) FROM TRIPS").getSQLState());
    assertEquals("42S02", refused("SELECT COUNT(*) FROM SECRET").getSQLState());
    assertEquals("42S02", refused("SELECT * FROM NOWHERE").getSQLState());
    assertEquals("42S22", refused("SELECT COUNT(*) FROM TRIPS WHERE NO_SUCH = 1").getSQLState());
    assertTrue(refused("SELECT COUNT(*) FROM TRIPS WHERE REGION = 3 +").getSQLState().startsWith("42"));
    // no implicit casts of row values (a failing conversion would reveal the row)
    SQLException e = refused("SELECT COUNT(*) FROM TRIPS WHERE REGION = 3");
    assertEquals("42000", e.getSQLState(), e.getMessage());
    assertTrue(!e.getMessage().contains("'N'"), "no private value in the message: " + e.getMessage());
  }

  @Test
  void policyErrorsAreXdp04AtConnect() throws Exception {
    Properties none = new Properties();
    SQLException e = assertThrows(SQLException.class,
        () -> DriverManager.getConnection(db.dpsqlUrl(), none));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("policy"), e.getMessage());

    Properties missing = new Properties();
    missing.setProperty("policy", "/no/such/policy.yaml");
    e = assertThrows(SQLException.class, () -> DriverManager.getConnection(db.dpsqlUrl(), missing));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("/no/such/policy.yaml"), e.getMessage());

    Path bad = Files.createTempFile("bad-policy", ".yaml");
    Files.writeString(bad, TestDatabase.policyYaml(TestDatabase.ZCDP, null).replace("FARE: {clamp", "FAER: {clamp"));
    Properties badProps = new Properties();
    badProps.setProperty("policy", bad.toString());
    e = assertThrows(SQLException.class, () -> DriverManager.getConnection(db.dpsqlUrl(), badProps));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains(bad.toString()) && e.getMessage().contains("FAER"), e.getMessage());
    Files.delete(bad);
  }

  @Test
  void seedIsRefusedUnlessThePolicyAllowsIt() throws Exception {
    Path p = Files.createTempFile("noseed", ".yaml");
    Files.writeString(p, TestDatabase.policyYaml(TestDatabase.ZCDP, null).replace("allow_seed: true", "allow_seed: false"));
    Properties props = new Properties();
    props.setProperty("policy", p.toString());
    props.setProperty("seed", "42");
    SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(db.dpsqlUrl(), props));
    assertEquals("XDP05", e.getSQLState());
    Files.delete(p);
  }

  @Test
  void publicTablesTakeParametersAndRunWhatWasChecked() throws SQLException {
    try (Connection c = db.connect();
        java.sql.PreparedStatement ps = c.prepareStatement("SELECT NAME, LENGTH(NAME) AS L FROM ZONES WHERE REGION = ?")) {
      ps.setString(1, "E");
      try (var rs = ps.executeQuery()) {
        assertTrue(rs.next());
        assertEquals("East", rs.getString("NAME"));
        assertEquals(4, rs.getInt("L"));
      }
    }
    // a second statement hidden after the first cannot reach the backend
    assertEquals("42000", refused("SELECT * FROM ZONES; DELETE FROM TRIPS").getSQLState());
  }

  @Test
  void publicTablesAnswerAnyReadOnlySql() throws SQLException {
    try (Connection c = db.connect(); Statement st = c.createStatement();
        var rs = st.executeQuery("SELECT NAME FROM ZONES WHERE REGION IN ('N', 'S') ORDER BY NAME")) {
      assertTrue(rs.next());
      assertEquals("North", rs.getString(1));
      assertTrue(rs.next());
      assertEquals("South", rs.getString(1));
      assertEquals(PrivacyCost.zcdp(BigDecimal.ZERO), TestDatabase.session(c).accountant().spent());
    }
  }
}
