package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A workload of more than 2,048 queries over more than 2,048 cells other than ranges of one
 * column (issue 33): the 1-way marginals of 2,880 hours × 3 kinds, {@code MARGINALS(pickup_at,
 * kind; 1)}, 2,883 queries over 8,640 cells. Their own rows (re-weighted per group, held sparsely,
 * solved by conjugate gradients) are the chosen strategy: EXPLAIN states an expected RMSE below
 * that of measuring the 2,883 queries directly ({@code √(2·2882/2883)/√(2ρ)} ≈ 7.07 at ρ = 0.02,
 * one row per unit) and of the identity (≈ 12.24). With a noise-free budget (ρ = 10⁸) the released
 * answers equal the backend's counts, the release is charged once, a later query in the
 * strategy's row space (a day, a kind, a daily series) is free and equal to the backend's count,
 * and one outside it (one hour of one kind) is measured anew rather than answered with bias.
 * PostgreSQL and Trino run under {@code -Plong} when their servers are named.
 */
class MarginalsOverHoursTest {
  private static final int HOURS = 120 * 24;

  /** 2,000 trips of 2,000 riders at random minutes of January–April 2025, of kinds a, b, c. */
  private static long[][] load(SeriesBackend b) throws SQLException {
    return b.loadKindedTrips(HOURS, 2883);
  }

  private static Path policy(String rho) throws Exception {
    Path policy = Files.createTempFile("dpsql-marginals", ".yaml");
    Files.writeString(policy, "allow_seed: true\n"
        + "budget:\n  accounting: zcdp\n  per_connection: {rho: 1000000000.0, delta: 1e-9}\n"
        + "  default_query: {rho: " + rho + "}\n"
        + "tables:\n  trips:\n    privacy_unit: rider_id\n    max_rows_per_unit: 1\n"
        + "    columns:\n"
        + "      pickup_at: {min: 2025-01-01, max: 2025-04-30 23:00, bin: 1 hour}\n"
        + "      kind: {values: [a, b, c]}\n");
    return policy;
  }

  private static final String WORKLOAD =
      "SELECT * FROM TABLE(DPSQL.WORKLOAD('trips', 'MARGINALS(pickup_at, kind; 1)'))";

