package org.dpsql.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.adaptive.AgeBinning;
import org.dpsql.adaptive.CensusDatabase;
import org.dpsql.adaptive.GroupCounts;
import org.dpsql.adaptive.InMemoryAggregation;
import org.dpsql.adaptive.PopulationLevel;
import org.dpsql.adaptive.SyntheticCensus;
import org.dpsql.policy.AdaptiveTablePolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The noise-free half of {@code DPSQL.ADAPTIVE_TABLE}: the per-level GROUP BY pushed down to H2
 * ({@link AdaptiveAggregateSql}, run by {@link AdaptiveMeasurement}) gives exactly the counts of
 * the in-JVM reference ({@link InMemoryAggregation}: every person truncated to the first Δ
 * iterations in code order, then counted by group × sex × finest age) on the same synthetic
 * persons — with a primary key, without one (duplicated person rows), and with rows outside every
 * declared domain added.
 */
@org.junit.jupiter.api.Order(5) // among the slowest: started first
class AdaptiveMeasurementTest {
  private static final List<CensusDatabase.Level> LEVELS = List.of(
      new CensusDatabase.Level("NATION", null, SyntheticCensus.NATION, "1", 8, List.of()),
      new CensusDatabase.Level("STATE", "STATE", SyntheticCensus.STATE, "1", 3, List.of()),
      new CensusDatabase.Level("COUNTY", "COUNTY", SyntheticCensus.COUNTY, "1", 2, List.of()));

  private static SyntheticCensus census;
  private static CensusDatabase db;

  @BeforeAll
  static void load() throws Exception {
    // the counts are compared exactly, so a smaller census checks the same (-Plong: 30,000)
    census = SyntheticCensus.generate(org.dpsql.TestScale.pick(4_000, 30_000), 4, 40, 16, 4,
        20240611L);
    db = CensusDatabase.create(census, true);
  }

  @AfterAll
  static void close() throws Exception {
    db.close();
  }

  /** Same iterations and Δ at every level: one shared statement measures them all. */
  private static final List<CensusDatabase.Level> SHARED = List.of(
      new CensusDatabase.Level("NATION", null, SyntheticCensus.NATION, "1", 3, List.of()),
      new CensusDatabase.Level("STATE", "STATE", SyntheticCensus.STATE, "1", 3, List.of()),
      new CensusDatabase.Level("COUNTY", "COUNTY", SyntheticCensus.COUNTY, "1", 3, List.of()));

  private static AdaptiveTablePolicy policy(CensusDatabase d) throws Exception {
    return policy(d, LEVELS);
  }

  private static AdaptiveTablePolicy policy(CensusDatabase d, List<CensusDatabase.Level> levels)
      throws Exception {
    String yaml = d.adaptiveYaml("DHC", "geometric", "0.1", new long[] {10, 100, 1000}, levels,
        null);
    Policy p = PolicyLoader.load(d.writePolicy("budget:\n  accounting: pure\n  per_connection: "
        + "{epsilon: 10}\n  default_query: {epsilon: 1}\n", yaml).toString(), d.direct);
    return p.adaptiveTable("dhc").orElseThrow();
  }

  /** Asserts every level's pushed-down counts equal the in-JVM aggregation of {@code census}. */
  private static void assertMatchesInMemory(Connection c, AdaptiveTablePolicy table)
      throws Exception {
    assertMatchesInMemory(c, table, LEVELS);
  }

  private static void assertMatchesInMemory(Connection c, AdaptiveTablePolicy table,
      List<CensusDatabase.Level> levels) throws Exception {
    SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(c.getMetaData());
    for (AdaptiveAggregateSql.Shape shape : AdaptiveAggregateSql.Shape.values()) {
      assertMatchesInMemory(c, table, levels, dialect, shape);
    }
  }

