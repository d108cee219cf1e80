package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.expression;
import static org.dpsql.sql.ReleaseRules.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import org.apache.calcite.sql.SqlNode;
import org.junit.jupiter.api.Test;

/** {@link FilterOperatorsRule}: a release's filter cannot fail on a row value. */
class FilterOperatorsRuleTest {

  @Test
  void comparisonsLogicRangesAndArithmeticAreKeptWithBareColumnNames() throws SQLException {
    SqlNode checked = FilterOperatorsRule.check(expression("\"TRIPS\".\"STATE\" = 'NY' AND "
        + "(AGE BETWEEN 20 AND 30 OR NOT (FARE * 2 + 1 > ?) OR PAYMENT LIKE 'C%' OR COUNTY IS "
        + "NULL OR AGE IN (1, 2) OR -\"HOUR\" < 3 OR (FARE > 3) IS TRUE)"), trips());
    assertEquals("`STATE` = 'NY' AND (`AGE` BETWEEN ASYMMETRIC 20 AND 30 OR NOT `FARE` * 2 + 1 "
        + "> ? OR `PAYMENT` LIKE 'C%' OR `COUNTY` IS NULL OR `AGE` IN (1, 2) OR - `HOUR` < 3 OR "
        + "`FARE` > 3 IS TRUE)", checked.toString().replace('\n', ' '));
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class, ReleaseRules.analyze(
        "SELECT COUNT(*) FROM TRIPS WHERE FARE BETWEEN 1 AND 5 AND AGE + HOUR > 40 AND PAYMENT "
            + "NOT LIKE 'C%' AND ZONE LIKE 'Z%' AND FARE > ?"));
  }

  @Test
  void anOperatorThatCanFailOnARowIsRefused() {
    assertRefused("XDP03", () -> FilterOperatorsRule.check(expression("FARE / 2 > 3"), trips()),
        "WHERE on a private table may use comparisons", "not / (`FARE` / 2)",
        "an operator that can fail on some rows would reveal them");
    assertRefused("XDP03", () -> FilterOperatorsRule.check(expression("ABS(FARE) > 3"),
        trips()), "not ABS (ABS(`FARE`))");
    assertRefused("XDP03", "SELECT COUNT(*) FROM TRIPS WHERE CAST(FARE AS INT) > 3",
        "not CAST (CAST(`FARE` AS INTEGER))");
    // a column without listed values is not derived on its domain: evaluated on the rows
    assertRefused("XDP03", "SELECT COUNT(*) FROM TRIPS WHERE MOD(SHIFT, 2) = 0", "not MOD");
    assertRefused("XDP03", "SELECT COUNT(*) FROM TRIPS WHERE COALESCE(FARE, 0) > 3", "not CASE");
  }

  @Test
  void itsColumnsArePolicyColumnsUsedByValue() {
    assertRefused("XDP02", () -> FilterOperatorsRule.check(expression("RIDER_ID = 5 AND "
        + "FARE > 1"), trips()), "column RIDER_ID (in WHERE) is not in the policy");
    assertRefused("XDP03", () -> FilterOperatorsRule.check(expression("PICKUP_AT IS NULL"),
        trips()), "PICKUP_AT (in WHERE) is a time column");
    assertRefused("XDP02", "SELECT S.NAME, COUNT(*) FROM TRIPS T JOIN STATES S ON "
        + "T.STATE = S.CODE WHERE T.RIDER_ID = 3 GROUP BY S.NAME",
        "column RIDER_ID (in WHERE) is not in the policy");
  }
}
