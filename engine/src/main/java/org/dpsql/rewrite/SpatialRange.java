package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;
import org.dpsql.policy.TablePolicy;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.OutputItem;

/**
 * A rectangle count over a spatial index of the policy ({@code spatial: {NAME: [X, Y]}}): {@code
 * SELECT COUNT(*) FROM t WHERE X BETWEEN ? AND ? AND Y >= ? ...} — only {@code COUNT(*)}, and a
 * filter that is a conjunction of range conditions ({@code BETWEEN}, {@code <}, {@code <=}, {@code
 * >}, {@code >=}) comparing the index's two columns with literals or parameters — or a heat map,
 * the same grouped by both columns of the index (one group per grid cell, the filter optional).
 *
 * <p>The rectangle is mapped to real grid coordinates, cell {@code (i, j)} (row = y bin, column =
 * x bin) being {@code [i, i+1) × [j, j+1)}: a bound between bin edges cuts its cell in proportion
 * (the uniformity assumption of HTF). For an integer column whose bins start and step at integers,
 * value {@code v} is the unit interval {@code [v, v+1)}, so {@code X BETWEEN 3 AND 5} covers values
 * 3, 4 and 5 exactly. Immutable.
 */
public final class SpatialRange {
  /** One bound: a column (0 = x, 1 = y), whether it is a lower bound, strictness, its value. */
  private record Bound(int axis, boolean lower, boolean strict, SqlNode value) {}

  private final TablePolicy table;
  private final String index;
  private final ColumnPolicy x;
  private final ColumnPolicy y;
  private final List<Bound> bounds;

  private SpatialRange(TablePolicy table, String index, ColumnPolicy x, ColumnPolicy y,
      List<Bound> bounds) {
    this.table = table;
    this.index = index;
    this.x = x;
    this.y = y;
    this.bounds = List.copyOf(bounds);
  }

  /** The rectangle count {@code q} asks for, or null when {@code q} has another shape. */
  public static SpatialRange match(AggregateQuery q) {
    TablePolicy t = q.table();
    if (t.spatial().isEmpty() || (q.groupBy().isEmpty() && q.where() == null)) {
      return null;
    }
    for (OutputItem o : q.outputs()) {
      if (!o.isGroupKey() && o.aggregate() != AggregateKind.COUNT_STAR) {
        return null;
      }
    }
    List<SqlCall> atoms = new ArrayList<>();
    if (q.where() != null && !conjuncts(q.where(), atoms)) {
      return null;
    }
    for (Map.Entry<String, List<String>> e : t.spatial().entrySet()) {
      ColumnPolicy x = t.column(e.getValue().get(0)).orElseThrow();
      ColumnPolicy y = t.column(e.getValue().get(1)).orElseThrow();
      // a heat map groups by both columns of the index (each group is one grid cell)
      if (!q.groupBy().isEmpty()
          && !(q.groupBy().size() == 2 && q.groupBy().contains(x) && q.groupBy().contains(y))) {
        continue;
      }
      List<Bound> bounds = new ArrayList<>();
      boolean ok = true;
      for (SqlCall a : atoms) {
        ok &= bounds(a, x, y, bounds);
      }
      if (ok) {
        return new SpatialRange(t, e.getKey(), x, y, bounds);
      }
    }
    return null;
  }

  private static boolean conjuncts(SqlNode n, List<SqlCall> out) {
    if (!(n instanceof SqlCall call)) {
      return false;
    }
    if (call.getKind() == SqlKind.AND) {
      for (SqlNode o : call.getOperandList()) {
        if (!conjuncts(o, out)) {
          return false;
        }
      }
      return true;
    }
    out.add(call);
    return true;
  }

  private static boolean bounds(SqlCall a, ColumnPolicy x, ColumnPolicy y, List<Bound> out) {
    SqlKind kind = a.getKind();
    if (kind == SqlKind.BETWEEN) {
      SqlBetweenOperator op = (SqlBetweenOperator) a.getOperator();
      int axis = axis(a.operand(0), x, y);
      if (op.isNegated() || op.flag == SqlBetweenOperator.Flag.SYMMETRIC || axis < 0
          || !constant(a.operand(1)) || !constant(a.operand(2))) {
        return false;
      }
      out.add(new Bound(axis, true, false, a.operand(1)));
      out.add(new Bound(axis, false, false, a.operand(2)));
      return true;
    }
    if (kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL
        && kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
      return false;
    }
    SqlNode left = a.operand(0);
    SqlNode right = a.operand(1);
    if (!(left instanceof SqlIdentifier)) {
      SqlNode t = left;
      left = right;
      right = t;
      kind = kind.reverse();
    }
    int axis = axis(left, x, y);
    if (axis < 0 || !constant(right)) {
      return false;
    }
    boolean lower = kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    boolean strict = kind == SqlKind.GREATER_THAN || kind == SqlKind.LESS_THAN;
    out.add(new Bound(axis, lower, strict, right));
    return true;
  }

