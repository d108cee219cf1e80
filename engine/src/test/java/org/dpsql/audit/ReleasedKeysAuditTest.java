package org.dpsql.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The audit of which groups a release returns (issue 32): a statement's own filter leaves out the
 * cells it excludes, and that choice must depend on the statement and the policy alone, never on
 * the data. On the audit's neighbouring databases (D, and D' = D plus one unit with 100 rows in
 * cell (G = A, AGE = 3), see {@link AuditCases}), every release path returns exactly the same
 * group keys on both sides, and they are the cells the filter can contain, whether or not the
 * added unit's cell is among them. The noise and the charge of the returned cells are those of the
 * release of every cell (the excluded ones are still measured and noised, then dropped), so the
 * noise audit of {@link ReleasePathAuditTest} covers them unchanged.
 */
class ReleasedKeysAuditTest {
  static NeighbouringDatabases dbs;

  /** A statement, how many leading columns are its group keys, and the keys it must return. */
  record Case(String name, String sql, int keyColumns, List<String> keys) {}

  static List<Case> cases() {
    return List.of(
        new Case("count", "SELECT G, COUNT(*) AS N FROM T WHERE G = 'B' GROUP BY G", 1,
            List.of("B")),
        new Case("count, the unit's cell kept", "SELECT G, AGE, COUNT(*) AS N FROM T "
            + "WHERE G = 'A' AND AGE BETWEEN 2 AND 4 GROUP BY G, AGE", 2,
            List.of("A|2", "A|3", "A|4")),
        new Case("sum and avg", "SELECT AGE, SUM(V) AS S, AVG(V) AS M FROM T WHERE AGE IN (3, 6) "
            + "GROUP BY AGE", 1, List.of("3", "6")),
        new Case("median", "SELECT AGE, MEDIAN(V) AS Q FROM T WHERE AGE > 5 GROUP BY AGE", 1,
            List.of("6", "7")),
        new Case("median with count", "SELECT AGE, COUNT(*) AS N, MEDIAN(V) AS Q FROM T "
            + "WHERE AGE < 2 OR AGE = 3 GROUP BY AGE", 1, List.of("0", "1", "3")),
        new Case("distinct units", "SELECT AGE, COUNT(DISTINCT UNIT) AS N FROM T "
            + "WHERE NOT (AGE >= 1) GROUP BY AGE", 1, List.of("0")),
        new Case("composite", "SELECT AGE, N * 2 AS X FROM (SELECT AGE, COUNT(*) AS N FROM T "
            + "WHERE AGE <> 3 AND AGE <= 4 GROUP BY AGE) s", 1, List.of("0", "1", "2", "4")),
        new Case("union all", "SELECT G, COUNT(*) AS N FROM T WHERE G = 'A' GROUP BY G "
            + "UNION ALL SELECT G, COUNT(*) AS N FROM T WHERE G <> 'A' GROUP BY G", 1,
            List.of("A", "B")),
        new Case("rollup", "SELECT G, AGE, COUNT(*) AS N FROM T WHERE AGE = 3 "
            + "GROUP BY ROLLUP(G, AGE)", 2, List.of("A|3", "A|null", "B|3", "B|null",
                "null|null")),
        new Case("time series", "SELECT CAST(TS AS DATE) AS D, COUNT(*) AS N FROM T WHERE "
            + "TS >= TIMESTAMP '2024-01-03 00:00:00' AND TS < TIMESTAMP '2024-01-06 00:00:00' "
            + "GROUP BY CAST(TS AS DATE)", 1, List.of("2024-01-03", "2024-01-04",
                "2024-01-05")));
  }

  @BeforeAll
  static void neighbours() throws Exception {
    dbs = NeighbouringDatabases.create(AuditCases.aggregateBackground(),
        AuditCases.aggregateUnit(), AuditCases.aggregatePolicy(AuditCases.PURE_DEFAULT_2,
            "      TS: {min: 2024-01-01, max: 2024-01-07, bin: 1 day}\n"));
  }

  @AfterAll
  static void close() throws Exception {
    dbs.close();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theSameKeysOnNeighbouringDatabasesAndOnlyThoseTheFilterCanContain(Case c)
      throws Exception {
    List<String> without = keys(NeighbouringDatabases.Side.WITHOUT, c, 1);
    List<String> with = keys(NeighbouringDatabases.Side.WITH, c, 1);
    assertEquals(without, with, c.sql() + ": the released keys differ between D and D'");
    assertEquals(c.keys(), without, c.sql());
    // another seed, another noise: the same keys
    assertEquals(without, keys(NeighbouringDatabases.Side.WITH, c, 2), c.sql());
  }

  private static List<String> keys(NeighbouringDatabases.Side side, Case c, long seed)
      throws Exception {
    Properties p = new Properties();
    p.setProperty("policy", dbs.policy().toString());
    p.setProperty("seed", Long.toString(seed));
    List<String> out = new ArrayList<>();
    try (Connection conn = DriverManager.getConnection(dbs.dpsqlUrl(side, null), p);
        Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(c.sql())) {
      while (rs.next()) {
        List<String> key = new ArrayList<>();
        for (int i = 1; i <= c.keyColumns(); i++) {
          Object v = rs.getObject(i);
          key.add(v instanceof Number n ? Long.toString(n.longValue()) : String.valueOf(v));
        }
        out.add(String.join("|", key));
      }
    }
    java.util.Collections.sort(out);
    return out;
  }
}
