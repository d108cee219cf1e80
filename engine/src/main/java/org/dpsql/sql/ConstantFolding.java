package org.dpsql.sql;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Folds the constant parts of a parsed statement into literals before it is analysed: {@code DATE
 * '2025-12-31' - INTERVAL '30' DAY} becomes {@code DATE '2025-12-01'}, {@code 1000 * 60} becomes
 * {@code 60000}, {@code CAST('2025-03-01' AS DATE)} becomes {@code DATE '2025-03-01'}, so that
 * every path of the analysis (time bins, domains, cells) reads them as the literals they are.
 *
 * <p>What is folded: exact numeric {@code +}, {@code -}, {@code *} and integer {@code /} (SQL's
 * truncating division, not by zero); a date or timestamp plus or minus a single-unit interval
 * literal (years, months, weeks and days on dates; also hours, minutes and seconds on
 * timestamps); {@code CAST} of a literal to DATE, TIMESTAMP, TIME, an exact or approximate number
 * type, or VARCHAR/CHAR wide enough for it. Guarantees: a folded literal has the value SQL gives
 * the expression (exact decimal arithmetic, calendar arithmetic with month ends clamped as SQL
 * does); anything else (a column, a parameter, a function call, an overflow, text that is no date)
 * is left as written for the validator and the backend. The tree is walked once, without
 * compiling code: a few microseconds per statement.
 */
public final class ConstantFolding {
  private ConstantFolding() {}

  /** {@code node} with its constant subtrees folded (changed in place where possible). */
  public static SqlNode fold(SqlNode node) {
    if (node == null) {
      return null;
    }
    if (node instanceof SqlNodeList list) {
      for (int i = 0; i < list.size(); i++) {
        SqlNode item = list.get(i);
        SqlNode folded = fold(item);
        // a number standing alone in a list could read as a GROUP BY or ORDER BY ordinal
        if (folded != item && !(folded instanceof SqlNumericLiteral)
            && folded.getKind() != SqlKind.MINUS_PREFIX) {
          list.set(i, folded);
        }
      }
      return list;
    }
    if (node instanceof SqlOrderBy ob) {
      SqlNode query = fold(ob.query);
      fold(ob.orderList);
      SqlNode offset = fold(ob.offset);
      SqlNode fetch = fold(ob.fetch);
      return query == ob.query && offset == ob.offset && fetch == ob.fetch ? ob
          : new SqlOrderBy(ob.getParserPosition(), query, ob.orderList, offset, fetch);
    }
    if (!(node instanceof SqlCall call)) {
      return node;
    }
    List<SqlNode> operands = call.getOperandList();
    for (int i = 0; i < operands.size(); i++) {
      SqlNode op = operands.get(i);
      if (op == null || op instanceof SqlDataTypeSpec) {
        continue;
      }
      SqlNode folded = fold(op);
      if (folded != op) {
        try {
          call.setOperand(i, folded);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
          // a call that cannot be changed in place keeps the expression as written
        }
      }
    }
    try {
      SqlNode literal = evaluate(call);
      return literal == null ? call : literal;
    } catch (ArithmeticException | IllegalArgumentException
        | java.time.DateTimeException e) {
      return call; // not foldable here: the validator or the backend reports it
    }
  }

