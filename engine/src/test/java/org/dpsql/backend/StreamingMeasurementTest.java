package org.dpsql.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.util.CombinatoricsUtils;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.MeasurementChoice;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.rewrite.MeasuredGroup;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.QuantileGrid;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming strategy against push-down, measured before noise, for every measurement kind
 * the release planner asks for: counts, clamped sums, AVG's sum and count, COUNT(DISTINCT unit),
 * COUNT(DISTINCT column), quantile histograms, groups over private keys and a private join on the
 * unit.
 *
 * <ul>
 *   <li>Where bounding is deterministic (every unit has at most k rows), both strategies return
 *       exactly the same vectors.
 *   <li>Where it samples (one unit with more than k rows), each strategy's kept-row outcome over
 *       2,000 runs (fixed seeds: the engine's {@link SeededRandomBits} for streaming, H2's
 *       {@code RAND(seed)} for push-down's window) passes a chi-square goodness-of-fit test
 *       against the exact law of a uniform k-subset (multivariate hypergeometric; for private keys
 *       m of the unit's groups uniformly first), at significance α = 0.001 (outcomes whose
 *       expected count is below 5 are pooled; an outcome of probability 0 fails at once). Both
 *       strategies have the law, so they are equal in distribution. With fixed seeds the test is
 *       deterministic; a correct implementation fails a given seed with probability 0.001.
 *   <li>The same test rejects a reservoir that keeps k + 1 rows.
 * </ul>
 */
class StreamingMeasurementTest {
  static final double ALPHA = 0.001;
  static final int RUNS = 2000;

  @TempDir Path dir;
  private Connection db;
  private Policy policy;
  private FrontEnd analyzer;
  private SqlDialect dialect;

  /** V's clamp in the policy {@link #open} writes. */
  private String clampOfV = "[0, 10]";

  private String policy() {
    return POLICY.replace("V: {clamp: [0, 10]}", "V: {clamp: " + clampOfV + "}");
  }

  private static final String POLICY = "allow_seed: true\n"
      + "budget:\n  accounting: pure\n  per_connection: {epsilon: 100}\n"
      + "  default_query: {epsilon: 1}\n"
      + "tables:\n"
      + "  T:\n    privacy_unit: UNIT\n    unit: person\n    max_rows_per_unit: 3\n"
      + "    columns:\n      G: {values: [A, B, C]}\n      AGE: {min: 0, max: 9, bin: 1}\n"
      + "      V: {clamp: [0, 10]}\n"
      + "      P: {keys: private, max_groups_per_unit: 2}\n"
      + "  U:\n    privacy_unit: UNIT\n    unit: person\n    max_rows_per_unit: 1\n"
      + "    columns:\n      PLAN: {values: [X, Y]}\n";

  private void open(String... statements) throws Exception {
    String url = "jdbc:h2:mem:s" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    db = DriverManager.getConnection(url);
    try (Statement st = db.createStatement()) {
      st.execute("CREATE TABLE T (ID INT PRIMARY KEY, UNIT INT NOT NULL, G VARCHAR(1), AGE INT, "
          + "V INT, P VARCHAR(4))");
      st.execute("CREATE TABLE U (UNIT INT NOT NULL, PLAN VARCHAR(1))");
      for (String s : statements) {
        st.execute(s);
      }
    }
    Path p = dir.resolve("policy-" + UUID.randomUUID() + ".yaml");
    Files.writeString(p, policy());
    policy = PolicyLoader.load(p.toString(), db);
    dialect = SqlDialectFactoryImpl.INSTANCE.create(db.getMetaData());
    analyzer = new FrontEnd(policy, BackendCatalog.read(db, policy), db.getSchema(), dialect);
  }

  @AfterEach
  void close() throws SQLException {
    if (db != null) {
      try (Statement st = db.createStatement()) {
        st.execute("DROP ALL OBJECTS");
      }
      db.close();
    }
  }

  private MeasurementPlan plan(String sql) throws SQLException {
    AnalyzedStatement st = analyzer.analyze(sql);
    if (st instanceof AnalyzedStatement.Composite c) { // the release below the post-processing
      assertEquals(1, c.releases().size(), sql);
      st = c.releases().get(0);
    }
    return MeasurementPlan.of(((AnalyzedStatement.PrivateAggregate) st).query());
  }

  private ExactMeasurer pushDown() {
    return new ExactMeasurer(db, dialect);
  }

  private ExactMeasurer streaming(long seed) {
    return streaming(seed, 0);
  }

  private ExactMeasurer streaming(long seed, int extraRows) {
    return new ExactMeasurer(db, dialect, new StreamingMeasurement(db, dialect,
        new SeededRandomBits(seed), Long.MAX_VALUE, extraRows));
  }

  // ------------------------------------------------------------------ deterministic bounding

  /**
   * 300 units with 1 to 3 rows each (k = 3), values inside and outside the clamp and NULLs, five
   * private keys, and one U row per unit: bounding keeps every row, so both strategies agree
   * exactly.
   */
  private static final String[] LIGHT = {
      "INSERT INTO T SELECT X, MOD(X, 300), CASE MOD(X, 3) WHEN 0 THEN 'A' WHEN 1 THEN 'B' "
          + "ELSE 'C' END, MOD(X * 7, 10), CASE WHEN MOD(X, 11) = 0 THEN NULL "
          + "ELSE MOD(X * 13, 17) - 3 END, 'p' || MOD(X * 5, 7) FROM SYSTEM_RANGE(0, 599)",
      "DELETE FROM T WHERE MOD(UNIT, 4) = 0 AND ID >= 300",
      "INSERT INTO T SELECT 1000 + X, X, 'A', 3, 4, 'p1' FROM SYSTEM_RANGE(0, 299) "
          + "WHERE MOD(X, 5) = 0",
      "INSERT INTO U SELECT X, CASE WHEN MOD(X, 3) = 0 THEN 'X' ELSE 'Y' END "
          + "FROM SYSTEM_RANGE(0, 299)"};

  @Test
  void lightUnitsGiveEqualVectorsForEveryMeasurement() throws Exception {
    open(LIGHT);
    try (Statement st = db.createStatement();
        var rs = st.executeQuery("SELECT MAX(C) FROM (SELECT COUNT(*) C FROM T GROUP BY UNIT)")) {
      rs.next();
      assertEquals(3, rs.getInt(1), "the data must fill but not exceed k = 3");
    }
    for (String sql : List.of(
        "SELECT G, AGE, COUNT(*), COUNT(V), SUM(V), AVG(V) FROM T GROUP BY G, AGE",
        "SELECT COUNT(*), SUM(V) FROM T WHERE AGE > 4",
        "SELECT AGE, COUNT(DISTINCT UNIT) FROM T GROUP BY AGE",
        "SELECT G, COUNT(DISTINCT AGE) FROM T GROUP BY G",
        "SELECT u.PLAN, COUNT(*), SUM(t.V) FROM T t JOIN U u ON t.UNIT = u.UNIT GROUP BY u.PLAN")) {
      MeasurementPlan plan = plan(sql);
      long[][] pushed = pushDown().measure(plan, List.of());
      long[][] streamed = streaming(1).measure(plan, List.of());
      assertArrayEquals(pushed, streamed, sql);
      assertTrue(pushed[0].length > 0 && java.util.Arrays.stream(pushed[0]).sum() > 0, sql);
    }
    MeasurementPlan median = plan("SELECT G, MEDIAN(V) FROM T GROUP BY G");
    ColumnPolicy v = median.query().table().column("V").orElseThrow();
    QuantileGrid grid = new QuantileGrid(BigDecimal.ZERO, BigDecimal.ONE, 11);
    assertArrayEquals(pushDown().histogram(median, v, grid, List.of()),
        streaming(2).histogram(median, v, grid, List.of()));
    // private keys (m = 2 < k): no choice is made for units whose rows lie in at most 2 groups
    // (a group is a cell of G and a key P): keep only those
    try (Statement st = db.createStatement()) {
      st.execute("DELETE FROM T WHERE UNIT IN (SELECT UNIT FROM T GROUP BY UNIT "
          + "HAVING COUNT(DISTINCT G || P) > 2)");
    }
    MeasurementPlan groups = plan("SELECT G, P, COUNT(*), SUM(V), COUNT(DISTINCT UNIT) FROM T "
        + "GROUP BY G, P");
    assertEquals(groupsOf(pushDown().partitions(groups, List.of())),
        groupsOf(streaming(3).partitions(groups, List.of())));
  }

  /**
   * A clamp whose lower bound is above 0: a NULL adds 0 to a sum (not the lower bound) and values
   * below and above the bounds are clamped alike, in both strategies and as SQL computes it.
   */
  @Test
  void sumsAreEqualInBothStrategiesWhenTheClampExcludesZero() throws Exception {
    clampOfV = "[2, 8]";
    open(LIGHT);
    for (String sql : List.of(
        "SELECT G, AGE, COUNT(V), SUM(V), AVG(V) FROM T GROUP BY G, AGE",
        "SELECT COUNT(*), SUM(V) FROM T WHERE AGE > 4")) {
      MeasurementPlan plan = plan(sql);
      assertArrayEquals(pushDown().measure(plan, List.of()), streaming(1).measure(plan, List.of()),
          sql);
    }
    MeasurementPlan total = plan("SELECT SUM(V) FROM T");
    long[][] streamed = streaming(4).measure(total, List.of());
    try (Statement st = db.createStatement(); var rs = st.executeQuery(
        "SELECT SUM(CASE WHEN V IS NULL THEN 0 ELSE LEAST(GREATEST(V, 2), 8) END) FROM T")) {
      rs.next();
      assertEquals(rs.getLong(1), java.util.Arrays.stream(streamed[streamed.length - 1]).sum());
    }
  }

  /** Groups by (cell, private keys), as comparable text. */
  private static Map<String, String> groupsOf(List<MeasuredGroup> groups) {
    Map<String, String> out = new TreeMap<>();
    for (MeasuredGroup g : groups) {
      out.put(g.cell() + " " + g.privateKeys(), g.units() + " " + java.util.Arrays.toString(
          g.values()));
    }
    assertFalse(out.isEmpty());
    return out;
  }

  /**
   * 10,000 units of 1 to 3 rows (k = 3), more than the streaming store's first capacity (4,096
   * units and rows): both strategies agree exactly, whether the unit is an integer column (keyed
   * in the primitive table) or text (keyed in a hash map), NULL units included (one unit, as
   * {@code PARTITION BY} has it; 2 rows, within k).
   */
  @Test
  void manyUnitsOfIntegerOrTextKeysGiveEqualVectors() throws Exception {
    String rows = "INSERT INTO T SELECT X, MOD(X, 10000), CASE MOD(X * 7, 3) WHEN 0 THEN 'A' "
        + "WHEN 1 THEN 'B' ELSE 'C' END, MOD(X * 3, 10), MOD(X * 13, 17), 'p' FROM "
        + "SYSTEM_RANGE(0, 24999)";
    for (boolean text : new boolean[] {false, true}) {
      open(text
          ? new String[] {"ALTER TABLE T ALTER COLUMN UNIT VARCHAR(8) NULL",
              "ALTER TABLE U ALTER COLUMN UNIT VARCHAR(8)", rows,
              "UPDATE T SET UNIT = NULL WHERE ID IN (3, 4)"}
          : new String[] {rows});
      try (Statement st = db.createStatement(); var rs = st.executeQuery(
          "SELECT COUNT(DISTINCT UNIT), MAX(C) FROM (SELECT UNIT, COUNT(*) C FROM T GROUP BY UNIT)")) {
        rs.next();
        assertTrue(rs.getInt(1) > 9000, "units: " + rs.getInt(1));
        assertTrue(rs.getInt(2) <= 3, "the data must not exceed k = 3");
      }
      for (String sql : List.of("SELECT G, AGE, COUNT(*), SUM(V) FROM T GROUP BY G, AGE",
          "SELECT AGE, COUNT(DISTINCT UNIT) FROM T GROUP BY AGE")) {
        MeasurementPlan plan = plan(sql);
        assertArrayEquals(pushDown().measure(plan, List.of()),
            streaming(6).measure(plan, List.of()), sql + (text ? " (text units)" : ""));
      }
      close();
      db = null;
    }
  }

  /**
   * Rows whose key lies outside its integer domain (AGE in [0, 9]: -1, 10, 12, NULL) are left to
   * the streamed reader's domain test on H2 (the statement reads AGE itself): they must take no
   * place in a unit's reservoir, as the push-down statement filters them before numbering a
   * unit's rows. Every unit here has at most k = 3 rows inside the domain and up to 3 more
   * outside, the outside ones first in the scan: a reservoir that counted them would drop some
   * of the unit's rows inside, so the two strategies agree exactly only if it does not (over
   * several seeds).
   */
  @Test
  void rowsOutsideAnIntegerDomainTakeNoPlaceInTheReservoir() throws Exception {
    open("INSERT INTO T SELECT X, MOD(X, 200), 'A', CASE MOD(X, 4) WHEN 0 THEN -1 WHEN 1 THEN 10 "
            + "WHEN 2 THEN 12 ELSE NULL END, 1, 'p' FROM SYSTEM_RANGE(0, 599)",
        "INSERT INTO T SELECT 1000 + X, MOD(X, 200), CASE MOD(X, 2) WHEN 0 THEN 'A' ELSE 'B' END, "
            + "MOD(X * 7, 10), MOD(X, 5), 'p' FROM SYSTEM_RANGE(0, 599)");
    MeasurementPlan plan = plan("SELECT G, AGE, COUNT(*), SUM(V) FROM T GROUP BY G, AGE");
    assertFalse(pushDown().streamedRowsSqlFor(plan).sql().contains("\"AGE\" >="),
        "the reader tests AGE's domain: " + pushDown().streamedRowsSqlFor(plan).sql());
    long[][] pushed = pushDown().measure(plan, List.of());
    assertEquals(600, java.util.Arrays.stream(pushed[0]).sum(), "every row inside is kept");
    for (long seed = 1; seed <= 5; seed++) {
      assertArrayEquals(pushed, streaming(seed).measure(plan, List.of()), "seed " + seed);
    }
  }

  /**
   * A private join with a filter on both members, a sum, and an outer join: streamed on H2 as
   * the join itself (no derived table around it, the filter over the members' qualified
   * columns), with the same rows as push-down's derived table: equal answers where bounding keeps
   * every row.
   */
  @Test
  void aFlatStreamedJoinHasTheRowsOfTheDerivedTable() throws Exception {
    open(LIGHT);
    for (String sql : List.of(
        "SELECT u.PLAN, COUNT(*), SUM(t.V), AVG(t.V) FROM T t JOIN U u ON t.UNIT = u.UNIT "
            + "WHERE t.AGE > 2 AND u.PLAN <> 'Y' OR t.G = 'C' GROUP BY u.PLAN",
        "SELECT t.G, COUNT(*), COUNT(DISTINCT u.UNIT) FROM U u LEFT JOIN T t ON t.UNIT = u.UNIT "
            + "WHERE u.PLAN = 'X' GROUP BY t.G",
        "SELECT t.AGE, COUNT(*) FROM T t JOIN U u ON t.UNIT = u.UNIT "
            + "WHERE t.V BETWEEN 1 AND 8 AND u.PLAN IN ('X', 'Y') GROUP BY t.AGE")) {
      MeasurementPlan plan = plan(sql);
      String streamed = pushDown().streamedRowsSqlFor(plan).sql();
      assertFalse(streamed.contains("DPSQL_J"), "a flat join: " + streamed);
      long[][] pushed = pushDown().measure(plan, List.of());
      assertArrayEquals(pushed, streaming(7).measure(plan, List.of()), sql);
      assertTrue(java.util.Arrays.stream(pushed[0]).sum() > 0, sql);
    }
  }

  @Test
  void theParameterisedFilterIsBoundInTheStream() throws Exception {
    open(LIGHT);
    MeasurementPlan plan = plan("SELECT G, COUNT(*), SUM(V) FROM T WHERE AGE >= ? GROUP BY G");
    for (int age : new int[] {0, 5, 9}) {
      assertArrayEquals(pushDown().measure(plan, List.of(age)),
          streaming(4).measure(plan, List.of(age)), "AGE >= " + age);
    }
  }

  @Test
  void overTheCapTheMeasurementFallsBackToPushDown() throws Exception {
    open(LIGHT);
    MeasurementPlan plan = plan("SELECT G, COUNT(*) FROM T GROUP BY G");
    ExactMeasurer capped = new ExactMeasurer(db, dialect, MeasurementChoice.STREAMING, 10,
        new SeededRandomBits(5));
    assertTrue(capped.choose(plan).streams());
    assertTrue(capped.choose(plan).reason().contains("more than 10 rows"));
    assertArrayEquals(pushDown().measure(plan, List.of()), capped.measure(plan, List.of()));
    StreamingMeasurement raw = new StreamingMeasurement(db, dialect, new SeededRandomBits(5), 10);
    assertThrows(StreamingMeasurement.OverCap.class, () -> raw.measure(plan, List.of()));
  }

  @Test
  void autoStreamsOnEmbeddedH2AndStreamingIsRefusedOnTrino() throws Exception {
    open(LIGHT);
    MeasurementPlan plan = plan("SELECT G, COUNT(*) FROM T GROUP BY G");
    ExactMeasurer auto = new ExactMeasurer(db, dialect, MeasurementChoice.AUTO, 100,
        new SeededRandomBits(5));
    assertTrue(ExactMeasurer.isEmbeddedH2(db, dialect));
    assertTrue(auto.choose(plan).streams(), auto.choose(plan).reason());
    ExactMeasurer forced = new ExactMeasurer(db, dialect, MeasurementChoice.PUSH_DOWN, 100,
        new SeededRandomBits(5));
    assertFalse(forced.choose(plan).streams());
    assertTrue(forced.choose(plan).reason().contains("push_down"));
    SQLException e = assertThrows(SQLException.class, () -> ExactMeasurer.checkChoice(
        MeasurementChoice.STREAMING, TrinoSqlDialect.DEFAULT, "Trino"));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("measurement: auto or push_down"), e.getMessage());
    ExactMeasurer.checkChoice(MeasurementChoice.AUTO, TrinoSqlDialect.DEFAULT, "Trino");
    ExactMeasurer.checkChoice(MeasurementChoice.STREAMING, dialect, "H2");
  }

  // ------------------------------------------------------------------ sampling: the law

  /** A measured outcome of one run, as text. */
  @FunctionalInterface
  private interface Outcome {
    String of(ExactMeasurer m, int run) throws SQLException;
  }

  /** {@code runs} outcomes of streaming, each run with its own seed. */
  private Map<String, Integer> streamed(Outcome outcome, int extraRows) throws SQLException {
    Map<String, Integer> counts = new HashMap<>();
    for (int run = 0; run < RUNS; run++) {
      counts.merge(outcome.of(streaming(1000 + run, extraRows), run), 1, Integer::sum);
    }
    return counts;
  }

  /** {@code runs} outcomes of push-down, H2's RAND() seeded before each run. */
  private Map<String, Integer> pushed(Outcome outcome) throws SQLException {
    Map<String, Integer> counts = new HashMap<>();
    ExactMeasurer m = pushDown();
    for (int run = 0; run < RUNS; run++) {
      try (Statement st = db.createStatement()) {
        st.executeQuery("SELECT RAND(" + (7000 + run) + ")").close();
      }
      counts.merge(outcome.of(m, run), 1, Integer::sum);
    }
    return counts;
  }

  /**
   * Whether {@code observed} fits {@code law} (outcome → probability) at {@link #ALPHA}: pooled
   * chi-square; an outcome outside the law's support fails.
   */
  private static boolean fits(Map<String, Integer> observed, Map<String, Double> law) {
    for (String o : observed.keySet()) {
      if (!law.containsKey(o)) {
        return false;
      }
    }
    int n = observed.values().stream().mapToInt(Integer::intValue).sum();
    double stat = 0;
    int bins = 0;
    double pooledExpected = 0;
    double pooledObserved = 0;
    for (Map.Entry<String, Double> e : law.entrySet()) {
      double expected = n * e.getValue();
      int seen = observed.getOrDefault(e.getKey(), 0);
      if (expected < 5) {
        pooledExpected += expected;
        pooledObserved += seen;
      } else {
        stat += (seen - expected) * (seen - expected) / expected;
        bins++;
      }
    }
    if (pooledExpected > 0) {
      stat += (pooledObserved - pooledExpected) * (pooledObserved - pooledExpected)
          / pooledExpected;
      bins++;
    }
    double critical = new ChiSquaredDistribution(Math.max(1, bins - 1))
        .inverseCumulativeProbability(1 - ALPHA);
    System.out.printf("chi-square %.2f on %d bins (critical %.2f at alpha %s)%n", stat, bins,
        critical, ALPHA);
    return stat <= critical;
  }

  /** P(a, b, c of the k kept rows from groups of sizes na, nb, nc). */
  private static double hypergeometric(int[] sizes, int[] taken) {
    int n = 0;
    int k = 0;
    double p = 1;
    for (int i = 0; i < sizes.length; i++) {
      n += sizes[i];
      k += taken[i];
      p *= CombinatoricsUtils.binomialCoefficientDouble(sizes[i], taken[i]);
    }
    return p / CombinatoricsUtils.binomialCoefficientDouble(n, k);
  }

  /**
   * One unit with 10 rows (k = 3): 5 in A with V = 1, 3 in B with V = 2 (one of them NULL in V),
   * 2 in C with V = 40 (clamped to 10). Outcome: COUNT(*), COUNT(V), SUM(V) (AVG's parts) and
   * COUNT(DISTINCT UNIT) per G.
   */
  @Test
  void countsSumsAndDistinctUnitsAreAUniformSubsetInBothStrategies() throws Exception {
    open("INSERT INTO T VALUES (1, 7, 'A', 0, 1, 'p'), (2, 7, 'A', 0, 1, 'p'), "
        + "(3, 7, 'A', 0, 1, 'p'), (4, 7, 'A', 0, 1, 'p'), (5, 7, 'A', 0, 1, 'p'), "
        + "(6, 7, 'B', 0, 2, 'p'), (7, 7, 'B', 0, 2, 'p'), (8, 7, 'B', 0, NULL, 'p'), "
        + "(9, 7, 'C', 0, 40, 'p'), (10, 7, 'C', 0, 40, 'p')");
    MeasurementPlan plan = plan("SELECT G, COUNT(*), AVG(V), COUNT(DISTINCT UNIT) FROM T "
        + "GROUP BY G");
    Outcome outcome = (m, run) -> java.util.Arrays.deepToString(m.measure(plan, List.of()));
    // the law: a uniform 3-subset of the 10 rows, by rows of (A, B with V, B NULL, C)
    Map<String, Double> law = new HashMap<>();
    int[] sizes = {5, 2, 1, 2};
    for (int a = 0; a <= 3; a++) {
      for (int b = 0; b <= 2; b++) {
        for (int z = 0; z <= 1; z++) {
          int c = 3 - a - b - z;
          if (c < 0 || c > 2) {
            continue;
          }
          long[][] expected = new long[4][3];
          long[] count = {a, b + z, c};
          // measurements in plan order: COUNT(*), SUM(V), COUNT(V), COUNT(DISTINCT UNIT)
          long[][] byKind = {count, {a, 2L * b, 10L * c}, {a, b, c},
              {a > 0 ? 1 : 0, b + z > 0 ? 1 : 0, c > 0 ? 1 : 0}};
          for (int i = 0; i < plan.measurements().size(); i++) {
            expected[i] = switch (plan.measurements().get(i).kind()) {
              case COUNT_STAR -> byKind[0];
              case SUM -> byKind[1];
              case COUNT -> byKind[2];
              case COUNT_DISTINCT_UNIT -> byKind[3];
              default -> throw new AssertionError();
            };
          }
          law.merge(java.util.Arrays.deepToString(expected),
              hypergeometric(sizes, new int[] {a, b, z, c}), Double::sum);
        }
      }
    }
    assertEquals(4, plan.measurements().size());
    assertTrue(fits(streamed(outcome, 0), law), "streaming");
    assertTrue(fits(pushed(outcome), law), "push-down");
    assertFalse(fits(streamed(outcome, 1), law), "a reservoir of k + 1 rows must be rejected");
  }

  /**
   * One unit with 10 rows in A, V = 0..9 (k = 3): the histogram of V over the grid 0..10 is the
   * indicator of a uniform 3-subset of the 10 values, each of the 120 subsets with probability
   * 1/120.
   */
  @Test
  void quantileHistogramsAreAUniformSubsetInBothStrategies() throws Exception {
    open("INSERT INTO T SELECT X, 7, 'A', 0, X, 'p' FROM SYSTEM_RANGE(0, 9)");
    MeasurementPlan plan = plan("SELECT G, MEDIAN(V) FROM T GROUP BY G");
    ColumnPolicy v = plan.query().table().column("V").orElseThrow();
    QuantileGrid grid = new QuantileGrid(BigDecimal.ZERO, BigDecimal.ONE, 11);
    Outcome outcome = (m, run) -> java.util.Arrays.toString(
        m.histogram(plan, v, grid, List.of())[0]);
    Map<String, Double> law = new HashMap<>();
    for (int a = 0; a < 10; a++) {
      for (int b = a + 1; b < 10; b++) {
        for (int c = b + 1; c < 10; c++) {
          long[] h = new long[11];
          h[a] = h[b] = h[c] = 1;
          law.put(java.util.Arrays.toString(h), 1.0 / 120);
        }
      }
    }
    assertTrue(fits(streamed(outcome, 0), law), "streaming");
    assertTrue(fits(pushed(outcome), law), "push-down");
    assertFalse(fits(streamed(outcome, 1), law), "a reservoir of k + 1 rows must be rejected");
  }

  /**
   * One unit with rows in three private groups, p0 × 4, p1 × 2, p2 × 1 (m = 2, k = 3): two of the
   * three groups uniformly, then 3 of their rows uniformly. Outcome: each group's kept rows and
   * distinct units.
   */
  @Test
  void privateGroupsAreChosenUniformlyInBothStrategies() throws Exception {
    open("INSERT INTO T VALUES (1, 7, 'A', 0, 1, 'p0'), (2, 7, 'A', 0, 1, 'p0'), "
        + "(3, 7, 'A', 0, 1, 'p0'), (4, 7, 'A', 0, 1, 'p0'), (5, 7, 'A', 0, 1, 'p1'), "
        + "(6, 7, 'A', 0, 1, 'p1'), (7, 7, 'A', 0, 1, 'p2')");
    MeasurementPlan plan = plan("SELECT P, COUNT(*) FROM T GROUP BY P");
    Outcome outcome = (m, run) -> {
      Map<String, Long> kept = new TreeMap<>();
      for (MeasuredGroup g : m.partitions(plan, List.of())) {
        assertEquals(1, g.units());
        kept.put(g.privateKeys().get(0).toString(), g.values()[0]);
      }
      return kept.toString();
    };
    Map<String, Double> law = new HashMap<>();
    // {p0, p1}: 3 of 6 rows; {p0, p2}: 3 of 5; {p1, p2}: all 3
    law.merge("{p0=3}", hypergeometric(new int[] {4, 2}, new int[] {3, 0}) / 3, Double::sum);
    law.merge("{p0=2, p1=1}", hypergeometric(new int[] {4, 2}, new int[] {2, 1}) / 3, Double::sum);
    law.merge("{p0=1, p1=2}", hypergeometric(new int[] {4, 2}, new int[] {1, 2}) / 3, Double::sum);
    law.merge("{p0=3}", hypergeometric(new int[] {4, 1}, new int[] {3, 0}) / 3, Double::sum);
    law.merge("{p0=2, p2=1}", hypergeometric(new int[] {4, 1}, new int[] {2, 1}) / 3, Double::sum);
    law.merge("{p1=2, p2=1}", 1.0 / 3, Double::sum);
    assertTrue(fits(streamed(outcome, 0), law), "streaming");
    assertTrue(fits(pushed(outcome), law), "push-down");
    assertFalse(fits(streamed(outcome, 1), law), "a reservoir of k + 1 rows must be rejected");
  }

  /**
   * A private join on the unit: the unit's 2 rows of T and 3 of U (PLAN X, X, Y) give 6 rows of
   * the join, 4 in X and 2 in Y, bounded to k = 3 after the join.
   */
  @Test
  void privateJoinsAreBoundedAfterTheJoinInBothStrategies() throws Exception {
    open("INSERT INTO T VALUES (1, 7, 'A', 0, 1, 'p'), (2, 7, 'B', 0, 1, 'p')",
        "INSERT INTO U VALUES (7, 'X'), (7, 'X'), (7, 'Y')");
    MeasurementPlan plan = plan("SELECT u.PLAN, COUNT(*) FROM T t JOIN U u ON t.UNIT = u.UNIT "
        + "GROUP BY u.PLAN");
    Outcome outcome = (m, run) -> java.util.Arrays.toString(m.measure(plan, List.of())[0]);
    Map<String, Double> law = new HashMap<>();
    for (int x = 1; x <= 3; x++) {
      law.put("[" + x + ", " + (3 - x) + "]",
          hypergeometric(new int[] {4, 2}, new int[] {x, 3 - x}));
    }
    assertTrue(fits(streamed(outcome, 0), law), "streaming");
    assertTrue(fits(pushed(outcome), law), "push-down");
    assertFalse(fits(streamed(outcome, 1), law), "a reservoir of k + 1 rows must be rejected");
  }

  /** The group priorities differ between units and statements (a fresh key each statement). */
  @Test
  void groupPrioritiesDependOnTheUnitAndTheKey() {
    Object[] g = {"p0"};
    assertTrue(StreamingMeasurement.priority(1, 7, 0, g)
        != StreamingMeasurement.priority(2, 7, 0, g));
    assertTrue(StreamingMeasurement.priority(1, 7, 0, g)
        != StreamingMeasurement.priority(1, 8, 0, g));
    assertTrue(StreamingMeasurement.priority(1, "ab", 0, new Object[] {"c"})
        != StreamingMeasurement.priority(1, "a", 0, new Object[] {"bc"}));
    List<Long> seen = new ArrayList<>();
    for (int u = 0; u < 1000; u++) {
      seen.add(StreamingMeasurement.priority(42, u, 0, g));
    }
    assertEquals(1000, seen.stream().distinct().count());
  }
}
