package org.dpsql.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;

/**
 * The values of a column whose domain has one value per cell (categorical values, or integer bins
 * of width 1), in cell order, and their SQL literals: what an expression of the column is
 * evaluated on to become a function of the cells.
 */
final class DomainValues {
  private DomainValues() {}

  /** The value of every cell of {@code column}'s domain, in cell order. */
  static List<Object> of(ColumnPolicy column) {
    if (column.categorical().isPresent()) {
      return column.categorical().get().values();
    }
    OrderedDomain d = column.ordered().orElseThrow();
    List<Object> values = new ArrayList<>(d.cells());
    for (int i = 0; i < d.cells(); i++) {
      values.add(d.lowerEdge(i).toBigIntegerExact());
    }
    return values;
  }

  /** A SQL literal of a domain value (text quoted, numbers and booleans as they are). */
  static String literal(Object v) {
    if (v instanceof Number n) {
      return new BigDecimal(n.toString()).toPlainString();
    }
    if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    return "'" + v.toString().replace("'", "''") + "'";
  }
}