  private static SqlNode evaluate(SqlCall call) {
    SqlParserPos pos = call.getParserPosition();
    SqlKind kind = call.getKind();
    if (kind == SqlKind.CAST && call.operandCount() == 2
        && call.operand(1) instanceof SqlDataTypeSpec spec) {
      return cast(value(call.operand(0)), spec, pos);
    }
    if (!(call instanceof SqlBasicCall) || call.operandCount() != 2
        || (kind != SqlKind.PLUS && kind != SqlKind.MINUS && kind != SqlKind.TIMES
            && kind != SqlKind.DIVIDE)) {
      return null;
    }
    Object a = value(call.operand(0));
    Object b = value(call.operand(1));
    if (a == null || b == null) {
      return null;
    }
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      BigDecimal r = switch (kind) {
        case PLUS -> x.add(y);
        case MINUS -> x.subtract(y);
        case TIMES -> x.multiply(y);
        default -> integral(x) && integral(y) && y.signum() != 0
            ? x.divide(y, 0, RoundingMode.DOWN) : null;
      };
      return r == null ? null : number(r, pos);
    }
    if (kind == SqlKind.PLUS && a instanceof Interval && !(b instanceof Interval)) {
      Object t = a;
      a = b;
      b = t;
    }
    if (b instanceof Interval iv && (kind == SqlKind.PLUS || kind == SqlKind.MINUS)) {
      long n = kind == SqlKind.MINUS ? -iv.amount() : iv.amount();
      if (a instanceof LocalDate d && iv.onDates()) {
        return date(iv.addTo(d.atStartOfDay(), n).toLocalDate(), pos);
      }
      if (a instanceof LocalDateTime t) {
        return timestamp(iv.addTo(t, n), pos);
      }
    }
    return null;
  }

  /** A single-unit interval literal: {@code amount} of {@code unit}. */
  private record Interval(long amount, TimeUnitRange unit) {
    boolean onDates() {
      return unit == TimeUnitRange.YEAR || unit == TimeUnitRange.MONTH
          || unit == TimeUnitRange.WEEK || unit == TimeUnitRange.DAY;
    }

    LocalDateTime addTo(LocalDateTime t, long n) {
      return switch (unit) {
        case YEAR -> t.plusYears(n);
        case MONTH -> t.plusMonths(n);
        case WEEK -> t.plusWeeks(n);
        case DAY -> t.plusDays(n);
        case HOUR -> t.plusHours(n);
        case MINUTE -> t.plusMinutes(n);
        case SECOND -> t.plusSeconds(n);
        default -> throw new IllegalArgumentException(unit.name());
      };
    }
  }

  /** The value of a literal (or of a negated numeric literal), or null. */
  private static Object value(SqlNode n) {
    if (n.getKind() == SqlKind.MINUS_PREFIX && n instanceof SqlCall c
        && value(c.operand(0)) instanceof BigDecimal d) {
      return d.negate();
    }
    if (n instanceof SqlNumericLiteral num) {
      return num.isExact() ? num.getValueAs(BigDecimal.class) : null;
    }
    if (n instanceof SqlCharStringLiteral s) {
      return s.getValueAs(String.class);
    }
    if (n instanceof org.apache.calcite.sql.SqlUnknownLiteral u) {
      // Babel's DATE '...' and TIMESTAMP '...', typed at validation
      String text = u.getValue().strip();
      return switch (u.tag.toUpperCase(Locale.ROOT)) {
        case "DATE" -> LocalDate.parse(text);
        case "TIMESTAMP" -> text.length() <= 10 ? LocalDate.parse(text).atStartOfDay()
            : LocalDateTime.parse(text.replace(' ', 'T'));
        default -> null;
      };
    }
    if (n instanceof SqlDateLiteral d) {
      return LocalDate.parse(d.getValueAs(DateString.class).toString());
    }
    if (n instanceof SqlTimestampLiteral t) {
      return LocalDateTime.parse(t.getValueAs(TimestampString.class).toString().replace(' ', 'T'));
    }
    if (n instanceof SqlIntervalLiteral iv) {
      SqlIntervalLiteral.IntervalValue v = iv.getValueAs(SqlIntervalLiteral.IntervalValue.class);
      TimeUnitRange unit = v.getIntervalQualifier().timeUnitRange;
      String text = v.getIntervalLiteral().strip();
      if (unit == null || unit.endUnit != null || !text.matches("[+-]?\\d{1,9}")) {
        return null;
      }
      return new Interval(v.getSign() * Long.parseLong(text), unit);
    }
    return null;
  }

  private static SqlNode cast(Object v, SqlDataTypeSpec spec, SqlParserPos pos) {
    if (v == null || spec.getTypeNameSpec() == null) {
      return null;
    }
    String type = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    if (!(spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlBasicTypeNameSpec basic)) {
      return null;
    }
    int precision = basic.getPrecision();
    switch (type) {
      case "DATE" -> {
        if (v instanceof String s) {
          return date(LocalDate.parse(s.strip()), pos);
        }
        if (v instanceof LocalDate d) {
          return date(d, pos);
        }
        if (v instanceof LocalDateTime t) {
          return date(t.toLocalDate(), pos);
        }
        return null;
      }
      case "TIMESTAMP" -> {
        if (v instanceof String s) {
          String t = s.strip();
          return timestamp(t.length() <= 10 ? LocalDate.parse(t).atStartOfDay()
              : LocalDateTime.parse(t.replace(' ', 'T')), pos);
        }
        if (v instanceof LocalDate d) {
          return timestamp(d.atStartOfDay(), pos);
        }
        return v instanceof LocalDateTime t ? timestamp(t, pos) : null;
      }
      case "TIME" -> {
        if (v instanceof String s) {
          LocalTime t = LocalTime.parse(s.strip());
          return SqlLiteral.createTime(new org.apache.calcite.util.TimeString(
              ParameterLiteral.time(t)), t.getNano() == 0 ? 0 : 3, pos);
        }
        return null;
      }
      case "INTEGER", "INT", "BIGINT", "SMALLINT", "TINYINT" -> {
        BigDecimal d = v instanceof String s ? new BigDecimal(s.strip())
            : v instanceof BigDecimal b ? b : null;
        // a cast to an integer type rounds a fraction: left to the backend
        return d != null && integral(d) ? number(d.setScale(0, RoundingMode.UNNECESSARY), pos)
            : null;
      }
      case "DECIMAL", "NUMERIC", "DOUBLE", "FLOAT", "REAL" -> {
        BigDecimal d = v instanceof String s ? new BigDecimal(s.strip())
            : v instanceof BigDecimal b ? b : null;
        if (d == null || (type.equals("DECIMAL") || type.equals("NUMERIC"))
            && basic.getScale() >= 0 && d.scale() > basic.getScale()) {
          return null; // rounding to the declared scale: left to the backend
        }
        return number(d, pos);
      }
      case "VARCHAR", "CHAR" -> {
        if (!(v instanceof String s)) {
          return null;
        }
        boolean fits = precision < 0 ? type.equals("VARCHAR") || s.length() == 1
            : type.equals("VARCHAR") ? s.length() <= precision : s.length() == precision;
        return fits ? SqlLiteral.createCharString(s, pos) : null;
      }
      default -> {
        return null;
      }
    }
  }

  private static boolean integral(BigDecimal d) {
    return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
  }

  /** A number literal; a negative one as the parser writes it, {@code -(literal)}. */
  private static SqlNode number(BigDecimal d, SqlParserPos pos) {
    SqlNode positive = SqlLiteral.createExactNumeric(d.abs().toPlainString(), pos);
    return d.signum() < 0 ? SqlStdOperatorTable.UNARY_MINUS.createCall(pos, positive) : positive;
  }

  private static SqlNode date(LocalDate d, SqlParserPos pos) {
    if (d.getYear() < 1 || d.getYear() > 9999) {
      throw new IllegalArgumentException("year out of range");
    }
    return SqlLiteral.createDate(new DateString(d.toString()), pos);
  }

  private static SqlNode timestamp(LocalDateTime t, SqlParserPos pos) {
    if (t.getYear() < 1 || t.getYear() > 9999) {
      throw new IllegalArgumentException("year out of range");
    }
    String text = ParameterLiteral.timestamp(t);
    int dot = text.indexOf('.');
    int precision = dot < 0 ? 0 : text.length() - dot - 1;
    return SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP, new TimestampString(text), precision,
        pos);
  }
}
