package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A time series released once as a workload synopsis and queried many times, on H2, PostgreSQL
 * and Trino: {@code DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)', 'output=cells')} over the
 * 744 hourly bins of March 2025 returns the synopsis's cell estimates, and every later date range,
 * daily series and prefix over the column is answered from it without a charge.
 *
 * <p>Noise-free answers: at most 3 trips per rider (bound 5, so every row counts) and a query
 * budget of ρ = 10⁸, so the noise's standard deviation on any range is below 0.01 and rounding
 * recovers the backend's own counts. PostgreSQL and Trino run when DPSQL_TEST_PG_URL and
 * DPSQL_TEST_TRINO_URL name servers (as their backend tests), else they are skipped.
 *
 * <p>Sizes: 744 hourly cells (up to 2,048 cells the dense strategy code is used); the 8,760 hours
 * of a year, through the fast transforms, are in {@link HourlyYearSynopsisTest}.
 */
@org.junit.jupiter.api.Order(7) // among the slowest: started first
class TimeSeriesWorkloadTest {
  /** The hourly bins of March 2025. */
  private static final int HOURS = 31 * 24;
  private static final LocalDateTime START = LocalDateTime.of(2025, 3, 1, 0, 0);

  /** 1,800 trips of 900 riders (1 to 3 each) at random minutes of March 2025. */
  private static void load(SeriesBackend b) throws SQLException {
    SplittableRandom rnd = new SplittableRandom(33);
    try (Connection c = b.direct(); Statement st = c.createStatement()) {
      b.createSchema(st);
      st.execute("CREATE TABLE " + b.table() + " (trip_id BIGINT, rider_id INTEGER, "
          + "region VARCHAR(2), pickup_at TIMESTAMP, pickup_day DATE, dropoff_at TIMESTAMP)");
      List<String> values = new ArrayList<>();
      long id = 0;
      String[] regions = {"N", "S", "E", "W"};
      for (int rider = 0; rider < 900; rider++) {
        for (int t = 0; t <= rider % 3; t++) {
          LocalDateTime at = START.plusMinutes(rnd.nextLong(HOURS * 60L));
          values.add("(" + id++ + ", " + rider + ", '" + regions[rnd.nextInt(4)] + "', TIMESTAMP '"
              + at.toLocalDate() + " " + at.toLocalTime() + ":00', DATE '" + at.toLocalDate()
              + "', NULL)");
        }
      }
      for (int from = 0; from < values.size(); from += 600) {
        st.execute("INSERT INTO " + b.table() + " VALUES "
            + String.join(", ", values.subList(from, Math.min(values.size(), from + 600))));
      }
    }
  }

