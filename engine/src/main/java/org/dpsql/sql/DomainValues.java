package org.dpsql.sql;

import java.math.BigDecimal;

/** SQL literals of the values of a column's domain, for evaluating expressions of the column. */
final class DomainValues {
  private DomainValues() {}

  /**
   * A SQL literal of a domain value (text quoted, numbers and booleans as they are, dates and
   * date-times as DATE and TIMESTAMP literals).
   */
  static String literal(Object v) {
    if (v instanceof Number n) {
      return new BigDecimal(n.toString()).toPlainString();
    }
    if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (v instanceof java.time.LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (v instanceof java.time.LocalDateTime t) {
      String time = t.toLocalTime().withNano(0).toString();
      return "TIMESTAMP '" + t.toLocalDate() + " " + (time.length() == 5 ? time + ":00" : time)
          + "'";
    }
    return "'" + v.toString().replace("'", "''") + "'";
  }
}
