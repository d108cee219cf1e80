package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.dpsql.sql.ReleaseRules.trips;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link SelectedKeysRule}: a release returns its group keys' values only. */
class SelectedKeysRuleTest {

  @Test
  void aGroupKeyIsSelected() throws SQLException {
    assertSame(column("STATE"), SelectedKeysRule.check(column("STATE"),
        List.of(column("STATE"), column("AGE")), trips()));
    assertInstanceOf(AnalyzedStatement.PrivateWorkload.class, ReleaseRules.analyze(
        "SELECT STATE, COUNTY, COUNT(*) FROM TRIPS GROUP BY ROLLUP(STATE, COUNTY)"));
  }

  @Test
  void aColumnNoSetGroupsIsRefused() {
    assertRefused("XDP02", () -> SelectedKeysRule.check(column("COUNTY"),
        List.of(column("STATE")), trips()),
        "column COUNTY of private table TRIPS is selected without GROUP BY");
    // duplicated grouping sets: the planner splits them into aggregates, one of which carries
    // COUNTY without grouping it in any of its sets (refused, as before the one path)
    assertRefused("XDP02", "SELECT STATE, COUNT(*) FROM TRIPS GROUP BY STATE, "
        + "ROLLUP(STATE, COUNTY)", "column COUNTY of private table TRIPS is selected without");
  }
}
