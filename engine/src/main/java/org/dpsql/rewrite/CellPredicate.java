package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.util.NlsString;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;

/**
 * A row filter ({@code WHERE}) evaluated on the cells of a data vector instead of on rows: the 0/1
 * coefficients of a linear counting query. A cell is in the query when every value the policy lets
 * it hold satisfies the filter, out when none does.
 *
 * <p>Guarantee: for every row whose values of the cell columns lie in the policy domain, the filter
 * holds for the row exactly when the row's cell is selected — so {@code Σ_selected x_cell} equals
 * the backend's {@code COUNT(*) ... WHERE filter} over those rows. When a filter splits a cell
 * (e.g. {@code AGE < 35} on bins of width 10) that equality cannot hold, and {@link #compile}
 * refuses with XDP03 instead of answering approximately. Supported: {@code = <> < <= > >=},
 * {@code BETWEEN}, {@code [NOT] IN}, {@code LIKE} on text, {@code IS NOT NULL}, {@code AND OR
 * NOT}, comparing a column with a literal or a parameter. Rows whose value of a cell column is NULL
 * or outside the policy domain belong to no cell: they are not in the data vector and are never
 * counted (the data owner's domain defines what the analyst can count). Immutable.
 */
public final class CellPredicate {
  /** Truth of a filter over the values one cell (or one domain value) may hold. */
  enum Truth {
    TRUE, FALSE, MIXED;

    Truth not() {
      return this == TRUE ? FALSE : this == FALSE ? TRUE : MIXED;
    }

    static Truth of(boolean all, boolean none) {
      return all ? TRUE : none ? FALSE : MIXED;
    }
  }

  private sealed interface Node permits And, Or, Not, Atom, Constant {}

  private record And(List<Node> parts) implements Node {}

  private record Or(List<Node> parts) implements Node {}

  private record Not(Node inner) implements Node {}

  /** A condition on one column, tabulated over that column's domain values. */
  private record Atom(int column, Truth[] byValue, String text) implements Node {}

  private record Constant(Truth truth) implements Node {}

  private final CellDomain cells;
  private final Node root;

  private CellPredicate(CellDomain cells, Node root) {
    this.cells = cells;
    this.root = root;
  }

  /** The predicate that selects every cell (no WHERE). */
  public static CellPredicate all(CellDomain cells) {
    return new CellPredicate(cells, new Constant(Truth.TRUE));
  }

  /**
   * Compiles a checked filter (bare policy column names, see {@code FrontEnd}) over the cells.
   *
   * @param parameters the statement's parameter values, by dynamic-parameter index
   * @throws SQLException XDP03 when the filter uses a column that is not a cell column, a construct
   *     outside the supported list, or splits a cell of the policy domain
   */
  public static CellPredicate compile(SqlNode where, CellDomain cells, List<Object> parameters)
      throws SQLException {
    return compile(where, cells, parameters, List.of());
  }

  /**
   * As {@link #compile(SqlNode, CellDomain, List)}, where the filter may also use columns of
   * joined public tables ({@link PublicJoin.Derived}): a condition on such a column holds in a
   * cell when it holds for the public value of the cell's key (never for a key without a public
   * row; the join's own restriction to matched keys is the caller's).
   */
  public static CellPredicate compile(SqlNode where, CellDomain cells, List<Object> parameters,
      List<PublicJoin.Derived> derived) throws SQLException {
    if (where == null) {
      return all(cells);
    }
    return new CellPredicate(cells, new Compiler(cells, parameters, derived, false).node(where));
  }

