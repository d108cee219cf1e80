package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * A whole year of hourly bins (8,760 cells) released from SQL as one synopsis through the fast
 * transform path (issue 33): {@code DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)',
 * 'output=cells')} is designed by {@code TransformDesign}, measured on the implicit lattice strategy
 * {@code SineLattice} (exact integer products, exact sensitivity, exact discrete Gaussian noise),
 * reconstructed by fast transforms, charged once, and every later date range, daily series and
 * prefix over the column is answered from it for free; a {@code PREFIX} family over the year is
 * designed the same way. EXPLAIN shows the transform strategy with its per-class errors.
 *
 * <p>Noise-free answers as in {@link TimeSeriesWorkloadTest}: at most 3 trips per rider (bound 5)
 * and ρ = 10⁸, so rounding recovers the backend's own counts. PostgreSQL and Trino run when
 * DPSQL_TEST_PG_URL and DPSQL_TEST_TRINO_URL name servers, else they are skipped.
 */
@org.junit.jupiter.api.Order(6) // among the slowest: started first
class HourlyYearSynopsisTest {
  private static final int HOURS = 365 * 24;
  private static final LocalDateTime START = LocalDateTime.of(2025, 1, 1, 0, 0);

  /** 3,000 trips of 1,500 riders (1 or 2 each) at random minutes of 2025. */
  private static long[] load(SeriesBackend b) throws SQLException {
    SplittableRandom rnd = new SplittableRandom(8760);
    long[] truth = new long[HOURS];
    try (Connection c = b.direct(); Statement st = c.createStatement()) {
      b.createSchema(st);
      st.execute("CREATE TABLE " + b.table() + " (trip_id BIGINT, rider_id INTEGER, "
          + "pickup_at TIMESTAMP)");
      List<String> values = new ArrayList<>();
      long id = 0;
      for (int rider = 0; rider < 1500; rider++) {
        for (int t = 0; t <= rider % 2 + (rider % 7 == 0 ? 1 : 0); t++) {
          long minute = rnd.nextLong(HOURS * 60L);
          truth[(int) (minute / 60)]++;
          LocalDateTime at = START.plusMinutes(minute);
          values.add("(" + id++ + ", " + rider + ", TIMESTAMP '" + at.toLocalDate() + " "
              + at.toLocalTime() + ":00')");
        }
      }
      for (int from = 0; from < values.size(); from += 1000) {
        st.execute("INSERT INTO " + b.table() + " VALUES "
            + String.join(", ", values.subList(from, Math.min(values.size(), from + 1000))));
      }
    }
    return truth;
  }

  private static Path policy(String rho) throws Exception {
    return policy(rho, "2025-12-31 23:00");
  }

