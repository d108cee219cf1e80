package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-query bounding on H2 (the random numbering of each unit's filtered rows) keeps exactly
 * min(n, k) of each unit's n filtered rows, NULL units counting as one unit, with the analyst's
 * parameters bound. Heavy units' rows all have the same value, so even the bounded sums are
 * deterministic and checked exactly against H2's own answers.
 */
class PerQueryBoundingTest {

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void keepsMinOfNAndKRowsPerUnitUnderAParameterisedFilter(boolean notNull) throws Exception {
    String url = "jdbc:h2:mem:h" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
    Path policy = Files.createTempFile("heavy-units", ".yaml");
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      // units 0..299 light (1 to 3 rows, values vary), units 1000..1019 heavy (40 rows, V = 7);
      // with notNull false, 30 more rows have a NULL unit (V = 7)
      st.execute("CREATE TABLE R (ID INT PRIMARY KEY, U INT" + (notNull ? " NOT NULL" : "")
          + ", G VARCHAR(1) NOT NULL, A INT NOT NULL, V INT)");
      st.execute("INSERT INTO R SELECT X, MOD(X, 300), CASE MOD(X, 3) WHEN 0 THEN 'a' WHEN 1 THEN 'b' "
          + "ELSE 'c' END, MOD(X, 10), CASE WHEN MOD(X, 11) = 0 THEN NULL ELSE MOD(X, 13) END "
          + "FROM SYSTEM_RANGE(1, 600)");
      st.execute("INSERT INTO R SELECT 10000 + X, 1000 + MOD(X, 20), CASE MOD(X, 3) WHEN 0 THEN 'a' "
          + "WHEN 1 THEN 'b' ELSE 'c' END, MOD(X / 20, 10), 7 FROM SYSTEM_RANGE(1, 800)");
      if (!notNull) {
        st.execute("INSERT INTO R SELECT 20000 + X, NULL, 'a', MOD(X, 10), 7 FROM SYSTEM_RANGE(1, 30)");
      }
      Files.writeString(policy, "allow_seed: true\nbudget:\n  accounting: zcdp\n"
          + "  per_connection: {rho: 10}\n  default_query: {rho: 1}\ntables:\n  R:\n"
          + "    privacy_unit: U\n    max_rows_per_unit: 4\n    columns:\n"
          + "      G: {values: [a, b, c]}\n      A: {min: 0, max: 9}\n      V: {clamp: [0, 20]}\n");

      Policy p = PolicyLoader.load(policy.toString(), c);
      SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(c.getMetaData());
      FrontEnd analyzer = new FrontEnd(p, BackendCatalog.read(c, p), c.getSchema(), dialect);
      AnalyzedStatement.PrivateAggregate q = (AnalyzedStatement.PrivateAggregate) analyzer.analyze(
          "SELECT G, COUNT(*), COUNT(V), SUM(V) FROM R WHERE A >= ? AND G <> ? GROUP BY G");
      ExactMeasurer measurer = new ExactMeasurer(c, dialect);
      MeasurementPlan plan = MeasurementPlan.of(q.query());
      String sql = measurer.sqlFor(plan).sql();
      assertTrue(sql.contains("ROW_NUMBER() OVER (PARTITION BY") && sql.contains("\"DPSQL_RN\" <= 4"),
          sql);
      long[][] x = measurer.measure(plan, List.of(3, "c"));

      String filtered = "SELECT * FROM R WHERE A >= 3 AND G <> 'c'";
      // per cell: light units keep every filtered row; a heavy unit (or the NULL unit) keeps 4
      // of its filtered rows, all with V = 7, spread over the cells at random: check the totals
      // exactly and each cell's light part as a lower bound
      long rows = exact(c, "SELECT SUM(LEAST(N, 4)) FROM (SELECT COUNT(*) N FROM (" + filtered
          + ") GROUP BY U)");
      long lightValues = exact(c, "SELECT COUNT(V) FROM (" + filtered + ") WHERE U < 1000");
      long lightSum = exact(c, "SELECT SUM(V) FROM (" + filtered + ") WHERE U < 1000");
      long heavyKept = exact(c, "SELECT SUM(LEAST(N, 4)) FROM (SELECT COUNT(*) N FROM (" + filtered
          + ") WHERE U IS NULL OR U >= 1000 GROUP BY U)");
      assertEquals(notNull ? 20 * 4 : 21 * 4, heavyKept, "every heavy unit has more than 4 filtered rows");
      assertEquals(rows, x[0][0] + x[0][1] + x[0][2], "COUNT(*)");
      assertEquals(lightValues + heavyKept, x[1][0] + x[1][1] + x[1][2], "COUNT(V)");
      // SUM in steps of 1 (integer clamp): heavy rows add 7 each
      assertEquals(lightSum + 7 * heavyKept, x[2][0] + x[2][1] + x[2][2], "SUM(V)");
      assertEquals(0, x[0][2], "G <> 'c' leaves cell c empty");
      for (int cell = 0; cell < 2; cell++) {
        String g = cell == 0 ? "a" : "b";
        long light = exact(c, "SELECT COUNT(*) FROM (" + filtered + ") WHERE U < 1000 AND G = '" + g + "'");
        assertTrue(x[0][cell] >= light && x[0][cell] <= light + heavyKept, "cell " + g + ": " + x[0][cell]);
      }
      st.execute("SHUTDOWN");
    } finally {
      Files.deleteIfExists(policy);
    }
  }

  private static long exact(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
