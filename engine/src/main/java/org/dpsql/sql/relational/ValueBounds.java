package org.dpsql.sql.relational;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.Clamp;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.Measurement;

/**
 * Bound propagation: the range of values an aggregate's argument can take in any row, derived by
 * interval arithmetic from the policy's clamps and domains (Qrlew's range propagation, on exact
 * decimals), together with the argument rewritten so that every clamped column is clamped first.
 *
 * <p>Guarantees: for every row, the rewritten expression's value is NULL or lies in the returned
 * {@link Clamp}; the rewritten expression uses only operators that cannot fail on a row: columns
 * (numeric ones clamped to their policy bounds), literals, {@code +}, {@code -}, {@code *},
 * division by a non-zero literal, {@code CASE}/{@code COALESCE}/{@code NULLIF} whose conditions
 * compare columns with literals, {@code ABS}, {@code LEAST}, {@code GREATEST}. Anything else, and
 * any numeric column without a clamp or ordered domain, is refused with XDP03 naming it. The bound
 * of a sum is then {@code k · max(|lo|, |hi|)} per privacy unit, as for a clamped column.
 */
final class ValueBounds {
  /** The propagated range and the expression with its columns clamped. */
  record Bounded(Clamp range, RexNode expression) {}

  private static final Set<SqlKind> CONDITIONS = EnumSet.of(SqlKind.EQUALS, SqlKind.NOT_EQUALS,
      SqlKind.LESS_THAN, SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN,
      SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.AND, SqlKind.OR, SqlKind.NOT, SqlKind.IS_NULL,
      SqlKind.IS_NOT_NULL, SqlKind.IS_TRUE, SqlKind.IS_FALSE, SqlKind.IS_NOT_TRUE,
      SqlKind.IS_NOT_FALSE, SqlKind.LIKE);

  private static final MathContext MC = MathContext.DECIMAL128;

  private final RexBuilder rex;
  private final List<String> columns;
  private final Function<String, Optional<ColumnPolicy>> policy;

  ValueBounds(RexBuilder rex, List<String> columns,
      Function<String, Optional<ColumnPolicy>> policy) {
    this.rex = rex;
    this.columns = columns;
    this.policy = policy;
  }

  /** The bounds of {@code e} (an expression over the table's columns) and its clamped form. */
  Bounded of(RexNode e, String shown) throws SQLException {
    return bound(org.apache.calcite.rex.RexUtil.expandSearch(rex, null, e), shown);
  }

  /**
   * The bounds of {@code e}, refused when any value it takes could overflow its type in the
   * backend (an overflow error on some rows would reveal them).
   */
  private Bounded bound(RexNode e, String shown) throws SQLException {
    Bounded b = unchecked(e, shown);
    BigDecimal limit = switch (e.getType().getSqlTypeName()) {
      case TINYINT -> BigDecimal.valueOf(Byte.MAX_VALUE);
      case SMALLINT -> BigDecimal.valueOf(Short.MAX_VALUE);
      case INTEGER -> BigDecimal.valueOf(Integer.MAX_VALUE);
      default -> MAX_MAGNITUDE;
    };
    if (b.range().lo().abs().compareTo(limit) > 0 || b.range().hi().abs().compareTo(limit) > 0) {
      throw refused(shown, e + " can reach " + b.range().lo().abs().max(b.range().hi().abs())
          .toPlainString() + ", more than its type " + e.getType().getSqlTypeName()
          + " holds in every backend (" + limit.toPlainString() + ")");
    }
    return b;
  }

  /** The largest magnitude a computed value may reach: far inside DECIMAL(38, 12) and BIGINT. */
  private static final BigDecimal MAX_MAGNITUDE = new BigDecimal("1e15");