  private static Path policy(String rho, String max) throws Exception {
    Path policy = Files.createTempFile("dpsql-year", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: " + rho + ", delta: 1e-9}\n"
        + "  default_query: {rho: " + rho + "}\n"
        + "tables:\n  trips:\n    privacy_unit: rider_id\n    max_rows_per_unit: 5\n"
        + "    columns:\n"
        + "      pickup_at: {min: 2025-01-01, max: " + max + ", bin: 1 hour}\n");
    return policy;
  }


  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql", "trino"})
  void aYearOfHoursIsReleasedOnceThroughFastTransformsAndLaterRangesAreFree(String name)
      throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    long[] truth = load(b);
    Path policy = policy("100000000.0");
    try (Connection c = b.connect(policy, 8760); Connection direct = b.direct()) {
      long started = System.nanoTime();
      List<Object[]> cells = new ArrayList<>();
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM "
          + "TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)', 'output=cells'))")) {
        while (rs.next()) {
          cells.add(new Object[] {rs.getString(1), rs.getDouble(2)});
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf("%s: 8,760-hour ALL_RANGES synopsis released in %.2f s%n", name, seconds);
      assertEquals(HOURS, cells.size());
      for (int h = 0; h < HOURS; h++) {
        assertEquals(truth[h], Math.round((Double) cells.get(h)[1]), "hour " + h);
      }
      assertEquals(1, TestDatabase.measured(c), "the series is charged once");
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals("eigen", ledger.get(0).mechanism(), ledger.toString());

      // the default build checks one later range on PostgreSQL and Trino (each direct statement
      // there takes seconds); all of them on H2, and on every backend under -Plong
      boolean all = name.equals("h2") || org.dpsql.TestScale.isLong();
      List<String> later = List.of(
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP '2025-03-01 00:00:00' "
              + "AND pickup_at < TIMESTAMP '2025-03-08 00:00:00'",
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP '2025-07-15 06:00:00' "
              + "AND pickup_at < TIMESTAMP '2025-11-15 18:00:00'",
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at < TIMESTAMP '2025-10-01 00:00:00'",
          "SELECT CAST(pickup_at AS DATE) AS d, COUNT(*) AS n FROM %s "
              + "GROUP BY CAST(pickup_at AS DATE) ORDER BY d");
      for (String q : all ? later : later.subList(0, 1)) {
        b.assertAnsweredAsBackend(c, direct, q);
      }
      SeriesBackend.assertPrefixesAreRunningTotals(c, truth);
      assertEquals(1, TestDatabase.measured(c), "every later query was answered from the synopsis");
      assertTrue(TestDatabase.session(c).accountant().ledger().stream()
          .filter(e -> e.source().equals(LedgerEntry.SYNOPSIS)).count() >= (all ? 5 : 2));
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  /**
   * EXPLAIN of the year's ALL_RANGES synopsis at ρ = 0.02: the transform design is chosen over the
   * identity, with the singular value bound beside it and one row per class of later queries
   * (cells, ranges, prefixes) in closed form; nothing is charged. A PREFIX family over the year is
   * designed by the same path (its own re-weighting) and equals the backend's running totals.
   */
  @ParameterizedTest
  @ValueSource(strings = {"h2"})
  void explainScoresTheYearPerQueryClassAndPrefixesUseTheTransformToo(String name)
      throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    long[] truth = load(b);
    Path policy = policy("0.02");
    Path exact = policy("100000000.0");
    String workload = "SELECT * FROM TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at)', "
        + "'output=cells'))";
    try (Connection c = b.connect(policy, 8760)) {
      ExplainListing plan = ExplainListing.of(c, workload);
      double chosen = plan.chosenRmse();
      double identity = plan.rmse("identity");
      double bound = plan.rmse("lower_bound");
      String strategy = plan.chosenMechanism();
      java.util.Map<String, Double> classes = plan.classes();
      System.out.printf("year of hours at rho 0.02: chosen %.2f, identity %.2f, bound %.2f, "
          + "classes %s%n", chosen, identity, bound, classes);
      assertEquals("eigen", strategy, plan.toString());
      assertTrue(chosen < identity / 5, plan.toString());
      assertTrue(bound <= chosen && chosen <= 1.05 * bound, plan.toString());
      assertEquals(3, classes.size(), classes.toString());
      double ranges = classes.entrySet().stream().filter(e -> e.getKey().contains("ranges of"))
          .findFirst().orElseThrow().getValue();
      assertEquals(chosen, ranges, 1e-3 * chosen, classes.toString());
      assertEquals(0, TestDatabase.measured(c), "explain spends nothing");
    }
    // the demo domain: hourly bins from 2025-01-01 to 2025-12-31 00:00 (8,737 cells)
    Path demo = policy("0.02", "2025-12-31 00:00");
    try (Connection c = b.connect(demo, 8760)) {
      ExplainListing plan = ExplainListing.of(c, workload);
      assertEquals("eigen", plan.chosenMechanism(), plan.toString());
      assertTrue(plan.toString().contains("(8737 queries)"), plan.toString());
    } finally {
      Files.deleteIfExists(demo);
    }
    try (Connection c = b.connect(exact, 8760)) {
      SeriesBackend.assertPrefixesAreRunningTotals(c, truth);
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(1, TestDatabase.measured(c));
      assertEquals("eigen", ledger.get(0).mechanism(), ledger.toString());
    } finally {
      Files.deleteIfExists(policy);
      Files.deleteIfExists(exact);
      b.drop();
    }
  }

  /**
   * Hours × a category ({@code ALL_RANGES(pickup_at, kind)} over 2,880 hours × 3 kinds): the
   * Kronecker design takes the transform Eigen-Design for the hour factor (a dense design of 2,880
   * cells is O(n³)), the exact two-factor product measures it, and with a noise-free budget every
   * cell estimate rounds to the backend's count; one charge, and a later range by kind is free.
   */
  @ParameterizedTest
  @ValueSource(strings = {"h2"})
  void hoursByCategoryAreOneKroneckerSynopsis(String name) throws Exception {
    int hours = 120 * 24;
    SeriesBackend b = SeriesBackend.of(name);
    long[][] truth = b.loadKindedTrips(hours, 2880);
    Path policy = Files.createTempFile("dpsql-kind", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 100000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: 100000000.0}\n"
        + "tables:\n  trips:\n    privacy_unit: rider_id\n    max_rows_per_unit: 1\n"
        + "    columns:\n"
        + "      pickup_at: {min: 2025-01-01, max: 2025-04-30 23:00, bin: 1 hour}\n"
        + "      kind: {values: [a, b, c]}\n");
    try (Connection c = b.connect(policy, 2880); Connection direct = b.direct()) {
      // EXPLAIN first: the Kronecker Eigen-Design (transform factor) is chosen, within 5 % of the
      // Kronecker singular value bound in RMSE, well below the identity; nothing is charged
      ExplainListing plan = ExplainListing.of(c, "SELECT * FROM TABLE(DPSQL.WORKLOAD('trips', "
          + "'ALL_RANGES(pickup_at, kind)', 'output=cells'))");
      String strategy = plan.chosenMechanism();
      double chosen = plan.chosenRmse();
      double identity = plan.rmse("identity");
      double bound = plan.rmse("lower_bound");
      System.out.printf("hours x kind: chosen %s %.6g, identity %.6g, bound %.6g%n", strategy,
          chosen, identity, bound);
      assertEquals("eigen", strategy, plan.toString());
      assertTrue(chosen < identity / 5 && bound <= chosen && chosen <= 1.05 * bound,
          plan.toString());
      assertEquals(0, TestDatabase.measured(c), "EXPLAIN charges nothing");
      List<Double> cells = new ArrayList<>();
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM "
          + "TABLE(DPSQL.WORKLOAD('trips', 'ALL_RANGES(pickup_at, kind)', 'output=cells'))")) {
        while (rs.next()) {
          cells.add(rs.getDouble(2));
        }
      }
      assertEquals(hours * 3, cells.size());
      for (int h = 0; h < hours; h++) {
        for (int k = 0; k < 3; k++) {
          assertEquals(truth[h][k], Math.round(cells.get(h * 3 + k)), "hour " + h + " kind " + k);
        }
      }
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(1, TestDatabase.measured(c), ledger.toString());
      assertEquals("eigen", ledger.get(0).mechanism(), ledger.toString());
      String q = "SELECT kind, COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP "
          + "'2025-02-03 05:00:00' AND pickup_at < TIMESTAMP '2025-03-20 17:00:00' GROUP BY kind "
          + "ORDER BY kind";
      b.assertAnsweredAsBackend(c, direct, q);
      assertEquals(1, TestDatabase.measured(c), "the later range by kind is free");
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }
}
