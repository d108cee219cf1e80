package org.dpsql.sql;

import java.sql.SQLException;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;

/**
 * Rule of a release with derived columns (expressions of one column whose domain lists its values,
 * grouped or compared): every expression has a value, not NULL and not an error, for every value
 * of its column's domain, evaluated by the backend on the domain (public data) before anything is
 * measured. Its value on each cell is then a public function of the cell, and evaluating it can
 * never fail on a private row. Refuses with XDP03 naming the expression and the value.
 */
final class DerivedValuesRule {
  private DerivedValuesRule() {}

  /**
   * The refusal for {@code expressions} (their SQL, comma-separated), which the backend could not
   * evaluate on the domain of {@code column}: {@code failure} says why.
   */
  static SQLException notEvaluated(String expressions, ColumnPolicy column,
      SQLException failure) {
    return SqlStates.notSupported("cannot evaluate " + expressions + " on the domain of "
        + column.name() + " (" + failure.getMessage() + "); use an expression that has a value "
        + "for every value of the domain");
  }

  /**
   * Checks {@code rows}, the values of {@code expressions} on the domain of {@code column}: each
   * row the domain value, then one value per expression.
   */
  static void check(List<String> expressions, ColumnPolicy column, List<Object[]> rows)
      throws SQLException {
    for (Object[] row : rows) {
      for (int j = 1; j < row.length; j++) {
        if (row[j] == null) {
          throw SqlStates.notSupported(expressions.get(j - 1) + " is NULL for "
              + column.name() + " = " + row[0] + "; group and filter by expressions that have a "
              + "value for every value of the domain (add an ELSE, or COALESCE)");
        }
      }
    }
  }
}
