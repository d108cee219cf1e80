package org.dpsql.sql;

import java.math.BigDecimal;

/** SQL literals of the values of a column's domain, for evaluating expressions of the column. */
final class DomainValues {
  private DomainValues() {}

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
