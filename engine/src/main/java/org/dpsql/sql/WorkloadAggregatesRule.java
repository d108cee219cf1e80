package org.dpsql.sql;

import java.sql.SQLException;
import org.dpsql.errors.SqlStates;

/**
 * Rule of a release answered as a workload (grouping sets, a join with public lookup tables, GROUP
 * BY or WHERE over derived columns): its aggregates are counts and sums, answered as linear
 * queries over one set of cells. A quantile (chosen by the exponential mechanism per group) and a
 * COUNT(DISTINCT ...) (its sensitivity is derived per query from each unit's bounded rows) are
 * answered in single aggregate statements only. Refuses them with XDP03.
 */
final class WorkloadAggregatesRule {
  private WorkloadAggregatesRule() {}

  /** Checks the aggregates of {@code q}, a query answered as part of a workload. */
  static void check(AggregateQuery q) throws SQLException {
    for (OutputItem o : q.outputs()) {
      if (o.aggregate() == AggregateKind.QUANTILE) {
        throw SqlStates.notSupported(o.label() + " (a quantile of " + o.column().name() + ") is "
            + "answered in single aggregate queries (GROUP BY policy columns); not yet with "
            + "ROLLUP, CUBE, GROUPING SETS, UNION ALL batches, joins or GROUP BY expressions");
      }
      if (o.aggregate() == AggregateKind.COUNT_DISTINCT_UNIT
          || o.aggregate() == AggregateKind.COUNT_DISTINCT) {
        throw SqlStates.notSupported("COUNT(DISTINCT " + (o.column() == null
            ? q.table().privacyUnit() : o.column().name()) + ") is answered"
            + " in single aggregate queries (GROUP BY policy columns); not yet with ROLLUP, CUBE, "
            + "GROUPING SETS, UNION ALL batches, joins or GROUP BY expressions");
      }
    }
  }
}
