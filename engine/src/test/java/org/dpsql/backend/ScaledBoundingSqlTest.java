package org.dpsql.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bounding by scaling ({@link ScaledBoundingSql}), the statement dpsql sends to Trino, run on H2:
 * it is standard SQL (no random function, no dialect-specific function), and H2 runs it in a
 * moment and deterministically, so its answers are checked exactly: against values computed by
 * hand, and against an independent computation in Java of every unit's contribution on random
 * tables, where adding one unit must move each measured vector by at most {@code
 * Measurement.sensitivity(k)} in L1 norm. {@code TrinoBackendTest} runs the same statements on
 * Trino.
 */
class ScaledBoundingSqlTest {
  private static final String QUERY =
      "SELECT G, COUNT(*), COUNT(V), SUM(V), SUM(W) FROM R WHERE G <> ? GROUP BY G";
  private static final List<String> CELLS = List.of("a", "b", "c");

  private Connection c;
  private Path policy;

  @BeforeEach
  void setUp() throws Exception {
    c = DriverManager.getConnection("jdbc:h2:mem:s" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1");
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE R (ID INT PRIMARY KEY, U INT, G VARCHAR(1) NOT NULL, V INT, "
          + "W DECIMAL(8, 5))");
    }
    policy = Files.createTempFile("scaled-bounding", ".yaml");
  }

