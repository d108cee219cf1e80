package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DerivedColumns}: a derived column is evaluated by the backend on its column's domain, and
 * a deterministic one only once however often a statement using it is analysed.
 */
class DerivedColumnsTest {

  @Test
  void aDeterministicExpressionIsEvaluatedOnceOnTheDomain() throws SQLException {
    List<String> reads = new ArrayList<>();
    FrontEnd.PublicRowReader rows = ReleaseRules.publicRows();
    FrontEnd frontEnd = ReleaseRules.frontEnd(sql -> {
      reads.add(sql);
      return rows.read(sql);
    });
    String sql = "SELECT LOWER(STATE) AS s, COUNT(*) FROM TRIPS GROUP BY LOWER(STATE)";
    AnalyzedStatement first = frontEnd.analyze(sql);
    assertInstanceOf(AnalyzedStatement.PrivateWorkload.class, first);
    assertEquals(1, reads.size(), reads.toString());
    // the four values of STATE's domain, evaluated by the backend
    assertEquals(4, rows.read(reads.get(0)).size());
    frontEnd.analyze(sql);
    frontEnd.analyze("SELECT COUNT(*) FROM TRIPS WHERE LOWER(STATE) = 'ny'");
    assertEquals(1, reads.size(), "evaluated once: " + reads);
    // the release carries the definition in its identity
    assertEquals(first.normalizedSql(), frontEnd.analyze(sql).normalizedSql());
  }
}
