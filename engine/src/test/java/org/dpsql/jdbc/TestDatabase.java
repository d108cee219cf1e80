package org.dpsql.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * A small private data set in a fresh in-memory H2 database, with a policy file, for end-to-end
 * tests through {@link java.sql.DriverManager}. The backend stays open for the test's lifetime.
 */
final class TestDatabase implements AutoCloseable {
  static final String[] REGIONS = {"N", "S", "E", "W"};
  static final String[] PAYMENTS = {"CARD", "CASH", "APP"};

  final String backendUrl;
  final Connection direct;
  final Path policyFile;

  private TestDatabase(String backendUrl, Connection direct, Path policyFile) {
    this.backendUrl = backendUrl;
    this.direct = direct;
    this.policyFile = policyFile;
  }

  /** The session behind a dpsql connection (for checks of the budget in tests). */
  static org.dpsql.session.DpsqlSession session(Connection c) {
    return ((DpsqlJdbcFactory.DpsqlConnection) c).dpsqlMeta().session();
  }

  /** How many entries of {@code c}'s ledger were measured (not answered from a synopsis). */
  static long measured(Connection c) {
    return session(c).accountant().ledger().stream()
        .filter(e -> e.source().equals(org.dpsql.accounting.LedgerEntry.MEASURED)).count();
  }

  /** Every row of a result set, as objects (for checks in tests). */
  /** The lines of {@code EXPLAIN PLAN FOR sql}, each followed by a newline. */
  static String explainPlan(Statement st, String sql) throws SQLException {
    StringBuilder plan = new StringBuilder();
    try (java.sql.ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
    }
    return plan.toString();
  }

  static java.util.List<Object[]> rows(java.sql.ResultSet rs) throws SQLException {
    java.util.List<Object[]> out = new java.util.ArrayList<>();
    int n = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      Object[] r = new Object[n];
      for (int i = 0; i < n; i++) {
        r[i] = rs.getObject(i + 1);
      }
      out.add(r);
    }
    return out;
  }

  /** A scalar from the backend directly (the truth). */
  long exact(String sql) throws SQLException {
    try (Statement st = direct.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** TRIPS(TRIP_ID, RIDER_ID, REGION, PAYMENT, AGE, FARE, NOTE) and public ZONES(REGION, NAME). */
  static TestDatabase create(int trips, String budgetYaml, String extraTableYaml) throws Exception {
    String url = "jdbc:h2:mem:t" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    Connection c = DriverManager.getConnection(url);
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), PAYMENT VARCHAR(8), AGE INT, FARE DECIMAL(8,2), NOTE VARCHAR(100))");
      st.execute("CREATE TABLE ZONES (REGION VARCHAR(2), NAME VARCHAR(20))");
      st.execute("INSERT INTO ZONES VALUES ('N','North'),('S','South'),('E','East'),('W','West')");
      st.execute("CREATE TABLE SECRET (X INT)");
    }
    SplittableRandom rnd = new SplittableRandom(7);
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO TRIPS VALUES (?,?,?,?,?,?,?)")) {
      for (int i = 0; i < trips; i++) {
        int rider = rnd.nextInt(Math.max(1, trips / 3));
        ps.setLong(1, i);
        ps.setInt(2, rider);
        ps.setString(3, REGIONS[rider % 4]);
        ps.setString(4, PAYMENTS[rnd.nextInt(3)]);
        ps.setInt(5, 18 + rider % 60);
        if (i % 50 == 0) {
          ps.setNull(6, java.sql.Types.DECIMAL);
        } else {
          ps.setBigDecimal(6, java.math.BigDecimal.valueOf(rnd.nextInt(1, 12000), 2));
        }
        ps.setString(7, "note " + i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    Path policy = Files.createTempFile("dpsql-policy", ".yaml");
    Files.writeString(policy, policyYaml(budgetYaml, extraTableYaml));
    return new TestDatabase(url, c, policy);
  }

  static String policyYaml(String budgetYaml, String extraTableYaml) {
    return "allow_seed: true\n"
        + budgetYaml
        + "tables:\n"
        + "  TRIPS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      REGION: {values: [N, S, E, W]}\n"
        + "      PAYMENT: {values: [CARD, CASH, APP]}\n"
        + "      AGE: {min: 18, max: 77, bin: 10}\n"
        + "      FARE: {clamp: [0, 100]}\n"
        + "  ZONES: {public: true}\n"
        + (extraTableYaml == null ? "" : extraTableYaml);
  }

  static final String ZCDP = "budget:\n  accounting: zcdp\n  per_connection: {rho: 1.0, delta: 1e-9}\n"
      + "  default_query: {rho: 0.1}\n";
  static final String PURE = "budget:\n  accounting: pure\n  per_connection: {epsilon: 1.0}\n"
      + "  default_query: {epsilon: 0.1}\n";
  static final String APPROX = "budget:\n  accounting: approx\n"
      + "  per_connection: {epsilon: 2.0, delta: 1e-6}\n  default_query: {epsilon: 0.5, delta: 1e-7}\n";

  String dpsqlUrl() {
    return "jdbc:dpsql:" + backendUrl.substring("jdbc:".length());
  }

  Connection connect() throws SQLException {
    return connect(null);
  }

  Connection connect(Long seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policyFile.toString());
    if (seed != null) {
      p.setProperty("seed", seed.toString());
    }
    return DriverManager.getConnection(dpsqlUrl(), p);
  }

  @Override
  public void close() throws SQLException, IOException {
    try (Statement st = direct.createStatement()) {
      st.execute("SHUTDOWN");
    } catch (SQLException ignored) {
      // already closed
    }
    Files.deleteIfExists(policyFile);
  }
}