  /** One statement shape: both must count exactly what the in-JVM aggregation counts. */
  private static void assertMatchesInMemory(Connection c, AdaptiveTablePolicy table,
      List<CensusDatabase.Level> levels, SqlDialect dialect, AdaptiveAggregateSql.Shape shape)
      throws Exception {
    Map<String, AdaptiveMeasurement.Counts> measured = AdaptiveMeasurement.measure(c, dialect,
        table, shape);
    List<Integer> finest = table.finestLowerYears();
    assertEquals(AgeBinning.AGE23_LOWER_YEARS, finest);
    for (int l = 0; l < levels.size(); l++) {
      CensusDatabase.Level spec = levels.get(l);
      PopulationLevel level = table.spec().levels().get(l);
      InMemoryAggregation reference = InMemoryAggregation.aggregate(census, spec.geographyLevel(),
          spec.stability(), finest, 2);
      AdaptiveMeasurement.Counts counts = measured.get(level.name());
      int nonEmpty = 0;
      for (int g = 0; g < level.geographies().size(); g++) {
        for (int i = 0; i < level.iterations().size(); i++) {
          GroupCounts want = reference.counts(g, i);
          GroupCounts got = counts.counts(g, i);
          assertEquals(want, got, shape + " " + level.group(g, i));
          nonEmpty += got == null ? 0 : 1;
        }
      }
      assertEquals(reference.nonEmptyGroups(), nonEmpty);
      assertTrue(nonEmpty > 0);
    }
  }

  @Test
  void pushedDownCountsEqualTheInMemoryAggregationAfterTruncation() throws Exception {
    AdaptiveTablePolicy table = policy(db);
    assertTrue(table.personUnique(), "PID is the primary key");
    assertMatchesInMemory(db.direct, table);
  }

  @Test
  void levelsWithTheSameIterationsAndStabilityShareOneStatement() throws Exception {
    AdaptiveTablePolicy table = policy(db, SHARED);
    SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(db.direct.getMetaData());
    AdaptiveAggregateSql shared = AdaptiveAggregateSql.of(table, List.of(0, 1, 2), dialect);
    assertEquals(List.of("STATE", "COUNTY"),
        shared.geographyColumns().stream().map(AdaptiveTablePolicy.Column::name).toList());
    assertMatchesInMemory(db.direct, table, SHARED); // measure() shares the statement
    // the same counts as one statement per level
    Map<String, AdaptiveMeasurement.Counts> all = AdaptiveMeasurement.measure(db.direct, dialect,
        table);
    for (int l = 0; l < 3; l++) {
      PopulationLevel level = table.spec().levels().get(l);
      AdaptiveMeasurement.Counts alone = AdaptiveMeasurement.measureLevel(db.direct, dialect,
          table, l);
      for (int g = 0; g < level.geographies().size(); g++) {
        for (int i = 0; i < level.iterations().size(); i++) {
          assertEquals(alone.counts(g, i), all.get(level.name()).counts(g, i));
        }
      }
    }
  }

  @Test
  void stabilityIsEnforcedInTheBackend() throws Exception {
    AdaptiveTablePolicy table = policy(db);
    SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(db.direct.getMetaData());
    for (int l = 0; l < LEVELS.size(); l++) {
      int delta = LEVELS.get(l).stability();
      long memberships = AdaptiveMeasurement.measureLevels(db.direct, dialect, table, List.of(l),
          AdaptiveAggregateSql.Shape.TRUNCATE_FIRST).get(0).memberships();
      assertEquals(memberships, AdaptiveMeasurement.measureLevel(db.direct, dialect, table, l)
          .memberships(), "H2's own shape (flat) counts the same");
      // the truth, by a direct count: Σ over persons of min(k, Δ)
      long truth = db.exact("SELECT SUM(LEAST(K, " + delta + ")) FROM (SELECT PID, "
          + "COUNT(DISTINCT ITERATION) AS K FROM PERSON_ITERATION GROUP BY PID) X");
      long untruncated = db.exact("SELECT COUNT(*) FROM PERSON_ITERATION");
      assertEquals(truth, memberships, "level " + l);
      if (delta < 4) {
        assertTrue(memberships < untruncated, "Δ = " + delta + " must cut memberships");
      }
      String sql = AdaptiveAggregateSql.of(table, List.of(l), dialect,
          AdaptiveAggregateSql.Shape.TRUNCATE_FIRST).sql();
      assertTrue(sql.contains("ROW_NUMBER() OVER (PARTITION BY \"DPSQL_M\".\"PID\" ORDER BY "
          + "\"DPSQL_V\".\"K\")"), sql);
      assertTrue(sql.contains("\"DPSQL_RN\" <= " + delta), sql);
      String flat = AdaptiveAggregateSql.of(table, l, dialect).sql(); // H2: flat
      assertTrue(flat.contains("DENSE_RANK() OVER (PARTITION BY \"DPSQL_M\".\"PID\" ORDER BY "
          + "CASE"), flat);
      assertTrue(flat.contains("\"DPSQL_RN\" <= " + delta), flat);
    }
  }

