package org.dpsql.backend;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlString;
import org.dpsql.policy.CategoricalDomain;
import org.dpsql.policy.Clamp;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;

/**
 * The exact, bounded aggregation of a {@link MeasurementPlan} as one SQL statement in the
 * backend's dialect: the backend filters, bounds each unit's contribution, clamps and groups, and
 * returns one row per non-empty cell. No row of the private table leaves the backend.
 *
 * <p>Contribution bounding: unless every row is its own unit, the rows that pass the filter are
 * numbered per unit in a random order ({@code ROW_NUMBER() OVER (PARTITION BY unit ORDER BY
 * random)}) and only the first {@code max_rows_per_unit} reach the aggregates: a uniform random
 * subset of each unit's rows. For a join of private tables on their shared unit the rows are the
 * join's and are bounded after the join, whatever its fan-out. A unit that the backend declares
 * unique needs no bounding (see {@link UniqueUnits}). On Trino, measurements that add up over rows
 * are bounded by scaling instead (see {@link ScaledBoundingSql}). Rows outside the policy domain of a group column belong to no cell
 * and are filtered out before bounding. Identifiers are quoted and policy literals escaped by the
 * dialect; the analyst's filter keeps its dynamic parameters, bound by {@link #parameterOrder()}.
 *
 * <p>Result columns: {@code K0..}: the categorical value or ordered or time bin index (see {@link
 * TimeBinSql}) of each group column;
 * {@code M0..}: each measurement (counts, and sums in integer resolution steps).
 */
public final class MeasurementSql {
  private final String sql;
  private final List<Integer> parameterOrder;
  private final String scalingForm;
  private final StreamedLayout layout;

  private MeasurementSql(String sql, List<Integer> parameterOrder, String scalingForm) {
    this(sql, parameterOrder, scalingForm, null);
  }

  private MeasurementSql(String sql, List<Integer> parameterOrder, String scalingForm,
      StreamedLayout layout) {
    this.sql = sql;
    this.parameterOrder = List.copyOf(parameterOrder);
    this.scalingForm = scalingForm;
    this.layout = layout;
  }

  /**
   * Where a streamed statement ({@link #rows}) puts what the JVM reads.
   *
   * @param rawKeys per key of the cells (in order): null when the column holds the cell's bin
   *     index, as the grouped statement computes it; else the column holds the key column's own
   *     integer value and the statement does not filter on its domain: the reader keeps the row
   *     only when the value lies in [min, max] and takes {@code value - min} as its bin (an
   *     integer column with whole {@code min} and {@code bin: 1}, where that is exactly the SQL's
   *     domain test and bin index)
   * @param valueColumns per measurement, the 1-based result column of its per-row value, 0 for
   *     {@code COUNT(*)}; a {@code COUNT} of the column a {@code SUM} clamps reads the clamped
   *     column, NULL exactly when the column is (the clamp maps NULL to NULL and nothing else to
   *     NULL), and equal expressions share one column
   */
  record StreamedLayout(List<RawKey> rawKeys, int[] valueColumns) {}

  /** An integer key read as it is, with its domain's bounds (see {@link StreamedLayout}). */
  record RawKey(long min, long max) {}

  /** The layout of a streamed statement ({@link #rows}), else null. */
  StreamedLayout layout() {
    return layout;
  }

  /** The backend SQL. */
  public String sql() {
    return sql;
  }

  /** For each {@code ?} of {@link #sql()} in order, the index of the analyst's parameter it takes. */
  public List<Integer> parameterOrder() {
    return parameterOrder;
  }

  /**
   * When the statement bounds heavy units by scaling ({@link ScaledBoundingSql}) instead of
   * subsampling them: its form, {@code "one row per unit"} or {@code "window over (unit, cell)
   * pairs"}; else empty.
   */
  public java.util.Optional<String> scalingForm() {
    return java.util.Optional.ofNullable(scalingForm);
  }

  /** The plan's SQL with per-query bounding (or none when every row is its own unit). */
  public static MeasurementSql of(MeasurementPlan plan, SqlDialect dialect) {
    return of(plan, dialect, null, false);
  }

