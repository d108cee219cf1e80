package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * Rule of a release: every column it returns as a value is one of its group keys (a cell label),
 * never a row's value. The canonical statement selects exactly its aggregate's keys, and each is
 * grouped in some grouping set, except when the planner splits duplicated grouping sets ({@code
 * GROUP BY STATE, ROLLUP(STATE, COUNTY)}) into aggregates that carry a key none of their sets
 * groups. Refuses with XDP02.
 */
final class SelectedKeysRule {
  private SelectedKeysRule() {}

  /** {@code column}, selected by a release over {@code table} grouped by {@code keys}, or XDP02. */
  static ColumnPolicy check(ColumnPolicy column, List<ColumnPolicy> keys, TablePolicy table)
      throws SQLException {
    if (!keys.contains(column)) {
      throw SqlStates.notAllowed("column " + column.name() + " of private table " + table.name()
          + " is selected without GROUP BY: raw values cannot be returned; "
          + "group by it or aggregate it");
    }
    return column;
  }
}
