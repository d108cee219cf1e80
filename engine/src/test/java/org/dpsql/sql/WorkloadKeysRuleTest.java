package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.dpsql.sql.ReleaseRules.trips;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.junit.jupiter.api.Test;

/** {@link WorkloadKeysRule}: a workload groups by declared domains. */
class WorkloadKeysRuleTest {

  private static AggregateQuery groupedBy(ColumnPolicy... keys) {
    return new AggregateQuery(trips(), List.of(keys),
        List.of(new OutputItem("N", null, AggregateKind.COUNT_STAR)), null, DpHint.NONE,
        List.of(), null, null);
  }

  @Test
  void declaredDomainsAreWorkloadKeys() throws SQLException {
    WorkloadKeysRule.check(groupedBy(column("STATE"), column("AGE")));
    assertInstanceOf(AnalyzedStatement.PrivateWorkload.class, ReleaseRules.analyze(
        "SELECT UPPER(STATE), AGE, COUNT(*) FROM TRIPS GROUP BY UPPER(STATE), AGE"));
  }

  @Test
  void privateKeysAreRefused() {
    assertRefused("XDP03", () -> WorkloadKeysRule.check(groupedBy(column("STATE"),
        column("ZONE"))), "GROUP BY ZONE (declared keys: private) is answered in a single "
        + "aggregate statement");
    assertRefused("XDP03", "SELECT UPPER(STATE), ZONE, COUNT(*) FROM TRIPS "
        + "GROUP BY UPPER(STATE), ZONE", "GROUP BY ZONE (declared keys: private)");
    assertRefused("XDP03", "SELECT ZONE, COUNT(*) FROM TRIPS WHERE UPPER(STATE) = 'NY' "
        + "GROUP BY ZONE", "GROUP BY ZONE (declared keys: private)");
  }
}
