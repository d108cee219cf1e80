package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Replays {@code bi-corpus.sql}: statements in the shapes BI tools and consoles generate, each with
 * its expected outcome (answered, or refused with a given SQLState class), and reports how many are
 * answered per tool. A statement that is answered when a refusal is expected, or refused otherwise,
 * fails the test.
 */
class BiCorpusTest {

  /**
   * One statement of the corpus; {@code binds} are the values of its parameters (a prepared
   * statement), empty for a plain statement.
   */
  record Entry(String tool, String shape, String expected, String sql, List<Object> binds) {}

  /**
   * The values of a {@code -- bind: v1; v2} line: integers, decimals, 'text', DATE '...' and
   * TIMESTAMP '...'.
   */
  static List<Object> binds(String text) {
    List<Object> out = new ArrayList<>();
    for (String v : text.split(";")) {
      v = v.strip();
      if (v.startsWith("'")) {
        out.add(v.substring(1, v.length() - 1));
      } else if (v.startsWith("DATE '")) {
        out.add(java.sql.Date.valueOf(v.substring(6, v.length() - 1)));
      } else if (v.startsWith("TIMESTAMP '")) {
        out.add(java.sql.Timestamp.valueOf(v.substring(11, v.length() - 1)));
      } else if (v.contains(".")) {
        out.add(new java.math.BigDecimal(v));
      } else {
        out.add(Integer.valueOf(v));
      }
    }
    return out;
  }

