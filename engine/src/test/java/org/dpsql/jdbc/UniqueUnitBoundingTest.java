package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A privacy unit that the backend declares unique (primary key, or a unique index on a NOT NULL
 * column) has one row per unit: the measurement skips the bounding window (and the snapshot), and
 * its exact answers are those of the plain GROUP BY. Units that are not declared so (no
 * constraint, a composite key, a unique index on a nullable column) are still bounded.
 */
class UniqueUnitBoundingTest {
  private String url;
  private Connection direct;
  private Path policy;

  @BeforeEach
  void setUp() throws Exception {
    url = "jdbc:h2:mem:u" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      // PID: primary key; EMAIL_ID: unique index, NOT NULL; PHONE_ID: unique index, nullable;
      // HOUSEHOLD: no constraint; (PID, VISIT) is the composite key of VISITS
      st.execute("CREATE TABLE PERSONS (PID BIGINT PRIMARY KEY, EMAIL_ID INT NOT NULL, PHONE_ID INT, "
          + "HOUSEHOLD INT NOT NULL, REGION VARCHAR(2) NOT NULL, AGE INT NOT NULL)");
      st.execute("CREATE UNIQUE INDEX PERSONS_EMAIL ON PERSONS(EMAIL_ID)");
      st.execute("CREATE UNIQUE INDEX PERSONS_PHONE ON PERSONS(PHONE_ID)");
      st.execute("INSERT INTO PERSONS SELECT X, 1000000 - X, CASE WHEN MOD(X, 7) = 0 THEN NULL ELSE X END, "
          + "X / 4, CASE MOD(X, 3) WHEN 0 THEN 'N' WHEN 1 THEN 'S' ELSE 'E' END, MOD(X, 50) "
          + "FROM SYSTEM_RANGE(1, 3000)");
      st.execute("CREATE TABLE VISITS (PID BIGINT NOT NULL, VISIT INT NOT NULL, REGION VARCHAR(2), "
          + "PRIMARY KEY (PID, VISIT))");
      st.execute("INSERT INTO VISITS SELECT MOD(X, 100), X, CASE MOD(X, 2) WHEN 0 THEN 'N' ELSE 'S' END "
          + "FROM SYSTEM_RANGE(1, 2000)");
    }
    policy = Files.createTempFile("unique-unit", ".yaml");
  }

  @AfterEach
  void tearDown() throws Exception {
    try (Statement st = direct.createStatement()) {
      st.execute("SHUTDOWN");
    }
    direct.close();
    Files.deleteIfExists(policy);
  }

  private void writePolicy(String table, String unit, String bounding) throws Exception {
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 1000}\n  default_query: {rho: 1}\ntables:\n  " + table + ":\n"
        + "    privacy_unit: " + unit + "\n    max_rows_per_unit: 3\n    bounding: " + bounding + "\n"
        + "    columns:\n      REGION: {values: [N, S, E]}\n"
        + (table.equals("PERSONS") ? "      AGE: {min: 0, max: 49, bin: 10}\n" : ""));
  }

  /** The backend SQL that EXPLAIN PLAN FOR shows for {@code sql}. */
  private String backendSql(String sql) throws Exception {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + url.substring(5), p);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      StringBuilder plan = new StringBuilder();
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
      String text = plan.toString();
      int at = text.indexOf("backend SQL: ");
      assertTrue(at >= 0, text);
      return text.substring(at);
    }
  }

  /** The exact (noise-free) measurement vectors of {@code sql}, through a fresh measurer. */
  private long[][] measure(String sql) throws SQLException {
    Policy p = PolicyLoader.load(policy.toString(), direct);
    SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(direct.getMetaData());
    FrontEnd analyzer = new FrontEnd(p, BackendCatalog.read(direct, p), direct.getSchema(),
        dialect);
    AnalyzedStatement.PrivateAggregate q = (AnalyzedStatement.PrivateAggregate) analyzer.analyze(sql);
    return new ExactMeasurer(direct, dialect).measure(MeasurementPlan.of(q.query()), List.of());
  }

  private long[] directCounts(String sql) throws SQLException {
    long[] out = new long[3];
    List<String> regions = List.of("N", "S", "E");
    try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out[regions.indexOf(rs.getString(1))] = rs.getLong(2);
      }
    }
    return out;
  }

  private int snapshotTables() throws SQLException {
    try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE 'DPSQL_SNAPSHOT%'")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"PID", "EMAIL_ID"})
  void aDeclaredUniqueUnitIsNotBoundedAndAnswersTheSame(String unit) throws Exception {
    for (String bounding : List.of("per_query", "snapshot")) {
      writePolicy("PERSONS", unit, bounding);
      String sql = "SELECT REGION, COUNT(*), SUM(AGE) FROM PERSONS WHERE AGE >= 10 GROUP BY REGION";
      String backend = backendSql(sql);
      assertFalse(backend.contains("ROW_NUMBER"), backend);
      assertFalse(backend.contains("DPSQL_SNAPSHOT"), backend);
      long[][] x = measure(sql);
      assertArrayEquals(directCounts("SELECT REGION, COUNT(*) FROM PERSONS WHERE AGE >= 10 GROUP BY REGION"),
          x[0], bounding);
      assertArrayEquals(directCounts("SELECT REGION, SUM(AGE) FROM PERSONS WHERE AGE >= 10 GROUP BY REGION"),
          x[1], bounding);
      assertEquals(0, snapshotTables(), "no snapshot is built for a unique unit");
    }
  }

  @Test
  void theExplanationSaysWhyNothingIsBounded() throws Exception {
    writePolicy("PERSONS", "PID", "per_query");
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + url.substring(5), p);
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR SELECT COUNT(*) FROM PERSONS")) {
      assertTrue(rs.next());
      assertTrue(rs.getString(1).contains("bounding not needed: the backend declares PID unique"),
          rs.getString(1));
    }
  }

  @Test
  void aNullableUniqueColumnIsStillBounded() throws Exception {
    writePolicy("PERSONS", "PHONE_ID", "per_query");
    String sql = "SELECT REGION, COUNT(*) FROM PERSONS GROUP BY REGION";
    assertTrue(backendSql(sql).contains("ROW_NUMBER"), "NULL units are many rows of one unit");
    // the 428 persons without a phone are one unit: 3 of them are kept
    long[] x = measure(sql)[0];
    long nulls = 3000 / 7;
    assertEquals(3000 - nulls + 3, x[0] + x[1] + x[2]);
  }

  @Test
  void aUnitWithoutAConstraintIsBounded() throws Exception {
    writePolicy("PERSONS", "HOUSEHOLD", "per_query");
    String sql = "SELECT REGION, COUNT(*) FROM PERSONS GROUP BY REGION";
    assertTrue(backendSql(sql).contains("ROW_NUMBER"));
    // households X / 4: household 0 has 3 persons, 1..749 have 4 (bounded to 3), 750 has one
    long[] x = measure(sql)[0];
    assertEquals(3 + 749 * 3 + 1, x[0] + x[1] + x[2]);
  }

  @Test
  void aUnitThatIsOnlyPartOfTheKeyIsBounded() throws Exception {
    writePolicy("VISITS", "PID", "per_query");
    String sql = "SELECT REGION, COUNT(*) FROM VISITS GROUP BY REGION";
    assertTrue(backendSql(sql).contains("ROW_NUMBER"));
    long[] x = measure(sql)[0];
    assertEquals(100 * 3, x[0] + x[1] + x[2], "100 persons with 20 visits each, 3 kept");
  }
}
