package org.dpsql.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.release.ResultTable;
import org.dpsql.release.WorkloadAnswer;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.OutputItem;
import org.dpsql.sql.FrontEnd;
import org.dpsql.sql.WorkloadQuery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rewriting of SQL into linear queries over data vectors is exact: for every statement of a
 * suite (ranges, IN lists, OR, NOT, LIKE, GROUP BY on 1–3 columns, ROLLUP, CUBE, GROUPING SETS,
 * UNION ALL batches, COUNT(col), SUM, AVG, parameters), each released cell computed noise-free as
 * {@code Σ x_cell} over the exact data vectors equals the backend's own answer to the same
 * aggregate (zeros for groups the backend does not return).
 */
class WorkloadRewritingTest {
  private static Connection backend;
  private static FrontEnd analyzer;
  private static ExactMeasurer measurer;
  private static SqlDialect dialect;
  private static Path policyFile;

  @BeforeAll
  static void setUp() throws Exception {
    String url = "jdbc:h2:mem:w" + UUID.randomUUID().toString().replace("-", "");
    backend = DriverManager.getConnection(url);
    try (Statement st = backend.createStatement()) {
      st.execute("CREATE TABLE PEOPLE (ID BIGINT PRIMARY KEY, HH INT NOT NULL, AGE INT NOT NULL, "
          + "SEX VARCHAR(1) NOT NULL, REGION VARCHAR(2) NOT NULL, GRADE INT NOT NULL, "
          + "INCOME DECIMAL(8,2), SCORE DECIMAL(4,1) NOT NULL)");
    }
    SplittableRandom r = new SplittableRandom(11);
    String[] regions = {"N", "S", "E", "W", "NE"};
    try (PreparedStatement ps = backend.prepareStatement(
        "INSERT INTO PEOPLE VALUES (?,?,?,?,?,?,?,?)")) {
      for (int i = 0; i < 3000; i++) {
        ps.setLong(1, i);
        ps.setInt(2, i / 2); // two people per household: max_rows_per_unit 2 keeps everyone
        ps.setInt(3, (int) Math.min(63, Math.abs(r.nextGaussian() * 18 + 30)));
        ps.setString(4, r.nextBoolean() ? "F" : "M");
        ps.setString(5, regions[r.nextInt(5)]);
        ps.setInt(6, r.nextInt(1, 6));
        if (i % 17 == 0) {
          ps.setNull(7, java.sql.Types.DECIMAL);
        } else {
          ps.setBigDecimal(7, BigDecimal.valueOf(r.nextInt(0, 20000), 2));
        }
        ps.setBigDecimal(8, BigDecimal.valueOf(r.nextInt(0, 100), 1));
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (Statement st = backend.createStatement()) {
      // public lookups: NE has no row (the inner join drops it), X is outside the policy domain
      st.execute("CREATE TABLE REGIONS (CODE VARCHAR(2) PRIMARY KEY, NAME VARCHAR(20) NOT NULL, "
          + "ZONE VARCHAR(10) NOT NULL, POP INT NOT NULL)");
      st.execute("INSERT INTO REGIONS VALUES ('N', 'North', 'cold', 10), ('S', 'South', 'warm', "
          + "20), ('E', 'East', 'warm', 30), ('W', 'West', 'cold', 40), ('X', 'Nowhere', 'none', 0)");
      st.execute("CREATE TABLE GRADES (G INT PRIMARY KEY, LABEL VARCHAR(10) NOT NULL)");
      st.execute("INSERT INTO GRADES VALUES (1, 'low'), (2, 'low'), (3, 'mid'), (4, 'high'), "
          + "(5, 'high')");
      st.execute("CREATE TABLE TAGS (REGION VARCHAR(2), TAG VARCHAR(5))");
      st.execute("INSERT INTO TAGS VALUES ('N', 'a'), ('N', 'b'), ('S', 'c')");
      st.execute("CREATE TABLE AGES (YEARS INT PRIMARY KEY, STAGE VARCHAR(10) NOT NULL)");
      for (int a = 0; a <= 70; a++) {
        st.execute("INSERT INTO AGES VALUES (" + a + ", '" + (a < 18 ? "minor" : a < 40 ? "young"
            : "older") + "')");
      }
    }
    policyFile = Files.createTempFile("dpsql-workload", ".yaml");
    Files.writeString(policyFile, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1}\n"
        + "  default_query: {rho: 0.1}\n"
        + "tables:\n  PEOPLE:\n    privacy_unit: HH\n    max_rows_per_unit: 2\n    columns:\n"
        + "      AGE: {min: 0, max: 63, bin: 1}\n"
        + "      SEX: {values: [F, M]}\n"
        + "      REGION: {values: [N, S, E, W, NE]}\n"
        + "      GRADE: {values: [1, 2, 3, 4, 5]}\n"
        + "      INCOME: {clamp: [0, 200]}\n"
        + "      SCORE: {min: 0, max: 9.9, bin: 0.5}\n"
        + "  REGIONS: {public: true}\n  GRADES: {public: true}\n  AGES: {public: true}\n"
        + "  TAGS: {public: true}\n");
    Policy policy = PolicyLoader.load(policyFile.toString(), backend);
    BackendCatalog catalog = BackendCatalog.read(backend, policy);
    dialect = SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData());
    analyzer = new FrontEnd(policy, catalog, backend.getSchema(), dialect,
        org.dpsql.sql.PublicRows.over(backend));
    measurer = new ExactMeasurer(backend, dialect);
  }

