package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * Rule of a release: it aggregates, or it is a listing of a plain {@code GROUP BY} (or {@code
 * SELECT DISTINCT}): the declared domain of its keys (public, see {@link
 * AggregateQuery#listsDomain}), or the privately selected groups of keys declared {@code keys:
 * private}. Without an aggregate, ROLLUP, CUBE and GROUPING SETS (whose rows would show which key
 * combinations occur) and a release without keys are refused with XDP02, asking for aggregates.
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
