package org.dpsql.sql;

import java.sql.SQLException;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * Rule of a release: every column it groups, filters or aggregates is a column of the policy, used
 * by value. The validator already refuses a backend column outside the policy; what reaches a
 * release and is not a policy column is the privacy-unit column, which the validation schema shows
 * so that a join on it can be written, but whose values are never released.
 *
 * <p>Refuses with XDP02 a column the policy does not list (naming the usable ones), and with XDP03
 * a time column used by value (a time column is used through its bins, which the relational front
 * end turns into derived columns; what is left, e.g. {@code COUNT(PICKUP_AT)} or {@code PICKUP_AT
 * IS NULL}, is not).
 */
final class PolicyColumnRule {
  private PolicyColumnRule() {}

  /** The policy of column {@code name} of {@code table}, named in {@code clause} (for messages). */
  static ColumnPolicy resolve(TablePolicy table, String name, String clause) throws SQLException {
    ColumnPolicy c = table.column(name).orElseThrow(() -> SqlStates.notAllowed("column " + name
        + " (in " + clause + ") is not in the policy for private table " + table.name()
        + "; usable columns: " + String.join(", ",
            table.columns().values().stream().map(ColumnPolicy::name).toList())));
    if (c.time().isPresent()) {
      throw SqlStates.notSupported(c.name() + " (in " + clause + ") is a time column: use it "
          + "through its bins, e.g. GROUP BY DATE_TRUNC('month', " + c.name() + ") or WHERE "
          + c.name() + " >= DATE '2024-01-01'");
    }
    return c;
  }
}
