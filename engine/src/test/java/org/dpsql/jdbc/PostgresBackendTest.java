package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * dpsql over a PostgreSQL backend (lower-case identifiers, RANDOM(), NUMERIC arithmetic, temporary
 * tables, public-table SQL written back in PostgreSQL's dialect). Runs when DPSQL_TEST_PG_URL (plus DPSQL_TEST_PG_USER, DPSQL_TEST_PG_PASSWORD) names a
 * server; .ci/run installs and starts one. Each run works in a schema of its own.
 */
@EnabledIfEnvironmentVariable(named = "DPSQL_TEST_PG_URL", matches = "jdbc:postgresql:.+")
class PostgresBackendTest {
  static String url;
  static Properties login;
  static String schema;
  static Path policy;

  @BeforeAll
  static void setUp() throws Exception {
    url = System.getenv("DPSQL_TEST_PG_URL");
    login = new Properties();
    login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_PG_USER", "postgres"));
    login.setProperty("password", System.getenv().getOrDefault("DPSQL_TEST_PG_PASSWORD", ""));
    schema = "dpsql_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      st.execute("CREATE SCHEMA " + schema);
      st.execute("CREATE TABLE " + schema + ".trips (trip_id bigint PRIMARY KEY, rider_id int NOT NULL, "
          + "region varchar(2), age int, fare numeric(8,2), km double precision, pickup timestamp)");
      st.execute("INSERT INTO " + schema + ".trips SELECT g, g % 700, (ARRAY['N','S','E','W'])[1 + g % 4], "
          + "18 + g % 60, (g % 9000) / 100.0, (g % 500) / 10.0, TIMESTAMP '2024-01-01 00:00:00' "
          + "+ (g % 366) * INTERVAL '1 day' + (g % 24) * INTERVAL '1 hour' FROM generate_series(1, 5000) g");
      st.execute("CREATE TABLE " + schema + ".riders (rider_id int PRIMARY KEY, plan varchar(5))");
      st.execute("INSERT INTO " + schema + ".riders SELECT g, (ARRAY['basic','plus','pass'])"
          + "[1 + g % 3] FROM generate_series(0, 699) g");
      st.execute("CREATE TABLE " + schema + ".zones (region varchar(2), name varchar(20))");
      st.execute("INSERT INTO " + schema + ".zones VALUES ('N', 'North'), ('S', 'South')");
    }
    policy = Files.createTempFile("pg-policy", ".yaml");
  }

  @AfterAll
  static void tearDown() throws Exception {
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      st.execute("DROP SCHEMA " + schema + " CASCADE");
    }
    Files.deleteIfExists(policy);
  }

  private static Connection connect(String bounding) throws Exception {
    return connect(bounding, "rider_id");
  }

  private static Connection connect(String bounding, String unit) throws Exception {
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n  per_connection: {rho: 1000}\n"
        + "  default_query: {rho: 400}\ntables:\n  trips:\n    privacy_unit: " + unit + "\n    max_rows_per_unit: 5\n"
        + (unit.equals("rider_id") ? "    unit: rider\n" : "")
        + "    bounding: " + bounding + "\n    columns:\n      region: {values: [N, S, E, W]}\n"
        + "      age: {min: 18, max: 77, bin: 10}\n      fare: {clamp: [0, 100]}\n      km: {clamp: [0, 50]}\n"
        + "      pickup: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n"
        + "  riders:\n    privacy_unit: rider_id\n    unit: rider\n    max_rows_per_unit: 1\n"
        + "    columns:\n      plan: {values: [basic, plus, pass]}\n"
        + "  zones: {public: true}\n");
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", "5");
    // the schema goes into the URL, as users of PostgreSQL would do it
    return DriverManager.getConnection("jdbc:dpsql:" + url.substring("jdbc:".length())
        + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, p);
  }

  @ParameterizedTest
  @ValueSource(strings = {"per_query", "snapshot"})
  void privateAggregatesAndPublicTables(String bounding) throws Exception {
    long bounded;
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT SUM(LEAST(n, 5)) FROM (SELECT COUNT(*) n FROM " + schema
            + ".trips GROUP BY rider_id) t")) {
      rs.next();
      bounded = rs.getLong(1);
    }
    try (Connection c = connect(bounding); Statement st = c.createStatement()) {
      // rho 400 over 3 measurements: sigma(count) = 5 / sqrt(2 * 400 / 3) = 0.3
      List<String> regions = new ArrayList<>();
      long total = 0;
      try (ResultSet rs = st.executeQuery(
          "SELECT REGION, COUNT(*), SUM(fare), AVG(km) FROM Trips GROUP BY region")) {
        while (rs.next()) {
          regions.add(rs.getString(1));
          total += rs.getLong(2);
          assertTrue(rs.getBigDecimal(3).compareTo(BigDecimal.ZERO) > 0);
          assertTrue(rs.getDouble(4) >= 0 && rs.getDouble(4) <= 50);
        }
      }
      assertEquals(List.of("N", "S", "E", "W"), regions);
      assertTrue(Math.abs(total - bounded) <= 8, total + " vs bounded truth " + bounded);
      try (PreparedStatement ps = c.prepareStatement("SELECT age, COUNT(*) FROM trips WHERE age BETWEEN ? AND ? GROUP BY age")) {
        ps.setInt(1, 20);
        ps.setInt(2, 40);
        int cells = 0;
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            cells++;
          }
        }
        // ages 20..40 lie in the bins [18, 28), [28, 38) and [38, 48): the other three bins are
        // excluded by the filter itself and left out (issue 32)
        assertEquals(3, cells);
      }
      try (ResultSet rs = st.executeQuery("SELECT name FROM zones WHERE region = 'N'")) {
        assertTrue(rs.next());
        assertEquals("North", rs.getString(1));
      }
      assertEquals(0, new BigDecimal("800").compareTo(TestDatabase.session(c).accountant().spent().rho()));
      SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM trips"));
      assertEquals("XDP02", e.getSQLState());
    }
  }

  /**
   * Issue 32 on PostgreSQL: the four statements return 1, 2, 3 and 9 rows, each count equal to
   * PostgreSQL's own answer (noise-free budget), in a schema holding a demo-shaped TRIPS table.
   */
  @Test
  void aFilterOnAGroupedColumnLeavesOutTheGroupsItExcludes() throws Exception {
    String own = schema + "_f";
    Path filteredPolicy = Files.createTempFile("pg-filtered", ".yaml");
    try (Connection direct = DriverManager.getConnection(url, login);
        Statement st = direct.createStatement()) {
      st.execute("CREATE SCHEMA " + own);
      st.execute("CREATE TABLE " + own + ".trips (trip_id bigint PRIMARY KEY, rider_id int NOT "
          + "NULL, state varchar(2), payment varchar(8), hour int, fare numeric(8,2))");
      for (String chunk : FilteredGroups.valueChunks()) {
        st.execute("INSERT INTO " + own + ".trips VALUES " + chunk);
      }
      Files.writeString(filteredPolicy, FilteredGroups.NOISE_FREE_BUDGET + "tables:\n"
          + FilteredGroups.tripsPolicy("trips", "per_query"));
      Properties p = new Properties();
      p.putAll(login);
      p.setProperty("policy", filteredPolicy.toString());
      p.setProperty("seed", "5");
      try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + url.substring(
          "jdbc:".length()) + (url.contains("?") ? "&" : "?") + "currentSchema=" + own, p)) {
        FilteredGroups.assertIssueStatements(c, direct, own + ".trips", "hour");
      }
    } finally {
      try (Connection direct = DriverManager.getConnection(url, login);
          Statement st = direct.createStatement()) {
        st.execute("DROP SCHEMA IF EXISTS " + own + " CASCADE");
      }
      Files.deleteIfExists(filteredPolicy);
    }
  }

  /** The relational front end on PostgreSQL: lower-case names, its SQL for derived, computed and public parts. */
  @Test
  void informationSchemaListsWhatDatabaseMetaDataLists() throws Exception {
    try (Connection c = connect("per_query"); Statement st = c.createStatement()) {
      List<String> viaMeta = new ArrayList<>();
      try (ResultSet rs = c.getMetaData().getColumns(null, schema, "%", "%")) {
        while (rs.next()) {
          viaMeta.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME"));
        }
      }
      List<String> viaSql = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT TABLE_NAME, COLUMN_NAME FROM "
          + "INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = '" + schema + "' "
          + "ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
        while (rs.next()) {
          viaSql.add(rs.getString(1) + "." + rs.getString(2));
        }
      }
      viaMeta.sort(null);
      List<String> sorted = new ArrayList<>(viaSql);
      sorted.sort(null);
      assertEquals(viaMeta, sorted);
      assertTrue(viaSql.containsAll(List.of("trips.fare", "trips.pickup", "riders.plan",
          "zones.name")), viaSql.toString());
      assertFalse(viaSql.contains("trips.rider_id") || viaSql.contains("trips.trip_id"),
          viaSql.toString());
    }
  }

  @Test
  void statementsAroundPrivateAggregates() throws Exception {
    try (Connection c = connect("per_query"); Statement st = c.createStatement()) {
      List<String> regions = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='10') */ region, n FROM (SELECT "
          + "region, COUNT(*) AS n FROM trips GROUP BY region) t WHERE n > 0 ORDER BY region")) {
        while (rs.next()) {
          regions.add(rs.getString(1));
        }
      }
      assertEquals(List.of("E", "N", "S", "W"), regions);
      // a derived column evaluated by PostgreSQL on the domain of region
      List<String> lower = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='10') */ LOWER(region) AS r, "
          + "COUNT(*) FROM trips GROUP BY LOWER(region) ORDER BY 1")) {
        while (rs.next()) {
          lower.add(rs.getString(1));
        }
      }
      assertEquals(List.of("e", "n", "s", "w"), lower);
      // a computed column in PostgreSQL's dialect: fare in [0, 90), so 2 * fare + 1 near 2 * 5000 * 45
      try (ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='10') */ SUM(fare * 2 + 1) AS s "
          + "FROM trips")) {
        assertTrue(rs.next());
        double s = rs.getDouble(1);
        assertTrue(s > 100_000 && s < 500_000, "sum " + s);
      }
      // a release joined with a public table read from PostgreSQL
      int joined = 0;
      try (ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='10') */ z.name, t.n FROM (SELECT "
          + "region, COUNT(*) AS n FROM trips GROUP BY region) t JOIN zones z ON z.region = "
          + "t.region")) {
        while (rs.next()) {
          joined++;
        }
      }
      assertEquals(2, joined);
      try (ResultSet rs = st.executeQuery("SELECT * FROM trips WHERE 1 = 0")) {
        assertTrue(!rs.next());
        assertTrue(rs.getMetaData().getColumnCount() >= 4);
      }
    }
  }

  /**
   * A join of two private tables on their shared unit, bounded after the join by PostgreSQL: each
   * rider has 7 or 8 trips and counts 5 of them, so the count per plan is 5 × the plan's riders
   * (noise σ < 0.2 at ρ = 400, so it rounds to the exact bounded count).
   */
  @Test
  void privateJoinOnTheSharedUnit() throws Exception {
    String expected = "SELECT r.plan, SUM(LEAST(t.n, 5)) FROM (SELECT rider_id, COUNT(*) AS n "
        + "FROM " + schema + ".trips GROUP BY rider_id) t JOIN " + schema + ".riders r "
        + "ON r.rider_id = t.rider_id GROUP BY r.plan ORDER BY r.plan";
    try (Connection direct = DriverManager.getConnection(url, login);
        Connection c = connect("per_query")) {
      assertEquals(ResultRows.rounded(ResultRows.of(direct, expected)),
          ResultRows.rounded(ResultRows.of(c, "SELECT r.plan, COUNT(*) FROM trips t JOIN "
              + "riders r ON t.rider_id = r.rider_id GROUP BY r.plan ORDER BY r.plan")));
      // rider_id IN (SELECT rider_id FROM riders ...): riders' unit is its primary key, so the
      // filter is the join on the unit, measured in PostgreSQL like the join (5 trips per rider)
      String plus = "SELECT SUM(LEAST(t.n, 5)) FROM (SELECT rider_id, COUNT(*) AS n FROM "
          + schema + ".trips GROUP BY rider_id) t JOIN " + schema + ".riders r ON r.rider_id = "
          + "t.rider_id WHERE r.plan = 'plus'";
      try (Connection fresh = connect("per_query")) {
        assertEquals(ResultRows.rounded(ResultRows.of(direct, plus)),
            ResultRows.rounded(ResultRows.of(fresh, "SELECT COUNT(*) FROM trips WHERE rider_id "
                + "IN (SELECT rider_id FROM riders WHERE plan = 'plus')")));
      }
      // PostgreSQL has FULL JOIN (H2 has not): every rider is in both tables, 5 rows each
      assertEquals(List.of(List.of(java.math.BigDecimal.valueOf(3500).stripTrailingZeros())),
          ResultRows.rounded(ResultRows.of(c, "SELECT COUNT(*) FROM riders r FULL JOIN trips t "
              + "ON t.rider_id = r.rider_id")));
    }
  }

  /**
   * GROUP BY a column declared keys: private on PostgreSQL: 300 buyers of 6 products (3 rows
   * each, bounded to 2) and 50 buyers of a product of their own; max_groups_per_unit 1 < k = 2,
   * so each buyer's groups are chosen by the window SQL. At ε = 10⁵ the noise is 0 and τ = 2:
   * the 6 shared products are released with their bounded counts, no buyer's own product is.
   */
  @Test
  void groupsOverPrivateKeys() throws Exception {
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE " + schema + ".baskets AS SELECT b AS buyer, 'p' || (b % 6) AS "
          + "product FROM generate_series(0, 299) b, generate_series(1, 3) r UNION ALL SELECT b, "
          + "'solo' || b FROM generate_series(300, 349) b");
    }
    Path own = PartitionSelectionQueriesTest.basketsPolicy("pg-partitions");
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", own.toString());
    p.setProperty("seed", "5");
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + url.substring("jdbc:".length())
        + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, p)) {
      List<List<Object>> expected = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        expected.add(List.of("p" + i, BigDecimal.valueOf(100).stripTrailingZeros(),
            BigDecimal.valueOf(50).stripTrailingZeros()));
      }
      assertEquals(expected, ResultRows.rounded(ResultRows.of(c, "SELECT product, COUNT(*), "
          + "COUNT(DISTINCT buyer) FROM baskets GROUP BY product ORDER BY product")));
    } finally {
      Files.deleteIfExists(own);
    }
  }

  /** A time series on PostgreSQL: its EXTRACT for the bin index, its DATE_TRUNC on the bins. */
  @Test
  void timeSeries() throws Exception {
    List<Long> truth = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, login); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + schema + ".trips GROUP BY "
            + "DATE_TRUNC('month', pickup) ORDER BY DATE_TRUNC('month', pickup)")) {
      while (rs.next()) {
        truth.add(rs.getLong(1));
      }
    }
    try (Connection c = connect("per_query"); Statement st = c.createStatement()) {
      List<Long> months = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='500') */ DATE_TRUNC('month', "
          + "pickup) AS m, COUNT(*) AS n FROM trips GROUP BY DATE_TRUNC('month', pickup) ORDER "
          + "BY m")) {
        while (rs.next()) {
          assertEquals(java.time.LocalDate.of(2024, 1 + months.size(), 1).atStartOfDay(),
              rs.getTimestamp(1).toLocalDateTime());
          months.add(Math.round(rs.getDouble(2)));
        }
      }
      assertEquals(12, months.size());
      // each rider has 7 or 8 trips, bounded at 5 (700 riders: 3,500 rows reach the aggregate),
      // spread over the months; a month sums about 30 day cells, each with sigma 0.16
      long total = 0;
      for (int i = 0; i < 12; i++) {
        total += months.get(i);
        double share = months.get(i) / (double) truth.get(i);
        assertTrue(share > 0.55 && share < 0.85, months + " vs " + truth);
      }
      assertTrue(Math.abs(total - 3500) <= 40, "total " + total);
      int days = 0;
      try (ResultSet rs = st.executeQuery("SELECT /*+ DP(rho='10') */ CAST(pickup AS DATE) AS d, "
          + "COUNT(*) FROM trips WHERE pickup >= TIMESTAMP '2024-03-01 00:00:00' AND pickup < "
          + "TIMESTAMP '2024-04-01 00:00:00' GROUP BY CAST(pickup AS DATE)")) {
        while (rs.next()) {
          days++;
        }
      }
      assertEquals(31, days);
    }
  }

  /**
   * A prepared daily series on PostgreSQL whose two timestamps are bound into the plan and whose
   * {@code HAVING ?} post-processes the released days: planned once at prepare, each new range a
   * release of its own over exactly its days, a new {@code HAVING} value free.
   */
  @Test
  void boundValuesArePlannedOnce() throws Exception {
    try (Connection c = connect("per_query"); PreparedStatement ps = c.prepareStatement(
        "SELECT CAST(pickup AS DATE) AS d, COUNT(*) AS n FROM trips WHERE pickup >= ? AND "
            + "pickup < ? GROUP BY CAST(pickup AS DATE) HAVING COUNT(*) > ? ORDER BY d")) {
      org.dpsql.session.DpsqlSession session = TestDatabase.session(c);
      long planned = session.analyzer().plannedStatements();
      for (String start : List.of("2024-03-01", "2024-06-10", "2024-11-20")) {
        java.time.LocalDate from = java.time.LocalDate.parse(start);
        ps.setTimestamp(1, java.sql.Timestamp.valueOf(from.atStartOfDay()));
        ps.setTimestamp(2, java.sql.Timestamp.valueOf(from.plusDays(7).atStartOfDay()));
        ps.setInt(3, -1_000_000);
        List<java.time.LocalDate> days = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            days.add(rs.getDate(1).toLocalDate());
          }
        }
        assertEquals(from.datesUntil(from.plusDays(7)).toList(), days, start);
      }
      var spent = session.accountant().spent();
      ps.setInt(3, 1_000_000); // post-processing of the last range's release: no day, free
      try (ResultSet rs = ps.executeQuery()) {
        assertFalse(rs.next());
      }
      assertEquals(spent, session.accountant().spent());
      assertEquals(planned, session.analyzer().plannedStatements(), "planned at prepare only");
    }
  }

  /** PostgreSQL's metadata shows trip_id as the primary key: no bounding; rider_id is bounded. */
  @ParameterizedTest
  @ValueSource(strings = {"per_query", "snapshot"})
  void aPrimaryKeyUnitIsNotBounded(String bounding) throws Exception {
    for (String unit : List.of("trip_id", "rider_id")) {
      try (Connection c = connect(bounding, unit); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("EXPLAIN PLAN FOR SELECT region, COUNT(*) FROM trips GROUP BY region")) {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
        boolean bounded = plan.toString().contains("ROW_NUMBER") || plan.toString().contains("dpsql_snapshot")
            || plan.toString().toUpperCase(java.util.Locale.ROOT).contains("DPSQL_SNAPSHOT");
        assertEquals(unit.equals("rider_id"), bounded, plan.toString());
        if (unit.equals("trip_id")) {
          assertTrue(plan.toString().contains("bounding not needed"), plan.toString());
          long total = 0;
          try (ResultSet r = st.executeQuery("SELECT region, COUNT(*) FROM trips GROUP BY region")) {
            while (r.next()) {
              total += r.getLong(2);
            }
          }
          // rho 400: sigma = 5 / sqrt(800) = 0.18 per cell; every one of the 5000 trips counts
          assertTrue(Math.abs(total - 5000) <= 4, "total " + total);
        }
      }
    }
  }

  /**
   * Quantiles on PostgreSQL, noise-free (ρ = 10⁸ per statement, so η ≥ 1400 on every score): a
   * median per group with a count in the same statement, and the three quartiles (one JointExp
   * release) are exact quantiles of the grid-rounded fares, within a step (0.1) of PostgreSQL's
   * own PERCENTILE_DISC (see {@link QuantileChecks}); the count is PostgreSQL's COUNT(*). Riders
   * have at most 3 rides, so bounding to 5 keeps every row.
   */
  @Test
  void quantilesAreThoseOfPostgresWhenTheBudgetIsHuge() throws Exception {
    Map<String, Long> counts = new LinkedHashMap<>();
    Map<String, List<BigDecimal>> fares;
    Map<String, BigDecimal> discs = new LinkedHashMap<>();
    try (Connection direct = DriverManager.getConnection(url, login);
        Statement st = direct.createStatement()) {
      st.execute("CREATE TABLE " + schema + ".rides AS SELECT g AS ride_id, g % 2000 AS rider_id, "
          + "(ARRAY['N','S','E','W'])[1 + g % 4] AS region, CASE WHEN g % 97 = 0 THEN NULL ELSE "
          + "CAST(((g * 37) % 9000) / 100.0 AS numeric(8, 2)) END AS fare "
          + "FROM generate_series(1, 5000) g");
      try (ResultSet rs = st.executeQuery("SELECT region, COUNT(*), PERCENTILE_DISC(0.5) WITHIN "
          + "GROUP (ORDER BY fare) FROM " + schema + ".rides GROUP BY region")) {
        while (rs.next()) {
          counts.put(rs.getString(1), rs.getLong(2));
          discs.put(rs.getString(1), rs.getBigDecimal(3));
        }
      }
      fares = QuantileChecks.values(direct, schema + ".rides", "region", "fare");
    }
    Path quantilePolicy = Files.createTempFile("pg-quantiles", ".yaml");
    Files.writeString(quantilePolicy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 1000000000}\n  default_query: {rho: 100000000}\n"
        + "tables:\n  rides:\n    privacy_unit: rider_id\n    max_rows_per_unit: 5\n"
        + "    columns:\n      region: {values: [N, S, E, W]}\n      fare: {clamp: [0, 100]}\n");
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", quantilePolicy.toString());
    p.setProperty("seed", "5");
    BigDecimal lo = BigDecimal.ZERO;
    BigDecimal hi = BigDecimal.valueOf(100);
    BigDecimal step = new BigDecimal("0.1");
    try (Connection c = DriverManager.getConnection("jdbc:dpsql:" + url.substring("jdbc:".length())
        + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, p);
        Statement st = c.createStatement()) {
      List<String> regions = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT region, MEDIAN(fare) AS m, COUNT(*) AS n "
          + "FROM rides GROUP BY region")) {
        while (rs.next()) {
          String r = rs.getString(1);
          regions.add(r);
          assertEquals(counts.get(r), rs.getLong(3), "the count of " + r);
          QuantileChecks.assertExactQuantile(fares.get(r), 0.5, rs.getDouble(2), lo, hi, step,
              r);
          assertEquals(discs.get(r), QuantileChecks.disc(fares.get(r), 0.5), "PERCENTILE_DISC");
        }
      }
      assertEquals(List.of("N", "S", "E", "W"), regions);
      try (ResultSet rs = st.executeQuery("SELECT region, "
          + "PERCENTILE_CONT(0.25) WITHIN GROUP (ORDER BY fare) AS q1, "
          + "PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY fare) AS q2, "
          + "PERCENTILE_CONT(0.75) WITHIN GROUP (ORDER BY fare) AS q3 FROM rides GROUP BY region")) {
        assertEquals(4, QuantileChecks.assertExactQuartiles(rs, fares, lo, hi, step));
      }
      assertEquals(0, new BigDecimal("200000000").compareTo(
          TestDatabase.session(c).accountant().spent().rho()), "two statements of 1e8");
    } finally {
      Files.deleteIfExists(quantilePolicy);
    }
  }

  @Test
  void backendErrorsOfPrivateQueriesAreWithheld() throws Exception {
    try (Connection c = connect("per_query");
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM trips WHERE age > ?")) {
      ps.setString(1, "not a number");
      // a bound value that is not of the parameter's type is refused before the backend sees it
      SQLException e = assertThrows(SQLException.class, ps::executeQuery);
      assertEquals("22018", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("parameter 1"), e.getMessage());
    }
  }

  /**
   * On PostgreSQL: {@code AVG(x) FILTER (WHERE c)} is measured as its CASE form in PostgreSQL's
   * dialect, and like the CASE form written by hand (PostgreSQL's RANDOM() picks the bounded
   * rows, so the two are different draws) it is near PostgreSQL's own average (riders have 7 or 8 trips and count 5 of them, chosen at random: the
   * average of the kept fares, about 360 per region of fares in [0, 90) with standard deviation
   * 26, is within 5 of the full one far beyond 3 standard errors); a listing of a declared domain
   * is answered without reading PostgreSQL.
   */
  @Test
  void averageFilterAndDomainListing() throws Exception {
    String filtered = "SELECT region, AVG(fare) FILTER (WHERE age >= 48) AS a FROM trips "
        + "GROUP BY region ORDER BY region";
    List<List<Object>> released;
    try (Connection c = connect("per_query")) {
      released = ResultRows.of(c, filtered);
      assertEquals(List.of(List.of("E"), List.of("N"), List.of("S"), List.of("W")),
          ResultRows.of(c, "SELECT DISTINCT region FROM trips ORDER BY region LIMIT 1000"));
    }
    List<List<Object>> conditional;
    try (Connection c = connect("per_query")) {
      conditional = ResultRows.of(c, "SELECT region, AVG(CASE WHEN age >= 48 THEN fare END) AS a "
          + "FROM trips GROUP BY region ORDER BY region");
    }
    try (Connection c = DriverManager.getConnection(url, login)) {
      List<List<Object>> exact = ResultRows.of(c, "SELECT region, AVG(fare) FILTER (WHERE age "
          + ">= 48) FROM " + schema + ".trips GROUP BY region ORDER BY region");
      for (List<List<Object>> answer : List.of(released, conditional)) {
        assertEquals(exact.size(), answer.size());
        for (int r = 0; r < exact.size(); r++) {
          assertEquals(exact.get(r).get(0), answer.get(r).get(0));
          assertEquals(((java.math.BigDecimal) exact.get(r).get(1)).doubleValue(),
              ((java.math.BigDecimal) answer.get(r).get(1)).doubleValue(), 5.0);
        }
      }
    }
  }
}
