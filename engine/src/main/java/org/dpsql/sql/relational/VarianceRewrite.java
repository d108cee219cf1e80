package org.dpsql.sql.relational;

import java.util.Locale;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * {@code VAR_POP}, {@code VAR_SAMP} ({@code VARIANCE}), {@code STDDEV_POP} and {@code STDDEV_SAMP}
 * ({@code STDDEV}) of an expression, written as post-processing of three private aggregates of it:
 * {@code COUNT(x)}, {@code SUM(x)} and {@code SUM(x * x)}.
 *
 * <p>Guarantees: the three are released like any aggregate of an expression (each value clamped to
 * its policy bounds, {@code x * x} bounded by interval arithmetic, the statement's budget split
 * among the measurements as {@code EXPLAIN PLAN FOR} shows); the variance computed from their noisy
 * values is post-processing, so it costs nothing more: {@code (Σx² − (Σx)²/n) / n} (or {@code / (n
 * − 1)}), floored at 0 because noise can make it negative, NULL when the noisy count is at most 0
 * (at most 1 for the sample forms), and the standard deviation is its square root. Window forms
 * ({@code ... OVER (...)}) and {@code DISTINCT} are left as written (and refused later).
 */
final class VarianceRewrite {
  private VarianceRewrite() {}

  /** {@code query} with every variance and standard deviation rewritten. */
  static SqlNode rewrite(SqlNode query) {
    return query.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.OVER) {
          return call; // a window aggregate: not rewritten
        }
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        boolean variance = name.equals("VAR_POP") || name.equals("VAR_SAMP")
            || name.equals("VARIANCE");
        boolean deviation = name.equals("STDDEV_POP") || name.equals("STDDEV_SAMP")
            || name.equals("STDDEV");
        if ((variance || deviation) && call.operandCount() == 1
            && call.getFunctionQuantifier() == null) {
          SqlNode x = call.operand(0).accept(this);
          boolean sample = !name.endsWith("_POP");
          SqlNode v = variance(x, sample, call.getParserPosition());
          return deviation ? SqlStdOperatorTable.SQRT.createCall(call.getParserPosition(), v) : v;
        }
        return super.visit(call);
      }
    });
  }

  /**
   * {@code CASE WHEN n > m THEN GREATEST(0, (s2 − s·s/n) / (n − d)) END} over {@code n =
   * COUNT(x)}, {@code s = SUM(x)}, {@code s2 = SUM(x * x)} as doubles ({@code d} = 1 and {@code m}
   * = 1 for the sample form, 0 otherwise).
   */
  private static SqlNode variance(SqlNode x, boolean sample, SqlParserPos pos) {
    SqlNode n = asDouble(SqlStdOperatorTable.COUNT.createCall(pos, copy(x)), pos);
    SqlNode s = SqlStdOperatorTable.SUM.createCall(pos, copy(x));
    SqlNode s2 = SqlStdOperatorTable.SUM.createCall(pos,
        SqlStdOperatorTable.MULTIPLY.createCall(pos, copy(x), copy(x)));
    SqlNode squares = SqlStdOperatorTable.MINUS.createCall(pos, asDouble(s2, pos),
        SqlStdOperatorTable.DIVIDE.createCall(pos,
            SqlStdOperatorTable.MULTIPLY.createCall(pos, asDouble(s, pos), asDouble(copy(s), pos)),
            n));
    SqlNode denominator = sample
        ? SqlStdOperatorTable.MINUS.createCall(pos, copy(n), SqlLiteral.createExactNumeric("1", pos))
        : copy(n);
    SqlNode value = SqlLibraryOperators.GREATEST.createCall(pos,
        SqlLiteral.createApproxNumeric("0E0", pos),
        SqlStdOperatorTable.DIVIDE.createCall(pos, squares, denominator));
    SqlNode positive = SqlStdOperatorTable.GREATER_THAN.createCall(pos, copy(n),
        SqlLiteral.createExactNumeric(sample ? "1" : "0", pos));
    return SqlStdOperatorTable.CASE.createCall(null, pos, null,
        SqlNodeList.of(positive), SqlNodeList.of(value), SqlLiteral.createNull(pos));
  }

  private static SqlNode asDouble(SqlNode e, SqlParserPos pos) {
    return SqlStdOperatorTable.CAST.createCall(pos, e,
        new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DOUBLE, pos), pos));
  }

  private static SqlNode copy(SqlNode e) {
    return e.clone(e.getParserPosition());
  }
}