  @ParameterizedTest
  @ValueSource(strings = {"h2"})
  void explainChoosesTheWorkloadsOwnRowsBelowTheirDirectMeasurement(String name)
      throws Exception {
    SeriesBackend b = SeriesBackend.of(name);
    load(b);
    Path policy = policy("0.02");
    try (Connection c = b.connect(policy, 2883)) {
      long started = System.nanoTime();
      ExplainListing plan = ExplainListing.of(c, WORKLOAD);
      double seconds = (System.nanoTime() - started) / 1e9;
      String strategy = plan.chosenMechanism();
      double chosen = plan.chosenRmse();
      double identity = plan.rmse("identity");
      double sd = 1 / Math.sqrt(2 * 0.02);
      double direct = sd * Math.sqrt(2.0 * (HOURS + 2) / (HOURS + 3));
      System.out.printf("MARGINALS(pickup_at, kind; 1) at rho 0.02: chosen %s %.3f, direct %.3f, "
          + "identity %.3f (EXPLAIN in %.2f s)%n", strategy, chosen, direct, identity, seconds);
      assertEquals("discrete_gaussian", strategy, plan.toString());
      assertTrue(chosen <= direct, plan.toString());
      assertEquals(sd * Math.sqrt(2.0 * HOURS * 3 / (HOURS + 3)), identity, 1e-3, plan.toString());
      assertTrue(plan.toString().contains("WeightedDirect("), plan.toString());
      assertEquals(0, TestDatabase.measured(c), "explain spends nothing");
      // the same queries as grouping sets: one predicate workload, its rows grouped by union
      // member and norm (hours: 3 cells, kinds: 2,880), the same re-weighted strategy and error
      StringBuilder text = new StringBuilder();
      for (List<Object> r : ResultRows.of(c, "EXPLAIN PLAN FOR SELECT pickup_at, kind, COUNT(*) "
          + "FROM trips GROUP BY GROUPING SETS ((pickup_at), (kind))")) {
        text.append(r.get(0)).append('\n');
      }
      System.out.println(text);
      java.util.regex.Matcher m = java.util.regex.Pattern.compile(
          "strategy WeightedDirect\\(.*expected RMSE per query ([0-9.]+)").matcher(text);
      assertTrue(m.find(), text.toString());
      assertEquals(chosen, Double.parseDouble(m.group(1)), 1e-3, text.toString());
      assertEquals(0, TestDatabase.measured(c), "explain spends nothing");
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  /**
   * The synopsis survives a restart of the ledger store (its sparse integer rows are stored, its
   * least squares re-prepared on reading): a later week is answered from it for free and equals the
   * backend's count.
   */
  @org.junit.jupiter.api.Test
  void theSynopsisIsRestoredAfterARestart(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    SeriesBackend b = SeriesBackend.of("h2");
    load(b);
    Path policy = policy("100000000.0");
    String ledgerUrl = org.dpsql.ledger.LedgerStore.h2File(dir.resolve("ledger"));
    String week = "SELECT COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP '2025-04-07 00:00:00' "
        + "AND pickup_at < TIMESTAMP '2025-04-14 00:00:00'";
    try {
      try (org.dpsql.ledger.LedgerStore store = org.dpsql.ledger.LedgerStore.open(ledgerUrl, null);
          Connection c = b.connect(policy, 2883,
              org.dpsql.session.ReleaseSource.shared(store.releases("ann")))) {
        assertEquals(HOURS + 3, ResultRows.of(c, WORKLOAD).size());
      }
      try (org.dpsql.ledger.LedgerStore store = org.dpsql.ledger.LedgerStore.open(ledgerUrl, null);
          Connection c = b.connect(policy, 2883,
              org.dpsql.session.ReleaseSource.shared(store.releases("ann")));
          Connection direct = b.direct()) {
        b.assertAnsweredAsBackend(c, direct, week);
        assertEquals(0, TestDatabase.session(c).accountant().spent().rho().signum(),
            "answered from the restored synopsis");
      }
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"h2", "postgresql", "trino"})
  void noiseFreeAnswersAreTheBackendsCountsAndLaterQueriesInTheRowSpaceAreFree(String name)
      throws Exception {
    assumeTrue(name.equals("h2") || org.dpsql.TestScale.isLong(), "other backends under -Plong");
    SeriesBackend b = SeriesBackend.of(name);
    long[][] truth = load(b);
    Path policy = policy("100000000.0");
    try (Connection c = b.connect(policy, 2883); Connection direct = b.direct()) {
      long started = System.nanoTime();
      List<List<Object>> rows = ResultRows.of(c, WORKLOAD);
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf("%s: MARGINALS(pickup_at, kind; 1) released in %.2f s%n", name, seconds);
      assertEquals(HOURS + 3, rows.size());
      // the hour totals first, then the kind totals (the workload's row order)
      for (int h = 0; h < HOURS; h++) {
        long want = truth[h][0] + truth[h][1] + truth[h][2];
        assertEquals(want, Math.round(((Number) rows.get(h).get(1)).doubleValue()),
            "hour " + h + ": " + rows.get(h));
      }
      for (int k = 0; k < 3; k++) {
        long want = 0;
        for (long[] hour : truth) {
          want += hour[k];
        }
        assertEquals(want, Math.round(((Number) rows.get(HOURS + k).get(1)).doubleValue()),
            "kind " + k + ": " + rows.get(HOURS + k));
      }
      assertEquals(1, TestDatabase.measured(c), "the marginals are charged once");
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals("discrete_gaussian", ledger.get(0).mechanism(), ledger.toString());

      for (String q : List.of(
          "SELECT COUNT(*) AS n FROM %s WHERE pickup_at >= TIMESTAMP '2025-02-03 00:00:00' "
              + "AND pickup_at < TIMESTAMP '2025-02-10 00:00:00'",
          "SELECT COUNT(*) AS n FROM %s WHERE kind = 'b'",
          "SELECT CAST(pickup_at AS DATE) AS d, COUNT(*) AS n FROM %s "
              + "GROUP BY CAST(pickup_at AS DATE) ORDER BY d")) {
        b.assertAnsweredAsBackend(c, direct, q);
      }
      assertEquals(1, TestDatabase.measured(c), "queries in the row space are answered for free");
      assertTrue(TestDatabase.session(c).accountant().ledger().stream()
          .filter(e -> e.source().equals(LedgerEntry.SYNOPSIS)).count() >= 3);
      // one hour of one kind is not a combination of the marginals: measured, not guessed
      String cell = "SELECT COUNT(*) AS n FROM %s WHERE kind = 'a' AND pickup_at >= TIMESTAMP "
          + "'2025-03-03 10:00:00' AND pickup_at < TIMESTAMP '2025-03-03 11:00:00'";
      b.assertAnsweredAsBackend(c, direct, cell);
      assertEquals(2, TestDatabase.measured(c), "a cell outside the row space is measured anew");
    } finally {
      Files.deleteIfExists(policy);
      b.drop();
    }
  }
}