  @Test
  void rowsOutsideTheDeclaredDomainsAreNotCounted() throws Exception {
    try (CensusDatabase d = CensusDatabase.create(census, true)) {
      int n = census.personCount();
      d.execute(
          // unknown sex, NULL sex, ages outside [0, 115], an undeclared county and state
          "INSERT INTO PERSONS VALUES (" + n + ", 'US', 'S00', 'C0000', 'X', 30)",
          "INSERT INTO PERSONS VALUES (" + (n + 1) + ", 'US', 'S00', 'C0000', NULL, 30)",
          "INSERT INTO PERSONS VALUES (" + (n + 2) + ", 'US', 'S00', 'C0000', 'M', 116)",
          "INSERT INTO PERSONS VALUES (" + (n + 3) + ", 'US', 'S00', 'C0000', 'F', -1)",
          "INSERT INTO PERSONS VALUES (" + (n + 4) + ", 'US', 'S99', 'C9999', 'F', 40)",
          "INSERT INTO PERSON_ITERATION SELECT PID, 'D0000-A' FROM PERSONS WHERE PID >= " + n,
          // undeclared iterations come first in code order: they must not use a Δ slot
          "INSERT INTO PERSON_ITERATION SELECT PID, 'A-UNDECLARED' FROM PERSONS WHERE PID < 500",
          "INSERT INTO PERSON_ITERATION SELECT PID, NULL FROM PERSONS WHERE PID < 500",
          // duplicate mapping rows count once
          "INSERT INTO PERSON_ITERATION SELECT PID, ITERATION FROM PERSON_ITERATION "
              + "WHERE PID < 300 AND ITERATION IS NOT NULL AND ITERATION <> 'A-UNDECLARED'",
          // mapping rows of persons that do not exist
          "INSERT INTO PERSON_ITERATION VALUES (" + (n + 100) + ", 'D0001-A')");
      AdaptiveTablePolicy table = policy(d);
      SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(d.direct.getMetaData());
      for (AdaptiveAggregateSql.Shape shape : AdaptiveAggregateSql.Shape.values()) {
        // the county level's S99/C9999 person is outside the domain; the state level's too; at the
        // nation level (no geography column) it would count, so compare STATE and COUNTY only
        for (int l = 1; l < LEVELS.size(); l++) {
          CensusDatabase.Level spec = LEVELS.get(l);
          InMemoryAggregation reference = InMemoryAggregation.aggregate(census,
              spec.geographyLevel(), spec.stability(), table.finestLowerYears(), 2);
          AdaptiveMeasurement.Counts counts = AdaptiveMeasurement.measureLevels(d.direct, dialect,
              table, List.of(l), shape).get(0);
          PopulationLevel level = table.spec().levels().get(l);
          for (int g = 0; g < level.geographies().size(); g++) {
            for (int i = 0; i < level.iterations().size(); i++) {
              assertEquals(reference.counts(g, i), counts.counts(g, i),
                  shape + " " + level.group(g, i));
            }
          }
        }
        // nation level: exactly one more person (the S99 one, whose sex and age are in domain)
        AdaptiveMeasurement.Counts nation = AdaptiveMeasurement.measureLevels(d.direct, dialect,
            table, List.of(0), shape).get(0);
        InMemoryAggregation reference = InMemoryAggregation.aggregate(census,
            SyntheticCensus.NATION, 8, table.finestLowerYears(), 2);
        long refTotal = 0;
        for (int i = 0; i < census.iterations().size(); i++) {
          GroupCounts c = reference.counts(0, i);
          refTotal += c == null ? 0 : c.total();
        }
        assertEquals(refTotal + 1, nation.memberships(), shape.toString());
      }
    }
  }

