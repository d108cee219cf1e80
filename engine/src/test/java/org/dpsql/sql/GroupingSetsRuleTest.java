package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.junit.jupiter.api.Test;

/** {@link GroupingSetsRule}: at most 256 grouping sets, over keys with declared domains. */
class GroupingSetsRuleTest {

  private static List<List<ColumnPolicy>> sets(int n) {
    return new ArrayList<>(Collections.nCopies(n, List.of(column("STATE"))));
  }

  @Test
  void upTo256SetsOverDeclaredDomainsAreAnswered() throws SQLException {
    GroupingSetsRule.check(sets(GroupingSetsRule.MAX_GROUPING_SETS),
        List.of(column("STATE"), column("AGE")));
    AnalyzedStatement cube = ReleaseRules.analyze("SELECT COUNT(*) FROM TRIPS GROUP BY CUBE("
        + "STATE, COUNTY, PAYMENT, AGE, HOUR, CODE, UPPER(STATE), LOWER(STATE))");
    assertEquals(256, ((AnalyzedStatement.PrivateWorkload) cube).query().parts().size());
  }

  @Test
  void moreThan256SetsAreRefused() {
    assertRefused("XDP03", () -> GroupingSetsRule.check(sets(257), List.of(column("STATE"))),
        "GROUP BY expands to more than 256 grouping sets");
    assertRefused("XDP03", "SELECT COUNT(*) FROM TRIPS GROUP BY CUBE(STATE, COUNTY, PAYMENT, "
        + "AGE, HOUR, CODE, UPPER(STATE), LOWER(STATE), UPPER(COUNTY))",
        "more than 256 grouping sets", "use fewer CUBE columns");
  }

  @Test
  void aKeyWithPrivateKeysIsRefused() {
    assertRefused("XDP03", () -> GroupingSetsRule.check(sets(2),
        List.of(column("STATE"), column("ZONE"))),
        "ROLLUP, CUBE and GROUPING SETS need group columns with public domains",
        "ZONE is declared keys: private");
    assertRefused("XDP03", "SELECT STATE, ZONE, COUNT(*) FROM TRIPS GROUP BY ROLLUP(STATE, ZONE)",
        "ZONE is declared keys: private");
    assertRefused("XDP03", "SELECT ZONE FROM TRIPS GROUP BY ROLLUP(ZONE)",
        "ZONE is declared keys: private");
  }
}
