package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.UUID;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rectangle counts over a policy spatial index through JDBC: the first releases an HTF synopsis
 * (one charge), every later rectangle, with any parameters, is free and answered from it.
 */
class SpatialQueriesTest {
  private static String url;
  private static Connection h2;
  private static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = "jdbc:h2:mem:geo" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    h2 = DriverManager.getConnection(url);
    try (Statement st = h2.createStatement()) {
      st.execute("CREATE TABLE CHECKINS (ID BIGINT PRIMARY KEY, USER_ID INT NOT NULL, "
          + "LON DECIMAL(9,4) NOT NULL, LAT DECIMAL(9,4) NOT NULL)");
    }
    SplittableRandom r = new SplittableRandom(17);
    try (PreparedStatement ps = h2.prepareStatement("INSERT INTO CHECKINS VALUES (?,?,?,?)")) {
      for (int i = 0; i < 30_000; i++) {
        boolean first = i % 3 != 0;
        double lon = (first ? 16 : 44) + r.nextGaussian() * (first ? 3 : 6);
        double lat = (first ? 20 : 40) + r.nextGaussian() * (first ? 3 : 6);
        ps.setLong(1, i);
        ps.setInt(2, i / 2);
        ps.setBigDecimal(3, BigDecimal.valueOf(Math.max(0, Math.min(63.99, lon))).setScale(4,
            java.math.RoundingMode.HALF_EVEN));
        ps.setBigDecimal(4, BigDecimal.valueOf(Math.max(0, Math.min(63.99, lat))).setScale(4,
            java.math.RoundingMode.HALF_EVEN));
        ps.addBatch();
      }
      ps.executeBatch();
    }
    policy = Files.createTempFile("dpsql-geo", ".yaml");
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: pure\n"
        + "  per_connection: {epsilon: 3}\n  default_query: {epsilon: 1}\n"
        + "tables:\n  CHECKINS:\n    privacy_unit: USER_ID\n    max_rows_per_unit: 2\n"
        + "    columns:\n      LON: {min: 0, max: 63.99, bin: 0.5}\n"
        + "      LAT: {min: 0, max: 63.99, bin: 0.5}\n"
        + "    spatial:\n      LOCATION: [LON, LAT]\n");
  }

  @AfterAll
  static void tearDown() throws Exception {
    h2.close();
    Files.deleteIfExists(policy);
  }

  private static Connection connect(long seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", Long.toString(seed));
    return DriverManager.getConnection("jdbc:dpsql:" + url.substring("jdbc:".length()), p);
  }

  private static long truth(double x0, double x1, double y0, double y1) throws SQLException {
    try (PreparedStatement ps = h2.prepareStatement("SELECT COUNT(*) FROM CHECKINS WHERE LON "
        + "BETWEEN ? AND ? AND LAT BETWEEN ? AND ?")) {
      ps.setDouble(1, x0);
      ps.setDouble(2, x1);
      ps.setDouble(3, y0);
      ps.setDouble(4, y1);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Test
  void firstRectangleChargesAndLaterOnesAreFree() throws Exception {
    double[][] rects = {{8, 24, 12, 28}, {30, 60, 25, 60}, {0, 63.99, 0, 63.99}, {10, 20.25, 15, 25},
        {40, 50, 35, 45}};
    try (Connection c = connect(1);
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM CHECKINS WHERE LON "
            + "BETWEEN ? AND ? AND LAT BETWEEN ? AND ?")) {
      for (double[] q : rects) {
        for (int i = 0; i < 4; i++) {
          ps.setDouble(i + 1, q[i]);
        }
        long got;
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          got = rs.getLong(1);
        }
        long want = truth(q[0], q[1], q[2], q[3]);
        assertTrue(Math.abs(got - want) <= Math.max(300, 0.15 * want),
            "rectangle " + java.util.Arrays.toString(q) + ": " + got + " vs " + want);
      }
      var accountant = TestDatabase.session(c).accountant();
      List<LedgerEntry> ledger = accountant.ledger();
      assertEquals(rects.length, ledger.size());
      assertEquals("htf", ledger.get(0).mechanism());
      assertEquals(0, BigDecimal.ONE.compareTo(accountant.spent().epsilon()), "one charge of 1");
      for (LedgerEntry e : ledger.subList(1, ledger.size())) {
        assertEquals(LedgerEntry.SYNOPSIS, e.source());
      }
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
          "EXPLAIN PLAN FOR SELECT COUNT(*) FROM CHECKINS WHERE LON < 10 AND LAT > 3")) {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
        assertTrue(plan.toString().contains("answered free from the released HTF synopsis: height"),
            plan.toString());
      }
    }
  }

  @Test
  void explainNamesHtfAndOtherShapesAreRefusedForIt() throws Exception {
    try (Connection c = connect(2); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN("
          + "'SELECT COUNT(*) FROM CHECKINS WHERE LON BETWEEN 1 AND 5 AND LAT >= 2'))")) {
        rs.next();
        assertEquals("htf", rs.getString(1));
        assertTrue(rs.getBoolean(2));
        assertEquals(0, BigDecimal.ONE.compareTo(rs.getBigDecimal(3)));
      }
      SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT /*+ DP(mechanism='htf') */ LON, COUNT(*) FROM CHECKINS GROUP BY LON"));
      assertEquals("XDP03", e.getSQLState());
      e = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT /*+ DP(ci='0.9') */ COUNT(*) FROM CHECKINS WHERE LON < 10"));
      assertEquals("XDP03", e.getSQLState());
      assertEquals(0, TestDatabase.session(c).accountant().ledger().size(), "nothing charged");
    }
  }
  @Test
  void aSpatialIndexNeedsTwoOrderedColumns() throws Exception {
    Path bad = Files.createTempFile("dpsql-geo-bad", ".yaml");
    try {
      Files.writeString(bad, Files.readString(policy).replace("      LOCATION: [LON, LAT]\n",
          "      LOCATION: [LON, USER_ID]\n"));
      Properties p = new Properties();
      p.setProperty("policy", bad.toString());
      SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
          "jdbc:dpsql:" + url.substring("jdbc:".length()), p));
      assertEquals("XDP04", e.getSQLState());
      assertTrue(e.getMessage().contains("spatial.LOCATION"), e.getMessage());
    } finally {
      Files.deleteIfExists(bad);
    }
  }
  @Test
  void aHeatMapGroupsByBothColumnsAndIsFreeAfterTheRelease() throws Exception {
    try (Connection c = connect(3); Statement st = c.createStatement()) {
      long total;
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM CHECKINS WHERE LON < 32")) {
        rs.next();
        total = rs.getLong(1);
      }
      long sum = 0;
      int rows = 0;
      int outside = 0;
      try (ResultSet rs = st.executeQuery(
          "SELECT LON, LAT, COUNT(*) FROM CHECKINS WHERE LON < 32 GROUP BY LON, LAT")) {
        while (rs.next()) {
          rows++;
          sum += rs.getLong(3);
          if (rs.getBigDecimal(1).compareTo(new BigDecimal(32)) >= 0) {
            outside++;
          }
        }
      }
      // the filter's own terms rule out the grid cells at LON >= 32 (issue 32): one row per grid
      // cell the rectangle may contain, zeros included
      assertEquals(64 * 128, rows, "one row per grid cell inside the filter, zeros included");
      assertEquals(0, outside, "cells outside the filter are left out");
      assertTrue(Math.abs(sum - total) <= 2000, "cells add up to the rectangle: " + sum + " vs " + total);
      var ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(2, ledger.size());
      assertEquals(LedgerEntry.SYNOPSIS, ledger.get(1).source());
    }
  }
}
