package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.CategoricalDomain;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;
import org.dpsql.policy.TimeDomain;

/**
 * An inner, many-to-one join of a private table with a public lookup table ({@code FROM T t JOIN
 * R r ON t.KEY = r.CODE}), seen as what it is for counting: every private row matches at most one
 * public row, so each public column the query uses is a function of the private key column, and
 * the rows without a match are dropped.
 *
 * <p>Guarantees: the public key is unique among the public rows whose key lies in the private key
 * column's domain (checked; a duplicate would let one private row count several times, so it is
 * refused with XDP03) — hence joining changes no sensitivity. Every used public column is a
 * {@link Derived} column: a categorical column whose domain is the public column's distinct values
 * over the matched keys (public data), with the value of each key cell. A query over the join is a
 * linear query over the private key column's cells: {@link #matched()} selects the cells that
 * join, and a derived column's value in a cell is {@link Derived#valueOfKey()}. Immutable.
 */
public final class PublicJoin {

  /**
   * A public column used through the join: a categorical column of derived values, each key cell
   * of the private key column mapped to the index of its value ({@code -1}: the key has no public
   * row).
   */
  public record Derived(ColumnPolicy column, ColumnPolicy key, int[] valueOfKey) {}

  private final String publicTable;
  private final ColumnPolicy key;
  private final boolean[] matched;
  private final List<Derived> derived;

  private PublicJoin(String publicTable, ColumnPolicy key, boolean[] matched, List<Derived> derived) {
    this.publicTable = publicTable;
    this.key = key;
    this.matched = matched;
    this.derived = List.copyOf(derived);
  }

  /**
   * Builds the join from the public table's rows.
   *
   * @param publicTable the public table's name, for messages
   * @param publicKey the public key column's name, for messages
   * @param key the private table's join column (must have a domain whose cells each hold one value)
   * @param derivedColumns for each public column used: the name it takes among the private table's
   *     columns, and its JDBC type
   * @param rows the public table's rows: the key, then the used columns in {@code derivedColumns}
   *     order
   * @throws SQLException XDP03 when the key column's cells hold several values, the public key is
   *     not unique, a used public value is NULL, or no public row joins
   */
  public static PublicJoin of(String publicTable, String publicKey, ColumnPolicy key,
      LinkedHashMap<String, Integer> derivedColumns, List<Object[]> rows) throws SQLException {
    return of(publicTable, publicKey, key, derivedColumns, rows, keyCells(key));
  }

  /**
   * The values of expressions of {@code key} evaluated on every cell's representative value
   * ({@link #representatives}): a join with the public table of those values. For a time column,
   * whose bins hold many instants, the caller has proven that each expression is constant on every
   * bin, so that its value at the bin's start is its value for every row of the cell.
   */
  public static PublicJoin ofCellValues(String expressions, ColumnPolicy key,
      LinkedHashMap<String, Integer> derivedColumns, List<Object[]> rows) throws SQLException {
    Map<Object, Integer> cells = new HashMap<>();
    List<Object> values = representatives(key);
    for (int i = 0; i < values.size(); i++) {
      cells.put(normalise(values.get(i)), i);
    }
    return of(expressions, key.name(), key, derivedColumns, rows, cells);
  }

  private static PublicJoin of(String publicTable, String publicKey, ColumnPolicy key,
      LinkedHashMap<String, Integer> derivedColumns, List<Object[]> rows,
      Map<Object, Integer> keyCell) throws SQLException {
    int cells = key.domainSize();
    boolean[] matched = new boolean[cells];
    Object[][] byKey = new Object[cells][];
    for (Object[] row : rows) {
      Integer cell = row[0] == null ? null : keyCell.get(normalise(row[0]));
      if (cell == null) {
        continue; // no private row in the domain can match it
      }
      if (matched[cell]) {
        throw SqlStates.notSupported("public table " + publicTable + " has several rows with "
            + publicKey + " = " + row[0] + ": a private row would be counted once per match. "
            + "Join on a unique key of the public table");
      }
      matched[cell] = true;
      byKey[cell] = row;
    }
    if (!anyTrue(matched)) {
      throw SqlStates.notSupported("no row of public table " + publicTable + " has a " + publicKey
          + " in the policy domain of " + key.name() + ", so the join is empty");
    }
    List<Derived> derived = new ArrayList<>();
    int j = 1;
    for (Map.Entry<String, Integer> c : derivedColumns.entrySet()) {
      TreeSet<Object> distinct = new TreeSet<>(VALUE_ORDER);
      for (int cell = 0; cell < cells; cell++) {
        if (matched[cell]) {
          Object v = byKey[cell][j];
          if (v == null) {
            throw SqlStates.notSupported("public column " + publicTable + "." + c.getKey()
                + " is NULL for " + publicKey + " = " + byKey[cell][0] + "; dpsql answers joins "
                + "only on public columns without NULLs");
          }
          distinct.add(normalise(v));
        }
      }
      List<Object> values = new ArrayList<>(distinct);
      Map<Object, Integer> index = new HashMap<>();
      for (int i = 0; i < values.size(); i++) {
        index.put(values.get(i), i);
      }
      int[] valueOfKey = new int[cells];
      for (int cell = 0; cell < cells; cell++) {
        valueOfKey[cell] = matched[cell] ? index.get(normalise(byKey[cell][j])) : -1;
      }
      ColumnPolicy column = new ColumnPolicy(c.getKey(), c.getValue(),
          Optional.of(new CategoricalDomain(values)), Optional.empty(), Optional.empty());
      derived.add(new Derived(column, key, valueOfKey));
      j++;
    }
    return new PublicJoin(publicTable, key, matched, derived);
  }

