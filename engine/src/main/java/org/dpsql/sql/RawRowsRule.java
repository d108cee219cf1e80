package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * Rule of a release: it aggregates, or it lists groups. A release without aggregates is answered
 * only as a plain {@code GROUP BY} (or {@code SELECT DISTINCT}) listing: the declared domain of
 * its keys (public), or the privately selected groups of keys declared {@code keys: private}. With
 * grouping sets (or no keys) and no aggregate it would be the rows themselves. Refuses with XDP02.
 */
final class RawRowsRule {
  private RawRowsRule() {}

  /**
   * Checks a release over {@code table} grouped by {@code keys} ({@code groupingSets} when it has
   * ROLLUP, CUBE or GROUPING SETS) that has an aggregate or not ({@code aggregates}).
   */
  static void check(boolean aggregates, List<ColumnPolicy> keys, boolean groupingSets,
      TablePolicy table) throws SQLException {
    if (!aggregates && (keys.isEmpty() || groupingSets)
        && keys.stream().noneMatch(ColumnPolicy::hasPrivateKeys)) {
      throw SqlStates.notAllowed("raw rows of private table " + table.name()
          + " cannot be returned; ask for COUNT(*), COUNT(col), SUM(col) or AVG(col)");
    }
  }
}