  /**
   * The plan's SQL. With a {@code snapshot} (the qualified, quoted name of an already bounded
   * temporary table, see {@link BoundedSnapshots}), the SQL reads it and bounds nothing more.
   * With {@code oneRowPerUnit} (the backend declares the privacy unit unique, see
   * {@link UniqueUnits}), every unit has at most one row, which bounding to {@code
   * max_rows_per_unit >= 1} rows would always keep: the SQL aggregates the table directly.
   */
  public static MeasurementSql of(MeasurementPlan plan, SqlDialect dialect, String snapshot,
      boolean oneRowPerUnit) {
    return of(plan, dialect, snapshot, oneRowPerUnit, List.of(), List.of());
  }

  /**
   * The plan's SQL with {@code extraKeys} grouped by after the cells' keys (named {@code K<i>} in
   * order, see {@link HistogramSql}) and {@code extraConditions} added to the filter, before
   * bounding.
   */
  static MeasurementSql of(MeasurementPlan plan, SqlDialect dialect, String snapshot,
      boolean oneRowPerUnit, List<String> extraKeys, List<String> extraConditions) {
    return of(plan, dialect, snapshot, oneRowPerUnit, extraKeys, extraConditions, false);
  }

  /**
   * The SQL of a plan whose query groups by keys declared {@code keys: private}: the private
   * keys' values are grouped by after the cells' keys (rows whose private key is NULL are in no
   * group), and a last column {@code DPSQL_UNITS} counts the distinct units of each group, over
   * the bounded rows.
   *
   * <p>Bounding: each unit reaches at most {@code max_groups_per_unit} (m) groups and at most
   * {@code max_rows_per_unit} (k) rows. When m &lt; k, each unit's groups are ranked in a uniformly
   * random order ({@code FIRST_VALUE(random) OVER (PARTITION BY unit, keys)}, then {@code
   * DENSE_RANK() OVER (PARTITION BY unit ORDER BY that, keys)}) and only the rows of its first m
   * groups are kept, before the k rows are drawn from them as for any measurement. When m &ge; k,
   * a unit's k rows already lie in at most k &le; m groups. Each unit's rows are chosen from its
   * own rows alone, so adding or removing a unit changes only its own at most k rows in at most
   * min(m, k) groups.
   */
  public static MeasurementSql partitions(MeasurementPlan plan, SqlDialect dialect,
      String snapshot, boolean oneRowPerUnit) {
    List<List<String>> extra = privateKeys(plan, dialect);
    return of(plan, dialect, snapshot, oneRowPerUnit, extra.get(0), extra.get(1), true);
  }

  /**
   * The unbounded rows of a plan that groups by private keys, as {@link #rows} has them, with
   * the private keys' values after the cells' keys and without rows whose private key is NULL.
   */
  static MeasurementSql partitionRows(MeasurementPlan plan, SqlDialect dialect) {
    List<List<String>> extra = privateKeys(plan, dialect);
    return rows(plan, dialect, extra.get(0), extra.get(1));
  }

  /** The private keys' columns, and a NOT NULL condition on each. */
  private static List<List<String>> privateKeys(MeasurementPlan plan, SqlDialect dialect) {
    List<String> keys = new ArrayList<>();
    List<String> notNull = new ArrayList<>();
    for (ColumnPolicy c : plan.query().privateGroupBy()) {
      String col = dialect.quoteIdentifier(c.name());
      keys.add(col);
      notNull.add(col + " IS NOT NULL");
    }
    return List.of(keys, notNull);
  }

  /**
   * The per-row expressions every form of a plan's statement shares: the cells' keys (then {@code
   * extraKeys}), the filter (the analyst's condition, the policy domains, then {@code
   * extraConditions}) with the analyst's parameters in order, and each measurement's per-row value
   * (null for {@code COUNT(*)}).
   */
  record RowExpressions(List<String> keys, List<String> conditions, List<Integer> parameters,
      List<String> values) {
    /** The filter as {@code " WHERE ..."}, or empty. */
    String where() {
      return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }
  }

