package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DerivedValuesRule}: a derived column has a value for every value of its domain. */
class DerivedValuesRuleTest {

  @Test
  void valuesOnTheWholeDomainAreAccepted() throws SQLException {
    DerivedValuesRule.check(List.of("UPPER(STATE)", "LOWER(STATE)"), column("STATE"),
        List.of(new Object[] {"NY", "NY", "ny"}, new Object[] {"CA", "CA", "ca"}));
    AnalyzedStatement s = ReleaseRules.analyze("SELECT CASE WHEN STATE = 'NY' THEN 'ny' ELSE "
        + "'other' END AS s, COUNT(*) FROM TRIPS GROUP BY CASE WHEN STATE = 'NY' THEN 'ny' ELSE "
        + "'other' END");
    assertInstanceOf(AnalyzedStatement.PrivateWorkload.class, s);
  }

  @Test
  void aNullValueIsRefused() {
    assertRefused("XDP03", () -> DerivedValuesRule.check(List.of("UPPER(STATE)",
        "CASE WHEN STATE = 'NY' THEN 1 END"), column("STATE"), List.of(
            new Object[] {"NY", "NY", 1}, new Object[] {"CA", "CA", null})),
        "CASE WHEN STATE = 'NY' THEN 1 END is NULL for STATE = CA",
        "add an ELSE, or COALESCE");
    assertRefused("XDP03", "SELECT CASE WHEN STATE = 'NY' THEN 'ny' END AS s, COUNT(*) FROM "
        + "TRIPS GROUP BY CASE WHEN STATE = 'NY' THEN 'ny' END", "is NULL for STATE = CA");
  }

  @Test
  void anExpressionTheBackendCannotEvaluateIsRefused() {
    SQLException e = DerivedValuesRule.notEvaluated("CAST(STATE AS INTEGER)", column("STATE"),
        new SQLException("Data conversion error", "22018"));
    assertEquals("XDP03", e.getSQLState());
    assertEquals("cannot evaluate CAST(STATE AS INTEGER) on the domain of STATE (Data "
        + "conversion error); use an expression that has a value for every value of the domain",
        e.getMessage());
    assertRefused("XDP03", "SELECT CAST(STATE AS INT), COUNT(*) FROM TRIPS "
        + "GROUP BY CAST(STATE AS INT)", "cannot evaluate CAST(\"STATE\" AS INTEGER) on the "
        + "domain of STATE");
    assertRefused("XDP03", "SELECT COUNT(*) FROM TRIPS WHERE 10 / (AGE - 16) > 1",
        "cannot evaluate 10 / (\"AGE\" - 16) on the domain of AGE");
  }
}
