package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DemoDataTest {

  private static final int TRIPS = 20_000;
  private static final String URL = "jdbc:h2:mem:demodata-test;DB_CLOSE_DELAY=-1";
  private static Connection connection;
  private static DemoData.Summary summary;

  @BeforeAll
  static void generate() throws SQLException {
    connection = DriverManager.getConnection(URL);
    summary = DemoData.generate(connection, DemoData.Config.ofTrips(TRIPS));
  }

  @AfterAll
  static void close() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP ALL OBJECTS");
    }
    connection.close();
  }

  @Test
  void generationIsDeterministic() throws Exception {
    String again;
    String otherSeed;
    try (Connection second = DriverManager.getConnection("jdbc:h2:mem:demodata-test-2")) {
      DemoData.generate(second, DemoData.Config.ofTrips(TRIPS));
      again = digest(second);
      DemoData.generate(second, new DemoData.Config(TRIPS, TRIPS / 5, 7));
      otherSeed = digest(second);
    }
    String first = digest(connection);
    assertEquals(first, again, "same config, same rows");
    assertNotEquals(first, otherSeed, "another seed, other rows");
  }

  @Test
  void hasTheRequestedNumberOfTripsAndRiders() throws SQLException {
    assertEquals(TRIPS, summary.trips());
    assertEquals(TRIPS / 5, summary.riders());
    assertEquals(TRIPS, queryLong("SELECT COUNT(*) FROM TRIPS"));
    assertEquals(TRIPS, queryLong("SELECT COUNT(DISTINCT TRIP_ID) FROM TRIPS"));
    assertEquals(TRIPS / 5, queryLong("SELECT COUNT(DISTINCT RIDER_ID) FROM TRIPS"));
  }

  @Test
  void tripsPerRiderAreSkewedWithAFewHeavyRiders() throws SQLException {
    String perRider = "(SELECT RIDER_ID, COUNT(*) AS N FROM TRIPS GROUP BY RIDER_ID)";
    long riders = queryLong("SELECT COUNT(*) FROM " + perRider);
    long occasional = queryLong("SELECT COUNT(*) FROM " + perRider + " WHERE N <= 5");
    long heavy = queryLong("SELECT COUNT(*) FROM " + perRider + " WHERE N >= 50");
    assertTrue(occasional > riders / 2, "most riders take 1-5 trips: " + occasional + " of " + riders);
    assertTrue(heavy >= 1 && heavy <= riders / 100, "a few heavy riders: " + heavy);
    assertEquals(heavy, summary.heavyRiders());
    assertEquals(0, queryLong("SELECT COUNT(*) FROM " + perRider + " WHERE N BETWEEN 11 AND 49"));
    assertTrue(queryLong("SELECT MAX(N) FROM " + perRider) <= 300);
    assertEquals(1, queryLong("SELECT MIN(N) FROM " + perRider));
  }

  @Test
  void valuesStayInsideThePolicyDomains() throws SQLException {
    assertEquals(Set.copyOf(DemoData.STATES), strings("SELECT DISTINCT STATE FROM TRIPS"));
    for (DemoData.County county : DemoData.COUNTIES) {
      assertEquals(
          0,
          queryLong("SELECT COUNT(*) FROM TRIPS WHERE COUNTY = '" + county.name() + "' AND STATE <> '" + county.state() + "'"),
          county.name() + " lies in " + county.state());
    }
    Set<String> counties = new HashSet<>();
    DemoData.COUNTIES.forEach(c -> counties.add(c.name()));
    assertEquals(counties, strings("SELECT DISTINCT COUNTY FROM TRIPS"));
    assertEquals(Set.copyOf(DemoData.PAYMENTS), strings("SELECT DISTINCT PAYMENT FROM TRIPS"));
    assertEquals(0, queryLong("SELECT COUNT(*) FROM TRIPS WHERE \"HOUR\" NOT BETWEEN 0 AND 23"));
    assertEquals(24, queryLong("SELECT COUNT(DISTINCT \"HOUR\") FROM TRIPS"));
    assertEquals(0, queryLong("SELECT COUNT(*) FROM TRIPS WHERE AGE NOT BETWEEN 16 AND 90"));
    assertEquals(0, queryLong("SELECT COUNT(*) FROM (SELECT RIDER_ID FROM TRIPS GROUP BY RIDER_ID HAVING COUNT(DISTINCT AGE) > 1)"),
        "age is constant per rider");
    assertEquals(0, queryLong("SELECT COUNT(*) FROM TRIPS WHERE FARE < 0 OR FARE > 900 OR DISTANCE_KM <= 0"));
  }

  @Test
  void faresHaveOutliersBeyondTheClampAndFollowDistance() throws SQLException {
    assertTrue(queryLong("SELECT COUNT(*) FROM TRIPS WHERE FARE > 100") > 0, "some fares are clamped");
    assertTrue(queryLong("SELECT COUNT(*) FROM TRIPS WHERE FARE > 150") < TRIPS / 100, "outliers are rare");
    assertTrue(queryLong("SELECT COUNT(*) FROM TRIPS WHERE DISTANCE_KM > 50") > 0, "some trips exceed the km clamp");
    double shortTrips = queryDouble("SELECT AVG(FARE) FROM TRIPS WHERE DISTANCE_KM < 3");
    double longTrips = queryDouble("SELECT AVG(FARE) FROM TRIPS WHERE DISTANCE_KM BETWEEN 10 AND 20");
    assertTrue(longTrips > 2 * shortTrips, "fares grow with distance: " + shortTrips + " vs " + longTrips);
  }

  /** One RIDERS row for every rider of TRIPS, and frequent riders hold the pass more often. */
  @Test
  void ridersDescribeEveryRiderOfTheTrips() throws SQLException {
    assertEquals(summary.riders(), queryLong("SELECT COUNT(*) FROM RIDERS"));
    assertEquals(0, queryLong("SELECT COUNT(DISTINCT RIDER_ID) FROM TRIPS WHERE RIDER_ID NOT IN "
        + "(SELECT RIDER_ID FROM RIDERS)"));
    assertEquals(Set.copyOf(DemoData.PLANS), strings("SELECT DISTINCT PLAN FROM RIDERS"));
    assertEquals(0, queryLong("SELECT COUNT(*) FROM RIDERS WHERE SIGNUP_YEAR < "
        + DemoData.FIRST_SIGNUP + " OR SIGNUP_YEAR > " + DemoData.LAST_SIGNUP));
    String passShare = "SELECT 1000 * SUM(CASE WHEN r.PLAN = 'pass' THEN 1 ELSE 0 END) / COUNT(*) "
        + "FROM RIDERS r JOIN (SELECT RIDER_ID, COUNT(*) AS N FROM TRIPS GROUP BY RIDER_ID) t "
        + "ON t.RIDER_ID = r.RIDER_ID WHERE t.N ";
    long frequent = queryLong(passShare + "> 5");
    long occasional = queryLong(passShare + "<= 5");
    assertTrue(frequent > 2 * occasional, frequent + " vs " + occasional + " per mille");
  }

  @Test
  void rushHoursAreBusy() throws SQLException {
    long rush = queryLong("SELECT COUNT(*) FROM TRIPS WHERE \"HOUR\" = 8");
    long night = queryLong("SELECT COUNT(*) FROM TRIPS WHERE \"HOUR\" = 3");
    assertTrue(rush > 5 * night, rush + " trips at 8h vs " + night + " at 3h");
  }

  @Test
  void countiesTableIsPublicReferenceData() throws SQLException {
    assertEquals(DemoData.COUNTIES.size(), queryLong("SELECT COUNT(*) FROM COUNTIES"));
    assertEquals(DemoData.COUNTIES.size(), queryLong("SELECT COUNT(DISTINCT COUNTY) FROM COUNTIES"));
    for (String state : DemoData.STATES) {
      long n = queryLong("SELECT COUNT(*) FROM COUNTIES WHERE STATE = '" + state + "'");
      assertTrue(n >= 3 && n <= 5, state + " has " + n + " counties");
    }
    assertEquals(0, queryLong("SELECT COUNT(*) FROM COUNTIES WHERE POPULATION <= 0 OR AREA_KM2 <= 0"));
  }

  @Test
  void policyListsTheGeneratedDomains() throws IOException {
    String policy;
    try (InputStream in = DemoDataTest.class.getClassLoader().getResourceAsStream("demo-policy.yaml")) {
      policy = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(policy.contains("STATE: {values: [" + String.join(", ", DemoData.STATES) + "]}"), "states in order");
    for (DemoData.County county : DemoData.COUNTIES) {
      assertTrue(policy.contains(county.name()), county.name() + " is in the policy");
    }
    assertTrue(policy.contains("PAYMENT: {values: [" + String.join(", ", DemoData.PAYMENTS) + "]}"));
    assertTrue(policy.contains("AGE: {min: " + DemoData.MIN_AGE + ", max: " + DemoData.MAX_AGE + ", bin: 1}"));
    assertTrue(policy.contains("privacy_unit: RIDER_ID"));
    assertTrue(policy.contains("max_rows_per_unit: " + DemoData.REGULAR_MAX));
  }

  @Test
  void riderTripCountsAddUpExactly() {
    for (int[] config : new int[][] {{200_000, 40_000}, {1_000, 200}, {100, 10}, {60, 2}, {5, 5}, {3000, 20}}) {
      int[] counts =
          DemoData.tripsPerRider(new DemoData.Config(config[0], config[1], 1), new SplittableRandom(1));
      assertEquals(config[1], counts.length);
      assertEquals(config[0], IntStream.of(counts).sum(), "trips for " + config[0] + "/" + config[1]);
      assertTrue(IntStream.of(counts).allMatch(n -> n >= 1 && n <= 300));
    }
  }

  @Test
  void impossibleConfigsAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> new DemoData.Config(10, 20, 1));
    assertThrows(IllegalArgumentException.class, () -> new DemoData.Config(0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new DemoData.Config(1000, 2, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> DemoData.tripsPerRider(new DemoData.Config(30, 2, 1), new SplittableRandom(1)));
  }

  private static long queryLong(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet resultSet = statement.executeQuery(sql)) {
      resultSet.next();
      return resultSet.getLong(1);
    }
  }

  private static double queryDouble(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet resultSet = statement.executeQuery(sql)) {
      resultSet.next();
      return resultSet.getDouble(1);
    }
  }

  private static Set<String> strings(String sql) throws SQLException {
    Set<String> values = new HashSet<>();
    try (Statement statement = connection.createStatement();
        ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        values.add(resultSet.getString(1));
      }
    }
    return values;
  }

  private static String digest(Connection c) throws SQLException, NoSuchAlgorithmException {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    try (Statement statement = c.createStatement();
        ResultSet resultSet = statement.executeQuery("SELECT * FROM TRIPS ORDER BY TRIP_ID")) {
      int width = resultSet.getMetaData().getColumnCount();
      while (resultSet.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= width; i++) {
          row.append(resultSet.getString(i)).append('|');
        }
        sha.update(row.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }
}
