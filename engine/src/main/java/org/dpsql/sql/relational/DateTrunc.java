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
}