  static RowExpressions rowExpressions(MeasurementPlan plan, SqlDialect dialect,
      List<String> extraKeys, List<String> extraConditions) {
    return rowExpressions(plan, dialect, extraKeys, extraConditions, plan.query().where(),
        dialect::quoteIdentifier, null);
  }

  /**
   * The row expressions with each column of the table read by {@code column} (its quoted name,
   * or a join's qualified member column) and the analyst's filter {@code where} (written with the
   * same column references). With {@code rawKeys} non-null, each key that {@link #rawKey} allows
   * is its column itself without a domain condition, and {@code rawKeys} gets, per key, its
   * {@link RawKey} or null.
   */
  private static RowExpressions rowExpressions(MeasurementPlan plan, SqlDialect dialect,
      List<String> extraKeys, List<String> extraConditions, SqlNode whereNode,
      java.util.function.UnaryOperator<String> column, List<RawKey> rawKeys) {
    List<String> keyExprs = new ArrayList<>();
    List<String> conditions = new ArrayList<>();
    List<Integer> params = new ArrayList<>();
    if (whereNode != null) {
      SqlString where = whereNode.toSqlString(dialect);
      conditions.add("(" + where.getSql() + ")");
      if (where.getDynamicParameters() != null) {
        params.addAll(where.getDynamicParameters());
      }
    }
    for (ColumnPolicy c : plan.cells().columns()) {
      String col = column.apply(c.name());
      RawKey raw = rawKeys == null ? null : rawKey(c);
      if (rawKeys != null) {
        rawKeys.add(raw);
      }
      if (raw != null) {
        keyExprs.add(col); // the reader tests the domain and computes the bin
      } else if (c.categorical().isPresent()) {
        keyExprs.add(col);
        conditions.add(col + " IN (" + String.join(", ", literals(c.categorical().get(), dialect)) + ")");
      } else if (c.time().isPresent()) {
        keyExprs.add(TimeBinSql.binIndex(col, c.time().get()));
        conditions.add(TimeBinSql.range(col, c.time().get(), c.sqlType() == java.sql.Types.DATE));
      } else {
        OrderedDomain d = c.ordered().orElseThrow();
        keyExprs.add(binIndex(col, d, c.sqlType()));
        conditions.add(col + " >= " + num(d.min()) + " AND " + col + " <= " + num(d.max()));
      }
    }
    keyExprs.addAll(extraKeys);
    conditions.addAll(extraConditions);
    TablePolicy table = plan.query().table();
    List<String> valueExprs = new ArrayList<>();
    for (Measurement m : plan.measurements()) {
      valueExprs.add(switch (m.kind()) {
        case COUNT_STAR -> null;
        case COUNT_DISTINCT_UNIT -> column.apply(table.privacyUnit());
        case COUNT_DISTINCT -> value(m.column(), dialect, column);
        case COUNT -> value(m.column(), dialect, column);
        case SUM -> steps(value(m.column(), dialect, column), Measurement.bounds(m.column()),
            m.resolution(), ColumnPolicy.isIntegerType(m.column().sqlType()));
      });
    }
    return new RowExpressions(keyExprs, conditions, params, valueExprs);
  }

  /**
   * The {@link RawKey} of an ordered integer key with whole {@code min} and {@code bin: 1} (both
   * bounds within {@code long}), else null. For such a column the SQL's domain test {@code min <=
   * c AND c <= max} and bin index {@code c - min} are, for an integer c, {@code min <= c <=
   * floor(max)} and {@code c - min}: the reader computes exactly what the SQL would.
   */
  static RawKey rawKey(ColumnPolicy c) {
    if (c.categorical().isPresent() || c.time().isPresent() || c.ordered().isEmpty()
        || !ColumnPolicy.isIntegerType(c.sqlType())) {
      return null;
    }
    OrderedDomain d = c.ordered().get();
    if (d.bin().compareTo(BigDecimal.ONE) != 0 || !Measurement.isWhole(d.min())) {
      return null;
    }
    BigDecimal max = d.max().setScale(0, java.math.RoundingMode.FLOOR);
    BigDecimal lo = BigDecimal.valueOf(Long.MIN_VALUE);
    BigDecimal hi = BigDecimal.valueOf(Long.MAX_VALUE);
    if (d.min().compareTo(lo) < 0 || max.compareTo(hi) > 0) {
      return null;
    }
    return new RawKey(d.min().longValueExact(), max.longValueExact());
  }

