package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.dpsql.accounting.ApproxDpBound;
import org.dpsql.accounting.Conversions;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.accounting.TightConversion;
import org.dpsql.adaptive.AdaptiveTabulationSpec;
import org.dpsql.adaptive.BaseMechanism;
import org.dpsql.adaptive.CensusDatabase;
import org.dpsql.adaptive.NoisyCount;
import org.dpsql.adaptive.PopulationLevel;
import org.dpsql.adaptive.SyntheticCensus;
import org.dpsql.policy.AdaptiveTablePolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))} end to end through {@link
 * DriverManager}, on a synthetic census of 20,000 persons in H2 (3 geography levels, 40
 * characteristic iterations through the mapping table PERSON_ITERATION): one block of rows per
 * declared population group in declared order, integral counts, the detail level and exact MOEs;
 * one charge of the spec's total (pure, zCDP, approx), free repeats; Δ truncation checked against
 * direct SQL counts; refusals with their XDP codes.
 */
@org.junit.jupiter.api.Order(3) // among the slowest: started first
class AdaptiveTableQueriesTest {
  private static final String SQL = "SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))";
  private static final long[] THRESHOLDS = {20, 200, 1000};
  private static final String EXTRA_COUNTY = "CX01";

  private static SyntheticCensus census;
  private static CensusDatabase db;
  private static int special; // PID of a person with 10 iterations, alone in county CX01

  @BeforeAll
  static void load() throws Exception {
    census = SyntheticCensus.generate(20_000, 4, 30, 16, 4, 77L);
    db = CensusDatabase.create(census, true);
    special = census.personCount();
    List<String> codes = census.iterationCodes();
    StringBuilder its = new StringBuilder();
    for (int k = 0; k < 10; k++) {
      // every other declared iteration, in reverse: the first Δ in declared order are k = 9, 8, ..
      its.append(k == 0 ? "" : ", ").append("(").append(special).append(", '")
          .append(codes.get(2 * (9 - k) + 1)).append("')");
    }
    db.execute("INSERT INTO PERSONS VALUES (" + special + ", 'US', 'S00', '" + EXTRA_COUNTY
        + "', 'F', 50)", "INSERT INTO PERSON_ITERATION VALUES " + its);
  }

  @AfterAll
  static void close() throws Exception {
    db.close();
  }

  private static List<CensusDatabase.Level> levels(String nation, String state, String county) {
    List<String> regional = new ArrayList<>();
    for (String c : census.iterationCodes()) {
      if (c.startsWith("R")) {
        regional.add(c);
      }
    }
    return List.of(
        new CensusDatabase.Level("NATION", null, SyntheticCensus.NATION, nation, 8, List.of()),
        new CensusDatabase.Level("STATE", "STATE", SyntheticCensus.STATE, state, 4, List.of()),
        new CensusDatabase.Level("COUNTY", "COUNTY", SyntheticCensus.COUNTY, county, 3,
            regional));
  }

  private static String adaptive(String mechanism, String nation, String state, String county) {
    return db.adaptiveYaml("DHC", mechanism, "0.1", THRESHOLDS, levels(nation, state, county),
        List.of(EXTRA_COUNTY));
  }

  private static Connection connect(String budgetYaml, String adaptiveYaml, long seed)
      throws Exception {
    db.writePolicy(budgetYaml, adaptiveYaml);
    return open(seed);
  }

  private static Connection open(long seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", db.writePolicyPath());
    p.setProperty("seed", Long.toString(seed));
    return DriverManager.getConnection("jdbc:dpsql:" + db.url.substring("jdbc:".length()), p);
  }

  private static AdaptiveTablePolicy table(Connection c) {
    return TestDatabase.session(c).policy().adaptiveTable("DHC").orElseThrow();
  }

  private static final String PURE = "budget:\n  accounting: pure\n  per_connection: {epsilon: 10}"
      + "\n  default_query: {epsilon: 1}\n";

