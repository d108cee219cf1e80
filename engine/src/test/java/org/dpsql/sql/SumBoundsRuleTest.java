package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** {@link SumBoundsRule}: a summed or averaged column has public bounds. */
class SumBoundsRuleTest {

  @Test
  void clampedAndOrderedColumnsAreSummed() throws SQLException {
    assertSame(column("FARE"), SumBoundsRule.check("SUM", column("FARE")));
    assertSame(column("AGE"), SumBoundsRule.check("AVG", column("AGE")));
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class,
        ReleaseRules.analyze("SELECT SUM(FARE), AVG(AGE), COUNT(CODE) FROM TRIPS"));
  }

  @Test
  void aColumnWithoutBoundsIsNotSummed() {
    assertRefused("XDP02", () -> SumBoundsRule.check("SUM", column("CODE")),
        "SUM(CODE): the policy gives no bounds for CODE", "clamp: [lo, hi]");
    assertRefused("XDP02", () -> SumBoundsRule.check("AVG", column("SHIFT")),
        "AVG(SHIFT): the policy gives no bounds for SHIFT");
    assertRefused("XDP02", "SELECT SUM(CODE) FROM TRIPS", "SUM(CODE): the policy gives no bounds");
    assertRefused("XDP02", "SELECT S.NAME, AVG(T.SHIFT) FROM TRIPS T JOIN STATES S "
        + "ON T.STATE = S.CODE GROUP BY S.NAME", "AVG(SHIFT): the policy gives no bounds");
  }
}
