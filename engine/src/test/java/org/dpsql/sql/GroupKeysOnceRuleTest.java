package org.dpsql.sql;

import static org.dpsql.sql.ReleaseRules.assertRefused;
import static org.dpsql.sql.ReleaseRules.column;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.junit.jupiter.api.Test;

/** {@link GroupKeysOnceRule}: a plain GROUP BY names each key once. */
class GroupKeysOnceRuleTest {

  @Test
  void distinctKeysAreAddedInOrder() throws SQLException {
    List<ColumnPolicy> keys = new ArrayList<>();
    GroupKeysOnceRule.add(keys, column("STATE"));
    GroupKeysOnceRule.add(keys, column("AGE"));
    assertEquals(List.of(column("STATE"), column("AGE")), keys);
    // one column grouped under two names is merged by the planner, not refused
    assertInstanceOf(AnalyzedStatement.PrivateAggregate.class, ReleaseRules.analyze(
        "SELECT a, b, COUNT(*) FROM (SELECT STATE a, STATE b FROM TRIPS) s GROUP BY a, b"));
  }

  @Test
  void aKeyNamedTwiceIsRefused() {
    List<ColumnPolicy> keys = new ArrayList<>(List.of(column("STATE")));
    assertRefused("XDP03", () -> GroupKeysOnceRule.add(keys, column("STATE")),
        "GROUP BY names STATE twice");
    // two grouped fields computing one derived column
    assertRefused("XDP03", "SELECT a, b, COUNT(*) FROM (SELECT UPPER(STATE) a, UPPER(STATE) b "
        + "FROM TRIPS) s GROUP BY a, b", "GROUP BY names one expression twice");
  }
}
