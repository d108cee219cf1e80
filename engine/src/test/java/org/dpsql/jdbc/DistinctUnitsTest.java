package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code COUNT(DISTINCT unit)}: protected individuals per cell, with sensitivity min(k, cells).
 *
 * <p>Noise-free answers: the budget per query is ρ = 10⁶, so the noise has standard deviation
 * Δ/√(2ρ) ≤ 5/√(2·10⁶) ≈ 0.0035 and rounds to 0.
 */
class DistinctUnitsTest {

  /** A database of riders with {@code 1 + rider % 3} trips each, plus {@code heavy} trips of rider 999. */
  private static String database(int heavy) throws SQLException {
    String url = "jdbc:h2:mem:du" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "REGION VARCHAR(2), AGE INT)");
      String[] regions = {"N", "S", "E", "W"};
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO TRIPS VALUES (?,?,?,?)")) {
        long id = 0;
        for (int rider = 0; rider < 600; rider++) {
          for (int t = 0; t <= rider % 3; t++) {
            ps.setLong(1, id++);
            ps.setInt(2, rider);
            ps.setString(3, regions[(rider + t) % 4]);
            ps.setInt(4, 20 + rider % 40);
            ps.addBatch();
          }
        }
        for (int t = 0; t < heavy; t++) { // one rider with trips in every region
          ps.setLong(1, id++);
          ps.setInt(2, 999);
          ps.setString(3, regions[t % 4]);
          ps.setInt(4, 33);
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    return url;
  }

  private static Connection connect(String url, Path policy) throws SQLException {
    return TestConnections.open(url, policy, null);
  }

