package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code SELECT DISTINCT c} and {@code GROUP BY c} without aggregates over columns whose domain
 * the policy declares: the declared domain, filtered by the statement's own filter with the rule
 * every release of cells follows, free, and without reading the data; columns without a declared
 * domain are refused (XDP02) and nothing is charged.
 */
class DomainListingTest {
  private static String url;
  private static Connection direct;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:listing" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    direct = DriverManager.getConnection(url);
    try (Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "STATE VARCHAR(2), COUNTY VARCHAR(10), PAYMENT VARCHAR(8), \"HOUR\" INT, FARE INT, "
          + "ZONE VARCHAR(8), NOTE VARCHAR(8), PICKUP_AT TIMESTAMP)");
    }
    String[][] counties = {{"NY", "Kings"}, {"NY", "Queens"}, {"TX", "Harris"}, {"TX", "Dallas"}};
    String[] payments = {"CARD", "CASH", "APP"}; // VOUCHER is declared, and no trip has it
    SplittableRandom rnd = new SplittableRandom(29);
    try (PreparedStatement ps = direct.prepareStatement(
        "INSERT INTO TRIPS VALUES (?,?,?,?,?,?,?,?,?,?)")) {
      for (int i = 0; i < 600; i++) {
        String[] county = counties[rnd.nextInt(4)];
        ps.setLong(1, i);
        ps.setInt(2, i / 3);
        ps.setString(3, county[0]);
        ps.setString(4, county[1]);
        ps.setString(5, payments[rnd.nextInt(3)]);
        ps.setInt(6, rnd.nextInt(24));
        ps.setInt(7, rnd.nextInt(101));
        ps.setString(8, "Z" + rnd.nextInt(3));
        ps.setString(9, "n" + i);
        ps.setObject(10, java.time.LocalDateTime.of(2025, 1, 1, 0, 0)
            .plusMinutes(rnd.nextLong(90L * 24 * 60)));
        ps.addBatch();
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-listing", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 10.0, delta: 1e-6}\n"
        + "  default_query: {rho: 0.5, delta: 1e-8}\n"
        + "tables:\n"
        + "  TRIPS:\n"
        + "    privacy_unit: RIDER_ID\n"
        + "    max_rows_per_unit: 3\n"
        + "    columns:\n"
        + "      STATE: {values: [NY, TX, IL]}\n"
        + "      COUNTY: {values: {NY: [Kings, Queens], TX: [Harris, Dallas], IL: [Cook]}}\n"
        + "      PAYMENT: {values: [CARD, CASH, APP, VOUCHER]}\n"
        + "      HOUR: {min: 0, max: 23, bin: 1}\n"
        + "      FARE: {clamp: [0, 100]}\n"
        + "      ZONE: {keys: private, max_groups_per_unit: 1}\n"
        + "      PICKUP_AT: {min: 2025-01-01, max: 2025-03-31, bin: 1 day}\n"
        + "    hierarchies:\n"
        + "      GEO: [STATE, COUNTY]\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    TestConnections.shutDown(direct, policy);
  }

  private static Connection connect() throws SQLException {
    return TestConnections.open(url, policy, "29");
  }

  private static PrivacyCost spent(Connection c) {
    return TestDatabase.session(c).accountant().spent();
  }

  private static List<String> firstColumn(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    for (List<Object> row : ResultRows.of(c, sql)) {
      out.add(String.valueOf(row.get(0)));
    }
    return out;
  }

  @Test
  void theMetabaseFilterWidgetQueryListsTheDeclaredDomainForFree() throws SQLException {
    try (Connection c = connect()) {
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT DISTINCT PAYMENT FROM TRIPS ORDER BY PAYMENT LIMIT 1000")) {
        assertEquals(Types.VARCHAR, rs.getMetaData().getColumnType(1));
        List<String> values = new ArrayList<>();
        while (rs.next()) {
          values.add(rs.getString(1));
        }
        // the domain, not the data: VOUCHER is declared and no trip has it
        assertEquals(List.of("APP", "CARD", "CASH", "VOUCHER"), values);
      }
      // GROUP BY without aggregates: the same domain, in the policy's order
      assertEquals(List.of("CARD", "CASH", "APP", "VOUCHER"),
          firstColumn(c, "SELECT PAYMENT FROM TRIPS GROUP BY PAYMENT"));
      assertEquals(List.of("CASH", "CARD"), firstColumn(c, "SELECT \"PUBLIC\".\"TRIPS\".\"PAYMENT\" "
          + "AS \"PAYMENT\" FROM \"PUBLIC\".\"TRIPS\" GROUP BY \"PUBLIC\".\"TRIPS\".\"PAYMENT\" "
          + "ORDER BY 1 DESC OFFSET 1 ROWS FETCH NEXT 2 ROWS ONLY"));
      assertEquals(24, firstColumn(c, "SELECT DISTINCT HOUR FROM TRIPS").size());
      assertEquals(3, firstColumn(c, "SELECT DISTINCT DATE_TRUNC('month', PICKUP_AT) FROM TRIPS")
          .size());
      assertTrue(spent(c).isZero(), "a listing of declared domains is free: " + spent(c));
      assertEquals(List.of(), TestDatabase.session(c).accountant().ledger());
    }
  }

  /**
   * The backend is not asked: with the private table renamed away after connecting, a listing is
   * answered while a count (which must read it) fails; EXPLAIN has no measurement and no backend
   * statement.
   */
  @Test
  void aListingReadsNoData() throws SQLException {
    String listing = "SELECT DISTINCT STATE, COUNTY FROM TRIPS WHERE STATE <> 'NY'";
    try (Connection c = connect()) {
      List<List<Object>> before = ResultRows.of(c, listing);
      try (Statement st = direct.createStatement()) {
        st.execute("ALTER TABLE TRIPS RENAME TO TRIPS_AWAY");
      }
      try {
        assertEquals(before, ResultRows.of(c, listing));
        assertEquals(List.of(List.of("TX", "Harris"), List.of("TX", "Dallas"),
            List.of("IL", "Cook")), before);
        assertThrows(SQLException.class, () -> ResultRows.of(c, "SELECT COUNT(*) FROM TRIPS"));
        String plan = String.join("\n", firstColumn(c, "EXPLAIN PLAN FOR " + listing));
        assertTrue(plan.contains("domain listing of STATE, COUNTY")
            && plan.contains("3 listed of 15"), plan);
        assertFalse(plan.contains("\nmeasure ") || plan.contains("backend SQL"), plan);
        String composite = String.join("\n", firstColumn(c, "EXPLAIN PLAN FOR SELECT DISTINCT "
            + "PAYMENT FROM TRIPS ORDER BY PAYMENT LIMIT 1000"));
        // ORDER BY and LIMIT over the listing are shown by the listing itself
        assertTrue(composite.contains("domain listing of PAYMENT"), composite);
        assertFalse(composite.contains("  measure ") || composite.contains("backend SQL"),
            composite);
        String series = String.join("\n", firstColumn(c, "EXPLAIN PLAN FOR SELECT DISTINCT "
            + "DATE_TRUNC('month', PICKUP_AT) AS M FROM TRIPS"));
        assertTrue(series.contains("domain listing") && series.contains("3 listed")
            && series.contains("DATE_TRUNC('month', \"PICKUP_AT\")"), series);
        List<List<Object>> explained = ResultRows.of(c, "SELECT * FROM TABLE("
            + "DPSQL.EXPLAIN('SELECT PAYMENT FROM TRIPS GROUP BY PAYMENT'))");
        assertEquals(1, explained.size());
        assertEquals("domain", explained.get(0).get(0));
        assertEquals(0, ((java.math.BigDecimal) explained.get(0).get(4)).signum()); // RHO
      } finally {
        try (Statement st = direct.createStatement()) {
          st.execute("ALTER TABLE TRIPS_AWAY RENAME TO TRIPS");
        }
      }
      assertTrue(spent(c).isZero());
    }
  }

  /**
   * A filter selects the domain's cells as a GROUP BY of the same keys with COUNT(*) selects the
   * rows it releases ({@code ReleasedCells}): the listing's keys are exactly those rows' keys, for
   * filters on the keys, on a coarser hierarchy level, on other columns and with bound values.
   */
  @Test
  void aFilterSelectsTheCellsAsTheReleasedCellsRuleDoes() throws SQLException {
    String[][] cases = {
        {"COUNTY", "STATE = 'TX'"},
        {"COUNTY", "STATE IN ('TX', 'IL') AND COUNTY <> 'Cook'"},
        {"STATE, COUNTY", "STATE <> 'NY'"},
        {"HOUR", "HOUR BETWEEN 7 AND 9"},
        {"HOUR", "HOUR > 20 OR HOUR < 2"},
        {"PAYMENT", "PAYMENT NOT IN ('APP', 'CASH')"},
        {"STATE", "PAYMENT = 'APP' AND FARE > 50"},
        {"HOUR, PAYMENT", "HOUR >= 22 AND PAYMENT LIKE 'CA%'"}};
    try (Connection c = connect()) {
      for (String[] k : cases) {
        String listing = "SELECT DISTINCT " + k[0] + " FROM TRIPS WHERE " + k[1];
        List<List<Object>> listed = ResultRows.of(c, listing);
        List<List<Object>> keys = new ArrayList<>();
        for (List<Object> row : ResultRows.of(c, "SELECT " + k[0] + ", COUNT(*) FROM TRIPS WHERE "
            + k[1] + " GROUP BY " + k[0])) {
          keys.add(row.subList(0, row.size() - 1));
        }
        // the same cells (a GROUP BY without ORDER BY lists them in no promised order)
        assertEquals(keys.size(), listed.size(), listing);
        assertEquals(new java.util.HashSet<>(keys), new java.util.HashSet<>(listed), listing);
        assertFalse(listed.isEmpty(), listing);
      }
      PrivacyCost counted = spent(c);
      assertEquals(List.of("Harris", "Dallas"), firstColumn(c,
          "SELECT COUNTY FROM TRIPS WHERE STATE = 'TX' GROUP BY COUNTY"));
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT DISTINCT HOUR FROM TRIPS WHERE HOUR >= ? ORDER BY HOUR DESC")) {
        ps.setInt(1, 21);
        assertEquals(List.of(List.of(new java.math.BigDecimal(23)),
            List.of(new java.math.BigDecimal(22)), List.of(new java.math.BigDecimal(21))),
            ResultRows.of(ps));
      }
      assertEquals(counted, spent(c), "the listings charged nothing");
    }
  }

  @Test
  void columnsWithoutADeclaredDomainAreRefused() throws SQLException {
    try (Connection c = connect()) {
      for (String sql : List.of("SELECT DISTINCT FARE FROM TRIPS",
          "SELECT DISTINCT RIDER_ID FROM TRIPS ORDER BY RIDER_ID LIMIT 1000",
          "SELECT NOTE FROM TRIPS GROUP BY NOTE",
          "SELECT DISTINCT PAYMENT, FARE FROM TRIPS",
          "SELECT DISTINCT PAYMENT FROM TRIPS WHERE NOTE = 'n1'")) {
        SQLException e = assertThrows(SQLException.class, () -> ResultRows.of(c, sql), sql);
        assertEquals("XDP02", e.getSQLState(), sql + ": " + e.getMessage());
      }
      assertTrue(spent(c).isZero());
      // a keys: private column has no listed domain: its groups are selected privately, a
      // release with noise and a charge, as a GROUP BY of it with COUNT(*) is
      ResultRows.of(c, "SELECT DISTINCT ZONE FROM TRIPS");
      assertFalse(spent(c).isZero());
    }
  }

  /**
   * A listing used as data inside a statement (an IN subquery, a join) is refused: there its
   * values would stand for the values that occur, which are private, and the declared domain
   * would change the answer. Nothing is charged. A sum of released counts is typed BIGINT.
   */
  @Test
  void aListingInsideAStatementIsRefusedAndChargesNothing() throws SQLException {
    try (Connection c = connect()) {
      for (String sql : List.of(
          "SELECT COUNT(*) FROM TRIPS WHERE STATE IN (SELECT DISTINCT STATE FROM TRIPS)",
          "SELECT COUNT(*) FROM TRIPS WHERE STATE IN (SELECT STATE FROM TRIPS WHERE FARE > 50)")) {
        SQLException e = assertThrows(SQLException.class, () -> ResultRows.of(c, sql), sql);
        assertEquals("XDP02", e.getSQLState(), sql + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("values that occur"), e.getMessage());
      }
      assertTrue(spent(c).isZero());
      assertEquals(Types.BIGINT, columnType(c, "SELECT SUM(N) AS T FROM (SELECT STATE, COUNT(*) "
          + "AS N FROM TRIPS GROUP BY STATE) t"));
    }
  }

  private static int columnType(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      return rs.getMetaData().getColumnType(1);
    }
  }
}
