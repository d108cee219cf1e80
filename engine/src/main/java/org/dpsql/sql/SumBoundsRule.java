package org.dpsql.sql;

import java.sql.SQLException;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;

/**
 * Rule of a release: a summed or averaged column has public bounds, a clamp or an ordered domain
 * (min/max), which bound one row's contribution and so the sum's sensitivity (a computed argument
 * has the bound its expression propagates). Refuses with XDP02: the data owner must add them.
 */
final class SumBoundsRule {
  private SumBoundsRule() {}

  /** {@code column}, aggregated by {@code function} (SUM or AVG), or XDP02. */
  static ColumnPolicy check(String function, ColumnPolicy column) throws SQLException {
    if (column.clamp().isEmpty() && column.ordered().isEmpty()) {
      throw SqlStates.notAllowed(function + "(" + column.name() + "): the policy gives no bounds "
          + "for " + column.name() + "; the data owner must add clamp: [lo, hi] (or min/max) for "
          + "it");
    }
    return column;
  }
}