  @Test
  void personsWithSeveralRowsCountOnceWhenTheBackendDoesNotSayPidIsUnique() throws Exception {
    try (CensusDatabase d = CensusDatabase.create(census, false)) {
      // 1,000 persons appear a second time, older by a year (capped): the first row in the order
      // (geography, sex, age) — the original one — is kept
      d.execute("INSERT INTO PERSONS SELECT PID, NATION, STATE, COUNTY, SEX, LEAST(AGE + 1, 115) "
          + "FROM PERSONS WHERE MOD(PID, 30) = 0");
      AdaptiveTablePolicy table = policy(d);
      assertTrue(!table.personUnique());
      assertMatchesInMemory(d.direct, table);
      assertMatchesInMemory(d.direct, policy(d, SHARED), SHARED);
    }
  }

  /**
   * The same statements on PostgreSQL (lower-case identifiers, an inline VALUES table, window
   * functions after GROUP BY), persons with and without a primary key. Runs when
   * DPSQL_TEST_PG_URL names a server (.ci/run starts one); each run works in schemas of its own.
   */
  @Test
  @org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable(named = "DPSQL_TEST_PG_URL",
      matches = "jdbc:postgresql:.+")
  void pushedDownCountsOnPostgresEqualTheInMemoryAggregation() throws Exception {
    String url = System.getenv("DPSQL_TEST_PG_URL");
    java.util.Properties login = new java.util.Properties();
    login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_PG_USER", "postgres"));
    login.setProperty("password", System.getenv().getOrDefault("DPSQL_TEST_PG_PASSWORD", ""));
    for (boolean primaryKey : new boolean[] {true, false}) {
      String schema = "dpsql_" + java.util.UUID.randomUUID().toString().replace("-", "")
          .substring(0, 12);
      try (Connection admin = java.sql.DriverManager.getConnection(url, login);
          java.sql.Statement st = admin.createStatement()) {
        st.execute("CREATE SCHEMA " + schema);
      }
      String inSchema = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
      try (Connection c = java.sql.DriverManager.getConnection(inSchema, login);
          CensusDatabase d = CensusDatabase.loadInto(inSchema, c, census, primaryKey)) {
        if (!primaryKey) {
          d.execute("INSERT INTO PERSONS SELECT PID, NATION, STATE, COUNTY, SEX, "
              + "LEAST(AGE + 1, 115) FROM PERSONS WHERE MOD(PID, 30) = 0");
        }
        d.execute("INSERT INTO PERSON_ITERATION SELECT PID, ITERATION FROM PERSON_ITERATION "
            + "WHERE MOD(PID, 50) = 0"); // duplicate mapping rows count once
        AdaptiveTablePolicy table = policy(d);
        assertEquals(primaryKey, table.personUnique());
        assertMatchesInMemory(c, table);
        assertMatchesInMemory(c, policy(d, SHARED), SHARED);
      } finally {
        try (Connection admin = java.sql.DriverManager.getConnection(url, login);
            java.sql.Statement st = admin.createStatement()) {
          st.execute("DROP SCHEMA " + schema + " CASCADE");
        }
      }
    }
  }
}
