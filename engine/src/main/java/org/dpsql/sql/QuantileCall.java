package org.dpsql.sql;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.dpsql.errors.SqlStates;

/**
 * The quantile aggregates of the SQL surface, read from parsed SQL: {@code PERCENTILE_CONT(p)
 * WITHIN GROUP (ORDER BY x [ASC|DESC])}, {@code PERCENTILE_DISC(p) WITHIN GROUP (...)}, {@code
 * MEDIAN(x)} (H2's and PostgreSQL's spelling, rewritten to {@code PERCENTILE_CONT(0.5)} before
 * validation, since Calcite has no {@code MEDIAN}), {@code MIN(x)} (the 0-quantile) and {@code
 * MAX(x)} (the 1-quantile).
 *
 * <p>Guarantees: a fraction is a number literal in [0, 1] (SQLState 22003 otherwise, before
 * anything else, as PostgreSQL reports it); {@code ORDER BY x DESC} turns p into 1 − p; the
 * argument is returned as written, for the policy checks of the caller.
 */
public final class QuantileCall {
  private QuantileCall() {}

  /** A quantile aggregate: its function name (for labels), its column and its fraction p. */
  public record Parsed(String function, SqlIdentifier column, BigDecimal fraction) {}

  /**
   * {@code node} with every {@code MEDIAN(x)} replaced by {@code PERCENTILE_CONT(0.5) WITHIN
   * GROUP (ORDER BY x)} (an unaliased select item keeps the name {@code MEDIAN_<x>}), after
   * checking that every literal percentile fraction lies in [0, 1] (22003 otherwise).
   */
  public static SqlNode rewrite(SqlNode node) throws SQLException {
    SQLException[] failure = new SQLException[1];
    SqlNode out = node.accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
          SqlNodeList items = select.getSelectList();
          for (int i = 0; items != null && i < items.size(); i++) {
            if (isMedian(items.get(i)) && ((SqlCall) items.get(i)).operand(0)
                instanceof SqlIdentifier id && !id.isStar()) {
              items.set(i, SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, items.get(i),
                  new SqlIdentifier("MEDIAN_" + id.names.get(id.names.size() - 1),
                      SqlParserPos.ZERO)));
            }
          }
        }
        if (isPercentile(call) && call.operandCount() == 1 && failure[0] == null) {
          try {
            fraction(call.operand(0), name(call));
          } catch (SQLException e) {
            failure[0] = e;
          }
        }
        if (isMedian(call)) {
          SqlParserPos pos = call.getParserPosition();
          SqlNode x = call.operand(0).accept(this);
          return SqlStdOperatorTable.WITHIN_GROUP.createCall(pos,
              SqlStdOperatorTable.PERCENTILE_CONT.createCall(pos,
                  SqlLiteral.createExactNumeric("0.5", pos)), SqlNodeList.of(x));
        }
        return super.visit(call);
      }
    });
    if (failure[0] != null) {
      throw failure[0];
    }
    return out;
  }

  /** Whether {@code n} is {@code MEDIAN(x)} (one argument, no DISTINCT, no window). */
  private static boolean isMedian(SqlNode n) {
    return n instanceof SqlCall c && name(c).equals("MEDIAN") && c.operandCount() == 1
        && c.getFunctionQuantifier() == null;
  }

  private static boolean isPercentile(SqlCall call) {
    String n = name(call);
    return n.equals("PERCENTILE_CONT") || n.equals("PERCENTILE_DISC");
  }

  private static String name(SqlCall call) {
    return call.getOperator().getName().toUpperCase(Locale.ROOT);
  }

  /**
   * The quantile {@code call} asks for, or null when it is not a quantile aggregate; XDP03 for a
   * quantile of another shape (an expression, several ORDER BY keys, a fraction that is not a
   * literal, DISTINCT).
   */
  public static Parsed parse(SqlCall call) throws SQLException {
    String name = name(call);
    if (call.getKind() == SqlKind.WITHIN_GROUP) {
      SqlNode inner = call.operand(0);
      if (!(inner instanceof SqlCall f) || !isPercentile(f)) {
        return null;
      }
      String function = name(f);
      if (f.operandCount() != 1) {
        throw SqlStates.notSupported(function + " takes one fraction, e.g. " + function
            + "(0.5) WITHIN GROUP (ORDER BY col)");
      }
      BigDecimal p = fraction(f.operand(0), function);
      SqlNodeList order = call.operand(1);
      if (order.size() != 1) {
        throw SqlStates.notSupported(function + " orders by one policy column: WITHIN GROUP "
            + "(ORDER BY col)");
      }
      SqlNode key = order.get(0);
      boolean descending = false;
      while (key instanceof SqlBasicCall c && (c.getKind() == SqlKind.DESCENDING
          || c.getKind() == SqlKind.NULLS_FIRST || c.getKind() == SqlKind.NULLS_LAST)) {
        descending |= c.getKind() == SqlKind.DESCENDING;
        key = c.operand(0);
      }
      return new Parsed(function, column(key, function),
          descending ? BigDecimal.ONE.subtract(p) : p);
    }
    if (name.equals("MIN") || name.equals("MAX")) {
      if (call.getFunctionQuantifier() != null || call.operandCount() != 1) {
        throw SqlStates.notSupported(name + " over a private table takes one policy column, "
            + "without DISTINCT");
      }
      return new Parsed(name, column(call.operand(0), name),
          name.equals("MIN") ? BigDecimal.ZERO : BigDecimal.ONE);
    }
    if (isPercentile(call)) {
      throw SqlStates.notSupported(name + " needs WITHIN GROUP (ORDER BY col)");
    }
    return null;
  }

  private static SqlIdentifier column(SqlNode n, String function) throws SQLException {
    if (n instanceof SqlIdentifier id && !id.isStar()) {
      return id;
    }
    throw SqlStates.notSupported(function + "(" + n + "): a private quantile is taken of a policy "
        + "column with a public range, not of an expression");
  }

  /** The fraction p of a percentile: a number literal in [0, 1]. */
  private static BigDecimal fraction(SqlNode n, String function) throws SQLException {
    boolean negative = false;
    if (n.getKind() == SqlKind.MINUS_PREFIX) {
      negative = true;
      n = ((SqlCall) n).operand(0);
    }
    if (!(n instanceof SqlNumericLiteral lit)) {
      throw SqlStates.notSupported(function + "(" + n + "): the fraction of a private percentile "
          + "must be a number literal between 0 and 1");
    }
    BigDecimal p = lit.bigDecimalValue();
    p = negative ? p.negate() : p;
    if (p.signum() < 0 || p.compareTo(BigDecimal.ONE) > 0) {
      throw new SQLException(function + "(" + p.toPlainString() + "): the fraction of a "
          + "percentile must be between 0 and 1", "22003");
    }
    return p;
  }
}