  @AfterAll
  static void tearDown() throws Exception {
    backend.close();
    Files.deleteIfExists(policyFile);
  }

  /** Statement, parameters (after a '|': comma-separated integers or 'text'). */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT COUNT(*) FROM PEOPLE",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE BETWEEN 20 AND 29",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE < 18",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE >= 65",
      "SELECT COUNT(*) FROM PEOPLE WHERE 40 <= AGE",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE > 30 AND AGE <= 35 AND SEX = 'F'",
      "SELECT COUNT(*) FROM PEOPLE WHERE REGION IN ('N', 'NE', 'E')",
      "SELECT COUNT(*) FROM PEOPLE WHERE REGION NOT IN ('N', 'S')",
      "SELECT COUNT(*) FROM PEOPLE WHERE REGION = 'W' OR AGE < 20",
      "SELECT COUNT(*) FROM PEOPLE WHERE NOT (AGE BETWEEN 10 AND 50)",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE NOT BETWEEN 10 AND 50 AND SEX <> 'M'",
      "SELECT COUNT(*) FROM PEOPLE WHERE REGION LIKE 'N%'",
      "SELECT COUNT(*) FROM PEOPLE WHERE GRADE > 2 AND GRADE IN (1, 3, 5)",
      "SELECT COUNT(*) FROM PEOPLE WHERE SCORE >= 5 AND SCORE < 7.5",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE IS NOT NULL AND AGE = 30",
      "SELECT REGION, COUNT(*) FROM PEOPLE GROUP BY REGION",
      "SELECT SEX, REGION, COUNT(*) FROM PEOPLE WHERE AGE >= 30 GROUP BY SEX, REGION",
      "SELECT SEX, REGION, GRADE, COUNT(*) FROM PEOPLE GROUP BY SEX, REGION, GRADE",
      "SELECT AGE, COUNT(*) AS N FROM PEOPLE WHERE SEX = 'M' GROUP BY AGE",
      "SELECT REGION, COUNT(INCOME) FROM PEOPLE GROUP BY REGION",
      "SELECT REGION, SUM(INCOME) FROM PEOPLE WHERE AGE < 40 GROUP BY REGION",
      "SELECT SEX, AVG(INCOME), COUNT(*) FROM PEOPLE GROUP BY SEX",
      "SELECT SUM(AGE), AVG(SCORE) FROM PEOPLE WHERE REGION = 'S'",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE BETWEEN ? AND ?|20,39",
      "SELECT REGION, COUNT(*) FROM PEOPLE WHERE SEX = ? GROUP BY REGION|'F'",
      "SELECT COUNT(*) FROM PEOPLE WHERE AGE < 30 UNION ALL SELECT COUNT(*) FROM PEOPLE "
          + "WHERE AGE >= 30 UNION ALL SELECT COUNT(*) FROM PEOPLE",
      "SELECT REGION, COUNT(*) FROM PEOPLE GROUP BY REGION UNION ALL SELECT SEX, COUNT(*) FROM "
          + "PEOPLE GROUP BY SEX",
      "SELECT COUNT(*), SUM(INCOME) FROM PEOPLE WHERE AGE < 25 UNION ALL SELECT COUNT(*), "
          + "SUM(INCOME) FROM PEOPLE WHERE AGE BETWEEN 25 AND 63",
      "SELECT SEX, REGION, COUNT(*) FROM PEOPLE GROUP BY ROLLUP(SEX, REGION)",
      "SELECT SEX, REGION, COUNT(*), SUM(INCOME) FROM PEOPLE WHERE AGE > 20 "
          + "GROUP BY CUBE(SEX, REGION)",
      "SELECT SEX, GRADE, COUNT(*) FROM PEOPLE GROUP BY GROUPING SETS ((SEX, GRADE), (GRADE), ())",
      "SELECT REGION, SEX, COUNT(*) FROM PEOPLE GROUP BY REGION, ROLLUP(SEX)",
      "SELECT /*+ DP(rho='0.2') */ COUNT(*) FROM PEOPLE WHERE AGE BETWEEN 0 AND 9 UNION ALL "
          + "SELECT COUNT(*) FROM PEOPLE WHERE AGE BETWEEN 10 AND 19 UNION ALL SELECT COUNT(*) "
          + "FROM PEOPLE WHERE AGE BETWEEN 0 AND 19",
  })
  void exactAnswerThroughTheWorkloadEqualsTheBackend(String spec) throws Exception {
    String[] parts = spec.split("\\|");
    String sql = parts[0];
    List<Object> params = parameters(parts.length > 1 ? parts[1] : "");
    AnalyzedStatement st = analyzer.analyze(sql);
    WorkloadQuery wq;
    if (st instanceof AnalyzedStatement.PrivateWorkload w) {
      wq = w.query();
    } else {
      AggregateQuery q = ((AnalyzedStatement.PrivateAggregate) st).query();
      wq = new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL, q.table(), List.of(q), q.hint(),
          List.of());
    }
    WorkloadPlan plan = WorkloadPlan.of(wq, params);
    ResultTable table = exactRelease(plan, params);
    int row = 0;
    for (int p = 0; p < wq.parts().size(); p++) {
      AggregateQuery part = wq.parts().get(p);
      Map<List<Object>, Object[]> truth = backendAnswer(part, params);
      // groups that no cell of the filter reaches have no row (as in SQL)
      int part0 = p;
      long groups = plan.results().stream().filter(r -> r.part() == part0).count();
      for (int g = 0; g < groups; g++, row++) {
        Object[] released = table.rows().get(row);
        List<Object> key = new ArrayList<>();
        for (ColumnPolicy c : part.groupBy()) {
          int o = indexOfKey(part, c);
          key.add(normalise(o < 0 ? plan.partGroups().get(p).keysOf(g)[part.groupBy().indexOf(c)]
              : released[position(wq, o)]));
        }
        Object[] expected = truth.get(key);
        int a = 0;
        for (int o = 0; o < part.outputs().size(); o++) {
          OutputItem item = part.outputs().get(o);
          if (item.isGroupKey()) {
            if (!part.groupBy().contains(item.column())) {
              assertEquals(null, released[position(wq, o)], "rolled-up key is NULL");
            }
            continue;
          }
          Object got = released[position(wq, o)];
          Object want = expected == null ? null : expected[a];
          a++;
          String where = sql + " part " + p + " group " + key + " output " + item.label();
          if (item.aggregate() == AggregateKind.AVG) {
            if (want == null) {
              assertEquals(null, got, where);
            } else {
              assertEquals(((Number) want).doubleValue(), (Double) got, 1e-6, where);
            }
          } else {
            double w = want == null ? 0 : ((Number) want).doubleValue();
            assertEquals(w, (Double) got, 1e-6 * Math.max(1, Math.abs(w)), where);
          }
        }
      }
    }
    assertEquals(row, table.rows().size(), "one released row per group of every part");
  }

  /**
   * Joins with public lookup tables: each branch of the statement (split at UNION ALL) is run on
   * the backend as written, and every released row equals the backend's row with the same group
   * keys (0, or NULL for AVG, when the backend has no such group).
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.CODE",
      "SELECT R.NAME, COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.CODE GROUP BY R.NAME",
      "SELECT ZONE, COUNT(*) AS N FROM PEOPLE JOIN REGIONS ON REGION = CODE GROUP BY ZONE",
      "SELECT COUNT(*) FROM PEOPLE P JOIN REGIONS R ON R.CODE = P.REGION WHERE R.POP > 15 "
          + "AND P.AGE < 40",
      "SELECT R.ZONE, P.SEX, SUM(P.INCOME), AVG(P.INCOME) FROM PEOPLE P INNER JOIN REGIONS R "
          + "ON P.REGION = R.CODE WHERE NOT (R.NAME LIKE 'N%') GROUP BY R.ZONE, P.SEX",
      "SELECT G.LABEL, COUNT(*) FROM PEOPLE P JOIN GRADES G ON P.GRADE = G.G "
          + "WHERE G.LABEL IN ('low', 'high') OR P.SEX = 'F' GROUP BY G.LABEL",
      "SELECT A.STAGE, R.ZONE, COUNT(*) FROM PEOPLE P JOIN AGES A ON P.AGE = A.YEARS "
          + "JOIN REGIONS R ON P.REGION = R.CODE GROUP BY A.STAGE, R.ZONE",
      "SELECT R.ZONE, COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.CODE WHERE R.POP "
          + "BETWEEN ? AND ? GROUP BY R.ZONE|15,35",
      "SELECT R.ZONE, COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.CODE GROUP BY R.ZONE "
          + "UNION ALL SELECT P.SEX, COUNT(*) FROM PEOPLE P GROUP BY P.SEX",
  })
  void joinsWithPublicTablesEqualTheBackend(String spec) throws Exception {
    String[] parts = spec.split("\\|");
    String sql = parts[0];
    List<Object> params = parameters(parts.length > 1 ? parts[1] : "");
    AnalyzedStatement st = analyzer.analyze(sql);
    WorkloadQuery wq = ((AnalyzedStatement.PrivateWorkload) st).query();
    WorkloadPlan plan = WorkloadPlan.of(wq, params);
    ResultTable table = exactRelease(plan, params);
    String[] branches = sql.split(" UNION ALL ");
    int row = 0;
    for (int p = 0; p < branches.length; p++) {
      AggregateQuery part = wq.parts().get(p);
      List<Integer> keyPositions = new ArrayList<>();
      for (int o = 0; o < part.outputs().size(); o++) {
        if (part.outputs().get(o).isGroupKey()) {
          keyPositions.add(o);
        }
      }
      Map<List<Object>, Object[]> truth = new HashMap<>();
      try (PreparedStatement ps = backend.prepareStatement(branches[p])) {
        for (int i = 0; i < params.size(); i++) {
          ps.setObject(i + 1, params.get(i));
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            Object[] r = new Object[part.outputs().size()];
            List<Object> key = new ArrayList<>();
            for (int o = 0; o < r.length; o++) {
              r[o] = rs.getObject(o + 1);
              if (keyPositions.contains(o)) {
                key.add(normalise(r[o]));
              }
            }
            truth.put(key, r);
          }
        }
      }
      // groups that no cell of the filter reaches have no row (as in SQL)
      int part0 = p;
      long groups = plan.results().stream().filter(r -> r.part() == part0).count();
      for (int g = 0; g < groups; g++, row++) {
        Object[] released = table.rows().get(row);
        List<Object> key = new ArrayList<>();
        for (int o : keyPositions) {
          key.add(normalise(released[o]));
        }
        Object[] expected = truth.remove(key);
        for (int o = 0; o < part.outputs().size(); o++) {
          OutputItem item = part.outputs().get(o);
          if (item.isGroupKey()) {
            continue;
          }
          String where = sql + " part " + p + " group " + key + " output " + item.label();
          Object want = expected == null ? null : expected[o];
          if (item.aggregate() == AggregateKind.AVG) {
            if (want == null) {
              assertEquals(null, released[o], where);
            } else {
              assertEquals(((Number) want).doubleValue(), (Double) released[o], 1e-6, where);
            }
          } else {
            double w = want == null ? 0 : ((Number) want).doubleValue();
            assertEquals(w, (Double) released[o], 1e-6 * Math.max(1, Math.abs(w)), where);
          }
        }
      }
      assertTrue(truth.isEmpty(), "groups the backend has and dpsql does not: " + truth.keySet());
    }
    assertEquals(row, table.rows().size());
  }

  @Test
  void joinsAnsweredAsPostProcessingOfReleases() throws Exception {
    // joins that would multiply a person's rows in the backend are instead split by the
    // relational front end: one release per private side, grouped by the join keys, and the
    // join, public multiplicities and public columns applied to the released counts
    for (String sql : List.of(
        "SELECT COUNT(*) FROM PEOPLE P JOIN GRADES G ON P.AGE = G.G JOIN GRADES H ON P.GRADE = H.G "
            + "JOIN REGIONS R ON R.CODE = G.LABEL",
        "SELECT SUM(R.POP) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.CODE",
        "SELECT COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.ZONE",
        "SELECT COUNT(*) FROM PEOPLE P JOIN TAGS T ON P.REGION = T.REGION",
        "SELECT COUNT(*) FROM PEOPLE P CROSS JOIN REGIONS R")) {
      AnalyzedStatement st = analyzer.analyze(sql);
      assertTrue(st instanceof AnalyzedStatement.Composite, sql + ": " + st);
      AnalyzedStatement.Composite c = (AnalyzedStatement.Composite) st;
      assertTrue(c.plan().releases().size() >= 1, sql);
      for (var r : c.plan().releases()) {
        assertTrue(r.coreSql().contains("\"PEOPLE\""), r.coreSql());
      }
    }
  }

  @Test
  void joinsThatCouldMultiplyRowsOrAggregatePublicColumnsAreRefused() {
    for (String[] c : new String[][] {
        {"SELECT COUNT(*) FROM PEOPLE P LEFT JOIN REGIONS R ON P.REGION = R.CODE", "LEFT"},
        {"SELECT COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.REGION = R.CODE AND R.POP > 3",
            "one equality"},
        {"SELECT COUNT(*) FROM PEOPLE P JOIN REGIONS R ON P.INCOME = R.POP", "public domain"},
    }) {
      SQLException e = assertThrows(SQLException.class, () -> analyzer.analyze(c[0]), c[0]);
      assertTrue(e.getMessage().contains(c[1]), c[0] + ": " + e.getMessage());
      assertTrue(e.getSQLState().startsWith("XDP") || e.getSQLState().startsWith("42"),
          e.getSQLState());
    }
  }

  @Test
  void filtersThatSplitACellAreRefused() {
    SQLException e = assertThrows(SQLException.class, () -> rewrite(
        "SELECT COUNT(*) FROM PEOPLE WHERE SCORE < 7.2"));
    assertEquals("XDP03", e.getSQLState());
    assertTrue(e.getMessage().contains("SCORE [7.0, 7.5)"), e.getMessage());
  }

  @Test
  void isNullAndColumnComparisonsAreRefusedWithTheConstructNamed() {
    SQLException e = assertThrows(SQLException.class, () -> rewrite(
        "SELECT COUNT(*) FROM PEOPLE WHERE AGE IS NULL"));
    assertEquals("XDP03", e.getSQLState());
    assertTrue(e.getMessage().contains("IS NULL"), e.getMessage());
    e = assertThrows(SQLException.class, () -> rewrite(
        "SELECT COUNT(*) FROM PEOPLE WHERE AGE < GRADE"));
    assertTrue(e.getMessage().contains("comparing two columns"), e.getMessage());
    e = assertThrows(SQLException.class, () -> rewrite(
        "SELECT COUNT(*) FROM PEOPLE WHERE INCOME > 10"));
    assertTrue(e.getMessage().contains("no public domain"), e.getMessage());
  }

  @Test
  void distinctUnionIsTwoReleasesAndPostProcessing() throws Exception {
    // UNION (distinct) is not one workload: each branch is a release of its own, and removing
    // duplicate released rows is post-processing
    AnalyzedStatement.Composite c = (AnalyzedStatement.Composite) analyzer.analyze(
        "SELECT COUNT(*) FROM PEOPLE UNION SELECT COUNT(*) FROM PEOPLE WHERE SEX = 'F'");
    assertEquals(2, c.plan().releases().size());
    assertTrue(c.plan().postSql().contains("UNION"), c.plan().postSql());
  }

  @Test
  void rollupExpandsToItsGroupingSetsInOrder() throws Exception {
    AnalyzedStatement.PrivateWorkload w = (AnalyzedStatement.PrivateWorkload) analyzer.analyze(
        "SELECT SEX, REGION, GRADE, COUNT(*) FROM PEOPLE GROUP BY ROLLUP(SEX, REGION, GRADE)");
    List<List<String>> sets = new ArrayList<>();
    for (AggregateQuery q : w.query().parts()) {
      sets.add(q.groupBy().stream().map(ColumnPolicy::name).toList());
    }
    assertEquals(List.of(List.of("SEX", "REGION", "GRADE"), List.of("SEX", "REGION"),
        List.of("SEX"), List.of()), sets);
    WorkloadPlan plan = WorkloadPlan.of(w.query(), List.of());
    assertEquals(2 * 5 * 5 + 2 * 5 + 2 + 1, plan.results().size());
    assertEquals(2 * 5 * 5, plan.cells().size());
    assertNotNull(plan.workloads().get(0));
  }

  private static WorkloadPlan rewrite(String sql) throws SQLException {
    AnalyzedStatement st = analyzer.analyze(sql);
    AggregateQuery q = ((AnalyzedStatement.PrivateAggregate) st).query();
    return WorkloadPlan.of(new WorkloadQuery(WorkloadQuery.Shape.UNION_ALL, q.table(), List.of(q),
        q.hint(), List.of()), List.of());
  }

  /** The plan's released table computed noise-free: each query's {@code Σ x_cell}. */
  private static ResultTable exactRelease(WorkloadPlan plan, List<Object> params)
      throws SQLException {
    long[][] x = measurer.measure(plan.measurementPlan(), params);
    double[][] answers = new double[x.length][];
    for (int m = 0; m < x.length; m++) {
      double[] v = new double[x[m].length];
      for (int i = 0; i < v.length; i++) {
        v[i] = x[m][i];
      }
      SparseWorkload w = plan.workloads().get(m);
      answers[m] = w.answer(v);
    }
    return WorkloadAnswer.build(plan, answers, null);
  }

  private static int indexOfKey(AggregateQuery part, ColumnPolicy c) {
    for (int o = 0; o < part.outputs().size(); o++) {
      if (part.outputs().get(o).isGroupKey() && part.outputs().get(o).column().equals(c)) {
        return o;
      }
    }
    return -1;
  }

  /** Result position of output {@code o} (no ci columns in this test). */
  private static int position(WorkloadQuery q, int o) {
    return o;
  }

  /** The backend's answer to one part: group key values → aggregate values (AVG exact). */
  private static Map<List<Object>, Object[]> backendAnswer(AggregateQuery part, List<Object> params)
      throws SQLException {
    List<String> keys = part.groupBy().stream().map(ColumnPolicy::name).toList();
    List<String> aggs = new ArrayList<>();
    for (OutputItem o : part.outputs()) {
      if (o.isGroupKey()) {
        continue;
      }
      aggs.add(switch (o.aggregate()) {
        case COUNT_STAR -> "COUNT(*)";
        case COUNT -> "COUNT(" + o.column().name() + ")";
        case SUM -> "SUM(" + o.column().name() + ")";
        case AVG -> "AVG(CAST(" + o.column().name() + " AS DOUBLE))";
        case COUNT_DISTINCT_UNIT -> "COUNT(DISTINCT " + part.table().privacyUnit() + ")";
        case COUNT_DISTINCT -> "COUNT(DISTINCT " + o.column().name() + ")";
        case QUANTILE -> throw new IllegalArgumentException("quantiles are not in workloads");
      });
    }
    List<String> select = new ArrayList<>();
    for (String k : keys) {
      // ordered domains are keyed by the bin's lower edge
      ColumnPolicy c = part.table().column(k).orElseThrow();
      select.add(c.ordered().isPresent()
          ? "FLOOR((" + k + " - " + c.ordered().get().min() + ") / " + c.ordered().get().bin()
              + ") * " + c.ordered().get().bin() + " + " + c.ordered().get().min()
          : k);
    }
    select.addAll(aggs);
    StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", select))
        .append(" FROM PEOPLE");
    org.apache.calcite.sql.util.SqlString where = part.where() == null ? null
        : part.where().toSqlString(dialect);
    if (where != null) {
      sql.append(" WHERE ").append(where.getSql());
    }
    if (!keys.isEmpty()) {
      List<String> groupExprs = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        groupExprs.add(select.get(i));
      }
      sql.append(" GROUP BY ").append(String.join(", ", groupExprs));
    }
    Map<List<Object>, Object[]> out = new HashMap<>();
    try (PreparedStatement ps = backend.prepareStatement(sql.toString())) {
      List<Integer> order = where == null || where.getDynamicParameters() == null ? List.of()
          : where.getDynamicParameters();
      for (int i = 0; i < order.size(); i++) {
        ps.setObject(i + 1, params.get(order.get(i)));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          List<Object> key = new ArrayList<>();
          for (int i = 0; i < keys.size(); i++) {
            key.add(normalise(rs.getObject(i + 1)));
          }
          Object[] vals = new Object[aggs.size()];
          for (int i = 0; i < aggs.size(); i++) {
            vals[i] = rs.getObject(keys.size() + i + 1);
          }
          out.put(key, vals);
        }
      }
    }
    return out;
  }

  private static Object normalise(Object v) {
    if (v instanceof Number n) {
      return new BigDecimal(n.toString()).stripTrailingZeros();
    }
    return v;
  }

  private static List<Object> parameters(String spec) {
    List<Object> out = new ArrayList<>();
    if (spec.isBlank()) {
      return out;
    }
    for (String s : spec.split(",")) {
      s = s.trim();
      out.add(s.startsWith("'") ? s.substring(1, s.length() - 1) : (Object) Integer.valueOf(s));
    }
    return out;
  }
}
