package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;

/**
 * Rule of a release with ROLLUP, CUBE or GROUPING SETS (answered as a workload of one query per
 * grouping set over the cells of all its keys): it has at most {@link #MAX_GROUPING_SETS} sets,
 * and every key has a declared domain, so that all sets are marginals of one public set of cells.
 * Refuses with XDP03 a larger expansion (e.g. a CUBE over 9 columns) and a key declared {@code
 * keys: private} (its groups are selected privately per statement, so there are no common cells).
 */
final class GroupingSetsRule {
  /** The most grouping sets one statement may expand to. */
  static final int MAX_GROUPING_SETS = 256;

  private GroupingSetsRule() {}

  /** Checks {@code sets}, the grouping sets of a release, over its keys {@code keys}. */
  static void check(List<List<ColumnPolicy>> sets, List<ColumnPolicy> keys) throws SQLException {
    if (sets.size() > MAX_GROUPING_SETS) {
      throw SqlStates.notSupported("GROUP BY expands to more than " + MAX_GROUPING_SETS
          + " grouping sets; use fewer CUBE columns");
    }
    for (ColumnPolicy c : keys) {
      if (c.hasPrivateKeys()) {
        throw SqlStates.notSupported("ROLLUP, CUBE and GROUPING SETS need group columns with "
            + "public domains; " + c.name() + " is declared keys: private, so its groups are "
            + "selected privately per statement: GROUP BY it in a plain GROUP BY");
      }
    }
  }
}