  private static List<Long> column(Connection c, String sql, int col) throws SQLException {
    List<Long> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getLong(col));
      }
    }
    return out;
  }

  private static Path policy;

  /** Each statement's EXPLAIN has a measurement line with the sensitivity {@code k[1]}. */
  private static void assertSensitivities(Connection c, String[][] cases) throws SQLException {
    for (String[] k : cases) {
      List<String> lines = column(c, "EXPLAIN PLAN FOR " + k[0]);
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("measure") && l.contains(k[1])),
          k[0] + " " + lines);
    }
  }

  private static List<String> column(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @BeforeAll
  static void writePolicy() throws Exception {
    policy = policy();
  }

  @AfterAll
  static void deletePolicy() throws Exception {
    Files.deleteIfExists(policy);
  }

  private static Path policy() throws Exception {
    Path p = Files.createTempFile("dpsql-du", ".yaml");
    Files.writeString(p, "budget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 100000000.0, delta: 1e-9}\n  default_query: {rho: 1000000.0}\n"
        + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    max_rows_per_unit: 5\n"
        + "    columns:\n      REGION: {values: [N, S, E, W]}\n      AGE: {min: 20, max: 59, bin: 1}\n");
    return p;
  }

  @Test
  void countsProtectedIndividualsPerCell() throws Exception {
    String url = database(0);
    try (Connection c = connect(url, policy);
        Connection direct = DriverManager.getConnection(url)) {
      String sql = "SELECT REGION, COUNT(DISTINCT RIDER_ID) FROM TRIPS GROUP BY REGION";
      assertEquals(column(direct, sql + " ORDER BY REGION", 2),
          column(c, sql + " ORDER BY REGION", 2));
      assertEquals(column(direct, "SELECT COUNT(DISTINCT RIDER_ID) FROM TRIPS WHERE AGE < 30", 1),
          column(c, "SELECT COUNT(DISTINCT RIDER_ID) FROM TRIPS WHERE AGE < 30", 1));
      // through the relational front end too
      assertEquals(column(direct, "SELECT COUNT(DISTINCT RIDER_ID) FROM TRIPS WHERE AGE < 30", 1),
          column(c, "SELECT n FROM (SELECT COUNT(DISTINCT RIDER_ID) AS n FROM (SELECT * FROM "
              + "TRIPS WHERE AGE < 30) t) u", 1));
    }
  }

  @Test
  void sensitivityIsTheCellsAUnitsBoundedRowsCanReach() throws Exception {
    try (Connection c = connect(database(0), policy)) {
      String[][] cases = {
          {"SELECT COUNT(DISTINCT RIDER_ID) FROM TRIPS", "Δ=1"},
          {"SELECT REGION, COUNT(DISTINCT RIDER_ID) FROM TRIPS GROUP BY REGION", "Δ=4"},
          {"SELECT AGE, COUNT(DISTINCT RIDER_ID) FROM TRIPS GROUP BY AGE", "Δ=5"},
          {"SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION", "Δ=5"}};
      assertSensitivities(c, cases);
    }
  }

  @Test
  void aHeavyUnitMovesTheCountsByAtMostTheSensitivity() throws Exception {
    String sql = "SELECT REGION, COUNT(DISTINCT RIDER_ID) FROM TRIPS GROUP BY REGION "
        + "ORDER BY REGION";
    try (Connection without = connect(database(0), policy);
        Connection with = connect(database(40), policy)) {
      List<Long> a = column(without, sql, 2);
      List<Long> b = column(with, sql, 2);
      long l1 = 0;
      for (int i = 0; i < a.size(); i++) {
        long d = Math.abs(b.get(i) - a.get(i));
        assertTrue(d <= 1, "one unit adds at most 1 per cell: " + a + " vs " + b);
        l1 += d;
      }
      assertTrue(l1 >= 1 && l1 <= 4, "L1 change " + l1 + " within min(k, cells) = 4");
    }
  }

  @Test
  void countsDistinctValuesOfAPolicyColumn() throws Exception {
    String url = database(0);
    try (Connection c = connect(url, policy);
        Connection direct = DriverManager.getConnection(url)) {
      // noise-free: sigma = 5 / sqrt(2e6) rounds to 0, and no rider has more than 3 trips
      for (String sql : List.of("SELECT COUNT(DISTINCT REGION) FROM TRIPS",
          "SELECT COUNT(DISTINCT AGE) FROM TRIPS WHERE REGION = 'N'",
          "SELECT REGION, COUNT(DISTINCT AGE) FROM TRIPS GROUP BY REGION ORDER BY REGION")) {
        int col = sql.startsWith("SELECT REGION") ? 2 : 1;
        assertEquals(column(direct, sql, col), column(c, sql, col), sql);
      }
      // a unit's at most 5 bounded rows add at most 5 distinct values in all (and a column of 4
      // values at most 4 without GROUP BY)
      String[][] cases = {
          {"SELECT COUNT(DISTINCT REGION) FROM TRIPS", "Δ=4"},
          {"SELECT COUNT(DISTINCT AGE) FROM TRIPS", "Δ=5"},
          {"SELECT REGION, COUNT(DISTINCT AGE) FROM TRIPS GROUP BY REGION", "Δ=5"}};
      assertSensitivities(c, cases);
    }
    // one rider with 400 trips over the 4 regions and one age: bounded to 5 rows, the distinct
    // counts per region move by at most 5 in all
    String heavy = database(400);
    try (Connection c = connect(heavy, policy);
        Connection direct = DriverManager.getConnection(url)) {
      List<Long> with = column(c, "SELECT REGION, COUNT(DISTINCT AGE) FROM TRIPS GROUP BY REGION "
          + "ORDER BY REGION", 2);
      List<Long> without = column(direct, "SELECT REGION, COUNT(DISTINCT AGE) FROM TRIPS GROUP BY "
          + "REGION ORDER BY REGION", 2);
      long moved = 0;
      for (int i = 0; i < with.size(); i++) {
        moved += Math.abs(with.get(i) - without.get(i));
      }
      assertTrue(moved <= 5, with + " vs " + without);
    }
  }

  @Test
  void otherDistinctCountsAndDistinctUnitsInWorkloadsAreRefused() throws Exception {
    try (Connection c = connect(database(0), policy)) {
      for (String sql : List.of("SELECT COUNT(DISTINCT REGION) FROM TRIPS GROUP BY ROLLUP(AGE)",
          "SELECT REGION, COUNT(DISTINCT RIDER_ID) FROM TRIPS GROUP BY ROLLUP(REGION)",
          "SELECT CASE WHEN AGE < 30 THEN 'y' ELSE 'o' END AS b, COUNT(DISTINCT RIDER_ID) FROM "
              + "TRIPS GROUP BY 1")) {
        SQLException e = assertThrows(SQLException.class, () -> column(c, sql, 1), sql);
        assertEquals("XDP03", e.getSQLState(), sql + ": " + e.getMessage());
      }
    }
  }
}
