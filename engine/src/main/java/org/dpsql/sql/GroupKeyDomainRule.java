package org.dpsql.sql;

import java.sql.SQLException;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * Rule of a release: every group key has cells the policy makes public, a declared domain
 * (values, or min/max/bin; derived columns have their column's), or is declared {@code keys:
 * private} so that its groups are selected privately. Grouping by any other column would release
 * which of its values occur. Refuses with XDP02, saying what the data owner can declare.
 */
final class GroupKeyDomainRule {
  private GroupKeyDomainRule() {}

  /** {@code key}, a group key of a release over {@code table}, or XDP02. */
  static ColumnPolicy check(ColumnPolicy key, TablePolicy table) throws SQLException {
    if (!key.hasDomain() && !key.hasPrivateKeys()) {
      throw SqlStates.notAllowed("column " + key.name() + " of " + table.name()
          + " has no public domain in the policy (values, or min/max/bin), so it cannot be a "
          + "group key; group by a column with a domain, or ask the data owner to declare it "
          + "keys: private (its groups are then selected privately)");
    }
    return key;
  }
}