  /**
   * The filtered, unbounded rows of a plan for bounding in the JVM ({@link StreamingMeasurement}):
   * {@code DPSQL_U} the privacy unit, then {@code K0..} the cells' keys and {@code extraKeys} as
   * the grouped statement computes them, then {@code V<i>} the per-row value of each measurement
   * that has one (not {@code COUNT(*)}), clamped and in resolution steps as the grouped statement
   * sums them. Nothing is grouped, ordered or bounded: one result row per row (of the table or of
   * the join) that passes the filter and lies inside the domain.
   *
   * <p>On embedded H2 (where every condition and column costs the scan a little per row): an
   * integer key with whole {@code min} and {@code bin: 1} is selected as it is, without its
   * domain condition, for the reader to test ({@link StreamedLayout#rawKeys}); a COUNT of a column
   * that a SUM clamps reads the SUM's column for its NULLs; a private join is read without its
   * derived table when that is certain to be the same rows ({@link FlatJoin}). {@link #layout()}
   * tells the reader where everything is.
   */
  static MeasurementSql rows(MeasurementPlan plan, SqlDialect dialect, List<String> extraKeys,
      List<String> extraConditions) {
    TablePolicy table = plan.query().table();
    boolean embedded = dialect instanceof org.apache.calcite.sql.dialect.H2SqlDialect;
    java.util.function.UnaryOperator<String> column = dialect::quoteIdentifier;
    SqlNode where = plan.query().where();
    String from = qualifiedName(table, dialect);
    FlatJoin flat = embedded ? FlatJoin.of(plan, extraKeys, extraConditions) : null;
    if (flat != null) {
      column = flat.reader(dialect);
      where = flat.where();
      from = table.join().flatFromSql(dialect);
    }
    List<RawKey> rawKeys = new ArrayList<>();
    RowExpressions e = rowExpressions(plan, dialect, extraKeys, extraConditions, where, column,
        embedded ? rawKeys : null);
    if (!embedded) {
      for (int i = 0; i < plan.cells().columns().size(); i++) {
        rawKeys.add(null);
      }
    }
    List<String> select = new ArrayList<>();
    select.add(column.apply(table.privacyUnit()) + " AS " + dialect.quoteIdentifier("DPSQL_U"));
    for (int i = 0; i < e.keys().size(); i++) {
      select.add(e.keys().get(i) + " AS " + dialect.quoteIdentifier("K" + i));
    }
    // equal per-row values share a column; a COUNT reads the NULLs of the clamped SUM of its column
    int[] valueColumns = new int[e.values().size()];
    java.util.Map<String, Integer> columnOf = new java.util.HashMap<>();
    List<Measurement> ms = plan.measurements();
    for (int i = 0; i < ms.size(); i++) {
      String v = e.values().get(i);
      if (v == null) {
        continue;
      }
      Integer at = columnOf.get(v);
      if (at == null && ms.get(i).kind() == Measurement.Kind.COUNT) {
        for (int j = 0; j < ms.size() && at == null; j++) {
          if (ms.get(j).kind() == Measurement.Kind.SUM
              && value(ms.get(j).column(), dialect, column).equals(v)) {
            at = columnOf.get(e.values().get(j));
            if (at == null) {
              at = select.size() + 1;
              select.add(e.values().get(j) + " AS " + dialect.quoteIdentifier("V" + j));
              columnOf.put(e.values().get(j), at);
            }
          }
        }
      }
      if (at == null) {
        at = select.size() + 1;
        select.add(v + " AS " + dialect.quoteIdentifier("V" + i));
        columnOf.put(v, at);
      }
      valueColumns[i] = at;
    }
    return new MeasurementSql("SELECT " + String.join(", ", select) + " FROM " + from
        + e.where(), e.parameters(), null, new StreamedLayout(rawKeys, valueColumns));
  }

