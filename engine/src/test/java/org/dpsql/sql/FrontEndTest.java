package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The one path of the front end: which statement shapes come out as which release specification,
 * each planned once; a statement's release identity is its canonical aggregate's, whatever SQL
 * reached it; no shape is refused by one analysis and answered by another.
 */
class FrontEndTest {
  private static Connection backend;
  private static Path policyFile;
  private static FrontEnd frontEnd;

  @BeforeAll
  static void setUp() throws Exception {
    backend = DriverManager.getConnection("jdbc:h2:mem:fe" + UUID.randomUUID().toString()
        .replace("-", "") + ";DB_CLOSE_DELAY=-1");
    try (Statement st = backend.createStatement()) {
      st.execute("CREATE TABLE T (ID INT PRIMARY KEY, U INT NOT NULL, G VARCHAR(1), A INT, "
          + "V INT, NOTE VARCHAR(20))");
      st.execute("INSERT INTO T SELECT X, MOD(X, 40), CASE MOD(X, 3) WHEN 0 THEN 'a' WHEN 1 "
          + "THEN 'b' ELSE 'c' END, MOD(X, 10), MOD(X, 7), 'n' FROM SYSTEM_RANGE(1, 200)");
      st.execute("CREATE TABLE R (CODE VARCHAR(1) PRIMARY KEY, ZONE VARCHAR(5))");
      st.execute("INSERT INTO R VALUES ('a', 'east'), ('b', 'east'), ('c', 'west')");
    }
    policyFile = Files.createTempFile("dpsql-frontend", ".yaml");
    Files.writeString(policyFile, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1}\n"
        + "  default_query: {rho: 0.1}\ntables:\n  T:\n    privacy_unit: U\n"
        + "    max_rows_per_unit: 3\n    columns:\n      G: {values: [a, b, c]}\n"
        + "      A: {min: 0, max: 9, bin: 1}\n      V: {clamp: [0, 10]}\n"
        + "  R:\n    public: true\n");
    Policy policy = PolicyLoader.load(policyFile.toString(), backend);
    frontEnd = new FrontEnd(policy, BackendCatalog.read(backend, policy), backend.getSchema(),
        SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData()), PublicRows.over(backend));
  }

  @AfterAll
  static void tearDown() throws Exception {
    backend.close();
    Files.deleteIfExists(policyFile);
  }

  /** The release a statement answered by one release shows, or fails. */
  private static AnalyzedStatement.Released released(String sql) throws SQLException {
    AnalyzedStatement st = frontEnd.analyze(sql);
    AnalyzedStatement.Released r = st instanceof AnalyzedStatement.PrivateAggregate p
        ? p.released() : ((AnalyzedStatement.PrivateWorkload) st).released();
    assertNotNull(r, sql);
    return r;
  }

  @Test
  void theSameAggregateThroughDifferentSqlIsOneRelease() throws SQLException {
    AnalyzedStatement.Released plain = released("SELECT G, COUNT(*) FROM T GROUP BY G");
    AnalyzedStatement.Released sorted = released("SELECT n, g FROM (SELECT G AS g, COUNT(*) AS n "
        + "FROM T GROUP BY G) s ORDER BY n DESC LIMIT 2");
    AnalyzedStatement.Released cte = released("WITH s AS (SELECT G, COUNT(*) AS n FROM T GROUP BY "
        + "G) SELECT G, n FROM s");
    assertEquals(plain.release().normalizedSql(), sorted.release().normalizedSql());
    assertEquals(plain.release().normalizedSql(), cte.release().normalizedSql());
    // the sorted statement shows the release's count first, then its key
    assertEquals(List.of(1, 0), sorted.pick());
    AggregateQuery q = ((AnalyzedStatement.PrivateAggregate) frontEnd.analyze(
        "SELECT n, g FROM (SELECT G AS g, COUNT(*) AS n FROM T GROUP BY G) s ORDER BY n DESC "
            + "LIMIT 2")).query();
    assertEquals(List.of("N", "G"), q.outputs().stream().map(OutputItem::label).toList());
    assertEquals(List.of(new SortKey(0, true)), q.orderBy());
    assertEquals(2L, q.fetch());
  }

  @Test
  void eachShapeHasOneSpecification() throws SQLException {
    assertInstanceOf(AnalyzedStatement.Composite.class,
        frontEnd.analyze("SELECT G, COUNT(*) FROM T GROUP BY G HAVING COUNT(*) > 3"));
    AnalyzedStatement union = frontEnd.analyze("SELECT COUNT(*) FROM T WHERE A < 5 UNION ALL "
        + "SELECT COUNT(*) FROM T WHERE A >= 5 UNION ALL SELECT COUNT(*) FROM T");
    WorkloadQuery w = ((AnalyzedStatement.PrivateWorkload) union).query();
    assertEquals(WorkloadQuery.Shape.UNION_ALL, w.shape());
    assertEquals(3, w.parts().size());
    AnalyzedStatement lookup = frontEnd.analyze("SELECT R.ZONE, COUNT(*) FROM T JOIN R ON "
        + "T.G = R.CODE GROUP BY R.ZONE");
    WorkloadQuery l = ((AnalyzedStatement.PrivateWorkload) lookup).query();
    assertEquals(1, l.parts().get(0).joins().size(), "measured over G's cells, zones looked up");
    assertInstanceOf(AnalyzedStatement.Composite.class, frontEnd.analyze("SELECT R.ZONE, "
        + "COUNT(R.ZONE) FROM T JOIN R ON T.G = R.CODE GROUP BY R.ZONE"),
        "a public column counted: the join applied to the released counts per G");
    AnalyzedStatement rollup = frontEnd.analyze("SELECT G, A, SUM(V) FROM T GROUP BY ROLLUP(G, A)");
    assertEquals(WorkloadQuery.Shape.GROUPING_SETS,
        ((AnalyzedStatement.PrivateWorkload) rollup).query().shape());
    // parameters are kept where they stand: in a release's filter (the release's own, numbered
    // from 0), its limit, or the post-processing; a derived column waits for its values
    AnalyzedStatement bound = frontEnd.analyze("SELECT G, COUNT(*) FROM T WHERE A > ? GROUP BY G");
    assertEquals(1, ((AnalyzedStatement.PrivateAggregate) bound).parameters().size());
    AnalyzedStatement.PrivateAggregate limited = (AnalyzedStatement.PrivateAggregate)
        frontEnd.analyze("SELECT G, COUNT(*) FROM T WHERE V < ? GROUP BY G LIMIT ?");
    assertEquals(2, limited.parameters().size());
    assertEquals(List.of(0), limited.released().parameters(), "the release binds parameter 1");
    assertEquals(1, limited.released().fetchParameter(), "the limit is parameter 2");
    AnalyzedStatement.Composite having = (AnalyzedStatement.Composite) frontEnd.analyze(
        "SELECT G, COUNT(*) FROM T WHERE A > ? GROUP BY G HAVING COUNT(*) > ? AND G <> ?");
    assertEquals(List.of(0), having.plan().releases().get(0).parameters());
    assertEquals(List.of(1, 2), having.plan().postParameters());
    assertEquals(List.of(7), having.releaseValues(0, List.of(7, 8, "x")));
    // a parameter that decides what is released: planned once, its values bound into the plan
    long before = frontEnd.plannedStatements();
    AnalyzedStatement.Deferred banded = (AnalyzedStatement.Deferred) frontEnd.analyze(
        "SELECT CASE WHEN A < ? THEN 'a' ELSE 'b' END, COUNT(*) FROM T GROUP BY 1");
    assertNotNull(banded.binder(), "bound into its plan, not written as text");
    AnalyzedStatement five = banded.binder().bind(List.of(5L), java.time.Instant.now());
    AnalyzedStatement six = banded.binder().bind(List.of(6L), java.time.Instant.now());
    assertEquals(before + 1, frontEnd.plannedStatements(), "planned once");
    String fiveText = released(five).statement();
    String sixText = released(six).statement();
    assertTrue(fiveText.contains("\"A\" < 5") || fiveText.contains("\"A\" < CAST(5 "), fiveText);
    assertTrue(sixText.contains("\"A\" < 6") || sixText.contains("\"A\" < CAST(6 "), sixText);
  }

  /** The release that answers an analysed statement. */
  private static AnalyzedStatement.Released released(AnalyzedStatement st) {
    return st instanceof AnalyzedStatement.PrivateAggregate p ? p.released()
        : ((AnalyzedStatement.PrivateWorkload) st).released();
  }

  /**
   * Every form that reads a private table is planned privately (and refused when it would
   * return raw rows), however the table is named, and a CTE may not have a private table's
   * name (backends differ on which one such a name reads); a statement whose plan reads only
   * public tables is passed through, whatever identifiers in it share a private table's name.
   */
  @Test
  void whichTablesAStatementReadsIsDecidedOnItsPlan() throws SQLException {
    for (String sql : List.of("TABLE T", "SELECT * FROM T TABLESAMPLE SYSTEM (50)",
        "SELECT * FROM T TABLESAMPLE BERNOULLI (50) REPEATABLE (3)",
        "SELECT * FROM (WITH T AS (SELECT 1 AS X) SELECT * FROM T) a, T",
        "WITH T AS (SELECT CODE FROM R) SELECT COUNT(*) FROM T",
        "SELECT * FROM R UNION SELECT G, G FROM T")) {
      SQLException e = assertThrows(SQLException.class, () -> frontEnd.analyze(sql), sql);
      assertEquals("XDP02", e.getSQLState(), sql + ": " + e.getMessage());
    }
    for (String sql : List.of("WITH S AS (SELECT CODE FROM R WHERE CODE = ?) SELECT COUNT(*) "
        + "FROM S", "SELECT * FROM R TABLESAMPLE SYSTEM (50)", "VALUES (1)",
        // a table operator's column named like the private table: the plan reads R only
        "SELECT * FROM (SELECT CODE AS T, ZONE FROM R) PIVOT (COUNT(*) FOR T IN ('a' AS A))")) {
      assertInstanceOf(AnalyzedStatement.PassThrough.class, frontEnd.analyze(sql), sql);
    }
  }

  /** A statement too deep for the analysis is a clear refusal, not a stack overflow. */
  @Test
  void aStatementTooDeepIsRefusedClearly() {
    StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM T WHERE A = 0");
    for (int i = 1; i < 3000; i++) {
      sql.append(" UNION ALL SELECT COUNT(*) FROM T WHERE A = ").append(i % 10);
    }
    SQLException e = assertThrows(SQLException.class, () -> frontEnd.analyze(sql.toString()));
    assertEquals("XDP03", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().contains("nested too deeply"), e.getMessage());
  }

  @Test
  void aStatementIsPlannedOnce() throws SQLException {
    for (String sql : List.of("SELECT COUNT(*) FROM T", "SELECT G, COUNT(*) AS n FROM T GROUP "
        + "BY G HAVING COUNT(*) > 2 ORDER BY n", "SELECT COUNT(*) FROM T WHERE A = ?",
        "SELECT G, COUNT(*) AS n FROM T WHERE A = ? GROUP BY G HAVING COUNT(*) > ? LIMIT ?",
        // the lookup of R's column cannot be answered over G's cells (a public column counted):
        // the same converted plan, normalised with the join split, answers it
        "SELECT R.ZONE, COUNT(R.ZONE) FROM T JOIN R ON T.G = R.CODE GROUP BY R.ZONE")) {
      long before = frontEnd.plannedStatements();
      frontEnd.analyze(sql);
      assertEquals(before + 1, frontEnd.plannedStatements(), sql);
    }
  }

  @Test
  void refusalsComeFromTheOnePath() {
    // a backend column outside the policy, a raw row, an aggregate dpsql does not answer
    SQLException outside = assertThrows(SQLException.class,
        () -> frontEnd.analyze("SELECT NOTE, COUNT(*) FROM T GROUP BY NOTE"));
    assertEquals("XDP02", outside.getSQLState(), outside.getMessage());
    assertTrue(outside.getMessage().contains("NOTE"), outside.getMessage());
    assertEquals("XDP02", assertThrows(SQLException.class,
        () -> frontEnd.analyze("SELECT G FROM T")).getSQLState());
    assertEquals("XDP03", assertThrows(SQLException.class,
        () -> frontEnd.analyze("SELECT BIT_AND(A) FROM T")).getSQLState());
    // an outer join with a public table: the lookup analysis says why
    SQLException left = assertThrows(SQLException.class,
        () -> frontEnd.analyze("SELECT G, COUNT(*) FROM T LEFT JOIN R ON T.G = R.CODE GROUP BY G"));
    assertEquals("XDP03", left.getSQLState(), left.getMessage());
    assertTrue(left.getMessage().contains("LEFT"), left.getMessage());
  }
}