  @AfterEach
  void tearDown() throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("SHUTDOWN");
    }
    c.close();
    Files.deleteIfExists(policy);
  }

  /**
   * The two forms of the statement: one row per unit up to {@link
   * ScaledBoundingSql#MAX_UNIT_ROW_CELLS} cells, the window over (unit, cell) pairs above: G's
   * domain is a, b, c, then {@code extra} values that no row has (after c in both forms' order).
   */
  private static final int[] EXTRA_VALUES = {0, ScaledBoundingSql.MAX_UNIT_ROW_CELLS};

  /** The plan of {@link #QUERY} with {@code max_rows_per_unit: k}, G declared a, b, c + extra. */
  private MeasurementPlan plan(int k, int extra) throws Exception {
    StringBuilder values = new StringBuilder("a, b, c");
    for (int i = 0; i < extra; i++) {
      values.append(", z").append(i);
    }
    Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
        + "  per_connection: {rho: 10}\n  default_query: {rho: 1}\ntables:\n  R:\n"
        + "    privacy_unit: U\n    max_rows_per_unit: " + k + "\n    columns:\n"
        + "      G: {values: [" + values + "]}\n      V: {clamp: [-10, 10]}\n"
        + "      W: {clamp: [-5, 5]}\n");
    Policy p = PolicyLoader.load(policy.toString(), c);
    FrontEnd analyzer = new FrontEnd(p, BackendCatalog.read(c, p), c.getSchema(),
        TrinoSqlDialect.DEFAULT);
    return MeasurementPlan.of(((AnalyzedStatement.PrivateAggregate) analyzer.analyze(QUERY)).query());
  }

  /**
   * The measurement with the Trino dialect's statement (bounding by scaling), run on H2: the
   * cells a, b, c (the extra values, which no row has, measured 0).
   */
  private long[][] measure(MeasurementPlan plan, String excluded) throws SQLException {
    long[][] all = new ExactMeasurer(c, TrinoSqlDialect.DEFAULT).measure(plan, List.of(excluded));
    long[][] abc = new long[all.length][];
    for (int m = 0; m < all.length; m++) {
      abc[m] = java.util.Arrays.copyOf(all[m], CELLS.size());
      for (int cell = CELLS.size(); cell < all[m].length; cell++) {
        assertEquals(0, all[m][cell], "measurement " + m + " of an empty cell");
      }
    }
    return abc;
  }

  private void insert(List<Object[]> rows) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO R VALUES (?, ?, ?, ?, ?)")) {
      for (Object[] r : rows) {
        int[] types = {Types.INTEGER, Types.INTEGER, Types.VARCHAR, Types.INTEGER, Types.DECIMAL};
        for (int i = 0; i < 5; i++) {
          ps.setObject(i + 1, r[i], types[i]);
        }
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  @Test
  void theStatementScalesOnTrinoOnlyAndKeepsTheWindowElsewhere() throws Exception {
    MeasurementPlan plan = plan(3, 0);
    String trino = MeasurementSql.of(plan, TrinoSqlDialect.DEFAULT).sql();
    assertFalse(trino.contains("ROW_NUMBER") || trino.contains("OVER"), trino);
    assertTrue(trino.contains("GROUP BY \"DPSQL_U\"") && trino.contains("FILTER (WHERE"), trino);
    String pairs = MeasurementSql.of(plan(3, EXTRA_VALUES[1]), TrinoSqlDialect.DEFAULT).sql();
    assertFalse(pairs.contains("ROW_NUMBER"), pairs);
    assertTrue(pairs.contains("OVER (PARTITION BY \"DPSQL_U\" ORDER BY \"K0\""), pairs);
    SqlDialect h2 = SqlDialectFactoryImpl.INSTANCE.create(c.getMetaData());
    String window = MeasurementSql.of(plan, h2).sql();
    assertTrue(window.contains("ROW_NUMBER() OVER (PARTITION BY") && window.contains("<= 3"), window);
    assertEquals(MeasurementSql.of(plan, h2).parameterOrder(),
        MeasurementSql.of(plan, TrinoSqlDialect.DEFAULT).parameterOrder());
  }

  @Test
  void heavyUnitsAreScaledToKRowsAsComputedByHand() throws Exception {
    // k = 3. Unit 1 (3 rows) and the NULL unit (2 rows) are light: measured as they are.
    // Unit 2 (10 rows: 5 in a, 3 in b, 2 in c) is scaled by 3/10; unit 3 (4 rows in c) by 3/4.
    // W has resolution 10^-5 (clamp [-5, 5]): its sums are in steps of 0.00001.
    insert(List.of(
        new Object[] {1, 1, "a", 2, new BigDecimal("1.5")},
        new Object[] {2, 1, "b", -3, new BigDecimal("-0.25")},
        new Object[] {3, 1, "b", null, new BigDecimal("2")},
        new Object[] {4, null, "a", 1, null},
        new Object[] {5, null, "a", 1, null},
        new Object[] {6, 2, "a", 3, new BigDecimal("0.00001")},
        new Object[] {7, 2, "a", 3, new BigDecimal("0.00001")},
        new Object[] {8, 2, "a", 3, new BigDecimal("0.00001")},
        new Object[] {9, 2, "a", 3, new BigDecimal("0.00001")},
        new Object[] {10, 2, "a", 1, new BigDecimal("0.00001")},
        new Object[] {11, 2, "b", -20, new BigDecimal("-7")},
        new Object[] {12, 2, "b", -20, new BigDecimal("0.00001")},
        new Object[] {13, 2, "b", -1, new BigDecimal("0.00001")},
        new Object[] {14, 2, "c", null, null},
        new Object[] {15, 2, "c", null, null},
        new Object[] {16, 3, "c", 10, null},
        new Object[] {17, 3, "c", 10, null},
        new Object[] {18, 3, "c", 10, null},
        new Object[] {19, 3, "c", 10, null}));
    for (int extra : EXTRA_VALUES) {
      heavyUnitsAreScaledAsComputedByHand(plan(3, extra));
    }
  }

  private void heavyUnitsAreScaledAsComputedByHand(MeasurementPlan plan) throws Exception {
    long[][] x = measure(plan, "z");
    // unit 2, COUNT(*): cumulative 5, 8, 10 -> floor(x * 3 / 10) = 1, 2, 3 -> 1, 1, 1 (three rows;
    // rounding each cell down alone would give 1, 0, 0). Unit 3: floor(4 * 3 / 4) = 3.
    assertArrayEquals(new long[] {1 + 2 + 1, 2 + 1, 1 + 3}, x[0], "COUNT(*)");
    // COUNT(V), unit 2: non-null 5, 3, 0, cumulative 5, 8, 8 -> 1, 2, 2 -> 1, 1, 0; unit 3: 3
    assertArrayEquals(new long[] {1 + 2 + 1, 1 + 1, 3}, x[1], "COUNT(V)");
    // SUM(V) clamped to [-10, 10], unit 2: a 13 * 0.3 = 3.9 -> 3; b -21 * 0.3 = -6.3 -> -6
    // (truncated toward zero, not floored to -7); c no value. Unit 3: 40 * 3 / 4 = 30.
    assertArrayEquals(new long[] {2 + 2 + 3, -3 - 6, 30}, x[2], "SUM(V)");
    // SUM(W) in steps of 0.00001, unit 2: a 5 * 0.3 = 1.5 -> 1; b (-500000 + 2) * 0.3 =
    // -149999.4 -> -149999
    assertArrayEquals(new long[] {150000 + 1, 175000 - 149999, 0}, x[3], "SUM(W)");

    // the analyst's filter comes first: without cell a, unit 2 has 5 rows (3 in b, 2 in c):
    // cumulative 3, 5 -> floor(9 / 5) = 1, floor(15 / 5) = 3 -> 1, 2
    long[][] y = measure(plan, "a");
    assertArrayEquals(new long[] {0, 2 + 1, 2 + 3}, y[0], "COUNT(*) without cell a");
  }

  @Test
  void addingOneUnitMovesEachVectorByItsContributionWithinTheSensitivity() throws Exception {
    Random random = new Random(20261126L);
    int scaledTrials = 0;
    for (int[] form : new int[][] {{1, 0}, {3, 0}, {7, 0}, {1, 1}, {3, 1}, {7, 1}}) {
      int k = form[0];
      MeasurementPlan plan = plan(k, EXTRA_VALUES[form[1]]);
      for (int trial = 0; trial < 12; trial++) {
        try (Statement st = c.createStatement()) {
          st.execute("DELETE FROM R");
        }
        // D: up to 12 units (the NULL unit among them at times) with 0 to 3k rows each
        List<Object[]> background = new ArrayList<>();
        int id = 0;
        int units = 1 + random.nextInt(12);
        for (int u = 0; u < units; u++) {
          Integer unit = random.nextInt(10) == 0 ? null : u;
          for (int r = random.nextInt(3 * k + 1); r > 0; r--) {
            background.add(row(++id, unit, random));
          }
        }
        // the added unit: from 1 row to 5k rows, so that it is heavy most of the time
        List<Object[]> added = new ArrayList<>();
        for (int r = 1 + random.nextInt(5 * k); r > 0; r--) {
          added.add(row(++id, 1000, random));
        }
        String excluded = random.nextBoolean() ? "z" : CELLS.get(random.nextInt(3));
        insert(background);
        long[][] without = measure(plan, excluded);
        assertArrayEquals(expected(background, k, excluded), without, "D, k = " + k);
        insert(added);
        long[][] with = measure(plan, excluded);
        assertArrayEquals(expected(concat(background, added), k, excluded), with, "D', k = " + k);

        long[][] contribution = expected(added, k, excluded);
        long kept = 0;
        for (Object[] r : added) {
          kept += r[2].equals(excluded) ? 0 : 1;
        }
        scaledTrials += kept > k ? 1 : 0;
        for (int m = 0; m < 4; m++) {
          long l1 = 0;
          for (int cell = 0; cell < 3; cell++) {
            long d = with[m][cell] - without[m][cell];
            assertEquals(contribution[m][cell], d, "only the added unit's own contribution");
            l1 += Math.abs(d);
          }
          long sensitivity = plan.measurements().get(m).sensitivity(k);
          assertTrue(l1 <= sensitivity, "measurement " + m + ": L1 " + l1 + " > " + sensitivity);
          if (m == 0) {
            assertEquals(Math.min(kept, k), l1, "COUNT(*) keeps min(n, k) rows of the unit");
          }
        }
      }
    }
    assertTrue(scaledTrials >= 40, "most added units are heavy: " + scaledTrials);
  }

  /** A random row: V in [-15, 15] or NULL, W in [-7, 7] with 5 decimals or NULL. */
  private static Object[] row(int id, Integer unit, Random random) {
    Integer v = random.nextInt(5) == 0 ? null : random.nextInt(31) - 15;
    BigDecimal w = random.nextInt(5) == 0 ? null
        : BigDecimal.valueOf(random.nextInt(1_400_001) - 700_000, 5);
    return new Object[] {id, unit, CELLS.get(random.nextInt(3)), v, w};
  }

  private static List<Object[]> concat(List<Object[]> a, List<Object[]> b) {
    List<Object[]> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /**
   * The measurement computed in Java from the rows: per unit (NULL a unit too) its filtered rows
   * n, and per cell in key order the count, non-null count and clamped sums in steps; a unit with
   * n ≤ k adds them, a heavier one ⌊M_i·k/n⌋ − ⌊M_{i−1}·k/n⌋ of the cumulative counts M and
   * the sums times k/n truncated toward zero.
   */
  private static long[][] expected(List<Object[]> rows, int k, String excluded) {
    Map<Integer, List<Object[]>> byUnit = new HashMap<>();
    for (Object[] r : rows) {
      if (!r[2].equals(excluded)) {
        byUnit.computeIfAbsent((Integer) r[1], u -> new ArrayList<>()).add(r);
      }
    }
    long[][] out = new long[4][3];
    for (List<Object[]> unitRows : byUnit.values()) {
      long n = unitRows.size();
      long[] count = new long[3];
      long[] nonNull = new long[3];
      Map<Integer, BigInteger> sumV = new LinkedHashMap<>();
      Map<Integer, BigInteger> sumW = new LinkedHashMap<>();
      for (Object[] r : unitRows) {
        int cell = CELLS.indexOf((String) r[2]);
        count[cell]++;
        if (r[3] != null) {
          nonNull[cell]++;
          long v = Math.max(-10, Math.min(10, (Integer) r[3]));
          sumV.merge(cell, BigInteger.valueOf(v), BigInteger::add);
        }
        if (r[4] != null) {
          BigDecimal w = ((BigDecimal) r[4]).max(BigDecimal.valueOf(-5)).min(BigDecimal.valueOf(5));
          sumW.merge(cell, w.movePointRight(5).setScale(0, RoundingMode.UNNECESSARY)
              .toBigIntegerExact(), BigInteger::add);
        }
      }
      long cumCount = 0;
      long cumNonNull = 0;
      for (int cell = 0; cell < 3; cell++) {
        if (n <= k) {
          out[0][cell] += count[cell];
          out[1][cell] += nonNull[cell];
        } else {
          out[0][cell] += (cumCount + count[cell]) * k / n - cumCount * k / n;
          out[1][cell] += (cumNonNull + nonNull[cell]) * k / n - cumNonNull * k / n;
        }
        cumCount += count[cell];
        cumNonNull += nonNull[cell];
        out[2][cell] += scaled(sumV.get(cell), n, k);
        out[3][cell] += scaled(sumW.get(cell), n, k);
      }
    }
    return out;
  }

  /** s, or s·k/n truncated toward zero (BigInteger division) when n > k; 0 for no value. */
  private static long scaled(BigInteger s, long n, int k) {
    if (s == null) {
      return 0;
    }
    return (n <= k ? s : s.multiply(BigInteger.valueOf(k)).divide(BigInteger.valueOf(n)))
        .longValueExact();
  }
}