  /**
   * Compiles any checked filter over the cells for {@link #possible()}, without refusing anything:
   * a construct this class cannot decide (a column that is not a cell column, arithmetic, an
   * unset parameter, a type it does not compare, a time column) is "unknown" in that cell, never
   * true or false. Text is compared as the most lenient backend collation would (case and
   * trailing spaces ignored: a value is "unequal" only when it differs even so), and a bin of a
   * non-integer column is taken closed at both edges (an approximate column's edges widened by a
   * relative 10^-9), so that a backend's rounding at a bin edge cannot make an excluded bin hold a
   * row that satisfies the filter.
   */
  public static CellPredicate bounding(SqlNode where, CellDomain cells, List<Object> parameters,
      List<PublicJoin.Derived> derived) {
    if (where == null) {
      return all(cells);
    }
    try {
      return new CellPredicate(cells, new Compiler(cells, parameters, derived, true).node(where));
    } catch (SQLException | RuntimeException e) {
      return new CellPredicate(cells, new Constant(Truth.MIXED)); // not decided: every cell kept
    }
  }

  /**
   * Whether each cell may hold a row that satisfies the filter, in the domain's cell order: false
   * only when the filter is false for every value the policy lets the cell hold (for a filter
   * from {@link #bounding}: provably so, unknown parts counting as possibly true).
   *
   * <p>Soundness: the three truths are sets of outcomes over the cell's rows (TRUE = the filter
   * holds on every row, FALSE = on none, MIXED = anything, SQL's UNKNOWN included), and NOT, AND
   * and OR map them as Kleene's logic maps each row's outcome, so a cell computed FALSE has no row
   * on which the filter is true, whatever the rows are.
   */
  public boolean[] possible() {
    int n = cells.size();
    boolean[] out = new boolean[n];
    int[] coords = new int[cells.columns().size()];
    for (int cell = 0; cell < n; cell++) {
      out[cell] = eval(root, coords) != Truth.FALSE;
      increment(coords);
    }
    return out;
  }

  /** The selection of every cell, in the domain's cell order. */
  public boolean[] mask() throws SQLException {
    int n = cells.size();
    boolean[] out = new boolean[n];
    int[] coords = new int[cells.columns().size()];
    for (int cell = 0; cell < n; cell++) {
      Truth t = eval(root, coords);
      if (t == Truth.MIXED) {
        throw SqlStates.notSupported("the filter splits the policy cell " + describeCell(coords)
            + ": some of its values satisfy the filter and some do not, so the count cannot be "
            + "computed from cell counts; compare ordered columns at bin edges of the policy");
      }
      out[cell] = t == Truth.TRUE;
      increment(coords);
    }
    return out;
  }

  private void increment(int[] coords) {
    for (int i = coords.length - 1; i >= 0; i--) {
      if (++coords[i] < cells.columns().get(i).domainSize()) {
        return;
      }
      coords[i] = 0;
    }
  }

