package org.dpsql.sql;

import java.sql.SQLException;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlShuttle;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * Rule of a release's row filter: it uses only operators that cannot fail on a row value
 * (comparisons, boolean logic, ranges, IN, LIKE, NULL tests and +, -, *) over policy columns,
 * literals and parameters, so whether the measurement fails never depends on the private data (a
 * division by zero, a failing cast or function on one row would reveal that the row exists).
 * Expressions of a column whose domain lists its values were already replaced by derived columns,
 * evaluated on the domain instead of the rows; what is left here is evaluated on the rows.
 *
 * <p>Refuses any other operator with XDP03 naming it; a column outside the policy, or a time
 * column used by value, as {@link PolicyColumnRule} does (XDP02, XDP03).
 */
final class FilterOperatorsRule {
  private FilterOperatorsRule() {}

  /** The operators a filter on a private table may use. */
  static final Set<SqlKind> FILTER_KINDS = Set.of(
      SqlKind.AND, SqlKind.OR, SqlKind.NOT, SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.BETWEEN, SqlKind.IN, SqlKind.NOT_IN, SqlKind.LIKE,
      SqlKind.IS_NULL, SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_TRUE,
      SqlKind.IS_NOT_FALSE, SqlKind.PLUS, SqlKind.MINUS, SqlKind.TIMES, SqlKind.MINUS_PREFIX,
      SqlKind.PLUS_PREFIX);

  /**
   * {@code where}, the filter of a release over {@code table} (no subqueries: the planner expands
   * them into joins), with its columns named by their bare policy names; or the refusal.
   */
  static SqlNode check(SqlNode where, TablePolicy table) throws SQLException {
    SQLException[] failure = new SQLException[1];
    SqlNode rewritten = where.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        if (failure[0] != null) {
          return id;
        }
        try {
          ColumnPolicy c = PolicyColumnRule.resolve(table, id.names.get(id.names.size() - 1),
              "WHERE");
          return new SqlIdentifier(c.name(), id.getParserPosition());
        } catch (SQLException e) {
          failure[0] = e;
          return id;
        }
      }

      @Override
      public SqlNode visit(SqlCall call) {
        if (failure[0] != null) {
          return call;
        }
        if (!FILTER_KINDS.contains(call.getKind())) {
          failure[0] = SqlStates.notSupported("WHERE on a private table may use comparisons, "
              + "BETWEEN, IN, LIKE, IS [NOT] NULL, AND/OR/NOT and +, -, * over policy columns, "
              + "literals and parameters; not " + call.getOperator().getName() + " (" + call
              + "): an operator that can fail on some rows would reveal them");
          return call;
        }
        return super.visit(call);
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
    return rewritten;
  }
}
