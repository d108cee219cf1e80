package org.dpsql.sql;

import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Writes an aggregate's {@code FILTER (WHERE cond)} clause as the conditional aggregate it
 * equals, which the analysis answers: {@code COUNT(*) FILTER (WHERE c)} as {@code SUM(CASE WHEN
 * c THEN 1 ELSE 0 END)}, {@code COUNT(x) FILTER (WHERE c)} as {@code SUM(CASE WHEN c AND x IS NOT
 * NULL THEN 1 ELSE 0 END)}, {@code SUM(x) FILTER (WHERE c)} as {@code SUM(CASE WHEN c THEN x ELSE
 * 0 END)}.
 *
 * <p>Guarantees: the rewritten aggregate has the same value on every database (up to SUM of no
 * qualifying row, 0 instead of NULL: released with noise either way) and the same sensitivity:
 * each row adds 0 or what it added to the unfiltered aggregate (1 for a count, its clamped value
 * for a sum, whose range [min(0, lo), max(0, hi)] is that of the clamp when the clamp contains
 * 0), so the noise and the charge are those of the unfiltered aggregate.
 *
 * <p>{@code AVG(x) FILTER (WHERE c)} (and the standard deviations and variances) is written as
 * {@code AVG(CASE WHEN c THEN x END)}: equal in SQL, because the aggregate skips NULLs as the
 * FILTER skips rows. Its sum and count are measured over the value {@code CASE WHEN c THEN x END},
 * whose non-NULL values lie in x's clamp, so each row adds to them at most what it adds to those
 * of {@code AVG(x)}: the same sensitivities, noise and charge. Aggregates with a FILTER that are
 * neither ({@code COUNT(DISTINCT ...)}, quantiles) are left as written and refused by the
 * analysis (XDP03).
 */
public final class FilterClauses {
  private FilterClauses() {}

  /**
   * Aggregates of one argument that skip NULL values, so that a FILTER is the same aggregate of
   * {@code CASE WHEN cond THEN x END}.
   */
  private static final java.util.Set<String> NULL_IGNORING = java.util.Set.of("AVG",
      "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE", "VAR_POP", "VAR_SAMP");

  /** {@code node} with the FILTER clauses it can write as conditional aggregates rewritten. */
  public static SqlNode rewrite(SqlNode node) {
    if (node == null) {
      return null;
    }
    if (node instanceof SqlNodeList list) {
      for (int i = 0; i < list.size(); i++) {
        SqlNode item = list.get(i);
        SqlNode r = rewrite(item);
        if (r != item) {
          list.set(i, r);
        }
      }
      return list;
    }
    if (node instanceof SqlOrderBy ob) {
      SqlNode q = rewrite(ob.query);
      rewrite(ob.orderList);
      return q == ob.query ? ob
          : new SqlOrderBy(ob.getParserPosition(), q, ob.orderList, ob.offset, ob.fetch);
    }
    if (!(node instanceof SqlCall call)) {
      return node;
    }
    List<SqlNode> operands = call.getOperandList();
    for (int i = 0; i < operands.size(); i++) {
      SqlNode op = operands.get(i);
      SqlNode r = rewrite(op);
      if (r != op) {
        try {
          call.setOperand(i, r);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
          // left as written
        }
      }
    }
    if (call.getKind() != SqlKind.FILTER || call.operandCount() != 2
        || !(call.operand(0) instanceof SqlCall agg)) {
      return call;
    }
    SqlNode condition = call.operand(1);
    SqlParserPos pos = call.getParserPosition();
    String name = agg.getOperator().getName().toUpperCase(Locale.ROOT);
    boolean distinct = agg.getFunctionQuantifier() != null
        && "DISTINCT".equalsIgnoreCase(agg.getFunctionQuantifier().toValue());
    if (distinct || agg.operandCount() != 1) {
      return call;
    }
    SqlNode arg = agg.operand(0);
    SqlNode one = SqlLiteral.createExactNumeric("1", pos);
    SqlNode zero = SqlLiteral.createExactNumeric("0", pos);
    SqlNode when;
    SqlNode then;
    if (name.equals("COUNT")) {
      boolean star = arg instanceof org.apache.calcite.sql.SqlIdentifier id && id.isStar();
      when = star ? condition : SqlStdOperatorTable.AND.createCall(pos, condition,
          SqlStdOperatorTable.IS_NOT_NULL.createCall(pos, arg));
      then = one;
    } else if (name.equals("SUM")) {
      when = condition;
      then = arg;
    } else if (NULL_IGNORING.contains(name)) {
      // AVG(x) FILTER (WHERE c) is AVG(CASE WHEN c THEN x END): the rows c rejects are NULL,
      // which the aggregate skips as it skips the rows the FILTER rejects
      SqlNode caseWhen = new SqlCase(pos, null, SqlNodeList.of(condition), SqlNodeList.of(arg),
          SqlLiteral.createNull(pos));
      return agg.getOperator().createCall(agg.getFunctionQuantifier(), pos, caseWhen);
    } else {
      return call;
    }
    SqlNode caseWhen = new SqlCase(pos, null, SqlNodeList.of(when), SqlNodeList.of(then), zero);
    return SqlStdOperatorTable.SUM.createCall(pos, caseWhen);
  }

}
