package org.dpsql.sql.relational;

import java.util.List;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * PostgreSQL's {@code DATE_TRUNC('month', ts)}, which BI tools generate for time series (Calcite's
 * libraries have only BigQuery's {@code DATE_TRUNC(date, MONTH)}): the start of the unit that
 * holds a date or timestamp, typed {@code TIMESTAMP}. H2, PostgreSQL and Trino evaluate it
 * themselves; dpsql only validates it and proves, in {@link TimeBins}, where it is constant.
 * Oracle's {@code TRUNC(ts, 'MM')} and Calcite's {@code FLOOR(ts TO MONTH)} are written as it.
 */
final class DateTrunc {
  private DateTrunc() {}

  /** The function: a text unit, then a date or timestamp. */
  static final SqlFunction FUNCTION = new SqlFunction("DATE_TRUNC", SqlKind.OTHER_FUNCTION,
      ReturnTypes.explicit(SqlTypeName.TIMESTAMP).andThen(SqlTypeTransforms.TO_NULLABLE),
      null, OperandTypes.family(SqlTypeFamily.CHARACTER, SqlTypeFamily.DATETIME),
      SqlFunctionCategory.TIMEDATE);

  /** An operator table with the function alone, to chain before the libraries' tables. */
  static SqlOperatorTable table() {
    return SqlOperatorTables.of(List.of(FUNCTION));
  }

  /** Oracle's {@code TRUNC(ts, 'MM')} formats and the unit each truncates to. */
  private static final java.util.Map<String, String> ORACLE_FORMATS = java.util.Map.ofEntries(
      java.util.Map.entry("YYYY", "year"), java.util.Map.entry("YYY", "year"),
      java.util.Map.entry("YY", "year"), java.util.Map.entry("Y", "year"),
      java.util.Map.entry("YEAR", "year"), java.util.Map.entry("SYYYY", "year"),
      java.util.Map.entry("Q", "quarter"), java.util.Map.entry("MONTH", "month"),
      java.util.Map.entry("MON", "month"), java.util.Map.entry("MM", "month"),
      java.util.Map.entry("RM", "month"), java.util.Map.entry("IW", "week"),
      java.util.Map.entry("DDD", "day"), java.util.Map.entry("DD", "day"),
      java.util.Map.entry("J", "day"), java.util.Map.entry("HH", "hour"),
      java.util.Map.entry("HH12", "hour"), java.util.Map.entry("HH24", "hour"));

  /**
   * {@code query} with Oracle's {@code TRUNC(x, 'MM')} (a date truncation, by its format literal)
   * written as {@code DATE_TRUNC('month', x)}; {@code TRUNC} of numbers is left alone.
   */
  static org.apache.calcite.sql.SqlNode oracleTrunc(org.apache.calcite.sql.SqlNode query) {
    return query.accept(new org.apache.calcite.sql.util.SqlShuttle() {
      @Override
      public org.apache.calcite.sql.SqlNode visit(org.apache.calcite.sql.SqlCall call) {
        if (call.getOperator().getName().equalsIgnoreCase("TRUNC") && call.operandCount() == 2
            && call.operand(1) instanceof org.apache.calcite.sql.SqlCharStringLiteral format) {
          String unit = ORACLE_FORMATS.get(format.getValueAs(String.class).trim()
              .toUpperCase(java.util.Locale.ROOT));
          if (unit != null) {
            org.apache.calcite.sql.SqlNode operand = call.operand(0).accept(this);
            return FUNCTION.createCall(call.getParserPosition(),
                org.apache.calcite.sql.SqlLiteral.createCharString(unit,
                    format.getParserPosition()), operand);
          }
        }
        return super.visit(call);
      }
    });
  }

  /**
   * {@code e} with Calcite's {@code FLOOR(ts TO MONTH)} written as {@code DATE_TRUNC('month',
   * ts)}, which H2, PostgreSQL and Trino all evaluate (H2 has no {@code FLOOR ... TO}).
   */
  static org.apache.calcite.rex.RexNode portable(org.apache.calcite.rex.RexNode e,
      org.apache.calcite.rex.RexBuilder rex) {
    return e.accept(new org.apache.calcite.rex.RexShuttle() {
      @Override
      public org.apache.calcite.rex.RexNode visitCall(org.apache.calcite.rex.RexCall call) {
        if (call.getKind() == SqlKind.FLOOR && call.getOperands().size() == 2
            && call.getOperands().get(1) instanceof org.apache.calcite.rex.RexLiteral flag
            && flag.getValueAs(org.apache.calcite.avatica.util.TimeUnitRange.class) != null) {
          String unit = flag.getValueAs(org.apache.calcite.avatica.util.TimeUnitRange.class)
              .name().toLowerCase(java.util.Locale.ROOT);
          return rex.makeCall(call.getType(), FUNCTION,
              List.of(rex.makeLiteral(unit), call.getOperands().get(0).accept(this)));
        }
        return super.visitCall(call);
      }
    });
  }
}
