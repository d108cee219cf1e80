package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;

/**
 * Rule of a release's plain GROUP BY: each key is one dimension of its cells, named once. The
 * planner merges a column grouped twice; what reaches a release twice is one derived column that
 * two grouped fields compute ({@code GROUP BY a, b} over {@code SELECT UPPER(S) a, UPPER(S) b}),
 * which the cells cannot hold as two dimensions. Refuses with XDP03.
 */
final class GroupKeysOnceRule {
  private GroupKeysOnceRule() {}

  /** Adds {@code key} to {@code keys}, or XDP03 when it is there already. */
  static void add(List<ColumnPolicy> keys, ColumnPolicy key) throws SQLException {
    if (keys.contains(key)) {
      // a derived column's name (DPSQL_X0) is dpsql's own: the user wrote two expressions
      throw SqlStates.notSupported(key.name().startsWith("DPSQL_")
          ? "GROUP BY names one expression twice (two grouped expressions compute the same "
              + "value from the same column): group by it once"
          : "GROUP BY names " + key.name() + " twice: group by it once");
    }
    keys.add(key);
  }
}