  /**
   * A private join streamed on an embedded backend without its derived table ({@link
   * org.dpsql.policy.UnitJoin#flatFromSql}): H2 produces each row of a derived table twice (inside
   * and outside), which measured as a third more than the join itself. The filter and every
   * column are read through the members' qualified columns ({@link
   * org.dpsql.policy.UnitJoin#flatColumn}), so the rows are the same rows of the same join.
   * Only when that rewriting is certain: the analyst's filter has no subquery and names only the
   * relation's columns, no computed value is measured, and no extra key or condition (private
   * keys, a histogram's point) is written over the derived table's names.
   */
  private record FlatJoin(org.dpsql.policy.UnitJoin join, SqlNode where) {
    static FlatJoin of(MeasurementPlan plan, List<String> extraKeys,
        List<String> extraConditions) {
      org.dpsql.policy.UnitJoin join = plan.query().table().join();
      if (join == null || !extraKeys.isEmpty() || !extraConditions.isEmpty()) {
        return null;
      }
      for (ColumnPolicy c : plan.cells().columns()) {
        if (c.computed().isPresent() || join.flatColumn(c.name()) == null) {
          return null;
        }
      }
      for (Measurement m : plan.measurements()) {
        if (m.column() != null && (m.column().computed().isPresent()
            || join.flatColumn(m.column().name()) == null)) {
          return null;
        }
      }
      if (join.flatColumn(plan.query().table().privacyUnit()) == null) {
        return null;
      }
      SqlNode where = plan.query().where();
      if (where != null) {
        try {
          where = where.accept(new org.apache.calcite.sql.util.SqlShuttle() {
            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlIdentifier id) {
              SqlNode c = id.isSimple() ? join.flatColumn(id.getSimple()) : null;
              if (c == null) {
                throw new IllegalArgumentException("not a column of the join: " + id);
              }
              return c;
            }

            @Override
            public SqlNode visit(org.apache.calcite.sql.SqlCall call) {
              if (call.getKind() == org.apache.calcite.sql.SqlKind.SELECT
                  || call instanceof org.apache.calcite.sql.SqlSelect) {
                throw new IllegalArgumentException("a subquery");
              }
              return super.visit(call);
            }
          });
        } catch (IllegalArgumentException unsure) {
          return null; // the derived table, as the grouped statement has it
        }
      }
      return new FlatJoin(join, where);
    }

