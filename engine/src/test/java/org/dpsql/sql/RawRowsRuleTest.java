package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.dpsql.sql.ReleaseRules.trips;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RawRowsRule}: a release aggregates, or lists the groups of a plain GROUP BY. */
class RawRowsRuleTest {

  @Test
  void aggregatesAndListingsAreAnswered() throws SQLException {
    RawRowsRule.check(true, List.of(), false, trips());
    RawRowsRule.check(true, List.of(column("STATE")), true, trips());
    RawRowsRule.check(false, List.of(column("STATE")), false, trips()); // the declared domain
    RawRowsRule.check(false, List.of(column("ZONE")), false, trips()); // selected privately
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class,
        ReleaseRules.analyze("SELECT DISTINCT STATE FROM TRIPS"));
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class,
        ReleaseRules.analyze("SELECT ZONE FROM TRIPS GROUP BY ZONE"));
  }

  @Test
  void groupingSetsOrNoKeysWithoutAggregateAreRawRows() {
    assertRefused("XDP02", () -> RawRowsRule.check(false, List.of(column("STATE")), true,
        trips()), "raw rows of private table TRIPS cannot be returned", "COUNT(*)");
    assertRefused("XDP02", () -> RawRowsRule.check(false, List.of(), false, trips()),
        "raw rows of private table TRIPS");
    assertRefused("XDP02", "SELECT STATE FROM TRIPS GROUP BY ROLLUP(STATE)",
        "raw rows of private table TRIPS cannot be returned");
    assertRefused("XDP02", "SELECT S.NAME FROM TRIPS T JOIN STATES S ON T.STATE = S.CODE "
        + "GROUP BY ROLLUP(S.NAME)", "raw rows of private table TRIPS");
  }
}
