package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.dpsql.errors.SqlStates;
import org.dpsql.rewrite.PublicJoin;

/**
 * Rule of a release over a private table joined with public lookup tables: it aggregates columns
 * of the private table (or counts rows) and only groups and filters by public columns. A public
 * column becomes a function of the join key's cells, which has no clamp or contribution bound of
 * its own to aggregate with. Refuses with XDP03 (the front end may then answer the join over the
 * private table's released rows grouped by the key instead).
 */
final class PublicColumnAggregateRule {
  private PublicColumnAggregateRule() {}

  /**
   * Checks {@code call}, an aggregate of a release over {@code privateTable} joined by {@code
   * joins}.
   */
  static void check(SqlCall call, List<PublicJoin> joins, String privateTable)
      throws SQLException {
    for (SqlNode o : call.getOperandList()) {
      if (o instanceof SqlIdentifier id && !id.isStar()) {
        String name = id.names.get(id.names.size() - 1);
        for (PublicJoin j : joins) {
          for (PublicJoin.Derived d : j.derived()) {
            if (d.column().name().equalsIgnoreCase(name)) {
              throw SqlStates.notSupported(call + " aggregates a column of public table "
                  + j.publicTable() + "; aggregate columns of private table " + privateTable
                  + " (or COUNT(*)) and group by public columns");
            }
          }
        }
      }
    }
  }
}