    /** Each column of the relation as the flat join reads it. */
    java.util.function.UnaryOperator<String> reader(SqlDialect dialect) {
      return name -> join.flatColumn(name).toSqlString(dialect).getSql();
    }
  }

  private static MeasurementSql of(MeasurementPlan plan, SqlDialect dialect, String snapshot,
      boolean oneRowPerUnit, List<String> extraKeys, List<String> extraConditions,
      boolean countUnits) {
    TablePolicy table = plan.query().table();
    RowExpressions e = rowExpressions(plan, dialect, extraKeys, extraConditions);
    List<String> keyExprs = e.keys();
    List<Integer> params = e.parameters();
    List<String> valueExprs = e.values();
    String from = snapshot != null ? snapshot : qualifiedName(table, dialect);
    String whereSql = e.where();
    String units = countUnits ? (table.unitIsRow() ? "COUNT(*)"
        : "COUNT(DISTINCT " + dialect.quoteIdentifier(table.privacyUnit()) + ")") : null;

    StringBuilder sb = new StringBuilder("SELECT ");
    List<String> select = new ArrayList<>();
    List<String> groupBy = new ArrayList<>();
    boolean unbounded = table.unitIsRow() || oneRowPerUnit;
    // the rows of at most m groups per unit are chosen first (private keys, m < k)
    boolean chooseGroups = countUnits && !unbounded
        && plan.query().maxGroupsPerUnit() < plan.maxRowsPerUnit();
    if (unbounded || (snapshot != null && !chooseGroups)) {
      for (int i = 0; i < keyExprs.size(); i++) {
        select.add(keyExprs.get(i) + " AS " + dialect.quoteIdentifier("K" + i));
        groupBy.add(keyExprs.get(i));
      }
      for (int i = 0; i < valueExprs.size(); i++) {
        select.add(aggregate(plan.measurements().get(i), valueExprs.get(i)) + " AS "
            + dialect.quoteIdentifier("M" + i));
      }
      if (units != null) {
        select.add(units + " AS " + dialect.quoteIdentifier("DPSQL_UNITS"));
      }
      sb.append(String.join(", ", select)).append(" FROM ").append(from).append(whereSql);
    } else if (ScaledBoundingSql.replacesWindow(plan, dialect, extraKeys)) {
      return new MeasurementSql(ScaledBoundingSql.sql(plan, dialect, dialect.quoteIdentifier(
          table.privacyUnit()), keyExprs, valueExprs, from, whereSql), params,
          ScaledBoundingSql.formName(plan));
    } else {
      List<String> inner = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < keyExprs.size(); i++) {
        String k = dialect.quoteIdentifier("K" + i);
        inner.add(keyExprs.get(i) + " AS " + k);
        names.add(k);
        select.add(k);
        groupBy.add(k);
      }
      List<String> keyNames = List.copyOf(names);
      for (int i = 0; i < valueExprs.size(); i++) {
        String v = dialect.quoteIdentifier("V" + i);
        if (valueExprs.get(i) != null) {
          inner.add(valueExprs.get(i) + " AS " + v);
          names.add(v);
        }
        select.add(aggregate(plan.measurements().get(i), valueExprs.get(i) == null ? null : v)
            + " AS " + dialect.quoteIdentifier("M" + i));
      }
      String unit = dialect.quoteIdentifier(table.privacyUnit());
      String rn = dialect.quoteIdentifier("DPSQL_RN");
      if (units != null) {
        select.add("COUNT(DISTINCT " + unit + ") AS " + dialect.quoteIdentifier("DPSQL_UNITS"));
        inner.add(unit);
        names.add(unit);
      }
      String bounded;
      if (!chooseGroups) {
        List<String> numbered = new ArrayList<>(inner);
        numbered.add(rowNumber(table, dialect) + " AS " + rn);
        bounded = "SELECT " + String.join(", ", numbered) + " FROM " + from + whereSql;
      } else {
        String rows = "SELECT " + String.join(", ", inner) + " FROM " + from + whereSql;
        String chosen = chosenGroups(rows, names, keyNames, unit, plan.query().maxGroupsPerUnit(),
            dialect);
        // the snapshot's rows are already at most k per unit: only the groups are chosen
        bounded = snapshot != null ? chosen : "SELECT " + String.join(", ", names) + ", "
            + rowNumber(table, dialect) + " AS " + rn + " FROM (" + chosen + ") "
            + dialect.quoteIdentifier("DPSQL_C");
      }
      sb.append(String.join(", ", select)).append(" FROM (").append(bounded).append(") ")
          .append(dialect.quoteIdentifier("DPSQL_B"));
      if (snapshot == null) {
        sb.append(" WHERE ").append(rn).append(" <= ").append(plan.maxRowsPerUnit());
      }
    }
    if (!groupBy.isEmpty()) {
      sb.append(" GROUP BY ").append(String.join(", ", groupBy));
    }
    return new MeasurementSql(sb.toString(), params, null);
  }

  /**
   * The rows of {@code rows} (columns {@code names}, among them the unit and the group keys
   * {@code keys}) that lie in the first {@code m} of their unit's groups, the groups of each unit
   * in a uniformly random order: every group of a unit draws one random number (the value of its
   * first row), and the groups are ranked by it (ties, of probability 0, broken by the keys).
   */
  private static String chosenGroups(String rows, List<String> names, List<String> keys,
      String unit, int m, SqlDialect dialect) {
    String r = dialect.quoteIdentifier("DPSQL_R0");
    String pr = dialect.quoteIdentifier("DPSQL_PR");
    String rank = dialect.quoteIdentifier("DPSQL_GROUP");
    String cols = String.join(", ", names);
    String ks = String.join(", ", keys);
    String drawn = "SELECT " + cols + ", " + randomFunction(dialect) + " AS " + r + " FROM ("
        + rows + ") " + dialect.quoteIdentifier("DPSQL_F");
    String perGroup = "SELECT " + cols + ", FIRST_VALUE(" + r + ") OVER (PARTITION BY " + unit
        + ", " + ks + ") AS " + pr + " FROM (" + drawn + ") " + dialect.quoteIdentifier("DPSQL_D");
    String ranked = "SELECT " + cols + ", DENSE_RANK() OVER (PARTITION BY " + unit + " ORDER BY "
        + pr + ", " + ks + ") AS " + rank + " FROM (" + perGroup + ") "
        + dialect.quoteIdentifier("DPSQL_P");
    return "SELECT " + cols + " FROM (" + ranked + ") " + dialect.quoteIdentifier("DPSQL_G")
        + " WHERE " + rank + " <= " + m;
  }

  /** Each unit's filtered rows numbered in a uniformly random order. */
  private static String rowNumber(TablePolicy table, SqlDialect dialect) {
    return "ROW_NUMBER() OVER (PARTITION BY " + dialect.quoteIdentifier(table.privacyUnit())
        + " ORDER BY " + randomFunction(dialect) + ")";
  }

  /** A measured column's value in a row: the column, or the value computed from the row. */
  private static String value(ColumnPolicy column, SqlDialect dialect) {
    return value(column, dialect, dialect::quoteIdentifier);
  }

  /** The value with the table's columns read by {@code reader} (a computed value by its SQL). */
  private static String value(ColumnPolicy column, SqlDialect dialect,
      java.util.function.UnaryOperator<String> reader) {
    return column.computed().map(v -> "(" + v.sql(dialect) + ")")
        .orElseGet(() -> reader.apply(column.name()));
  }

  /**
   * The table's quoted, schema-qualified name; for a join of tables on their shared unit, the
   * join as a derived table (see {@link org.dpsql.policy.UnitJoin#fromSql}), so that filtering and
   * bounding apply to the join's rows.
   */
  static String qualifiedName(TablePolicy table, SqlDialect dialect) {
    if (table.join() != null) {
      return table.join().fromSql(dialect);
    }
    return (table.schema() == null ? "" : dialect.quoteIdentifier(table.schema()) + ".")
        + dialect.quoteIdentifier(table.name());
  }

  /** The dialect's random function, used to pick each unit's rows uniformly. */
  static String randomFunction(SqlDialect dialect) {
    // SqlDialect.getDatabaseProduct() is deprecated and answers UNKNOWN for dialects built from
    // JDBC metadata: decide on the dialect's class
    if (dialect instanceof org.apache.calcite.sql.dialect.PostgresqlSqlDialect
        || dialect instanceof org.apache.calcite.sql.dialect.RedshiftSqlDialect
        || dialect instanceof org.apache.calcite.sql.dialect.SqliteSqlDialect) {
      return "RANDOM()";
    }
    if (dialect instanceof org.apache.calcite.sql.dialect.MssqlSqlDialect) {
      return "NEWID()";
    }
    return "RAND()";
  }


  private static String aggregate(Measurement m, String valueExpr) {
    return switch (m.kind()) {
      case COUNT_STAR -> "COUNT(*)";
      case COUNT -> "COUNT(" + valueExpr + ")";
      case COUNT_DISTINCT_UNIT, COUNT_DISTINCT -> "COUNT(DISTINCT " + valueExpr + ")";
      case SUM -> "SUM(" + valueExpr + ")";
    };
  }

  /**
   * The bin index {@code FLOOR((col - min) / bin)}; for an integer column with whole min and bin 1
   * simply {@code col - min} (or {@code col}), which lets the backend group on the column itself.
   */
  private static String binIndex(String col, OrderedDomain d, int sqlType) {
    String shifted = d.min().signum() == 0 ? col : "(" + col + " - " + num(d.min()) + ")";
    if (d.bin().compareTo(BigDecimal.ONE) == 0) {
      boolean wholeSteps = ColumnPolicy.isIntegerType(sqlType) && Measurement.isWhole(d.min());
      return wholeSteps ? shifted : "FLOOR(" + shifted + ")";
    }
    if (ColumnPolicy.isIntegerType(sqlType) && Measurement.isWhole(d.min())
        && Measurement.isWhole(d.bin())) {
      return "FLOOR(" + shifted + " / " + num(d.bin()) + ")"; // an exact integer quotient
    }
    return stepsBelow(col, d.min(), d.bin());
  }

  /**
   * The number of whole {@code step}s from {@code lo} up to the value {@code v} (at or above
   * {@code lo}): {@code f - (CASE WHEN lo + f * step > v THEN 1 ELSE 0 END)} with {@code f =
   * FLOOR((v - lo) / step)}. The correction is for backends whose decimal division rounds to the
   * dividend's scale (Trino: {@code 26.99 / 3} is {@code 9.00}, so {@code FLOOR} alone would put
   * 26.99 in the step from 27): such rounding can only raise the quotient to the next integer,
   * never lower it, and {@code lo + f * step} is exact for decimals, so the result is the right
   * step on every backend.
   */
  static String stepsBelow(String v, BigDecimal lo, BigDecimal step) {
    String floor = "FLOOR((" + v + " - " + num(lo) + ") / " + num(step) + ")";
    return floor + " - (CASE WHEN " + num(lo) + " + " + floor + " * " + num(step) + " > " + v
        + " THEN 1 ELSE 0 END)";
  }

  /** Largest bound for which a clamped integer value is summed as it is (it fits in INT). */
  private static final BigDecimal INT_MAX = BigDecimal.valueOf(Integer.MAX_VALUE);

  /**
   * The value clamped to the bounds, in whole resolution steps; NULL stays NULL. An integer value
   * with whole bounds within INT's range, in steps of 1, is already a whole number of steps: it is
   * summed as it is (a backend's SUM of such values is exact: BIGINT or wider, and a BIGINT sum
   * of values below 2^31 in size overflows only beyond 2^32 rows), which spares the backend a
   * decimal conversion per row.
   */
  private static String steps(String col, Clamp clamp, BigDecimal resolution, boolean integer) {
    String clamped = "CASE WHEN " + col + " IS NULL THEN NULL WHEN " + col + " < " + num(clamp.lo())
        + " THEN " + num(clamp.lo()) + " WHEN " + col + " > " + num(clamp.hi()) + " THEN "
        + num(clamp.hi()) + " ELSE " + col + " END";
    if (integer && resolution.compareTo(BigDecimal.ONE) == 0 && Measurement.isWhole(clamp.lo())
        && Measurement.isWhole(clamp.hi()) && clamp.maxAbs().compareTo(INT_MAX) <= 0) {
      return clamped;
    }
    // exact decimal arithmetic whatever the column's type (and PostgreSQL has no ROUND(double, int))
    String exact = "CAST(" + clamped + " AS DECIMAL(38, 12))";
    if (resolution.compareTo(BigDecimal.ONE) == 0) {
      return "ROUND(" + exact + ", 0)";
    }
    return "ROUND(" + exact + " / " + num(resolution) + ", 0)";
  }

  static List<String> literals(CategoricalDomain domain, SqlDialect dialect) {
    List<String> out = new ArrayList<>();
    for (Object v : domain.values()) {
      out.add(v instanceof BigDecimal b ? num(b) : dialect.quoteStringLiteral(v.toString()));
    }
    return out;
  }

  static String num(BigDecimal v) {
    String s = v.toPlainString();
    return v.signum() < 0 ? "(" + s + ")" : s;
  }
}
