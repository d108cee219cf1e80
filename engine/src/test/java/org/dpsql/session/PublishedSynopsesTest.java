package org.dpsql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The data owner's published synopses (policy {@code synopses:}): released once with the owner's
 * budget, stored, and then answering every analyst's covered queries for free — in other
 * connections and after a restart, with the same noisy values.
 */
class PublishedSynopsesTest {
  private Path dir;
  private Connection direct;
  private String url;

  @BeforeEach
  void setUp() throws Exception {
    dir = Files.createTempDirectory("dpsql-published");
    url = "jdbc:h2:mem:p" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE PEOPLE (ID INT PRIMARY KEY, AGE INT, REGION VARCHAR(2))");
    }
    SplittableRandom r = new SplittableRandom(3);
    try (PreparedStatement ps = direct.prepareStatement("INSERT INTO PEOPLE VALUES (?, ?, ?)")) {
      for (int i = 0; i < 5000; i++) {
        ps.setInt(1, i);
        ps.setInt(2, r.nextInt(0, 80));
        ps.setString(3, r.nextBoolean() ? "N" : "S");
        ps.addBatch();
      }
      ps.executeBatch();
    }
    PublishedSynopses.forgetLoaded();
  }

  @AfterEach
  void tearDown() throws Exception {
    direct.close();
    PublishedSynopses.forgetLoaded();
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private Path policy(String synopsisBudget) throws Exception {
    Path p = dir.resolve("policy.yaml");
    Files.writeString(p, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1, delta: 1e-9}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n  PEOPLE:\n    privacy_unit: ROW\n    columns:\n"
        + "      AGE: {min: 0, max: 79, bin: 10}\n      REGION: {values: [N, S]}\n"
        + "synopses:\n  AGE_BY_REGION:\n    table: PEOPLE\n"
        + "    workload: RANGE_MARGINALS(AGE, REGION)\n    budget: {rho: " + synopsisBudget + "}\n");
    return p;
  }

  private DpsqlSession connect(Path policy) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    return DpsqlSession.open(url, p);
  }

  private static double value(DpsqlSession s, String sql, int row) throws SQLException {
    org.dpsql.release.ResultTable t = s.execute(s.prepare(sql), List.of());
    Object[] r = t.rows().get(row);
    return ((Number) r[r.length - 1]).doubleValue();
  }

  /** The backend's own answer to a single-count statement, read directly. */
  private long directCount(String sql) throws SQLException {
    try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<Double> answers(DpsqlSession s) throws SQLException {
    String byRegion = "SELECT REGION, COUNT(*) FROM PEOPLE WHERE AGE BETWEEN 20 AND 49 "
        + "GROUP BY REGION";
    return List.of(value(s, byRegion, 0), value(s, byRegion, 1),
        value(s, "SELECT COUNT(*) FROM PEOPLE WHERE AGE < 30", 0));
  }

  @Test
  void releasedOnceThenFreeForEveryConnectionAndAfterARestart() throws Exception {
    Path policy = policy("0.5");
    List<Double> first;
    try (DpsqlSession c = connect(policy)) {
      first = answers(c);
      Accountant a = c.accountant();
      assertEquals(0, a.spent().rho().signum(), "the analyst spent nothing");
      List<LedgerEntry> ledger = a.ledger();
      // three statements answered (one of them twice): each free answer from the published
      // synopsis is recomputed and recorded, none is paid
      assertEquals(3, ledger.size());
      for (LedgerEntry e : ledger) {
        assertEquals(LedgerEntry.SYNOPSIS, e.source());
        assertTrue(e.mechanism().contains("published:AGE_BY_REGION"), e.mechanism());
      }
    }
    Path file = dir.resolve("policy.yaml.synopses").resolve("AGE_BY_REGION.synopsis");
    assertTrue(Files.exists(file), "the release is stored");
    long exactNorth = 0;
    try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT COUNT(*) FROM PEOPLE WHERE AGE BETWEEN 20 AND 49 AND REGION = 'N'")) {
      rs.next();
      exactNorth = rs.getLong(1);
    }
    // rho 0.5 over 2 x 8 cells: standard errors of a few units, far below 100
    assertEquals(exactNorth, first.get(0), 100);
    try (DpsqlSession c = connect(policy)) {
      assertEquals(first, answers(c), "another connection reuses the same release");
    }
    PublishedSynopses.forgetLoaded(); // as after a restart of the process
    try (DpsqlSession c = connect(policy)) {
      assertEquals(first, answers(c), "a restart reads the stored release, no new noise");
    }
  }

  @Test
  void aChangedSpecificationIsReleasedAnewAndACorruptFileIsRefused() throws Exception {
    Path policy = policy("0.5");
    List<Double> first;
    try (DpsqlSession c = connect(policy)) {
      first = answers(c);
    }
    PublishedSynopses.forgetLoaded();
    policy = policy("0.25");
    List<Double> second;
    try (DpsqlSession c = connect(policy)) {
      second = answers(c);
    }
    assertNotEquals(first, second, "new budget, new release");
    Path file = dir.resolve("policy.yaml.synopses").resolve("AGE_BY_REGION.synopsis");
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 20] ^= 0x55;
    Files.write(file, bytes);
    PublishedSynopses.forgetLoaded();
    Path p = policy;
    SQLException e = assertThrows(SQLException.class, () -> connect(p));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("unreadable"), e.getMessage());
  }

  @Test
  void aBadSpecificationIsAPolicyError() throws Exception {
    Path p = dir.resolve("bad.yaml");
    Files.writeString(p, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n  PEOPLE:\n    privacy_unit: ROW\n    columns:\n"
        + "      AGE: {min: 0, max: 79, bin: 10}\n"
        + "synopses:\n  S:\n    table: PEOPLE\n    workload: ALL_RANGES(HEIGHT)\n"
        + "    budget: {rho: 0.1}\n");
    SQLException e = assertThrows(SQLException.class, () -> connect(p));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("synopses.S") && e.getMessage().contains("HEIGHT"),
        e.getMessage());
    Files.writeString(p, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n  PEOPLE:\n    privacy_unit: ROW\n    columns:\n"
        + "      AGE: {min: 0, max: 79, bin: 10}\n"
        + "synopses:\n  S:\n    table: PEOPLE\n    workload: ALL_RANGES(AGE)\n"
        + "    budget: {epsilon: 0.1}\n");
    e = assertThrows(SQLException.class, () -> connect(p));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("synopses.S.budget"), e.getMessage());
  }


  /**
   * A daily series published by the owner (ALL_RANGES over the 60 day bins of a TIMESTAMP
   * column): date ranges and a monthly series are free for the analyst, and the values read back
   * from the store after a restart are the same.
   */
  @Test
  void aPublishedTimeSeriesAnswersDateRangesForFree() throws Exception {
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE VISITS (ID INT PRIMARY KEY, AT TIMESTAMP)");
      st.execute("INSERT INTO VISITS SELECT X, DATEADD('MINUTE', MOD(X * 7919, 60 * 24 * 60), "
          + "TIMESTAMP '2025-01-01 00:00:00') FROM SYSTEM_RANGE(1, 3000)");
    }
    Path p = dir.resolve("series.yaml");
    Files.writeString(p, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1, delta: 1e-9}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n  VISITS:\n    privacy_unit: ROW\n    columns:\n"
        + "      AT: {min: 2025-01-01, max: 2025-03-01, bin: 1 day}\n"
        + "synopses:\n  DAILY:\n    table: VISITS\n    workload: ALL_RANGES(AT)\n"
        + "    budget: {rho: 1000000}\n");
    String week = "SELECT COUNT(*) AS N FROM VISITS WHERE AT >= TIMESTAMP '2025-01-06 00:00:00' "
        + "AND AT < TIMESTAMP '2025-01-13 00:00:00'";
    String months = "SELECT DATE_TRUNC('month', AT) AS M, COUNT(*) AS N FROM VISITS "
        + "GROUP BY DATE_TRUNC('month', AT) ORDER BY M";
    double first;
    try (DpsqlSession c = connect(p)) {
      first = value(c, week, 0);
      long exact = directCount(week);
      assertEquals(exact, Math.round(first), "noise-free at the owner's rho = 10^6");
      assertEquals(3, c.execute(c.prepare(months), List.of()).rows().size());
      assertEquals(0, c.accountant().spent().rho().signum(), "the analyst spent nothing");
      for (LedgerEntry e : c.accountant().ledger()) {
        assertEquals(LedgerEntry.SYNOPSIS, e.source());
        assertTrue(e.mechanism().contains("published:DAILY"), e.mechanism());
      }
    }
    PublishedSynopses.forgetLoaded(); // a restart: the release is read from its file
    try (DpsqlSession c = connect(p)) {
      assertEquals(first, value(c, week, 0), 0.0);
    }
  }

  /**
   * A published hourly year (8,760 cells): designed through fast transforms, stored by its
   * integer row scales, and read back after a restart with the same answers (issue 33).
   */
  @Test
  void aPublishedHourlyYearIsStoredByItsLatticeScales() throws Exception {
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE VISITS (ID INT PRIMARY KEY, AT TIMESTAMP)");
      st.execute("INSERT INTO VISITS SELECT X, DATEADD('MINUTE', MOD(X * 7919, 365 * 24 * 60), "
          + "TIMESTAMP '2025-01-01 00:00:00') FROM SYSTEM_RANGE(1, 3000)");
    }
    Path p = dir.resolve("hourly.yaml");
    Files.writeString(p, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1, delta: 1e-9}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n  VISITS:\n    privacy_unit: ROW\n    columns:\n"
        + "      AT: {min: 2025-01-01, max: 2025-12-31 23:00, bin: 1 hour}\n"
        + "synopses:\n  HOURLY:\n    table: VISITS\n    workload: ALL_RANGES(AT)\n"
        + "    budget: {rho: 1000000}\n");
    String week = "SELECT COUNT(*) AS N FROM VISITS WHERE AT >= TIMESTAMP '2025-05-05 06:00:00' "
        + "AND AT < TIMESTAMP '2025-05-12 18:00:00'";
    double first;
    try (DpsqlSession c = connect(p)) {
      first = value(c, week, 0);
      long exact = directCount(week);
      assertEquals(exact, Math.round(first), "noise-free at the owner's rho = 10^6");
      assertEquals(0, c.accountant().spent().rho().signum(), "the analyst spent nothing");
    }
    PublishedSynopses.forgetLoaded(); // a restart: the release is read from its file
    try (DpsqlSession c = connect(p)) {
      assertEquals(first, value(c, week, 0), 0.0);
    }
  }
}
