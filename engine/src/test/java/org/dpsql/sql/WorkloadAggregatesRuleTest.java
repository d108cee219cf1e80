package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.dpsql.sql.ReleaseRules.trips;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link WorkloadAggregatesRule}: a workload's aggregates are counts and sums. */
class WorkloadAggregatesRuleTest {

  private static AggregateQuery query(OutputItem... outputs) {
    return new AggregateQuery(trips(), List.of(column("STATE")), List.of(outputs), null,
        DpHint.NONE, List.of(), null, null);
  }

  @Test
  void countsSumsAndAveragesAreAnswered() throws SQLException {
    WorkloadAggregatesRule.check(query(new OutputItem("STATE", column("STATE"), null),
        new OutputItem("N", null, AggregateKind.COUNT_STAR),
        new OutputItem("C", column("CODE"), AggregateKind.COUNT),
        new OutputItem("S", column("FARE"), AggregateKind.SUM),
        new OutputItem("A", column("FARE"), AggregateKind.AVG)));
    ReleaseRules.analyze("SELECT STATE, COUNT(*), SUM(FARE), AVG(AGE) FROM TRIPS "
        + "GROUP BY ROLLUP(STATE)");
  }

  @Test
  void quantilesAreRefused() {
    assertRefused("XDP03", () -> WorkloadAggregatesRule.check(query(new OutputItem("M",
        column("FARE"), AggregateKind.QUANTILE, new BigDecimal("0.5")))),
        "M (a quantile of FARE) is answered in single aggregate queries");
    assertRefused("XDP03", "SELECT STATE, MEDIAN(FARE) FROM TRIPS GROUP BY ROLLUP(STATE)",
        "(a quantile of FARE) is answered in single aggregate queries");
    assertRefused("XDP03", "SELECT S.NAME, MEDIAN(T.FARE) FROM TRIPS T JOIN STATES S "
        + "ON T.STATE = S.CODE GROUP BY S.NAME", "(a quantile of FARE)");
  }

  @Test
  void distinctCountsAreRefused() {
    assertRefused("XDP03", () -> WorkloadAggregatesRule.check(query(new OutputItem("U", null,
        AggregateKind.COUNT_DISTINCT_UNIT))),
        "COUNT(DISTINCT RIDER_ID) is answered in single aggregate queries");
    assertRefused("XDP03", () -> WorkloadAggregatesRule.check(query(new OutputItem("P",
        column("PAYMENT"), AggregateKind.COUNT_DISTINCT))), "COUNT(DISTINCT PAYMENT)");
    assertRefused("XDP03", "SELECT UPPER(STATE), COUNT(DISTINCT RIDER_ID) FROM TRIPS "
        + "GROUP BY UPPER(STATE)", "COUNT(DISTINCT RIDER_ID) is answered in single aggregate");
    assertRefused("XDP03", "SELECT STATE, COUNT(DISTINCT PAYMENT) FROM TRIPS "
        + "GROUP BY ROLLUP(STATE)", "COUNT(DISTINCT PAYMENT)");
  }
}
