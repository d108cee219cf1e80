package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.dpsql.sql.ReleaseRules.expression;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.dpsql.rewrite.PublicJoin;
import org.junit.jupiter.api.Test;

/** {@link PublicColumnAggregateRule}: a lookup join aggregates private columns only. */
class PublicColumnAggregateRuleTest {

  /** STATES joined on TRIPS.STATE = STATES.CODE, its NAME and POP used. */
  private static List<PublicJoin> states() throws SQLException {
    LinkedHashMap<String, Integer> used = new LinkedHashMap<>();
    used.put("NAME", Types.VARCHAR);
    used.put("POP", Types.INTEGER);
    return List.of(PublicJoin.of("STATES", "CODE", column("STATE"), used, List.of(
        new Object[] {"NY", "New York", 19}, new Object[] {"CA", "California", 39},
        new Object[] {"TX", "Texas", 30}, new Object[] {"IL", "Illinois", 13})));
  }

  @Test
  void privateColumnsAndRowsAreAggregated() throws SQLException {
    for (String call : new String[] {"SUM(FARE)", "COUNT(*)", "AVG(\"TRIPS\".\"AGE\")"}) {
      PublicColumnAggregateRule.check((SqlCall) expression(call), states(), "TRIPS");
    }
    assertInstanceOf(AnalyzedStatement.PrivateWorkload.class, ReleaseRules.analyze(
        "SELECT S.NAME, SUM(T.FARE) FROM TRIPS T JOIN STATES S ON T.STATE = S.CODE "
            + "GROUP BY S.NAME"));
  }

  @Test
  void aPublicColumnIsNotAggregated() throws SQLException {
    List<PublicJoin> joins = states();
    assertRefused("XDP03", () -> PublicColumnAggregateRule.check(
        (SqlCall) expression("SUM(\"STATES\".\"POP\")"), joins, "TRIPS"),
        "SUM(`STATES`.`POP`) aggregates a column of public table STATES",
        "aggregate columns of private table TRIPS (or COUNT(*))");
    // the join over the private table's released rows is tried next, and cannot answer this
    assertRefused("XDP03", "SELECT S.NAME, AVG(S.POP) FROM TRIPS T JOIN STATES S "
        + "ON T.STATE = S.CODE GROUP BY S.NAME", "aggregates a column of public table STATES");
  }
}
