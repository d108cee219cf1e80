package org.dpsql.sql.relational;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.dpsql.policy.TimeDomain;

/**
 * Lets a {@code TIMESTAMP} be compared with a {@code DATE} or with a date written as text, as BI
 * tools and analysts write date filters ({@code pickup_at >= DATE '2024-03-01'}, {@code pickup_at
 * BETWEEN '2024-03-01' AND '2024-03-31'}), although the validator runs without implicit casts.
 *
 * <p>When validation refuses a comparison for its operand types, the operands of that comparison
 * that are dates (or text literals that read as a date or timestamp) are widened: a {@code DATE}
 * becomes the {@code TIMESTAMP} of its midnight ({@code CAST(d AS TIMESTAMP)}, or a TIMESTAMP
 * literal), a text literal becomes a DATE or TIMESTAMP literal. Guarantees: only such conversions,
 * which cannot fail on any row (a DATE widens exactly; a literal is converted once, here), are
 * added; a comparison of text with numbers stays refused.
 */
final class DateComparisons {
  private DateComparisons() {}

  private static final Pattern TYPES = Pattern.compile("arguments of type '(.*?)'");
  private static final Pattern TYPE = Pattern.compile("<([A-Z_ ]+)(\\([^>]*\\))?>");

  /**
   * Widens the operands of the comparison {@code e} refuses, in place in {@code query}; false when
   * {@code e} is not such a refusal or nothing can be widened.
   */
  static boolean widen(SqlNode query, CalciteContextException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    Matcher m = TYPES.matcher(message);
    if (!message.contains("Cannot apply") || !m.find()) {
      return false;
    }
    List<String> types = new ArrayList<>();
    Matcher t = TYPE.matcher(m.group(1));
    while (t.find()) {
      types.add(t.group(1).trim());
    }
    boolean timestamp = types.stream().anyMatch(s -> s.startsWith("TIMESTAMP"));
    boolean date = types.stream().anyMatch(s -> s.equals("DATE"));
    if (!timestamp && !date) {
      return false;
    }
    SqlCall call = callAt(query, e);
    if (call == null || !(call instanceof SqlBasicCall basic)
        || basic.operandCount() != types.size()) {
      return false;
    }
    boolean changed = false;
    for (int i = 0; i < types.size(); i++) {
      SqlNode operand = basic.operand(i);
      SqlParserPos pos = operand.getParserPosition();
      String type = types.get(i);
      if (timestamp && type.equals("DATE")) {
        basic.setOperand(i, operand instanceof SqlLiteral lit
            && lit.getTypeName() == SqlTypeName.DATE
            ? SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP,
                TimestampString.fromMillisSinceEpoch(
                    lit.getValueAs(DateString.class).getMillisSinceEpoch()), 0, pos)
            : SqlStdOperatorTable.CAST.createCall(pos, operand,
                new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, pos), pos)));
        changed = true;
      } else if ((type.startsWith("CHAR") || type.startsWith("VARCHAR"))
          && operand instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.CHAR) {
        SqlNode replaced = literal(lit, timestamp);
        if (replaced == null) {
          continue;
        }
        basic.setOperand(i, replaced);
        changed = true;
      }
    }
    return changed;
  }

  /**
   * Replaces, in place, each text literal compared with a DATE or TIMESTAMP value of the validated
   * {@code query} by the DATE or TIMESTAMP literal it reads as ({@code pickup_date BETWEEN
   * '2024-03-01' AND '2024-03-31'}); true when one was replaced (then validate again).
   */
  static boolean textLiterals(SqlNode query, org.apache.calcite.sql.validate.SqlValidator validator) {
    boolean[] changed = new boolean[1];
    query.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (org.apache.calcite.sql.SqlKind.COMPARISON
            .contains(call.getKind()) || call.getKind() == org.apache.calcite.sql.SqlKind.BETWEEN) {
          SqlTypeName time = null;
          for (SqlNode o : call.getOperandList()) {
            org.apache.calcite.rel.type.RelDataType t =
                o == null ? null : validator.getValidatedNodeTypeIfKnown(o);
            if (t != null && (t.getSqlTypeName() == SqlTypeName.DATE
                || t.getSqlTypeName() == SqlTypeName.TIMESTAMP)) {
              time = time == SqlTypeName.TIMESTAMP ? time : t.getSqlTypeName();
            }
          }
          if (time != null && call instanceof SqlBasicCall b) {
            for (int i = 0; i < b.operandCount(); i++) {
              if (b.operand(i) instanceof SqlLiteral lit && lit.getTypeName() == SqlTypeName.CHAR) {
                SqlNode replaced = literal(lit, time == SqlTypeName.TIMESTAMP);
                if (replaced != null) {
                  b.setOperand(i, replaced);
                  changed[0] = true;
                }
              }
            }
          }
        }
        return super.visit(call);
      }
    });
    return changed[0];
  }

  /** The DATE (or TIMESTAMP) literal a text literal reads as, or null. */
  private static SqlNode literal(SqlLiteral text, boolean timestamp) {
    LocalDateTime at = TimeDomain.parseInstant(text.getValueAs(String.class));
    SqlParserPos pos = text.getParserPosition();
    if (at == null) {
      return null;
    }
    if (timestamp) {
      return SqlLiteral.createTimestamp(SqlTypeName.TIMESTAMP,
          new TimestampString(at.getYear(), at.getMonthValue(), at.getDayOfMonth(),
              at.getHour(), at.getMinute(), at.getSecond()), 0, pos);
    }
    if (!at.toLocalTime().equals(java.time.LocalTime.MIDNIGHT)) {
      return null;
    }
    return SqlLiteral.createDate(new DateString(at.getYear(), at.getMonthValue(),
        at.getDayOfMonth()), pos);
  }

  /** The call of {@code query} at the position {@code e} reports, or null. */
  private static SqlCall callAt(SqlNode query, CalciteContextException e) {
    SqlCall[] found = new SqlCall[1];
    query.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        SqlParserPos p = call.getParserPosition();
        if (found[0] == null && p.getLineNum() == e.getPosLine()
            && p.getColumnNum() == e.getPosColumn() && p.getEndLineNum() == e.getEndPosLine()
            && p.getEndColumnNum() == e.getEndPosColumn()) {
          found[0] = call;
        }
        return super.visit(call);
      }
    });
    return found[0];
  }
}
