package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.trips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** {@link PolicyColumnRule}: a release names policy columns, used by value. */
class PolicyColumnRuleTest {

  @Test
  void aPolicyColumnIsResolvedWhateverItsCase() throws SQLException {
    assertEquals("STATE", PolicyColumnRule.resolve(trips(), "state", "GROUP BY").name());
    assertEquals("FARE", PolicyColumnRule.resolve(trips(), "FARE", "SUM").name());
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class,
        ReleaseRules.analyze("SELECT STATE, SUM(FARE) FROM TRIPS WHERE AGE > 20 GROUP BY STATE"));
  }

  @Test
  void aColumnOutsideThePolicyIsNotAllowed() {
    assertRefused("XDP02", () -> PolicyColumnRule.resolve(trips(), "RIDER_ID", "WHERE"),
        "column RIDER_ID (in WHERE) is not in the policy for private table TRIPS",
        "usable columns: STATE, COUNTY");
    // the privacy unit passes validation (a join may name it) but its values are never released
    assertRefused("XDP02", "SELECT RIDER_ID, COUNT(*) FROM TRIPS GROUP BY RIDER_ID",
        "column RIDER_ID (in GROUP BY) is not in the policy");
    assertRefused("XDP02", "SELECT COUNT(*) FROM TRIPS WHERE RIDER_ID = 5",
        "column RIDER_ID (in WHERE) is not in the policy");
  }

  @Test
  void aTimeColumnIsUsedThroughItsBinsOnly() {
    assertRefused("XDP03", () -> PolicyColumnRule.resolve(trips(), "PICKUP_AT", "COUNT"),
        "PICKUP_AT (in COUNT) is a time column", "DATE_TRUNC('month', PICKUP_AT)");
    assertRefused("XDP03", "SELECT COUNT(PICKUP_AT) FROM TRIPS",
        "PICKUP_AT (in COUNT) is a time column");
    assertRefused("XDP03", "SELECT COUNT(*) FROM TRIPS WHERE PICKUP_AT IS NULL",
        "PICKUP_AT (in WHERE) is a time column");
  }
}
