package org.dpsql.sql;

import java.sql.SQLException;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;

/**
 * Rule of a release answered as a workload (a join with public lookup tables, GROUP BY or WHERE
 * over derived columns; grouping sets have {@link GroupingSetsRule}): its group keys have
 * declared domains. A key declared {@code keys: private} has its groups selected privately per
 * statement, so there is no common domain to answer the workload over. Refuses it with XDP03.
 */
final class WorkloadKeysRule {
  private WorkloadKeysRule() {}

  /** Checks the group keys of {@code q}, a query answered as part of a workload. */
  static void check(AggregateQuery q) throws SQLException {
    for (ColumnPolicy c : q.groupBy()) {
      if (c.hasPrivateKeys()) {
        throw SqlStates.notSupported("GROUP BY " + c.name() + " (declared keys: private) is "
            + "answered in a single aggregate statement over the private table, not in a UNION "
            + "ALL batch or joined with public tables: its groups are selected privately per "
            + "statement");
      }
    }
  }
}