  private static int axis(SqlNode n, ColumnPolicy x, ColumnPolicy y) {
    if (!(n instanceof SqlIdentifier id)) {
      return -1;
    }
    String name = id.names.get(id.names.size() - 1);
    return name.equalsIgnoreCase(x.name()) ? 0 : name.equalsIgnoreCase(y.name()) ? 1 : -1;
  }

  private static boolean constant(SqlNode n) {
    return n instanceof SqlDynamicParam
        || n instanceof SqlLiteral lit && lit.getValue() instanceof BigDecimal
        || n.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) n).operand(0) instanceof SqlLiteral;
  }

  public TablePolicy table() {
    return table;
  }

  /** The policy name of the spatial index. */
  public String index() {
    return index;
  }

  /** The x column (grid columns). */
  public ColumnPolicy x() {
    return x;
  }

  /** The y column (grid rows). */
  public ColumnPolicy y() {
    return y;
  }

  /**
   * {@code [rowFrom, rowTo, colFrom, colTo]} in real grid coordinates for the given parameters
   * (clipped to the grid by the caller's synopsis).
   *
   * @throws SQLException 07001 for an unset parameter, XDP03 for a non-numeric bound
   */
  public double[] rectangle(List<Object> parameters) throws SQLException {
    double[] lo = {0, 0};
    double[] hi = {x.domainSize(), y.domainSize()};
    for (Bound b : bounds) {
      ColumnPolicy c = b.axis() == 0 ? x : y;
      BigDecimal v = value(b.value(), parameters, c);
      double g = grid(c, v, b.lower(), b.strict());
      if (b.lower()) {
        lo[b.axis()] = Math.max(lo[b.axis()], g);
      } else {
        hi[b.axis()] = Math.min(hi[b.axis()], g);
      }
    }
    return new double[] {lo[1], hi[1], lo[0], hi[0]};
  }

  /** The grid coordinate where a lower (start) or upper (end) bound at {@code v} falls. */
  static double grid(ColumnPolicy c, BigDecimal v, boolean lower, boolean strict) {
    OrderedDomain d = c.ordered().orElseThrow();
    boolean integer = ColumnPolicy.isIntegerType(c.sqlType())
        && d.min().stripTrailingZeros().scale() <= 0 && d.bin().stripTrailingZeros().scale() <= 0;
    BigDecimal edge = v;
    if (integer) {
      // value v is [v, v+1): >= v starts at v, > v at floor(v)+1, <= v ends at floor(v)+1, < v at ceil(v)
      if (lower) {
        edge = strict ? floor(v).add(BigDecimal.ONE) : ceil(v);
      } else {
        edge = strict ? ceil(v) : floor(v).add(BigDecimal.ONE);
      }
    }
    return edge.subtract(d.min()).doubleValue() / d.bin().doubleValue();
  }

  private static BigDecimal floor(BigDecimal v) {
    return v.setScale(0, java.math.RoundingMode.FLOOR);
  }

  private static BigDecimal ceil(BigDecimal v) {
    return v.setScale(0, java.math.RoundingMode.CEILING);
  }

  private static BigDecimal value(SqlNode n, List<Object> parameters, ColumnPolicy c)
      throws SQLException {
    Object v;
    if (n instanceof SqlDynamicParam p) {
      v = p.getIndex() < parameters.size() ? parameters.get(p.getIndex()) : ExactMeasurer.UNSET;
      if (v == ExactMeasurer.UNSET) {
        throw new SQLException("parameter " + (p.getIndex() + 1) + " is not set", "07001");
      }
    } else if (n instanceof SqlLiteral lit) {
      v = lit.getValue();
    } else {
      v = ((BigDecimal) ((SqlLiteral) ((SqlCall) n).operand(0)).getValue()).negate();
    }
    if (v instanceof BigDecimal b) {
      return b;
    }
    if (v instanceof Number num) {
      try {
        return new BigDecimal(num.toString());
      } catch (NumberFormatException e) {
        // NaN or infinite: refused below
      }
    }
    throw SqlStates.notSupported("the bound " + v + " on " + c.name() + " is not a finite number");
  }
}