  private Bounded unchecked(RexNode e, String shown) throws SQLException {
    if (e instanceof RexLiteral lit) {
      BigDecimal v = lit.getValueAs(BigDecimal.class);
      if (v == null) {
        if (lit.isNull()) {
          return new Bounded(new Clamp(BigDecimal.ZERO, BigDecimal.ZERO), e);
        }
        throw refused(shown, "the literal " + lit + " is not a number");
      }
      return new Bounded(new Clamp(v, v), e);
    }
    if (e instanceof RexInputRef ref) {
      String name = columns.get(ref.getIndex());
      ColumnPolicy c = policy.apply(name).orElseThrow(() -> refused(shown, "column " + name
          + " is not in the policy"));
      if (!c.isNumeric() || (c.clamp().isEmpty() && c.ordered().isEmpty())) {
        throw refused(shown, "column " + name + " has no clamp (or min/max) in the policy, so "
            + "its values have no public bound");
      }
      Clamp b = Measurement.bounds(c);
      return new Bounded(b, clamped(ref, b));
    }
    if (!(e instanceof RexCall call)) {
      throw refused(shown, e + " is not supported");
    }
    List<RexNode> ops = call.getOperands();
    switch (call.getKind()) {
      case PLUS, MINUS -> {
        Bounded a = bound(ops.get(0), shown);
        Bounded b = bound(ops.get(1), shown);
        Clamp r = call.getKind() == SqlKind.PLUS
            ? new Clamp(a.range().lo().add(b.range().lo()), a.range().hi().add(b.range().hi()))
            : new Clamp(a.range().lo().subtract(b.range().hi()),
                a.range().hi().subtract(b.range().lo()));
        return new Bounded(r, call.clone(call.getType(), List.of(a.expression(), b.expression())));
      }
      case TIMES -> {
        Bounded a = bound(ops.get(0), shown);
        Bounded b = bound(ops.get(1), shown);
        BigDecimal[] p = {a.range().lo().multiply(b.range().lo()),
            a.range().lo().multiply(b.range().hi()), a.range().hi().multiply(b.range().lo()),
            a.range().hi().multiply(b.range().hi())};
        return new Bounded(hull(p),
            call.clone(call.getType(), List.of(a.expression(), b.expression())));
      }
      case DIVIDE -> {
        if (!(ops.get(1) instanceof RexLiteral d) || d.getValueAs(BigDecimal.class) == null
            || d.getValueAs(BigDecimal.class).signum() == 0) {
          throw refused(shown, "division by anything but a non-zero number could fail on some "
              + "rows, and the failure would reveal them");
        }
        Bounded a = bound(ops.get(0), shown);
        BigDecimal v = d.getValueAs(BigDecimal.class);
        BigDecimal lo = a.range().lo().divide(v, MC);
        BigDecimal hi = a.range().hi().divide(v, MC);
        Clamp r = hull(new BigDecimal[] {lo, hi});
        // the backend rounds the quotient: integer division truncates towards zero (5 / 2 = 2
        // lies below 2.5), so the bounds are widened outwards to whole numbers for integer types,
        // and to the sixth decimal otherwise
        int scale = SqlTypeName.INT_TYPES.contains(call.getType().getSqlTypeName()) ? 0 : 6;
        r = new Clamp(r.lo().setScale(scale, RoundingMode.FLOOR),
            r.hi().setScale(scale, RoundingMode.CEILING));
        return new Bounded(r, call.clone(call.getType(), List.of(a.expression(), ops.get(1))));
      }
      case MINUS_PREFIX -> {
        Bounded a = bound(ops.get(0), shown);
        return new Bounded(new Clamp(a.range().hi().negate(), a.range().lo().negate()),
            call.clone(call.getType(), List.of(a.expression())));
      }
      case PLUS_PREFIX -> {
        return bound(ops.get(0), shown);
      }
      case CASE -> {
        // CASE WHEN c1 THEN v1 WHEN c2 THEN v2 ... ELSE vn END: the hull of the branch values
        List<RexNode> out = new ArrayList<>();
        List<BigDecimal> ends = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
          boolean condition = i % 2 == 0 && i < ops.size() - 1;
          if (condition) {
            out.add(condition(ops.get(i), shown));
          } else {
            Bounded v = bound(ops.get(i), shown);
            ends.add(v.range().lo());
            ends.add(v.range().hi());
            out.add(v.expression());
          }
        }
        return new Bounded(hull(ends.toArray(new BigDecimal[0])), call.clone(call.getType(), out));
      }
      case COALESCE, GREATEST, LEAST -> {
        List<RexNode> out = new ArrayList<>();
        List<BigDecimal> ends = new ArrayList<>();
        for (RexNode o : ops) {
          Bounded v = bound(o, shown);
          ends.add(v.range().lo());
          ends.add(v.range().hi());
          out.add(v.expression());
        }
        return new Bounded(hull(ends.toArray(new BigDecimal[0])), call.clone(call.getType(), out));
      }
      case NULLIF -> {
        Bounded a = bound(ops.get(0), shown);
        return new Bounded(a.range(), call.clone(call.getType(),
            List.of(a.expression(), bound(ops.get(1), shown).expression())));
      }
      case CAST -> {
        SqlTypeName to = call.getType().getSqlTypeName();
        SqlTypeName from = ops.get(0).getType().getSqlTypeName();
        boolean widening = to == from || SqlTypeName.APPROX_TYPES.contains(to)
            || to == SqlTypeName.DECIMAL
            || (SqlTypeName.INT_TYPES.contains(to) && SqlTypeName.INT_TYPES.contains(from));
        if (!widening) {
          throw refused(shown, "a cast to " + to + " could fail or overflow on some rows");
        }
        Bounded a = bound(ops.get(0), shown);
        return new Bounded(a.range(), call.clone(call.getType(), List.of(a.expression())));
      }
      default -> {
        if (call.getOperator() == SqlStdOperatorTable.ABS) {
          Bounded a = bound(ops.get(0), shown);
          BigDecimal lo = a.range().lo().signum() >= 0 ? a.range().lo()
              : a.range().hi().signum() <= 0 ? a.range().hi().negate() : BigDecimal.ZERO;
          BigDecimal hi = a.range().lo().abs().max(a.range().hi().abs());
          return new Bounded(new Clamp(lo, hi), call.clone(call.getType(), List.of(a.expression())));
        }
        throw refused(shown, call.getOperator().getName() + " is not supported in an aggregated "
            + "expression");
      }
    }
  }

  /**
   * A CASE condition: comparisons, boolean logic and NULL tests over columns and literals; numeric
   * columns are compared after clamping, as in the value they select.
   */
  private RexNode condition(RexNode c, String shown) throws SQLException {
    if (c instanceof RexLiteral) {
      return c;
    }
    if (c instanceof RexInputRef ref) {
      String name = columns.get(ref.getIndex());
      ColumnPolicy p = policy.apply(name).orElseThrow(() -> refused(shown, "column " + name
          + " is not in the policy"));
      if (p.isNumeric() && (p.clamp().isPresent() || p.ordered().isPresent())) {
        return clamped(ref, Measurement.bounds(p));
      }
      return ref;
    }
    if (c instanceof RexCall call && CONDITIONS.contains(call.getKind())) {
      List<RexNode> out = new ArrayList<>();
      for (RexNode o : call.getOperands()) {
        out.add(condition(o, shown));
      }
      return call.clone(call.getType(), out);
    }
    if (c instanceof RexCall call && (call.getKind() == SqlKind.PLUS
        || call.getKind() == SqlKind.MINUS || call.getKind() == SqlKind.TIMES)) {
      return bound(c, shown).expression();
    }
    throw refused(shown, "the condition " + c + " may use comparisons, AND/OR/NOT, IS [NOT] NULL "
        + "and LIKE over columns and literals only");
  }

  /** {@code CASE WHEN x < lo THEN lo WHEN x > hi THEN hi ELSE x END} (NULL stays NULL). */
  private RexNode clamped(RexInputRef ref, Clamp b) {
    RexNode lo = rex.makeExactLiteral(b.lo());
    RexNode hi = rex.makeExactLiteral(b.hi());
    return rex.makeCall(ref.getType(), SqlStdOperatorTable.CASE, List.of(
        rex.makeCall(SqlStdOperatorTable.LESS_THAN, ref, lo), lo,
        rex.makeCall(SqlStdOperatorTable.GREATER_THAN, ref, hi), hi,
        ref));
  }

  private static Clamp hull(BigDecimal[] values) {
    BigDecimal lo = values[0];
    BigDecimal hi = values[0];
    for (BigDecimal v : values) {
      lo = lo.min(v);
      hi = hi.max(v);
    }
    return new Clamp(lo, hi);
  }

  private static SQLException refused(String shown, String why) {
    return SqlStates.notSupported("cannot bound the aggregated expression " + shown + ": " + why
        + ". Aggregate a clamped column, or arithmetic, CASE and COALESCE over clamped columns "
        + "and literals");
  }
}