  private static Path policy() throws Exception {
    Path policy = Files.createTempFile("dpsql-timeseries", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 100000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 100000000.0}\n"
        + "tables:\n  trips:\n    privacy_unit: rider_id\n    max_rows_per_unit: 5\n"
        + "    columns:\n      region: {values: [N, S, E, W]}\n"
        + "      pickup_at: {min: 2025-03-01, max: 2025-03-31 23:00, bin: 1 hour}\n"
        + "      pickup_day: {min: 2025-03-01, max: 2025-03-31, bin: 1 day}\n"
        + "      dropoff_at: {min: 2025-01-01, max: 2025-12-31 23:00, bin: 1 hour}\n");
    return policy;
  }


  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql", "trino"})
  void seriesReleasedOnceAndEveryLaterRangeIsFree(String name) throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    load(b);
    Path policy = policy();
    try (Connection c = b.connect(policy, 33); Connection direct = b.direct()) {
      // the synopsis: one row per hourly bin, equal to the backend's own hourly counts
      long[] truth = new long[HOURS];
      try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT pickup_at FROM " + b.table())) {
        while (rs.next()) {
          LocalDateTime t = rs.getTimestamp(1).toLocalDateTime();
          truth[(int) java.time.Duration.between(START, t).toHours()]++;
        }
      }
      List<Object[]> cells = new ArrayList<>();
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM "
          + "TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)', 'output=cells'))")) {
        while (rs.next()) {
          cells.add(new Object[] {rs.getString(1), rs.getDouble(2)});
        }
      }
      assertEquals(HOURS, cells.size());
      assertEquals("PICKUP_AT >= TIMESTAMP '2025-03-01 00:00:00' AND PICKUP_AT < TIMESTAMP "
          + "'2025-03-01 01:00:00'", ((String) cells.get(0)[0]).toUpperCase());
      for (int h = 0; h < HOURS; h++) {
        assertEquals(truth[h], Math.round((Double) cells.get(h)[1]), "hour " + h);
      }
      assertEquals(1, TestDatabase.measured(c), "the series is charged once");

      // later ranges, series and families over the column: the backend's own answers, free
      for (String q : List.of(
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP '2025-03-03 00:00:00' "
              + "AND pickup_at < TIMESTAMP '2025-03-10 00:00:00'",
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP '2025-03-15 06:00:00' "
              + "AND pickup_at < TIMESTAMP '2025-03-15 18:00:00'",
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at < TIMESTAMP '2025-03-20 00:00:00'",
          "SELECT CAST(pickup_at AS DATE) AS d, COUNT(*) AS n FROM %s "
              + "GROUP BY CAST(pickup_at AS DATE) ORDER BY d")) {
        b.assertAnsweredAsBackend(c, direct, q);
      }
      SeriesBackend.assertPrefixesAreRunningTotals(c, truth);
      assertEquals(1, TestDatabase.measured(c), "every later query was answered from the synopsis");
      assertTrue(TestDatabase.session(c).accountant().ledger().stream()
          .filter(e -> e.source().equals(LedgerEntry.SYNOPSIS)).count() >= 5);
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2"})
  void tooLargeAnAnswerSetIsRefusedWithTheOptionThatReleasesIt(String name) throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    load(b);
    Path policy = policy();
    try (Connection c = b.connect(policy, 33)) {
      // all ranges over the 8,760 hours of a year: 38 million rows
      SQLException e = assertThrows(SQLException.class, () -> ResultRows.of(c, "SELECT * FROM "
          + "TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(dropoff_at)'))"));
      assertEquals("XDP03", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains("output=cells"), e.getMessage());
      assertEquals(0, TestDatabase.measured(c), "nothing is charged for a refusal");
      // day x region: 124 cells, returned as cells (hour x region, 2,976 cells, takes minutes
      // with the dense strategy candidates; it should replace this once the fast transforms of
      // issue 33's matrix half are merged)
      List<List<Object>> cells = ResultRows.rounded(c, "SELECT * FROM TABLE(DPSQL.WORKLOAD('trips', "
          + "'ALL_RANGES(pickup_day, region)', 'output=cells'))");
      assertEquals(31 * 4, cells.size());
      assertEquals("PICKUP_DAY = DATE '2025-03-01' AND REGION = 'N'",
          ((String) cells.get(0).get(0)).toUpperCase());
      assertEquals(1, TestDatabase.measured(c));
      // the product's cells answer a range of days in one region, and a daily series, for free
      try (Connection direct = b.direct()) {
        for (String q : List.of("SELECT COUNT(*) AS n FROM %s WHERE region = 'S' AND pickup_day "
            + "BETWEEN DATE '2025-03-10' AND DATE '2025-03-16'",
            "SELECT pickup_day, COUNT(*) AS n FROM %s WHERE region IN ('N', 'E') GROUP BY "
            + "pickup_day ORDER BY pickup_day")) {
          b.assertAnsweredAsBackend(c, direct, q);
        }
      }
      assertEquals(1, TestDatabase.measured(c));
      SQLException bad = assertThrows(SQLException.class, () -> ResultRows.of(c, "SELECT * FROM "
          + "TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)', 'output=rows'))"));
      assertEquals("XDP05", bad.getSQLState(), bad.getMessage());
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2"})
  void explainShowsTheErrorPerQueryClassAndThenThatLaterRangesAreFree(String name)
      throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    load(b);
    Path policy = policy();
    String workload = "SELECT * FROM TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)', "
        + "'output=cells'))";
    String week = "SELECT COUNT(*) AS n FROM trips WHERE pickup_at >= TIMESTAMP "
        + "'2025-03-03 00:00:00' AND pickup_at < TIMESTAMP '2025-03-10 00:00:00'";
    try (Connection c = b.connect(policy, 33)) {
      ExplainListing plan = ExplainListing.of(c, workload);
      double chosen = plan.chosenRmse();
      double ranges = plan.classRmse("ranges of PICKUP_AT");
      double cells = plan.classRmse("single cells");
      double prefixes = plan.classRmse("prefixes of PICKUP_AT");
      assertTrue(plan.toString().contains("(277140 queries)"), plan.toString());
      // the class of the family's own queries has the family's error (up to the strategy's
      // rounding to the lattice), single cells and prefixes have errors of their own
      assertEquals(chosen, ranges, 0.02 * chosen, plan.toString());
      assertTrue(cells > 0 && prefixes > 0 && cells < ranges, plan.toString());
      assertEquals(0, TestDatabase.measured(c), "explain spends nothing");
      ResultRows.of(c, workload);
      assertEquals(1, TestDatabase.measured(c));
      String later = ResultRows.of(c, "EXPLAIN PLAN FOR " + week).toString();
      assertTrue(later.contains("answered from released synopses: no charge"), later);
      List<List<Object>> free = ResultRows.of(c, "SELECT * FROM TABLE(DPSQL.EXPLAIN('"
          + week.replace("'", "''") + "'))");
      assertTrue(free.get(0).get(0).toString().startsWith("synopsis:"), free.toString());
      assertEquals(0, ((Number) free.get(0).get(4)).doubleValue(), 0.0, free.toString());
      ResultRows.of(c, week);
      assertEquals(1, TestDatabase.measured(c), "the week was answered from the synopsis");
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  /**
   * A calendar roll-up (month, day, hour of PICKUP_AT) asked of InfTDA: the tree comes from the
   * policy's hourly bins (1 month, 31 days, 744 hours), released once, integral and consistent,
   * equal to the backend's own roll-up at this budget; a later daily series is free.
   */
  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql", "trino"})
  void calendarRollupIsOneInfTdaTree(String name) throws Exception {
    calendarRollup(name, "/*+ DP(mechanism='inftda') */");
  }

  /**
   * The same roll-up without a hint: {@code auto} takes the calendar tree as it takes a declared
   * hierarchy's (one InfTDA release, integral, consistent, a later daily series free).
   */
  @org.junit.jupiter.api.Test
  void calendarRollupUnderAutoIsTheSameTree() throws Exception {
    calendarRollup("h2", "");
  }

  private void calendarRollup(String name, String hint) throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    load(b);
    Path policy = policy();
    String rollup = "SELECT %s DATE_TRUNC('month', pickup_at) AS m, CAST(pickup_at AS DATE) AS d, "
        + "DATE_TRUNC('hour', pickup_at) AS h, COUNT(*) AS n FROM %s GROUP BY "
        + "ROLLUP(DATE_TRUNC('month', pickup_at), CAST(pickup_at AS DATE), "
        + "DATE_TRUNC('hour', pickup_at)) ORDER BY m NULLS FIRST, d NULLS FIRST, h NULLS FIRST";
    try (Connection c = b.connect(policy, 33); Connection direct = b.direct()) {
      List<List<Object>> released = ResultRows.of(c, String.format(rollup, hint, "trips"));
      assertEquals(1 + 1 + 31 + HOURS, released.size());
      // the backend's own counts per hour (H2 has no ROLLUP: the levels are summed here)
      long[] truth = new long[HOURS];
      try (Statement st = direct.createStatement(); ResultSet rs = st.executeQuery(
          "SELECT pickup_at FROM " + b.table())) {
        while (rs.next()) {
          truth[(int) java.time.Duration.between(START, rs.getTimestamp(1).toLocalDateTime())
              .toHours()]++;
        }
      }
      for (List<Object> row : released) {
        long expected = 0;
        for (int h = 0; h < HOURS; h++) {
          LocalDateTime t = START.plusHours(h);
          boolean in = row.get(2) != null ? instant(row.get(2)).equals(t)
              : row.get(1) == null || instant(row.get(1)).toLocalDate().equals(t.toLocalDate());
          expected += in ? truth[h] : 0;
        }
        double v = ((Number) row.get(3)).doubleValue();
        assertEquals(expected, v, 0.0, "InfTDA releases integers, here noise-free: " + row);
      }
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(1, TestDatabase.measured(c));
      assertEquals("inftda", ledger.get(0).mechanism());
      String daily = "SELECT CAST(pickup_at AS DATE) AS d, COUNT(*) AS n FROM %s "
          + "GROUP BY CAST(pickup_at AS DATE) ORDER BY d";
      b.assertAnsweredAsBackend(c, direct, daily);
      assertEquals(1, TestDatabase.measured(c), "the daily series is answered from the tree");
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  /** A released DATE or TIMESTAMP key as a date-time (a date at midnight). */
  private static LocalDateTime instant(Object v) {
    if (v instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate().atStartOfDay();
    }
    if (v instanceof java.time.LocalDate d) {
      return d.atStartOfDay();
    }
    return (LocalDateTime) v;
  }
}
