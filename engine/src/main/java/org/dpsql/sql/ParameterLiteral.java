package org.dpsql.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/**
 * A bound parameter's value written as a SQL literal of the parameter's type: numbers as exact
 * decimals, text quoted, dates, times and timestamps as typed literals ({@code DATE '2025-03-01'},
 * {@code TIMESTAMP '2025-03-01 00:00:00'}), booleans as {@code TRUE}/{@code FALSE}, null as a
 * typed {@code CAST(NULL AS ...)}.
 *
 * <p>Guarantees: the literal denotes the value exactly (no rounding: a double is written as its
 * shortest decimal); a value that is not of the parameter's type and cannot be read as it (text
 * that is no number, a timestamp with a time of day for a DATE, a non-finite double) is refused
 * with SQLState 22018 (22007 for dates and times) naming the parameter's 1-based index; nothing
 * of the value reaches SQL unquoted unless it is a number or a typed literal built here.
 */
public final class ParameterLiteral {
  /** A parameter not set by the application ({@code ExactMeasurer.UNSET}). */
  public static final Object UNSET = org.dpsql.backend.ExactMeasurer.UNSET;

  private ParameterLiteral() {}

  /**
   * The literal of parameter {@code index} (1-based) holding {@code value}, in {@code type} (the
   * type validation inferred for it; null or OTHER/ANY: the value's own type).
   */
  public static String of(int index, Object value, AnalyzedStatement.ParameterInfo type)
      throws SQLException {
    int jdbc = type == null ? Types.OTHER : type.jdbcType();
    if (value == null) {
      String name = type == null ? null : castName(type);
      return name == null ? "NULL" : "CAST(NULL AS " + name + ")";
    }
    switch (jdbc) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
        BigDecimal d = number(index, value);
        if (d.stripTrailingZeros().scale() > 0) {
          throw new SQLException("parameter " + index + " is an integer (" + type.typeName()
              + "), but " + value + " has a fraction; bind a whole number", "22018");
        }
        return d.setScale(0, java.math.RoundingMode.UNNECESSARY).toPlainString();
      }
      case Types.DECIMAL, Types.NUMERIC, Types.DOUBLE, Types.FLOAT, Types.REAL -> {
        return number(index, value).toPlainString();
      }
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR -> {
        return quote(text(value));
      }
      case Types.BOOLEAN, Types.BIT -> {
        return bool(index, value) ? "TRUE" : "FALSE";
      }
      case Types.DATE -> {
        return "DATE '" + date(index, value) + "'";
      }
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> {
        return "TIMESTAMP '" + timestamp(timestampOf(index, value)) + "'";
      }
      case Types.TIME, Types.TIME_WITH_TIMEZONE -> {
        return "TIME '" + time(timeOf(index, value)) + "'";
      }
      default -> {
        return ofValue(index, value);
      }
    }
  }

  /**
   * The value of parameter {@code index} (1-based) as bound to a measurement: {@code value} in
   * {@code type} (the type validation inferred for it; null or OTHER/ANY: the value as it is),
   * with the same checks and errors (22018, 22007) as {@link #of}; null and {@link #UNSET} are
   * returned as they are.
   */
  public static Object value(int index, Object value, AnalyzedStatement.ParameterInfo type)
      throws SQLException {
    if (value == null || value == UNSET) {
      return value;
    }
    int jdbc = type == null ? Types.OTHER : type.jdbcType();
    return switch (jdbc) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT ->
          new BigDecimal(of(index, value, type)).longValueExact();
      case Types.DECIMAL, Types.NUMERIC, Types.DOUBLE, Types.FLOAT, Types.REAL ->
          number(index, value);
      case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR ->
          text(value);
      case Types.BOOLEAN, Types.BIT -> bool(index, value);
      case Types.DATE -> date(index, value);
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> timestampOf(index, value);
      case Types.TIME, Types.TIME_WITH_TIMEZONE -> timeOf(index, value);
      default -> {
        ofValue(index, value); // refuses what is no SQL value
        yield value;
      }
    };
  }

  /** A literal of the value's own type (the parameter's type could not be inferred). */
  private static String ofValue(int index, Object value) throws SQLException {
    if (value instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (value instanceof Number) {
      return number(index, value).toPlainString();
    }
    if (value instanceof java.sql.Date || value instanceof LocalDate) {
      return "DATE '" + date(index, value) + "'";
    }
    if (value instanceof java.sql.Time || value instanceof LocalTime) {
      return "TIME '" + time(timeOf(index, value)) + "'";
    }
    if (value instanceof java.util.Date || value instanceof LocalDateTime
        || value instanceof OffsetDateTime || value instanceof ZonedDateTime
        || value instanceof Instant) {
      return "TIMESTAMP '" + timestamp(timestampOf(index, value)) + "'";
    }
    if (value instanceof CharSequence || value instanceof Character) {
      return quote(value.toString());
    }
    throw new SQLException("parameter " + index + " holds a " + value.getClass().getName()
        + ", which is no SQL value; bind a number, text, date, time, timestamp or boolean",
        "22018");
  }

  /** The text inside a literal's quotes ({@code 2025-03-01} of {@code DATE '2025-03-01'}). */
  static String inner(String literal) {
    int open = literal.indexOf('\'');
    int close = literal.lastIndexOf('\'');
    return open >= 0 && close > open ? literal.substring(open + 1, close).replace("''", "'")
        : literal;
  }

  private static String castName(AnalyzedStatement.ParameterInfo type) {
    return switch (type.jdbcType()) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DOUBLE, Types.REAL,
          Types.FLOAT, Types.DATE, Types.TIMESTAMP, Types.TIME, Types.BOOLEAN -> type.typeName();
      case Types.DECIMAL, Types.NUMERIC -> "DECIMAL";
      case Types.CHAR, Types.VARCHAR -> "VARCHAR";
      default -> null;
    };
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  private static String text(Object value) {
    if (value instanceof java.sql.Timestamp ts) {
      return timestamp(ts.toLocalDateTime());
    }
    return value.toString();
  }

  private static BigDecimal number(int index, Object value) throws SQLException {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        throw new SQLException("parameter " + index + " is " + d + "; bind a finite number",
            "22018");
      }
      return new BigDecimal(value.toString()); // the shortest decimal: 0.1 stays 0.1
    }
    if (value instanceof Number n) {
      return BigDecimal.valueOf(n.longValue());
    }
    if (value instanceof Boolean b) {
      return b ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    try {
      return new BigDecimal(value.toString().strip());
    } catch (NumberFormatException e) {
      throw new SQLException("parameter " + index + " is a number, but '" + value
          + "' is no number; bind a numeric value", "22018");
    }
  }

  private static boolean bool(int index, Object value) throws SQLException {
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof Number n) {
      return n.intValue() != 0;
    }
    String s = value.toString().strip().toLowerCase(java.util.Locale.ROOT);
    if (s.equals("true") || s.equals("false")) {
      return s.equals("true");
    }
    throw new SQLException("parameter " + index + " is a boolean, but '" + value
        + "' is none; bind true or false", "22018");
  }

  private static LocalDate date(int index, Object value) throws SQLException {
    LocalDateTime t = timestampOf(index, value); // a date is its midnight
    if (!t.toLocalTime().equals(LocalTime.MIDNIGHT)) {
      throw new SQLException("parameter " + index + " is a DATE, but " + value + " has a time "
          + "of day; bind a date (or a timestamp at midnight)", "22007");
    }
    return t.toLocalDate();
  }

  private static LocalDateTime timestampOf(int index, Object value) throws SQLException {
    if (value instanceof java.sql.Timestamp ts) {
      return ts.toLocalDateTime();
    }
    if (value instanceof java.sql.Date d) {
      return d.toLocalDate().atStartOfDay();
    }
    if (value instanceof java.sql.Time) {
      throw new SQLException("parameter " + index + " is a timestamp, but " + value
          + " is a time of day; bind a timestamp", "22007");
    }
    if (value instanceof java.util.Date d) {
      return LocalDateTime.ofInstant(d.toInstant(), ZoneOffset.UTC);
    }
    if (value instanceof LocalDateTime t) {
      return t;
    }
    if (value instanceof LocalDate d) {
      return d.atStartOfDay();
    }
    if (value instanceof OffsetDateTime t) {
      return t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
    }
    if (value instanceof ZonedDateTime t) {
      return t.withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
    }
    if (value instanceof Instant t) {
      return LocalDateTime.ofInstant(t, ZoneOffset.UTC);
    }
    String s = value.toString().strip();
    try {
      return s.length() <= 10 ? LocalDate.parse(s).atStartOfDay()
          : LocalDateTime.parse(s.replace(' ', 'T'));
    } catch (DateTimeParseException e) {
      throw new SQLException("parameter " + index + " is a date or timestamp, but '" + value
          + "' is none; bind e.g. '2025-03-01' or '2025-03-01 12:00:00'", "22007");
    }
  }

  private static LocalTime timeOf(int index, Object value) throws SQLException {
    if (value instanceof java.sql.Time t) {
      return t.toLocalTime();
    }
    if (value instanceof LocalTime t) {
      return t;
    }
    try {
      return LocalTime.parse(value.toString().strip());
    } catch (DateTimeParseException e) {
      throw new SQLException("parameter " + index + " is a TIME, but '" + value
          + "' is none; bind e.g. '12:30:00'", "22007");
    }
  }

  /** {@code yyyy-MM-dd HH:mm:ss[.f]}: the fraction only when there is one, without trailing 0s. */
  static String timestamp(LocalDateTime t) {
    return t.toLocalDate() + " " + time(t.toLocalTime());
  }

  static String time(LocalTime t) {
    String s = String.format(java.util.Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(),
        t.getSecond());
    if (t.getNano() != 0) {
      String f = String.format(java.util.Locale.ROOT, "%09d", t.getNano()).replaceAll("0+$", "");
      s += "." + f;
    }
    return s;
  }
}