  private String describeCell(int[] coords) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < coords.length; i++) {
      ColumnPolicy c = cells.columns().get(i);
      s.append(i == 0 ? "" : ", ").append(c.name()).append(' ');
      if (c.ordered().isPresent()) {
        OrderedDomain d = c.ordered().get();
        BigDecimal lo = d.lowerEdge(coords[i]);
        BigDecimal hi = lo.add(d.bin());
        s.append(hi.compareTo(d.max()) > 0
            ? "[" + lo.toPlainString() + ", " + d.max().toPlainString() + "]"
            : "[" + lo.toPlainString() + ", " + hi.toPlainString() + ")");
      } else {
        s.append("= ").append(c.categorical().orElseThrow().values().get(coords[i]));
      }
    }
    return s.toString();
  }

  private static Truth eval(Node node, int[] coords) {
    if (node instanceof Atom a) {
      return a.byValue()[coords[a.column()]];
    }
    if (node instanceof Constant c) {
      return c.truth();
    }
    if (node instanceof Not n) {
      return eval(n.inner(), coords).not();
    }
    if (node instanceof And and) {
      Truth t = Truth.TRUE;
      for (Node p : and.parts()) {
        Truth v = eval(p, coords);
        if (v == Truth.FALSE) {
          return Truth.FALSE;
        }
        if (v == Truth.MIXED) {
          t = Truth.MIXED;
        }
      }
      return t;
    }
    Or or = (Or) node;
    Truth t = Truth.FALSE;
    for (Node p : or.parts()) {
      Truth v = eval(p, coords);
      if (v == Truth.TRUE) {
        return Truth.TRUE;
      }
      if (v == Truth.MIXED) {
        t = Truth.MIXED;
      }
    }
    return t;
  }

  // ------------------------------------------------------------------------------------------

  /** Turns the SQL tree into {@link Node}s, tabulating each column condition over its domain. */
  private static final class Compiler {
    private final CellDomain cells;
    private final List<Object> parameters;
    private final List<PublicJoin.Derived> derived;
    /** Whether what cannot be decided is "unknown" ({@link #bounding}) instead of refused. */
    private final boolean lenient;

    Compiler(CellDomain cells, List<Object> parameters, List<PublicJoin.Derived> derived,
        boolean lenient) {
      this.cells = cells;
      this.parameters = parameters;
      this.derived = derived;
      this.lenient = lenient;
    }

    /** The column of a column index: a cell column (index ≥ 0) or a derived one (−1 − k). */
    private ColumnPolicy policyOf(int col) {
      return col >= 0 ? cells.columns().get(col) : derived.get(-1 - col).column();
    }

    /**
     * The atom of a condition tabulated over a column's values: as is for a cell column; for a
     * derived column, carried to its key's cells through the public lookup.
     */
    private Node attach(int col, Truth[] byValue, String text) throws SQLException {
      if (col >= 0) {
        return new Atom(col, byValue, text);
      }
      PublicJoin.Derived d = derived.get(-1 - col);
      int keyIndex = cells.columns().indexOf(d.key());
      if (keyIndex < 0) {
        throw new IllegalStateException("join key " + d.key().name() + " is not a cell column");
      }
      int[] valueOf = d.valueOfKey();
      Truth[] byKey = new Truth[valueOf.length];
      for (int k = 0; k < valueOf.length; k++) {
        byKey[k] = valueOf[k] < 0 ? Truth.FALSE : byValue[valueOf[k]];
      }
      return new Atom(keyIndex, byKey, text);
    }

    Node node(SqlNode n) throws SQLException {
      if (!lenient) {
        return exact(n);
      }
      try {
        return exact(n);
      } catch (SQLException | RuntimeException e) {
        return new Constant(Truth.MIXED); // this part is not decided: it may hold or not
      }
    }

    private Node exact(SqlNode n) throws SQLException {
      if (n instanceof SqlLiteral lit && lit.getTypeName().getFamily() != null
          && lit.getValue() instanceof Boolean b) {
        return new Constant(b ? Truth.TRUE : Truth.FALSE);
      }
      if (!(n instanceof SqlCall call)) {
        throw unsupported(n);
      }
      SqlKind kind = call.getKind();
      switch (kind) {
        case AND, OR -> {
          List<Node> parts = new ArrayList<>();
          for (SqlNode o : call.getOperandList()) {
            parts.add(node(o));
          }
          return kind == SqlKind.AND ? new And(parts) : new Or(parts);
        }
        case NOT -> {
          return new Not(node(call.operand(0)));
        }
        case IS_NOT_NULL -> {
          if (column(call.operand(0), call) < 0 && lenient) {
            return new Constant(Truth.MIXED); // a public table's value may be NULL
          }
          // must be a cell column
          // cells hold only in-domain values, which are never NULL
          return new Constant(Truth.TRUE);
        }
        case IS_NULL -> {
          if (lenient && column(call.operand(0), call) >= 0) {
            return new Constant(Truth.FALSE); // a cell holds only in-domain values, never NULL
          }
          throw SqlStates.notSupported("IS NULL (" + call + ") cannot be answered "
            + "from cell counts: rows with NULL in a column of the workload belong to no cell of "
            + "the policy domain. Ask COUNT(*) and COUNT(col) instead");
        }
        case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN,
            GREATER_THAN_OR_EQUAL -> {
          return comparison(call, kind);
        }
        case BETWEEN -> {
          // operands: value, lower, upper (BETWEEN SYMMETRIC is not supported)
          SqlBetweenOperator op = (SqlBetweenOperator) call.getOperator();
          if (op.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
            throw SqlStates.notSupported("BETWEEN SYMMETRIC is not supported in workloads; "
                + "write the bounds in order");
          }
          int col = column(call.operand(0), call);
          Object lo = constant(call.operand(1), call);
          Object hi = constant(call.operand(2), call);
          Node between = new And(List.of(
              atom(col, SqlKind.GREATER_THAN_OR_EQUAL, lo, call),
              atom(col, SqlKind.LESS_THAN_OR_EQUAL, hi, call)));
          return op.isNegated() ? new Not(between) : between;
        }
        case IN, NOT_IN -> {
          int col = column(call.operand(0), call);
          if (!(call.operand(1) instanceof SqlNodeList list)) {
            throw unsupported(call);
          }
          List<Node> parts = new ArrayList<>();
          for (SqlNode v : list) {
            parts.add(atom(col, SqlKind.EQUALS, constant(v, call), call));
          }
          Node in = new Or(parts);
          return kind == SqlKind.IN ? in : new Not(in);
        }
        case LIKE -> {
          // x NOT LIKE p is the LIKE operator negated (same kind)
          return call.getOperator() instanceof org.apache.calcite.sql.fun.SqlLikeOperator l
              && l.isNegated() ? new Not(like(call)) : like(call);
        }
        default -> throw unsupported(call);
      }
    }

    private Node comparison(SqlCall call, SqlKind kind) throws SQLException {
      SqlNode left = call.operand(0);
      SqlNode right = call.operand(1);
      if (left instanceof SqlIdentifier && right instanceof SqlIdentifier) {
        throw SqlStates.notSupported("comparing two columns (" + call + ") is not supported in "
            + "workloads; compare a column with a literal or a parameter");
      }
      if (!(left instanceof SqlIdentifier)) {
        SqlNode t = left;
        left = right;
        right = t;
        kind = kind.reverse();
      }
      int col = column(left, call);
      return atom(col, kind, constant(right, call), call);
    }

    private Node like(SqlCall call) throws SQLException {
      int col = column(call.operand(0), call);
      ColumnPolicy c = policyOf(col);
      Object pattern = constant(call.operand(1), call);
      String escape = null;
      if (call.operandCount() > 2) {
        Object e = constant(call.operand(2), call);
        escape = e.toString();
      }
      if (c.categorical().isEmpty() || !(pattern instanceof String p)) {
        throw SqlStates.notSupported("LIKE (" + call + ") needs a text column with a categorical "
            + "domain and a text pattern");
      }
      Pattern regex = likePattern(p, escape);
      Pattern folded = Pattern.compile(regex.pattern(),
          Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
      List<Object> values = c.categorical().get().values();
      Truth[] t = new Truth[values.size()];
      for (int i = 0; i < t.length; i++) {
        Object v = values.get(i);
        if (lenient && !(v instanceof String)) {
          t[i] = Truth.MIXED; // a number or date as text is the backend's own rendering
        } else if (v instanceof String s && regex.matcher(s).matches()) {
          t[i] = Truth.TRUE;
        } else if (lenient && (folded.matcher((String) v).matches()
            || folded.matcher(((String) v).stripTrailing()).matches())) {
          t[i] = Truth.MIXED; // matches under a case-insensitive or padding collation
        } else {
          t[i] = Truth.FALSE;
        }
      }
      return attach(col, t, call.toString());
    }

    private Node atom(int col, SqlKind kind, Object constant, SqlCall call) throws SQLException {
      ColumnPolicy c = policyOf(col);
      int size = c.domainSize();
      Truth[] t = new Truth[size];
      if (c.categorical().isPresent()) {
        List<Object> values = c.categorical().get().values();
        for (int i = 0; i < size; i++) {
          t[i] = lenient ? lenientCategorical(values.get(i), kind, constant, c, call)
              : categorical(values.get(i), kind, constant, c, call);
        }
      } else {
        OrderedDomain d = c.ordered().orElseThrow();
        BigDecimal k = number(constant, c, call);
        boolean integer = ColumnPolicy.isIntegerType(c.sqlType());
        for (int i = 0; i < size; i++) {
          t[i] = lenient && !integer ? closedInterval(d, i, approximate(c.sqlType()), kind, k)
              : interval(d, i, integer, kind, k);
        }
      }
      return attach(col, t, call.toString());
    }

    /**
     * {@link #categorical} for {@link #bounding}: text compared exactly is TRUE only for the same
     * string and FALSE only for strings that differ even ignoring case and trailing spaces (what a
     * case-insensitive or padding collation would call equal is MIXED); order comparisons of text
     * and values of other kinds (dates) are MIXED.
     */
    private static Truth lenientCategorical(Object value, SqlKind kind, Object constant,
        ColumnPolicy c, SqlCall call) throws SQLException {
      if (value instanceof String v && constant instanceof String k
          && (kind == SqlKind.EQUALS || kind == SqlKind.NOT_EQUALS)) {
        Truth eq = v.equals(k) ? Truth.TRUE
            : v.stripTrailing().equalsIgnoreCase(k.stripTrailing())
                || v.stripTrailing().toLowerCase(java.util.Locale.ROOT).equals(
                    k.stripTrailing().toLowerCase(java.util.Locale.ROOT)) ? Truth.MIXED
            : Truth.FALSE;
        return kind == SqlKind.EQUALS ? eq : eq.not();
      }
      if (value instanceof BigDecimal || value instanceof Boolean) {
        return categorical(value, kind, constant, c, call);
      }
      return Truth.MIXED;
    }

    private static Truth categorical(Object value, SqlKind kind, Object constant, ColumnPolicy c,
        SqlCall call) throws SQLException {
      int cmp;
      if (value instanceof BigDecimal v) {
        cmp = v.compareTo(number(constant, c, call));
      } else if (value instanceof Boolean v) {
        if (!(constant instanceof Boolean k)) {
          throw SqlStates.notSupported("compare boolean column " + c.name() + " with TRUE or "
              + "FALSE in " + call);
        }
        if (kind != SqlKind.EQUALS && kind != SqlKind.NOT_EQUALS) {
          throw SqlStates.notSupported("only = and <> apply to boolean column " + c.name());
        }
        cmp = v.equals(k) ? 0 : 1;
      } else {
        if (!(constant instanceof String k)) {
          throw SqlStates.notSupported("compare text column " + c.name() + " with a text literal "
              + "or parameter in " + call);
        }
        if (kind != SqlKind.EQUALS && kind != SqlKind.NOT_EQUALS) {
          throw SqlStates.notSupported("order comparisons on text column " + c.name() + " ("
              + call + ") depend on the backend's collation and are not supported in workloads; "
              + "use =, <>, IN or LIKE");
        }
        cmp = value.equals(k) ? 0 : 1;
      }
      boolean r = switch (kind) {
        case EQUALS -> cmp == 0;
        case NOT_EQUALS -> cmp != 0;
        case LESS_THAN -> cmp < 0;
        case LESS_THAN_OR_EQUAL -> cmp <= 0;
        case GREATER_THAN -> cmp > 0;
        case GREATER_THAN_OR_EQUAL -> cmp >= 0;
        default -> throw new IllegalStateException(kind.name());
      };
      return r ? Truth.TRUE : Truth.FALSE;
    }

    /** Whether a column's type holds approximate (binary floating-point) numbers. */
    private static boolean approximate(int sqlType) {
      return sqlType == java.sql.Types.REAL || sqlType == java.sql.Types.FLOAT
          || sqlType == java.sql.Types.DOUBLE || sqlType == java.sql.Types.OTHER;
    }

    /**
     * The truth of {@code value kind k} over bin {@code i} of a non-integer column for {@link
     * #bounding}: over the closed {@code [lo, lo+bin]} (or {@code [lo, max]}), widened by a
     * relative 10^-9 for an {@code approximate} column, a superset of the values the backend's
     * bin index can put in the bin, so FALSE is never said of a bin that may hold a value
     * satisfying the comparison.
     */
    static Truth closedInterval(OrderedDomain d, int i, boolean approximate, SqlKind kind,
        BigDecimal k) {
      BigDecimal lo = d.lowerEdge(i);
      BigDecimal hi = lo.add(d.bin()).min(d.max());
      if (approximate) {
        BigDecimal slack = lo.abs().max(hi.abs()).max(BigDecimal.ONE).movePointLeft(9);
        lo = lo.subtract(slack);
        hi = hi.add(slack);
      }
      int loK = lo.compareTo(k);
      int hiK = hi.compareTo(k);
      return switch (kind) {
        case LESS_THAN -> Truth.of(hiK < 0, loK >= 0);
        case LESS_THAN_OR_EQUAL -> Truth.of(hiK <= 0, loK > 0);
        case GREATER_THAN -> Truth.of(loK > 0, hiK <= 0);
        case GREATER_THAN_OR_EQUAL -> Truth.of(loK >= 0, hiK < 0);
        case EQUALS, NOT_EQUALS -> {
          Truth eq = Truth.of(loK == 0 && hiK == 0, loK > 0 || hiK < 0);
          yield kind == SqlKind.EQUALS ? eq : eq.not();
        }
        default -> throw new IllegalStateException(kind.name());
      };
    }

    /**
     * The truth of {@code value kind k} over bin {@code i}: its values are {@code [lo, lo+bin)},
     * or {@code [lo, max]} for the last bin, restricted to integers for an integer column.
     */
    static Truth interval(OrderedDomain d, int i, boolean integer, SqlKind kind, BigDecimal k) {
      BigDecimal lo = d.lowerEdge(i);
      BigDecimal hi = lo.add(d.bin());
      boolean closed = hi.compareTo(d.max()) > 0;
      if (closed) {
        hi = d.max();
      }
      if (integer) {
        BigDecimal ilo = lo.setScale(0, RoundingMode.CEILING);
        BigDecimal ihi = closed ? hi.setScale(0, RoundingMode.FLOOR)
            : hi.setScale(0, RoundingMode.CEILING).subtract(BigDecimal.ONE);
        if (ilo.compareTo(ihi) > 0) {
          return Truth.FALSE; // a bin without integer values holds no rows
        }
        lo = ilo;
        hi = ihi;
        closed = true;
      }
      int loK = lo.compareTo(k);
      int hiK = hi.compareTo(k);
      return switch (kind) {
        case LESS_THAN -> Truth.of(closed ? hiK < 0 : hiK <= 0, loK >= 0);
        case LESS_THAN_OR_EQUAL -> Truth.of(hiK <= 0, loK > 0);
        case GREATER_THAN -> Truth.of(loK > 0, hiK <= 0);
        case GREATER_THAN_OR_EQUAL -> Truth.of(loK >= 0, closed ? hiK < 0 : hiK <= 0);
        case EQUALS, NOT_EQUALS -> {
          boolean none = loK > 0 || hiK < 0 || (!closed && hiK == 0)
              || (integer && k.stripTrailingZeros().scale() > 0);
          boolean all = closed && lo.compareTo(hi) == 0 && loK == 0;
          Truth eq = Truth.of(all, none);
          yield kind == SqlKind.EQUALS ? eq : eq.not();
        }
        default -> throw new IllegalStateException(kind.name());
      };
    }

    private int column(SqlNode n, SqlCall context) throws SQLException {
      if (!(n instanceof SqlIdentifier id)) {
        throw SqlStates.notSupported("in workloads a filter compares a column with a literal or a "
            + "parameter; " + context + " does not (no arithmetic or expressions)");
      }
      String name = id.names.get(id.names.size() - 1);
      List<ColumnPolicy> cols = cells.columns();
      for (int i = 0; i < cols.size(); i++) {
        if (cols.get(i).name().equalsIgnoreCase(name)) {
          return i;
        }
      }
      for (int k = 0; k < derived.size(); k++) {
        if (derived.get(k).column().name().equalsIgnoreCase(name)) {
          return -1 - k;
        }
      }
      throw SqlStates.notSupported("column " + name + " in " + context + " has no public domain "
          + "in the policy (values, or min/max/bin), so it cannot be a cell of a workload; filter "
          + "on columns with a domain");
    }

    private Object constant(SqlNode n, SqlCall context) throws SQLException {
      Object v;
      if (n instanceof SqlDynamicParam p) {
        if (p.getIndex() >= parameters.size()) {
          throw new SQLException("parameter " + (p.getIndex() + 1) + " is not set", "07001");
        }
        v = parameters.get(p.getIndex());
        if (v == org.dpsql.backend.ExactMeasurer.UNSET) {
          throw new SQLException("parameter " + (p.getIndex() + 1) + " is not set", "07001");
        }
      } else if (n instanceof SqlLiteral lit) {
        v = literal(lit);
      } else if (n.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) n).operand(0) instanceof SqlLiteral lit
          && literal(lit) instanceof BigDecimal b) {
        v = b.negate();
      } else {
        throw SqlStates.notSupported("in workloads a filter compares a column with a literal or a "
            + "parameter; " + n + " in " + context + " is neither");
      }
      if (v == null) {
        throw SqlStates.notSupported("comparison with NULL in " + context + " is never true; use "
            + "IS NOT NULL");
      }
      if (v instanceof Number num && !(v instanceof BigDecimal)) {
        try {
          v = new BigDecimal(num.toString()); // shortest decimal of a double: 0.1 stays 0.1
        } catch (NumberFormatException e) {
          throw SqlStates.notSupported("parameter value " + num + " in " + context
              + " is not a finite number");
        }
      }
      return v;
    }

    private static Object literal(SqlLiteral lit) {
      Object v = lit.getValue();
      if (v instanceof NlsString s) {
        return s.getValue();
      }
      if (v instanceof BigDecimal || v instanceof Boolean || v == null) {
        return v;
      }
      return lit.toValue();
    }

    private static BigDecimal number(Object constant, ColumnPolicy c, SqlCall call)
        throws SQLException {
      if (constant instanceof BigDecimal b) {
        return b;
      }
      throw SqlStates.notSupported("compare numeric column " + c.name() + " with a number in "
          + call);
    }

    private static SQLException unsupported(SqlNode n) {
      return SqlStates.notSupported("the filter " + n + " cannot be evaluated on cells: in "
          + "workloads WHERE may use =, <>, <, <=, >, >=, BETWEEN, IN, LIKE, IS [NOT] NULL and "
          + "AND/OR/NOT between a column with a domain and a literal or parameter");
    }
  }

  /** SQL LIKE as a Java regex: {@code %} any run, {@code _} one character, optional escape. */
  static Pattern likePattern(String like, String escape) {
    StringBuilder re = new StringBuilder();
    for (int i = 0; i < like.length(); i++) {
      char ch = like.charAt(i);
      if (escape != null && escape.length() == 1 && ch == escape.charAt(0)
          && i + 1 < like.length()) {
        re.append(Pattern.quote(String.valueOf(like.charAt(++i))));
      } else if (ch == '%') {
        re.append("(?s).*");
      } else if (ch == '_') {
        re.append("(?s).");
      } else {
        re.append(Pattern.quote(String.valueOf(ch)));
      }
    }
    return Pattern.compile(re.toString());
  }
}
