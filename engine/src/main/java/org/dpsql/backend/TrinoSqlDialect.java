package org.dpsql.backend;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.dialect.PrestoSqlDialect;
import org.apache.calcite.sql.fun.SqlBetweenOperator;

/**
 * Calcite's Presto dialect, corrected where Trino's grammar differs from what it writes: Trino
 * has no {@code BETWEEN ASYMMETRIC}/{@code SYMMETRIC} keywords, so {@code x BETWEEN a AND b}
 * is written plainly (asymmetric is SQL's default meaning) and a symmetric one as {@code x
 * BETWEEN LEAST(a, b) AND GREATEST(a, b)}. Each operand is written once, so dynamic parameters
 * keep their order and count.
 *
 * <p>Guarantee: the SQL it writes for a predicate means in Trino what the predicate means in
 * Calcite (standard SQL): both forms above are the standard's definitions, NULLs included.
 */
public final class TrinoSqlDialect extends PrestoSqlDialect {
  /** The one instance dpsql uses for Trino backends. */
  public static final TrinoSqlDialect DEFAULT = new TrinoSqlDialect(PrestoSqlDialect.DEFAULT_CONTEXT);

  private TrinoSqlDialect(Context context) {
    super(context);
  }

  @Override
  public void unparseCall(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
    if (call.getOperator() instanceof SqlBetweenOperator between) {
      SqlWriter.Frame frame = writer.startList("(", ")");
      operand(writer, call.operand(0));
      writer.keyword(between.isNegated() ? "NOT BETWEEN" : "BETWEEN");
      if (between.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
        writer.keyword("LEAST");
        SqlWriter.Frame least = writer.startList("(", ")");
        operand(writer, call.operand(1));
        writer.sep(",");
        operand(writer, call.operand(2));
        writer.endList(least);
        writer.keyword("AND");
        writer.keyword("GREATEST");
        SqlWriter.Frame greatest = writer.startList("(", ")");
        operand(writer, call.operand(1));
        writer.sep(",");
        operand(writer, call.operand(2));
        writer.endList(greatest);
      } else {
        operand(writer, call.operand(1));
        writer.keyword("AND");
        operand(writer, call.operand(2));
      }
      writer.endList(frame);
      return;
    }
    super.unparseCall(writer, call, leftPrec, rightPrec);
  }

  /** One operand in parentheses, so that no operator inside it binds to BETWEEN's AND. */
  private static void operand(SqlWriter writer, SqlNode node) {
    SqlWriter.Frame f = writer.startList("(", ")");
    node.unparse(writer, 0, 0);
    writer.endList(f);
  }
}