  static List<Entry> corpus() throws IOException {
    String text;
    try (InputStream in = BiCorpusTest.class.getResourceAsStream("/bi-corpus.sql")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Entry> entries = new ArrayList<>();
    String[] header = null;
    List<Object> bound = List.of();
    StringBuilder sql = new StringBuilder();
    for (String line : text.split("\n")) {
      if (line.startsWith("-- ") && line.split(" \\| ").length == 3 && !line.contains("\"")) {
        header = line.substring(3).split(" \\| ");
        bound = List.of();
        sql.setLength(0);
      } else if (header != null && line.startsWith("-- bind: ")) {
        bound = binds(line.substring("-- bind: ".length()));
      } else if (header != null && !line.startsWith("--") && !line.isBlank()) {
        sql.append(line).append('\n');
        if (line.strip().endsWith(";")) {
          String s = sql.toString().strip();
          entries.add(new Entry(header[0], header[1], header[2].strip(),
              s.substring(0, s.length() - 1), bound));
          header = null;
        }
      }
    }
    return entries;
  }

  private static String database() throws SQLException {
    String url = "jdbc:h2:mem:bi" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "STATE VARCHAR(2), COUNTY VARCHAR(20), PAYMENT VARCHAR(4), AGE INT, \"HOUR\" INT, "
          + "FARE DECIMAL(8,2), DISTANCE_KM DOUBLE, PICKUP_AT TIMESTAMP, ZONE VARCHAR(12))");
      st.execute("CREATE TABLE RIDERS (RIDER_ID INT PRIMARY KEY, PLAN VARCHAR(8), "
          + "SIGNUP_YEAR INT)");
      st.execute("INSERT INTO RIDERS SELECT X, CASE MOD(X, 3) WHEN 0 THEN 'basic' WHEN 1 THEN "
          + "'plus' ELSE 'pass' END, 2018 + MOD(X, 7) FROM SYSTEM_RANGE(0, 1499)");
      st.execute("CREATE TABLE COUNTIES (COUNTY VARCHAR(20), STATE VARCHAR(2), POPULATION INT)");
      st.execute("INSERT INTO COUNTIES VALUES ('Kings','NY',2600000),('Queens','NY',2300000),"
          + "('Cook','IL',5200000),('Harris','TX',4700000),('Alameda','CA',1600000)");
      String[][] counties = {{"Kings", "NY"}, {"Queens", "NY"}, {"Cook", "IL"},
          {"Harris", "TX"}, {"Alameda", "CA"}};
      String[] payments = {"CARD", "CASH", "APP"};
      SplittableRandom rnd = new SplittableRandom(3);
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO TRIPS VALUES (?,?,?,?,?,?,?,?,?,?,?)")) {
        for (int i = 0; i < 4000; i++) {
          int rider = rnd.nextInt(1500);
          String[] county = counties[rider % counties.length];
          ps.setLong(1, i);
          ps.setInt(2, rider);
          ps.setString(3, county[1]);
          ps.setString(4, county[0]);
          ps.setString(5, payments[rnd.nextInt(3)]);
          ps.setInt(6, 16 + rider % 70);
          ps.setInt(7, rnd.nextInt(24));
          ps.setBigDecimal(8, java.math.BigDecimal.valueOf(rnd.nextInt(100, 9000), 2));
          ps.setDouble(9, rnd.nextDouble(0.5, 30));
          ps.setObject(10, java.time.LocalDateTime.of(2024, 1, 1, 0, 0)
              .plusMinutes(rnd.nextLong(366L * 24 * 60)));
          // 60 zones, the low ones busy (a rider's zones depend on the rider and the trip)
          ps.setString(11, "Z" + ((rider % 7) * (i % 9) % 60));
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    return url;
  }

  @Test
  void theCorpusIsAnsweredOrRefusedAsExpected() throws Exception {
    List<Entry> corpus = corpus();
    assertTrue(corpus.size() >= 60, "at least 60 statements, got " + corpus.size());
    Path policy = Files.createTempFile("dpsql-bi", ".yaml");
    Files.writeString(policy, "budget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 1000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 0.1, delta: 1e-12}\n"
        + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    unit: rider\n"
        + "    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      STATE: {values: [NY, CA, TX, IL]}\n"
        + "      COUNTY: {values: [Kings, Queens, Cook, Harris, Alameda]}\n"
        + "      PAYMENT: {values: [CARD, CASH, APP]}\n"
        + "      AGE: {min: 16, max: 90, bin: 1}\n"
        + "      HOUR: {min: 0, max: 23, bin: 1}\n"
        + "      FARE: {clamp: [0, 100]}\n"
        + "      DISTANCE_KM: {clamp: [0, 50]}\n"
        + "      PICKUP_AT: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n"
        + "      ZONE: {keys: private, max_groups_per_unit: 2}\n"
        + "  RIDERS:\n    privacy_unit: RIDER_ID\n    unit: rider\n    max_rows_per_unit: 1\n"
        + "    columns:\n      PLAN: {values: [basic, plus, pass]}\n"
        + "      SIGNUP_YEAR: {min: 2018, max: 2024, bin: 1}\n"
        + "  COUNTIES: {public: true}\n");
    String url = database();
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    TreeMap<String, int[]> byTool = new TreeMap<>();
    List<String> unexpected = new ArrayList<>();
    int answered = 0;
    try (Connection c = DriverManager.getConnection(
        "jdbc:dpsql:" + url.substring("jdbc:".length()), p)) {
      for (Entry e : corpus) {
        String outcome;
        try {
          if (e.binds().isEmpty()) {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(e.sql())) {
              while (rs.next()) {
                // read every row
              }
            }
          } else {
            try (PreparedStatement ps = c.prepareStatement(e.sql())) {
              assertEquals(e.binds().size(), ps.getParameterMetaData().getParameterCount(),
                  e.sql());
              for (int i = 0; i < e.binds().size(); i++) {
                ps.setObject(i + 1, e.binds().get(i));
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  // read every row
                }
              }
            }
          }
          outcome = "answered";
        } catch (SQLException ex) {
          outcome = "refused " + ex.getSQLState() + " (" + ex.getMessage() + ")";
        }
        int[] counts = byTool.computeIfAbsent(e.tool(), k -> new int[2]);
        counts[1]++;
        if (outcome.equals("answered")) {
          counts[0]++;
          answered++;
        }
        boolean ok = e.expected().equals("answered") ? outcome.equals("answered")
            : outcome.startsWith(e.expected());
        if (!ok) {
          unexpected.add(e.tool() + " | " + e.shape() + ": expected " + e.expected() + ", got "
              + outcome + "\n    " + e.sql());
        }
      }
    } finally {
      Files.deleteIfExists(policy);
    }
    StringBuilder report = new StringBuilder("BI corpus: " + answered + " of " + corpus.size()
        + " statements answered");
    byTool.forEach((tool, n) -> report.append("\n  ").append(tool).append(": ").append(n[0])
        .append(" of ").append(n[1]));
    System.out.println(report);
    assertEquals(List.of(), unexpected, String.join("\n", unexpected));
  }
}