  /** The public table joined. */
  public String publicTable() {
    return publicTable;
  }

  /** The private table's join column: the data vector is over its cells. */
  public ColumnPolicy key() {
    return key;
  }

  /** Per cell of {@link #key()}'s domain: whether a public row joins it. */
  public boolean[] matched() {
    return matched.clone();
  }

  /** The public columns used, as derived columns. */
  public List<Derived> derived() {
    return derived;
  }

  /** The cell index of each value of the key column's domain. */
  private static Map<Object, Integer> keyCells(ColumnPolicy key) throws SQLException {
    if (!isPointDomain(key)) {
      throw SqlStates.notSupported("join column " + key.name() + " needs a categorical domain "
          + "(values) or integer bins of width 1 in the policy, so that each of its cells holds "
          + "one key");
    }
    Map<Object, Integer> cells = new HashMap<>();
    List<Object> values = pointValues(key);
    for (int i = 0; i < values.size(); i++) {
      cells.put(normalise(values.get(i)), i);
    }
    return cells;
  }

  /**
   * Whether every cell of the column's domain holds one value (categorical values, or integer bins
   * of width 1 from a whole minimum): then anything computed from the column is a function of its
   * cells.
   */
  public static boolean isPointDomain(ColumnPolicy c) {
    if (c.categorical().isPresent()) {
      return true;
    }
    if (c.time().isPresent()) { // a DATE column in bins of one day
      return c.sqlType() == java.sql.Types.DATE && c.time().get().unit() == TimeDomain.Unit.DAY;
    }
    Optional<OrderedDomain> d = c.ordered();
    return d.isPresent() && ColumnPolicy.isIntegerType(c.sqlType())
        && d.get().bin().compareTo(BigDecimal.ONE) == 0
        && d.get().min().stripTrailingZeros().scale() <= 0;
  }

  /** The value of every cell of a point domain ({@link #isPointDomain}), in cell order. */
  public static List<Object> pointValues(ColumnPolicy c) {
    return representatives(c);
  }

  /**
   * One value of every cell of a domain with cells ({@link #isPointDomain} or a time domain), in
   * cell order: the cell's only value, or the start of a time bin ({@link java.time.LocalDate} for
   * a DATE column, {@link java.time.LocalDateTime} otherwise).
   */
  public static List<Object> representatives(ColumnPolicy c) {
    if (c.categorical().isPresent()) {
      return c.categorical().get().values();
    }
    if (c.time().isPresent()) {
      TimeDomain t = c.time().get();
      boolean date = c.sqlType() == java.sql.Types.DATE;
      List<Object> starts = new ArrayList<>(t.cells());
      for (int i = 0; i < t.cells(); i++) {
        starts.add(date ? t.binStart(i).toLocalDate() : t.binStart(i));
      }
      return starts;
    }
    OrderedDomain d = c.ordered().orElseThrow();
    List<Object> values = new ArrayList<>(d.cells());
    for (int i = 0; i < d.cells(); i++) {
      values.add(d.lowerEdge(i).toBigIntegerExact());
    }
    return values;
  }

  private static boolean anyTrue(boolean[] a) {
    for (boolean b : a) {
      if (b) {
        return true;
      }
    }
    return false;
  }

  /**
   * Numbers by value (so 1 and 1.0 agree), booleans as they are, dates and date-times as {@code
   * java.time} values, everything else as text.
   */
  static Object normalise(Object v) {
    if (v instanceof java.sql.Timestamp t) {
      return t.toLocalDateTime();
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (v instanceof java.time.LocalDate || v instanceof java.time.LocalDateTime) {
      return v;
    }
    if (v instanceof Number) {
      BigDecimal b = new BigDecimal(v.toString());
      return b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
    }
    if (v instanceof Boolean) {
      return v;
    }
    return v.toString();
  }

  /** A stable order for the derived domains: numbers by value, then text, then booleans. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Comparator<Object> VALUE_ORDER = (a, b) -> {
    int ka = kind(a);
    int kb = kind(b);
    if (ka != kb) {
      return Integer.compare(ka, kb);
    }
    return ((Comparable) a).compareTo(b);
  };

  private static int kind(Object v) {
    return v instanceof BigDecimal ? 0 : v instanceof String ? 1 : v instanceof Boolean ? 2
        : v instanceof java.time.LocalDate ? 3 : 4;
  }

  @Override
  public String toString() {
    return "PublicJoin[" + publicTable + " on " + key.name() + ", columns "
        + Arrays.toString(derived.stream().map(d -> d.column().name()).toArray()) + "]";
  }
}
