package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
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
 * Contribution bounding, measured before noise: one privacy unit with 1,000 rows moves each
 * exact measurement vector by at most max_rows_per_unit (5) rows, and a clamped sum by at most
 * 5 x 100, in every cell and in total, with either bounding mode.
 */
class ContributionBoundingTest {

  private static long[][] measure(TestDatabase db, String policyFile, String sql) throws SQLException {
    Connection backend = db.direct;
    Policy policy = PolicyLoader.load(policyFile, backend);
    BackendCatalog catalog = BackendCatalog.read(backend, policy);
    SqlDialect dialect = SqlDialectFactoryImpl.INSTANCE.create(backend.getMetaData());
    FrontEnd analyzer = new FrontEnd(policy, catalog, backend.getSchema(), dialect);
    AnalyzedStatement.PrivateAggregate q = (AnalyzedStatement.PrivateAggregate) analyzer.analyze(sql);
    // a fresh measurer per call: with bounding: snapshot each one draws its own snapshot
    return new ExactMeasurer(backend, dialect).measure(MeasurementPlan.of(q.query()), List.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"per_query", "snapshot"})
  void aHeavyUnitMovesEachCellByAtMostTheBound(String bounding) throws Exception {
    try (TestDatabase db = TestDatabase.create(2000, TestDatabase.ZCDP, null)) {
      String policy = db.policyFile.toString();
      java.nio.file.Files.writeString(db.policyFile, java.nio.file.Files.readString(db.policyFile)
          .replace("    max_rows_per_unit: 5\n", "    max_rows_per_unit: 5\n    bounding: " + bounding + "\n"));
      // make every other unit light (at most 5 rows), so that bounding acts on the heavy unit alone
      try (var st = db.direct.createStatement()) {
        st.execute("DELETE FROM TRIPS WHERE TRIP_ID IN (SELECT TRIP_ID FROM (SELECT TRIP_ID, "
            + "ROW_NUMBER() OVER (PARTITION BY RIDER_ID ORDER BY TRIP_ID) RN FROM TRIPS) WHERE RN > 5)");
      }
      String sql = "SELECT REGION, PAYMENT, COUNT(*), COUNT(FARE), SUM(FARE) FROM TRIPS GROUP BY REGION, PAYMENT";
      long[][] before = measure(db, policy, sql);
      try (PreparedStatement ps = db.direct.prepareStatement(
          "INSERT INTO TRIPS VALUES (?, 999999, ?, ?, 30, 1000.00, 'heavy')")) {
        for (int i = 0; i < 1000; i++) {
          ps.setLong(1, 1_000_000 + i);
          ps.setString(2, TestDatabase.REGIONS[i % 4]);
          ps.setString(3, TestDatabase.PAYMENTS[i % 3]);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      assertEquals(1000, db.exact("SELECT COUNT(*) FROM TRIPS WHERE RIDER_ID = 999999"));
      long[][] after = measure(db, policy, sql);
      // COUNT(*), COUNT(FARE): a row is 1; SUM(FARE) in steps of 0.001: a fare of 1000 clamps to 100
      long[] perRow = {1, 1, 100_000};
      for (int m = 0; m < 3; m++) {
        long total = 0;
        for (int cell = 0; cell < before[m].length; cell++) {
          long d = after[m][cell] - before[m][cell];
          assertTrue(d >= 0 && d <= 5 * perRow[m], "measurement " + m + " cell " + cell + " moved by " + d);
          total += d;
        }
        assertEquals(5 * perRow[m], total, "measurement " + m + ": the unit's 1000 rows count as 5");
      }
    }
  }
}