  @Test
  void releasesOneBlockPerGroupInDeclaredOrderChargedOnce() throws Exception {
    try (Connection c = connect(PURE, adaptive("geometric", "1", "1", "2"), 11L);
        Statement st = c.createStatement()) {
      ResultSet rs = st.executeQuery(SQL);
      List<String> labels = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        labels.add(rs.getMetaData().getColumnLabel(i));
      }
      assertEquals(List.of("LEVEL", "GEOGRAPHY", "ITERATION", "DETAIL", "SEX", "AGE_LOW",
          "AGE_HIGH", "COUNT", "MOE_95"), labels);
      List<Object[]> r = TestDatabase.rows(rs);
      AdaptiveTablePolicy table = table(c);
      AdaptiveTabulationSpec spec = table.spec();

      // blocks: one per declared group, in the spec's order (level, geography, iteration)
      Map<String, Integer> detailHistogram = new LinkedHashMap<>();
      int at = 0;
      for (PopulationLevel level : spec.levels()) {
        long stepTwoMoe = new NoisyCount(BaseMechanism.GEOMETRIC, spec.stepTwoBudget(level))
            .marginOfError95();
        long wholeMoe = new NoisyCount(BaseMechanism.GEOMETRIC,
            AdaptiveTabulationSpec.groupBudget(level)).marginOfError95();
        for (String geo : level.geographies()) {
          for (String it : level.iterations()) {
            Object[] first = r.get(at);
            assertEquals(level.name(), first[0]);
            assertEquals(geo, first[1]);
            assertEquals(it, first[2]);
            String detail = (String) first[3];
            detailHistogram.merge(detail, 1, Integer::sum);
            int block;
            if (detail.equals("TOTAL_ONLY") || detail.equals("TOTAL")) {
              assertEquals(level.totalOnlyIterations().contains(it), detail.equals("TOTAL_ONLY"));
              assertNull(first[4]);
              assertNull(first[5]);
              assertNull(first[6]);
              assertEquals(detail.equals("TOTAL_ONLY") ? wholeMoe : stepTwoMoe, first[8]);
              block = 1;
            } else {
              int b = List.of("AGE4", "AGE9", "AGE23").indexOf(detail);
              assertTrue(b >= 0, detail);
              List<Integer> lower = table.binLowerYears().get(b);
              block = 2 * lower.size();
              for (int k = 0; k < block; k++) {
                Object[] row = r.get(at + k);
                assertEquals(it, row[2]);
                assertEquals(detail, row[3]);
                assertEquals(CensusDatabase.SEXES.get(k / lower.size()), row[4]);
                int bin = k % lower.size();
                assertEquals((long) lower.get(bin), row[5]);
                assertEquals(bin + 1 < lower.size() ? lower.get(bin + 1) - 1L : 115L, row[6]);
                assertEquals(stepTwoMoe, row[8]);
              }
            }
            for (int k = 0; k < block; k++) {
              assertTrue(r.get(at + k)[7] instanceof Long, "integral counts");
            }
            at += block;
          }
        }
      }
      assertEquals(r.size(), at, "no other rows");
      assertTrue(detailHistogram.size() >= 4, "several detail levels: " + detailHistogram);
      assertEquals(1 + 4 + 31, spec.levels().stream().mapToInt(l -> l.geographies().size())
          .sum());

      // charged once: Σ ε of the levels, recorded as safetab / measurement
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(1, ledger.size());
      assertEquals(PrivacyCost.pure(new BigDecimal("4")), ledger.get(0).cost());
      assertEquals("safetab", ledger.get(0).mechanism());
      assertEquals(LedgerEntry.MEASURED, ledger.get(0).source());
      assertEquals(SQL, ledger.get(0).statement());

      // a repeat (any spelling) is the same release, free
      List<Object[]> again = TestDatabase.rows(st.executeQuery(
          "select *  from table(dpsql.adaptive_table('DHC'))"));
      assertEquals(r.size(), again.size());
      for (int i = 0; i < r.size(); i++) {
        assertArrayEquals(r.get(i), again.get(i));
      }
      assertEquals(1, TestDatabase.session(c).accountant().ledger().size());
      assertEquals(new BigDecimal("4"),
          TestDatabase.session(c).accountant().spent().epsilon().stripTrailingZeros());
    }
  }

  @Test
  void stabilityTruncationMatchesDirectSqlCounts() throws Exception {
    // budgets so large that the noise is 0 with probability 1 − 1e-10000: the counts are exact
    String huge = "budget:\n  accounting: pure\n  per_connection: {epsilon: 1e7}\n"
        + "  default_query: {epsilon: 1}\n";
    try (Connection c = connect(huge, adaptive("geometric", "1e6", "1e6", "1e6"), 5L);
        Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery(SQL));
      // the special person has 10 declared iterations (direct count), the county level keeps Δ = 3
      assertEquals(10, db.exact("SELECT COUNT(DISTINCT ITERATION) FROM PERSON_ITERATION WHERE "
          + "PID = " + special));
      Map<String, Long> cx = groupTotals(r, "COUNTY", EXTRA_COUNTY);
      List<String> codes = census.iterationCodes();
      Set<String> kept = new HashSet<>();
      for (int k = 0; k < 3; k++) {
        kept.add(codes.get(2 * k + 1)); // the first 3 of its iterations in declared order
      }
      for (Map.Entry<String, Long> e : cx.entrySet()) {
        assertEquals(kept.contains(e.getKey()) ? 1L : 0L, e.getValue(), e.getKey());
      }
      assertEquals(codes.size(), cx.size());
      // at every level, the released totals sum to Σ over in-domain persons of min(k, Δ)
      for (String[] level : new String[][] {{"NATION", "8"}, {"STATE", "4"}, {"COUNTY", "3"}}) {
        long released = 0;
        for (Map.Entry<String, Map<String, Long>> g : groupTotals(r, level[0]).entrySet()) {
          for (long v : g.getValue().values()) {
            released += v;
          }
        }
        long truth = db.exact("SELECT SUM(LEAST(K, " + level[1] + ")) FROM (SELECT M.PID, "
            + "COUNT(DISTINCT M.ITERATION) AS K FROM PERSON_ITERATION M JOIN PERSONS P ON "
            + "P.PID = M.PID GROUP BY M.PID) X");
        long untruncated = db.exact("SELECT COUNT(*) FROM PERSON_ITERATION");
        assertEquals(truth, released, level[0]);
        assertTrue(released < untruncated, level[0]);
      }
    }
  }

  /** Sum of the released rows of each group of a level: geography → iteration → total. */
  private static Map<String, Map<String, Long>> groupTotals(List<Object[]> rows, String level) {
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    for (Object[] row : rows) {
      if (row[0].equals(level)) {
        out.computeIfAbsent((String) row[1], k -> new LinkedHashMap<>())
            .merge((String) row[2], (Long) row[7], Long::sum);
      }
    }
    return out;
  }

  private static Map<String, Long> groupTotals(List<Object[]> rows, String level, String geo) {
    return groupTotals(rows, level).get(geo);
  }

  @Test
  void zcdpChargesTheSumOfRhoOrTheGroupwiseConversionOfGeometricNoise() throws Exception {
    String zcdp = "budget:\n  accounting: zcdp\n  per_connection: {rho: 5, delta: 1e-10}\n"
        + "  default_query: {rho: 0.1}\n";
    try (Connection c = connect(zcdp, adaptive("discrete_gaussian", "0.5", "0.25", "0.125"), 3L);
        Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery(SQL));
      assertTrue(r.size() > 36 * 40);
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(1, ledger.size());
      assertEquals(PrivacyCost.zcdp(new BigDecimal("0.875")), ledger.get(0).cost());
      // the ε reported (DPSQL.BUDGET's EPSILON_SPENT) is the tightest conversion of ρ = 0.875
      double eps = TestDatabase.session(c).accountant().epsilonSpentAtDelta();
      assertEquals(TightConversion.zcdpNumeric(0.875, 1e-10).epsilon(), eps, 1e-9);
      assertTrue(eps < Conversions.zcdpToEpsilon(0.875, 1e-10));
    }
    try (Connection c = connect(zcdp, adaptive("geometric", "1", "1", "2"), 3L);
        Statement st = c.createStatement()) {
      TestDatabase.rows(st.executeQuery(SQL));
      // each group is b-DP, b = ε/Δ, hence b²/2-zCDP; Δ groups per person: ε²/(2Δ) per level
      BigDecimal want = new BigDecimal("1").divide(new BigDecimal("16"))
          .add(new BigDecimal("1").divide(new BigDecimal("8")))
          .add(new BigDecimal("4").divide(new BigDecimal("6"), new MathContext(15,
              RoundingMode.CEILING)));
      BigDecimal got = TestDatabase.session(c).accountant().spent().rho();
      assertTrue(got.compareTo(want) >= 0 && got.subtract(want).doubleValue() < 1e-13,
          "charged " + got + ", want " + want);
    }
  }

  @Test
  void approxChargesTheTightestConversionAtTheQueryDelta() throws Exception {
    String approx = "budget:\n  accounting: approx\n  per_connection: {epsilon: 20, delta: 1e-5}\n"
        + "  default_query: {epsilon: 1, delta: 1e-8}\n";
    try (Connection c = connect(approx, adaptive("discrete_gaussian", "0.5", "0.25", "0.125"), 3L);
        Statement st = c.createStatement()) {
      TestDatabase.rows(st.executeQuery(SQL));
      PrivacyCost cost = TestDatabase.session(c).accountant().spent();
      ApproxDpBound tight = TightConversion.tightest(1e-8, null, null, 0.875);
      assertEquals(0, new BigDecimal("1e-8").compareTo(cost.delta()));
      assertTrue(cost.epsilon().doubleValue() >= tight.epsilon());
      assertEquals(tight.epsilon(), cost.epsilon().doubleValue(), 1e-12);
      assertTrue(tight.epsilon() < Conversions.zcdpToEpsilon(0.875, 1e-8));
      assertEquals(1, TestDatabase.session(c).accountant().ledger().size());
    }
    try (Connection c = connect(approx, adaptive("geometric", "1", "1", "2"), 3L);
        Statement st = c.createStatement()) {
      TestDatabase.rows(st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC', 'delta=1e-6'))"));
      PrivacyCost cost = TestDatabase.session(c).accountant().spent();
      AdaptiveTabulationSpec spec = table(c).spec();
      ApproxDpBound tight = TightConversion.tightest(1e-6, 4.0, spec.renyiCurve(), null);
      if (tight.method() == ApproxDpBound.Method.PURE) {
        assertEquals(PrivacyCost.approx(new BigDecimal("4"), BigDecimal.ZERO), cost);
      } else {
        assertEquals(tight.epsilon(), cost.epsilon().doubleValue(), 1e-12);
        assertEquals(0, new BigDecimal("1e-6").compareTo(cost.delta()));
        assertTrue(cost.epsilon().doubleValue() < 4);
      }
    }
  }

  @Test
  void explainShowsTheCostAndTheLevelsWithoutSpending() throws Exception {
    try (Connection c = connect(PURE, adaptive("geometric", "1", "1", "2"), 3L);
        Statement st = c.createStatement()) {
      List<Object[]> r = TestDatabase.rows(st.executeQuery("SELECT * FROM TABLE(DPSQL.EXPLAIN('SELECT * FROM "
          + "TABLE(DPSQL.ADAPTIVE_TABLE(''DHC''))'))"));
      assertEquals(4, r.size());
      assertEquals("safetab", r.get(0)[0]);
      assertEquals(0, new BigDecimal("4").compareTo((BigDecimal) r.get(0)[2]));
      assertEquals(0, new BigDecimal("2").compareTo((BigDecimal) r.get(3)[2]));
      assertTrue(((String) r.get(3)[6]).startsWith("level COUNTY: 1240 groups, stability 3"),
          (String) r.get(3)[6]);
      assertTrue(TestDatabase.session(c).accountant().ledger().isEmpty());
    }
  }

  @Test
  void nonNegativeCountsArePostProcessingOfTheSameRelease() throws Exception {
    try (Connection c = connect(PURE, adaptive("geometric", "1", "1", "2"), 11L);
        Statement st = c.createStatement()) {
      List<Object[]> released;
      try (ResultSet rs = st.executeQuery(SQL)) {
        released = TestDatabase.rows(rs);
      }
      java.math.BigDecimal paid = TestDatabase.session(c).accountant().spent().epsilon();
      List<Object[]> clipped;
      try (ResultSet rs = st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC', 'nonnegative=true'))")) {
        clipped = TestDatabase.rows(rs);
      }
      assertEquals(0, paid.compareTo(TestDatabase.session(c).accountant().spent().epsilon()),
          "the same release: nothing charged again");
      assertEquals(released.size(), clipped.size());
      int negative = 0;
      for (int i = 0; i < released.size(); i++) {
        long before = (Long) released.get(i)[7];
        long after = (Long) clipped.get(i)[7];
        negative += before < 0 ? 1 : 0;
        assertEquals(Math.max(0, before), after, "row " + i);
        assertEquals(released.get(i)[8], clipped.get(i)[8], "the MOE is as released");
      }
      assertTrue(negative > 0, "this release has negative counts to clip");
      SQLException bad = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC', 'nonnegative=maybe'))"));
      assertEquals("XDP05", bad.getSQLState());
    }
  }

  @Test
  void refusalsChargeNothing() throws Exception {
    try (Connection c = connect(PURE, adaptive("geometric", "4", "4", "4"), 3L);
        Statement st = c.createStatement()) {
      SQLException unknown = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('NOPE'))"));
      assertEquals("XDP02", unknown.getSQLState());
      assertTrue(unknown.getMessage().contains("it declares DHC"), unknown.getMessage());
      SQLException option = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC', 'epsilon=9'))"));
      assertEquals("XDP05", option.getSQLState());
      SQLException shape = assertThrows(SQLException.class, () -> st.executeQuery(
          "SELECT LEVEL FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))"));
      assertEquals("XDP03", shape.getSQLState());
      // 12 > the connection's 10
      SQLException budget = assertThrows(SQLException.class, () -> st.executeQuery(SQL));
      assertEquals("XDP01", budget.getSQLState());
      assertTrue(TestDatabase.session(c).accountant().ledger().isEmpty());
      assertTrue(TestDatabase.session(c).accountant().spent().isZero());
    }
    // a backend failure charges nothing and withholds the backend's message
    try (Connection c = connect(PURE, adaptive("geometric", "1", "1", "1"), 3L);
        Statement st = c.createStatement()) {
      db.execute("ALTER TABLE PERSON_ITERATION RENAME TO PERSON_ITERATION_AWAY");
      try {
        SQLException e = assertThrows(SQLException.class, () -> st.executeQuery(SQL));
        assertTrue(e.getMessage().contains("Nothing was charged"), e.getMessage());
      } finally {
        db.execute("ALTER TABLE PERSON_ITERATION_AWAY RENAME TO PERSON_ITERATION");
      }
      assertTrue(TestDatabase.session(c).accountant().ledger().isEmpty());
      // and the statement can then be released (the failure was not cached)
      assertTrue(TestDatabase.rows(st.executeQuery(SQL)).size() > 0);
      assertEquals(1, TestDatabase.session(c).accountant().ledger().size());
    }
    // the discrete Gaussian has no pure guarantee
    try (Connection c = connect(PURE, adaptive("discrete_gaussian", "0.1", "0.1", "0.1"), 3L)) {
      SQLException e = assertThrows(SQLException.class, () -> c.prepareStatement(SQL));
      assertEquals("XDP05", e.getSQLState());
      assertTrue(e.getMessage().contains("pure accounting"), e.getMessage());
      assertTrue(TestDatabase.session(c).accountant().ledger().isEmpty());
    }
  }

  @Test
  void badAdaptiveTableEntriesAreRefusedWithXdp04NamingTheKey() throws Exception {
    String good = adaptive("geometric", "1", "1", "2");
    String[][] cases = {
        {good.replace("thresholds: [20, 200, 1000]", "thresholds: [200, 20, 1000]"),
            "adaptive_tables.DHC.thresholds: must increase strictly"},
        {good.replace("sex: SEX", "sex: GENDER"),
            "adaptive_tables.DHC.persons.sex: no such column"},
        {good.replace("table: PERSON_ITERATION", "table: PERSON_ITERATIONS"),
            "adaptive_tables.DHC.iterations.table: no such table"},
        {good.replace("budget: {epsilon: 2}", "budget: {rho: 2}"),
            "adaptive_tables.DHC.levels.COUNTY.budget.rho: unknown key"},
        {good.replace("gamma: 0.1", "gamma: 1.5"), "adaptive_tables.DHC.gamma: must be in (0, 1)"},
        {good.replace("total_only: [", "total_only: [NOT-AN-ITERATION, "),
            "adaptive_tables.DHC.levels.COUNTY.total_only[0]: 'NOT-AN-ITERATION' is not one of"},
        {good.replace("mechanism: geometric", "mechanism: laplace"),
            "adaptive_tables.DHC.mechanism: unknown mechanism"},
        {good.replace("stability: 4", "stability: 0"),
            "adaptive_tables.DHC.levels.STATE.stability: must be a positive integer"},
        {good.replace("ages: {max: 115, bins: census}", "ages: {max: 115, bins: {A: [0, 18], "
            + "B: [0, 20], C: [5, 30]}}"), "adaptive_tables.DHC.ages.bins.C:"},
        {good.replace("    sexes: [M, F]\n", "    sexes: [M, F]\n    colour: blue\n"),
            "adaptive_tables.DHC.colour: unknown key"},
        {good.replace("age: AGE}", "age: SEX}"), "adaptive_tables.DHC.persons.age: the age "
            + "column must be numeric"},
    };
    for (String[] k : cases) {
      assertTrue(!k[0].equals(good), "the case must change the policy: " + k[1]);
      db.writePolicy(PURE, k[0]);
      SQLException e = assertThrows(SQLException.class, () -> open(1L), k[1]);
      assertEquals("XDP04", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().contains(k[1]), e.getMessage());
    }
    // a persons table the policy makes public cannot be tabulated privately
    db.writePolicy(PURE, good);
    String text = java.nio.file.Files.readString(java.nio.file.Path.of(db.writePolicyPath()))
        .replace("tables: {}", "tables:\n  PERSONS: {public: true}");
    java.nio.file.Files.writeString(java.nio.file.Path.of(db.writePolicyPath()), text);
    SQLException e = assertThrows(SQLException.class, () -> open(1L));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("adaptive_tables.DHC.persons.table: PUBLIC.PERSONS is "
        + "public"), e.getMessage());
  }
}
