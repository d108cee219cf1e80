package org.dpsql.backend;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.mechanism.PooledRandomBits;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.CellDomain;
import org.dpsql.rewrite.MeasuredGroup;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.QuantileGrid;

/**
 * The streaming strategy: the backend only filters ({@link MeasurementSql#rows}: the unit, the
 * cells' keys, the clamped per-row values, computed by the same SQL expressions as the push-down
 * statement), and dpsql reads the filtered rows once, forward only ({@link Statement#setFetchSize},
 * H2's lazy execution, PostgreSQL's server-side cursor), keeping per privacy unit only the state
 * its bounding needs, then aggregates the kept rows per cell. On embedded H2 an integer key with
 * a whole {@code min} and {@code bin: 1} is read as it is and its domain tested here ({@link
 * MeasurementSql.StreamedLayout}): a row outside the domain is dropped before it reaches its
 * unit's state, so it takes no place in a reservoir, exactly as the push-down statement filters
 * it before numbering the unit's rows.
 *
 * <p>Per-unit state and its distribution, the same as the push-down window's:
 *
 * <ul>
 *   <li>Rows: a reservoir of at most k ({@code max_rows_per_unit}) rows. The unit's first k rows
 *       fill it; its i-th row (i &gt; k) replaces slot j when a uniform j in [0, i) is below k
 *       (reservoir sampling, algorithm R). After n rows the reservoir is a uniformly random
 *       k-subset of the unit's n rows (all of them when n &le; k), whatever their order: the
 *       distribution of the rows that {@code ROW_NUMBER() OVER (PARTITION BY unit ORDER BY
 *       random) <= k} keeps.
 *   <li>Groups (private keys with {@code max_groups_per_unit} m &lt; k): each of the unit's
 *       groups gets a priority, a keyed 64-bit hash of (unit, group) under a key drawn for the
 *       statement; the unit keeps its m groups of smallest priority, each with a reservoir of k of
 *       its rows and its row count. A group evicted once has a priority above every kept one and
 *       never returns (priorities are fixed, the m-th smallest only falls). At the end, k of the
 *       kept groups' N rows are drawn uniformly (k distinct positions among N, then that many rows
 *       uniformly from each group's reservoir, itself a uniform subset of the group): the window's
 *       two steps, m groups in a random order, then k of their rows. The hash orders a unit's
 *       groups pseudorandomly, independently across units and statements (a fresh key each).
 * </ul>
 *
 * <p>Guarantee (the contract of {@link MeasurementStrategy}, the same as push-down): a unit's
 * state is updated only by its own rows (the reservoir, the group priorities and the draws are
 * per unit; the randomness is the engine's {@link RandomBits}, independent of the data), so its
 * contribution v(u), the per-cell aggregate of its kept rows, is computed from its own filtered
 * rows alone; adding or removing the unit changes every measured vector by exactly v(u). It
 * keeps at most k rows (at most k of its rows in at most m groups), each clamped by the same SQL
 * expression as push-down, so ‖v(u)‖₁ and ‖v(u)‖₂ are within {@link Measurement#sensitivity(int)}
 * for counts and sums; a distinct count counts the unit (or a value) at most once per cell among
 * its at most k kept rows, as the window form does. The bound never depends on the randomness:
 * it holds for every draw.
 *
 * <p>Memory: O(k) per unit (O(m·k) while choosing groups), and at most {@code maxKeptRows} kept
 * rows in all. Without a choice of groups the reservoirs live in flat arrays (per unit its row
 * count and the head of a list of its kept rows, per kept row its group and per-row values; an
 * integer unit column is keyed in a primitive hash table), so a streamed row costs no object
 * beyond what the driver makes, and the draw j happens only for a unit's rows after its k-th; a statement that would keep more stops its scan with {@link OverCap} and the
 * caller measures it by push-down instead. A statement timeout ({@link Statement#setQueryTimeout},
 * checked by the scan itself every 4,096 rows as well as by the driver) or a cancellation ({@link
 * Cancellation}: {@link Statement#cancel()} on dpsql's statement, or a thread interrupt) stops
 * the scan with an exception, before anything is charged.
 */
final class StreamingMeasurement implements MeasurementStrategy {
  /** Rows the driver fetches at a time. */
  static final int FETCH_SIZE = 10_000;
  /** Rows between two checks of the deadline and of the thread's interrupt flag. */
  private static final int CHECK_EVERY = 4096;

  private final Connection backend;
  private final SqlDialect dialect;
  private final RandomBits random;
  private final long maxKeptRows;
  private final int extraRows;

  /**
   * @param random the bounding randomness (uniform choices only; never the noise's stream)
   * @param maxKeptRows the cap on rows kept in the JVM over all units ({@link OverCap} beyond)
   */
  StreamingMeasurement(Connection backend, SqlDialect dialect, RandomBits random,
      long maxKeptRows) {
    this(backend, dialect, random, maxKeptRows, 0);
  }

  /**
   * With {@code extraRows} &gt; 0, a deliberately broken strategy whose reservoirs keep {@code k +
   * extraRows} rows: only for the privacy audit's broken variant (test code in this package),
   * never built by the engine.
   */
  StreamingMeasurement(Connection backend, SqlDialect dialect, RandomBits random,
      long maxKeptRows, int extraRows) {
    this.backend = backend;
    this.dialect = dialect;
    this.random = random;
    this.maxKeptRows = maxKeptRows;
    this.extraRows = extraRows;
  }

  @Override
  public String name() {
    return "streaming";
  }

  /** Thrown when a streamed measurement would keep more rows than its cap. */
  static final class OverCap extends SQLException {
    OverCap(long cap) {
      super("a streamed measurement would keep more than " + cap + " rows (limits."
          + "streaming_max_rows)", "53000");
    }
  }

  // ------------------------------------------------------------------ the three measurements

  @Override
  public long[][] measure(MeasurementPlan plan, List<Object> parameters) throws SQLException {
    Groups groups = Groups.cells(plan);
    KeptRows kept = scanKept(MeasurementSql.rows(plan, dialect, List.of(), List.of()), plan,
        groups, parameters);
    GroupTotals totals = kept.totals(groups.count());
    int ms = plan.measurements().size();
    long[][] out = new long[ms][plan.cells().size()];
    for (int cell = 0; cell < out[0].length; cell++) {
      long[] values = totals.values(cell);
      for (int m = 0; m < ms; m++) {
        out[m][cell] = values[m];
      }
    }
    return out;
  }

  @Override
  public List<MeasuredGroup> partitions(MeasurementPlan plan, List<Object> parameters)
      throws SQLException {
    boolean chooseGroups = plan.query().maxGroupsPerUnit() < plan.maxRowsPerUnit();
    int extraKeys = plan.query().privateGroupBy().size();
    List<MeasuredGroup> out = new ArrayList<>();
    if (chooseGroups) {
      Aggregates agg = scan(MeasurementSql.partitionRows(plan, dialect), plan, extraKeys,
          parameters);
      for (Map.Entry<GroupKey, Acc> e : agg.groups.entrySet()) {
        out.add(new MeasuredGroup(e.getKey().cell, Arrays.asList(e.getKey().extra),
            e.getValue().units, e.getValue().values(plan)));
      }
      return out;
    }
    Groups groups = Groups.keys(plan, extraKeys);
    KeptRows kept = scanKept(MeasurementSql.partitionRows(plan, dialect), plan, groups,
        parameters);
    GroupTotals totals = kept.totals(groups.count());
    for (int g = 0; g < groups.count(); g++) {
      if (totals.rows[g] > 0) { // a group whose rows were all replaced in the reservoirs: none
        GroupKey key = groups.key(g);
        out.add(new MeasuredGroup(key.cell, Arrays.asList(key.extra), totals.units[g],
            totals.values(g)));
      }
    }
    return out;
  }

  @Override
  public long[][] histogram(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      List<Object> parameters) throws SQLException {
    MeasurementPlan counts = HistogramSql.counts(plan);
    Groups groups = Groups.points(counts, grid.size());
    KeptRows kept = scanKept(HistogramSql.rows(plan, column, grid, dialect), counts, groups,
        parameters);
    GroupTotals totals = kept.totals(groups.count());
    long[][] out = new long[plan.cells().size()][grid.size()];
    for (int cell = 0; cell < out.length; cell++) {
      for (int point = 0; point < grid.size(); point++) {
        out[cell][point] = totals.rows[cell * grid.size() + point];
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ the scan

  /** The statement's rows, read forward only: lazily on H2, by a cursor elsewhere. */
  @FunctionalInterface
  private interface RowVisitor {
    void row(ResultSet rs) throws SQLException;
  }

  /**
   * Runs {@code sql} once, forward only, and hands each row to {@code visitor}, checking the
   * deadline and cancellation every {@link #CHECK_EVERY} rows and at the end.
   */
  private void stream(MeasurementSql sql, List<Object> parameters, RowVisitor visitor)
      throws SQLException {
    boolean h2 = dialect instanceof org.apache.calcite.sql.dialect.H2SqlDialect;
    boolean autoCommit = backend.getAutoCommit();
    EmbeddedH2Session pinned = null;
    if (h2) {
      setLazy(true);
      pinned = EmbeddedH2Session.pin(backend);
    } else if (autoCommit) {
      backend.setAutoCommit(false); // PostgreSQL streams with a cursor only inside a transaction
    }
    try (PreparedStatement ps = backend.prepareStatement(sql.sql(), ResultSet.TYPE_FORWARD_ONLY,
        ResultSet.CONCUR_READ_ONLY)) {
      ps.setFetchSize(FETCH_SIZE);
      ExactMeasurer.bind(ps, sql, parameters);
      int timeout = ps.getQueryTimeout();
      long deadline = timeout > 0 ? System.nanoTime() + timeout * 1_000_000_000L : Long.MAX_VALUE;
      try (ResultSet rs = ps.executeQuery()) {
        int untilCheck = CHECK_EVERY;
        while (rs.next()) {
          if (--untilCheck == 0) {
            untilCheck = CHECK_EVERY;
            stopIfOverdue(ps, deadline, timeout);
          }
          visitor.row(rs);
        }
        stopIfOverdue(ps, deadline, timeout);
      }
    } finally {
      if (pinned != null) {
        pinned.close();
      }
      if (h2) {
        setLazy(false);
      } else if (autoCommit) {
        try {
          backend.rollback(); // a read-only transaction: nothing to keep
        } finally {
          backend.setAutoCommit(true);
        }
      }
    }
  }

  /**
   * One forward pass over the rows of {@code sql} (laid out as {@link MeasurementSql#rows}
   * writes them), keeping a reservoir of k rows per unit (algorithm R, see the class comment) in
   * flat arrays: the kept rows' groups and per-row values, nothing else.
   */
  private KeptRows scanKept(MeasurementSql sql, MeasurementPlan plan, Groups groups,
      List<Object> parameters) throws SQLException {
    int k = plan.maxRowsPerUnit() + extraRows;
    KeptRows kept = new KeptRows(plan);
    RandomBits draws = new PooledRandomBits(random); // this pass's thread only
    RowReader[] reader = {null};
    stream(sql, parameters, rs -> {
      if (reader[0] == null) {
        reader[0] = new RowReader(rs, plan, groups.extraKeys(), sql.layout());
        kept.units.integral = reader[0].integralUnit;
      }
      RowReader r = reader[0];
      // outside the domain (a key the statement leaves to the reader): not a row of the unit, as
      // the push-down statement filters it before numbering the unit's rows
      int g = groups.of(rs, r);
      if (g < 0) {
        return;
      }
      int u = kept.unit(rs);
      long n = kept.seen(u);
      int row;
      if (n <= k) {
        row = kept.add(u, g);
        if (kept.size > maxKeptRows) {
          throw new OverCap(maxKeptRows);
        }
      } else {
        long j = draws.uniformBelow(n);
        if (j >= k) {
          return;
        }
        row = kept.slot(u, (int) j);
        kept.group[row] = g;
      }
      r.values(rs, kept, row);
    });
    return kept;
  }

  /**
   * One forward pass over the rows of {@code sql} for a plan that chooses each unit's groups
   * among private keys ({@code max_groups_per_unit} &lt; k), bounding every unit, then the
   * aggregates of the kept rows per group (cell and private keys).
   */
  private Aggregates scan(MeasurementSql sql, MeasurementPlan plan, int extraKeys,
      List<Object> parameters) throws SQLException {
    int k = plan.maxRowsPerUnit() + extraRows;
    int m = plan.query().maxGroupsPerUnit();
    long salt = random.nextLong();
    RandomBits draws = new PooledRandomBits(random); // this pass's thread only
    Map<Object, GroupedUnit> units = new HashMap<>();
    long[] kept = {0};
    RowReader[] reader = {null};
    stream(sql, parameters, rs -> {
      if (reader[0] == null) {
        reader[0] = new RowReader(rs, plan, extraKeys, sql.layout());
      }
      Object unitKey = rs.getObject(1);
      GroupedUnit unit = units.computeIfAbsent(unitKey, x -> new GroupedUnit(m));
      Row row = reader[0].row(rs);
      if (row != null) {
        long before = unit.keptRows();
        unit.add(row, unitKey, salt, k, draws);
        kept[0] += unit.keptRows() - before;
        capCheck(kept[0]);
      }
    });
    Aggregates agg = new Aggregates(plan);
    for (Map.Entry<Object, GroupedUnit> e : units.entrySet()) {
      agg.add(e.getValue().finalRows(k, draws), e.getKey() != null);
    }
    return agg;
  }

  private void capCheck(long kept) throws OverCap {
    if (kept > maxKeptRows) {
      throw new OverCap(maxKeptRows);
    }
  }

  /**
   * Stops the scan (HYT00) once the statement's timeout has passed, or when the statement is
   * cancelled ({@link Cancellation}, 57014): whichever the driver notices first, nothing is
   * charged.
   */
  private static void stopIfOverdue(PreparedStatement ps, long deadline, int timeout)
      throws SQLException {
    if (System.nanoTime() > deadline) {
      ps.cancel();
      throw new SQLTimeoutException("the streamed measurement ran longer than " + timeout
          + " s", "HYT00");
    }
    if (Cancellation.requested()) {
      ps.cancel();
      throw new SQLException("the streamed measurement was cancelled", "57014");
    }
  }

  /** H2's lazy execution: rows are computed as they are fetched, never materialised. */
  private void setLazy(boolean on) throws SQLException {
    try (Statement st = backend.createStatement()) {
      st.execute("SET LAZY_QUERY_EXECUTION " + (on ? "TRUE" : "FALSE"));
    }
  }

  // ------------------------------------------------------------------ rows and units

  /** One kept row: its cell, its extra keys, and each measurement's per-row value. */
  private record Row(int cell, Object[] extra, long[] values, Object[] distinct) {}

  /**
   * Where each part of a streamed row is and how it is read: integer columns by {@code getLong}
   * (no boxing), a cell's index from its keys with the domain sizes looked up once per statement,
   * categorical keys through a per-statement memo of the values seen.
   */
  private static final class RowReader {
    private final CellDomain cells;
    private final int keys;
    private final int extraKeys;
    private final int[] sizes;
    private final boolean[] categorical;
    private final boolean[] integral;
    private final List<Map<Object, Integer>> memo = new ArrayList<>();
    private final Object[] oneKey = new Object[1];
    private final Object[] keyValues;
    private final CellDomain[] single;
    /** Per key: its domain's integer bounds when the column holds the key itself, else null. */
    private final MeasurementSql.RawKey[] raw;
    final boolean integralUnit;
    /** Per measurement: its V column (1-based), or 0 for COUNT(*) and COUNT(DISTINCT unit). */
    private final int[] valueColumn;
    private final Measurement.Kind[] kinds;
    private final boolean anyDistinct;

    RowReader(ResultSet rs, MeasurementPlan plan, int extraKeys,
        MeasurementSql.StreamedLayout layout) throws SQLException {
      ResultSetMetaData md = rs.getMetaData();
      this.cells = plan.cells();
      this.keys = cells.columns().size();
      this.extraKeys = extraKeys;
      this.integralUnit = isIntegral(md.getColumnType(1));
      sizes = new int[keys];
      categorical = new boolean[keys];
      single = new CellDomain[keys];
      keyValues = new Object[keys];
      raw = layout.rawKeys().toArray(new MeasurementSql.RawKey[0]);
      integral = new boolean[md.getColumnCount() + 1];
      for (int c = 1; c <= md.getColumnCount(); c++) {
        integral[c] = isIntegral(md.getColumnType(c));
      }
      for (int i = 0; i < keys; i++) {
        ColumnPolicy c = cells.columns().get(i);
        sizes[i] = c.domainSize();
        categorical[i] = c.categorical().isPresent();
        single[i] = categorical[i] ? new CellDomain(List.of(c)) : null;
        memo.add(new HashMap<>());
      }
      int ms = plan.measurements().size();
      valueColumn = new int[ms];
      kinds = new Measurement.Kind[ms];
      boolean distinct = false;
      for (int i = 0; i < ms; i++) {
        kinds[i] = plan.measurements().get(i).kind();
        valueColumn[i] = layout.valueColumns()[i];
        distinct |= kinds[i] == Measurement.Kind.COUNT_DISTINCT;
      }
      anyDistinct = distinct;
    }

    private static boolean isIntegral(int sqlType) {
      return sqlType == Types.INTEGER || sqlType == Types.BIGINT || sqlType == Types.SMALLINT
          || sqlType == Types.TINYINT;
    }

    /** The current row's cell, or -1 if its keys lie outside the domain (never). */
    int cell(ResultSet rs) throws SQLException {
      int cell = 0;
      for (int i = 0; i < keys; i++) {
        int col = 2 + i;
        long bin;
        if (raw[i] != null) {
          long v;
          if (integral[col]) {
            v = rs.getLong(col);
            if (v == 0 && rs.wasNull()) {
              return -1;
            }
          } else {
            Object o = rs.getObject(col);
            if (o == null) {
              return -1;
            }
            v = o instanceof Integer || o instanceof Long ? ((Number) o).longValue()
                : new BigDecimal(o.toString()).longValueExact();
          }
          if (v < raw[i].min() || v > raw[i].max()) {
            return -1;
          }
          bin = v - raw[i].min();
        } else if (categorical[i]) {
          Object v = rs.getObject(col);
          if (v == null) {
            return -1;
          }
          Integer index = memo.get(i).get(v);
          if (index == null) {
            oneKey[0] = v;
            index = single[i].cellOf(oneKey);
            memo.get(i).put(v, index);
          }
          bin = index;
        } else if (integral[col]) {
          bin = rs.getLong(col);
          if (bin == 0 && rs.wasNull()) {
            return -1;
          }
        } else {
          Object v = rs.getObject(col);
          if (v == null) {
            return -1;
          }
          bin = v instanceof Integer || v instanceof Long ? ((Number) v).longValue()
              : new BigDecimal(v.toString()).longValue();
        }
        if (bin < 0 || bin >= sizes[i]) {
          return -1;
        }
        cell = cell * sizes[i] + (int) bin;
      }
      return cell;
    }

    /** The current row's extra keys (private keys, or a histogram's point), as read. */
    Object[] extra(ResultSet rs) throws SQLException {
      Object[] extra = new Object[extraKeys];
      for (int i = 0; i < extraKeys; i++) {
        extra[i] = rs.getObject(2 + keys + i);
      }
      return extra;
    }

    /** The first extra key as a whole number (a histogram's grid point). */
    long point(ResultSet rs) throws SQLException {
      int col = 2 + keys;
      if (integral[col]) {
        return rs.getLong(col);
      }
      Object v = rs.getObject(col);
      return v instanceof Integer || v instanceof Long ? ((Number) v).longValue()
          : new BigDecimal(v.toString()).setScale(0, RoundingMode.FLOOR).longValue();
    }

    /** Writes the current row's per-row values (COUNT's 0 or 1, SUM's steps) into {@code row}. */
    void values(ResultSet rs, KeptRows kept, int row) throws SQLException {
      int at = row * kept.stride;
      for (int i = 0; i < kinds.length; i++) {
        int col = valueColumn[i];
        switch (kinds[i]) {
          case COUNT -> kept.values[at + kept.slotOf[i]] = isNull(rs, col) ? 0 : 1;
          case SUM -> kept.values[at + kept.slotOf[i]] = sumSteps(rs, col);
          case COUNT_DISTINCT -> kept.distinct[row * kept.distinctStride + kept.slotOf[i]] =
              rs.getObject(col);
          case COUNT_STAR, COUNT_DISTINCT_UNIT -> { } // counted per group and unit at the end
        }
      }
    }

    private boolean isNull(ResultSet rs, int col) throws SQLException {
      if (integral[col]) {
        rs.getLong(col);
        return rs.wasNull();
      }
      return rs.getObject(col) == null;
    }

    private long sumSteps(ResultSet rs, int col) throws SQLException {
      if (integral[col]) {
        return rs.getLong(col); // 0 for NULL
      }
      return steps(rs.getObject(col));
    }

    /** The current row as a {@link Row} (the grouped path), or null outside the domain. */
    Row row(ResultSet rs) throws SQLException {
      int cell = cell(rs);
      if (cell < 0) {
        return null;
      }
      Object[] extra = extraKeys > 0 ? extra(rs) : null;
      long[] values = new long[kinds.length];
      Object[] distinct = anyDistinct ? new Object[kinds.length] : null;
      for (int i = 0; i < kinds.length; i++) {
        switch (kinds[i]) {
          case COUNT_STAR -> values[i] = 1;
          case COUNT -> values[i] = isNull(rs, valueColumn[i]) ? 0 : 1;
          case SUM -> values[i] = sumSteps(rs, valueColumn[i]);
          case COUNT_DISTINCT -> distinct[i] = rs.getObject(valueColumn[i]);
          case COUNT_DISTINCT_UNIT -> { } // counted per unit when aggregating
        }
      }
      return new Row(cell, extra, values, distinct);
    }

    /** A clamped value in whole resolution steps (the SQL rounded it), 0 for NULL. */
    private static long steps(Object v) {
      if (v == null) {
        return 0;
      }
      if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
        return ((Number) v).longValue();
      }
      return new BigDecimal(v.toString()).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    }
  }

  /** How a kept row's group is identified: its cell, its cell and grid point, or interned keys. */
  private static final class Groups {
    private final int extraKeys;
    private final int points;
    private final int cells;
    private final Map<GroupKey, Integer> interned;
    private final List<GroupKey> keys;

    private Groups(int cells, int extraKeys, int points, boolean intern) {
      this.cells = cells;
      this.extraKeys = extraKeys;
      this.points = points;
      this.interned = intern ? new HashMap<>() : null;
      this.keys = intern ? new ArrayList<>() : null;
    }

    /** A group per cell. */
    static Groups cells(MeasurementPlan plan) {
      return new Groups(plan.cells().size(), 0, 0, false);
    }

    /** A group per cell and grid point ({@code cell * points + point}). */
    static Groups points(MeasurementPlan plan, int points) {
      return new Groups(plan.cells().size(), 1, points, false);
    }

    /** A group per cell and private keys, numbered in the order first kept. */
    static Groups keys(MeasurementPlan plan, int extraKeys) {
      return new Groups(plan.cells().size(), extraKeys, 0, true);
    }

    int extraKeys() {
      return extraKeys;
    }

    int count() {
      return interned != null ? keys.size() : points > 0 ? cells * points : cells;
    }

    GroupKey key(int group) {
      return keys.get(group);
    }

    /** The current row's group, or -1 outside the domain (never: the statement filters). */
    int of(ResultSet rs, RowReader reader) throws SQLException {
      int cell = reader.cell(rs);
      if (cell < 0) {
        return -1;
      }
      if (interned != null) {
        GroupKey key = new GroupKey(cell, reader.extra(rs));
        Integer g = interned.get(key);
        if (g == null) {
          g = keys.size();
          interned.put(key, g);
          keys.add(key);
        }
        return g;
      }
      if (points > 0) {
        // the SQL's point is in [0, points); kept there against a backend's rounding at the ends
        long point = Math.max(0, Math.min(points - 1, reader.point(rs)));
        return cell * points + (int) point;
      }
      return cell;
    }
  }

  /**
   * Dense ids 0, 1, ... for the units in the order first seen: an open-addressing table of
   * {@code long} keys when the unit column is an integer type, else a hash map of the values
   * read; SQL NULL is one unit, as {@code PARTITION BY} has it.
   */
  private static final class UnitIds {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    boolean integral;
    /** Slot i: the key at 2i, its id + 1 at 2i + 1 (0 for an empty slot): one cache line. */
    private long[] slots = new long[2 << 12];
    private int shift = Long.SIZE - 12; // a key's home slot: the top log2(slots) bits of its hash
    private Map<Object, Integer> objects;
    private int nullId = -1;
    int count;

    int idOf(ResultSet rs) throws SQLException {
      if (integral) {
        long v = rs.getLong(1);
        return v == 0 && rs.wasNull() ? nullId() : idOf(v);
      }
      Object v = rs.getObject(1);
      if (v == null) {
        return nullId();
      }
      if (objects == null) {
        objects = new HashMap<>();
      }
      Integer id = objects.get(v);
      if (id == null) {
        id = count++;
        objects.put(v, id);
      }
      return id;
    }

    private int nullId() {
      if (nullId < 0) {
        nullId = count++;
      }
      return nullId;
    }

    private int idOf(long v) {
      int mask = (slots.length >> 1) - 1;
      int i = (int) ((v * GOLDEN) >>> shift);
      while (true) {
        long id = slots[2 * i + 1];
        if (id == 0) {
          slots[2 * i] = v;
          slots[2 * i + 1] = count + 1;
          if (++count * 4 > slots.length) { // at most half the slots taken
            grow();
          }
          return count - 1;
        }
        if (slots[2 * i] == v) {
          return (int) id - 1;
        }
        i = (i + 1) & mask;
      }
    }

    private void grow() {
      long[] old = slots;
      slots = new long[old.length * 2];
      shift--;
      int mask = (slots.length >> 1) - 1;
      for (int j = 0; j < old.length; j += 2) {
        if (old[j + 1] != 0) {
          int i = (int) ((old[j] * GOLDEN) >>> shift);
          while (slots[2 * i + 1] != 0) {
            i = (i + 1) & mask;
          }
          slots[2 * i] = old[j];
          slots[2 * i + 1] = old[j + 1];
        }
      }
    }
  }

  /**
   * Every unit's reservoir in flat arrays: per unit its row count and the head of a list of its
   * kept rows; per kept row the next row of its unit, its group and its per-row values. A
   * replaced row's storage is reused by the row that replaces it, so the arrays hold exactly the
   * kept rows.
   */
  private static final class KeptRows {
    final UnitIds units = new UnitIds();
    /**
     * Unit u's rows seen so far at 2u, the first of its kept rows at 2u + 1 (-1: none), side by
     * side: a streamed row touches one place per unit.
     */
    private long[] state = newState(1 << 12, 0);
    int size;
    private int[] next = new int[1 << 12];
    int[] group = new int[1 << 12];
    /** Per measurement: its position among the stored values (or distinct values), else -1. */
    final int[] slotOf;
    final int stride;
    final int distinctStride;
    long[] values;
    Object[] distinct;
    private final Measurement.Kind[] kinds;

    KeptRows(MeasurementPlan plan) {
      int ms = plan.measurements().size();
      kinds = new Measurement.Kind[ms];
      slotOf = new int[ms];
      int nv = 0;
      int nd = 0;
      for (int i = 0; i < ms; i++) {
        kinds[i] = plan.measurements().get(i).kind();
        slotOf[i] = switch (kinds[i]) {
          case COUNT, SUM -> nv++;
          case COUNT_DISTINCT -> nd++;
          default -> -1;
        };
      }
      stride = nv;
      distinctStride = nd;
      values = new long[group.length * nv];
      distinct = new Object[group.length * nd];
    }

    private static long[] newState(int units, int from) {
      long[] state = new long[2 * units];
      for (int u = from; u < units; u++) {
        state[2 * u + 1] = -1;
      }
      return state;
    }

    /** Counts one more row of unit {@code u}: its number among the unit's rows (1 first). */
    long seen(int u) {
      return ++state[2 * u];
    }

    private int head(int u) {
      return (int) state[2 * u + 1];
    }

    /** The id of the current row's unit, with room for its state. */
    int unit(ResultSet rs) throws SQLException {
      int u = units.idOf(rs);
      if (2 * u >= state.length) {
        int old = state.length / 2;
        long[] grown = newState(2 * old, old);
        System.arraycopy(state, 0, grown, 0, state.length);
        state = grown;
      }
      return u;
    }

    /** A new kept row of unit {@code u} in group {@code g}; its index. */
    int add(int u, int g) {
      if (size == group.length) {
        int n = group.length * 2;
        next = Arrays.copyOf(next, n);
        group = Arrays.copyOf(group, n);
        values = Arrays.copyOf(values, n * stride);
        distinct = Arrays.copyOf(distinct, n * distinctStride);
      }
      int row = size++;
      next[row] = head(u);
      group[row] = g;
      state[2 * u + 1] = row;
      return row;
    }

    /** The row in slot {@code j} of unit {@code u}'s full reservoir. */
    int slot(int u, int j) {
      int row = head(u);
      for (int i = 0; i < j; i++) {
        row = next[row];
      }
      return row;
    }

    /** The per-group totals of the kept rows. */
    GroupTotals totals(int groups) {
      GroupTotals t = new GroupTotals(kinds, groups);
      int[] lastUnit = new int[groups];
      Arrays.fill(lastUnit, -1);
      for (int u = 0; u < units.count; u++) {
        for (int row = head(u); row >= 0; row = next[row]) {
          int g = group[row];
          t.rows[g]++;
          if (lastUnit[g] != u) {
            lastUnit[g] = u;
            if (u != units.nullId) { // COUNT(DISTINCT unit) leaves NULL out, as SQL does
              t.units[g]++;
            }
          }
          for (int m = 0; m < kinds.length; m++) {
            switch (kinds[m]) {
              case COUNT, SUM -> t.sums[m][g] += values[row * stride + slotOf[m]];
              case COUNT_DISTINCT -> {
                Object v = distinct[row * distinctStride + slotOf[m]];
                if (v != null) {
                  t.distinct(m, g).add(Aggregates.normalise(v));
                }
              }
              default -> { }
            }
          }
        }
      }
      return t;
    }
  }

  /** Per group: kept rows, distinct units, and each measurement's sum or distinct values. */
  private static final class GroupTotals {
    private final Measurement.Kind[] kinds;
    final long[] rows;
    final long[] units;
    final long[][] sums;
    private final Map<Integer, Set<Object>>[] distinct;

    @SuppressWarnings("unchecked")
    GroupTotals(Measurement.Kind[] kinds, int groups) {
      this.kinds = kinds;
      rows = new long[groups];
      units = new long[groups];
      sums = new long[kinds.length][];
      distinct = new Map[kinds.length];
      for (int m = 0; m < kinds.length; m++) {
        if (kinds[m] == Measurement.Kind.COUNT || kinds[m] == Measurement.Kind.SUM) {
          sums[m] = new long[groups];
        }
        if (kinds[m] == Measurement.Kind.COUNT_DISTINCT) {
          distinct[m] = new HashMap<>();
        }
      }
    }

    Set<Object> distinct(int m, int g) {
      return distinct[m].computeIfAbsent(g, x -> new HashSet<>());
    }

    /** Each measurement's exact value for group {@code g}, in the plan's order. */
    long[] values(int g) {
      long[] out = new long[kinds.length];
      for (int m = 0; m < kinds.length; m++) {
        out[m] = switch (kinds[m]) {
          case COUNT_STAR -> rows[g];
          case COUNT, SUM -> sums[m][g];
          case COUNT_DISTINCT_UNIT -> units[g];
          case COUNT_DISTINCT -> {
            Set<Object> set = distinct[m].get(g);
            yield set == null ? 0 : set.size();
          }
        };
      }
      return out;
    }
  }

  /** A unit's reservoir of at most k rows. */
  private static class Unit {
    long seen;
    Row[] rows;
    int size;

    /** Counts one more row and returns the slot it takes, or -1 if it is not kept. */
    int slotFor(int k, RandomBits random) {
      seen++;
      if (seen <= k) {
        return (int) (seen - 1);
      }
      long j = random.uniformBelow(seen);
      return j < k ? (int) j : -1;
    }

    /** Puts a row into a slot; true if the reservoir grew (a new kept row). */
    boolean put(int slot, Row row, int k) {
      if (rows == null) {
        rows = new Row[Math.min(k, 4)];
      }
      if (slot >= rows.length) {
        rows = Arrays.copyOf(rows, Math.min(k, Math.max(slot + 1, rows.length * 2)));
      }
      boolean grew = rows[slot] == null;
      rows[slot] = row;
      if (grew) {
        size++;
      }
      return grew;
    }

    /** The unit's bounded rows. */
    List<Row> finalRows(int k, RandomBits random) {
      List<Row> out = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        out.add(rows[i]);
      }
      return out;
    }
  }

  /** A unit's kept groups (at most m, smallest priority first chosen) with their reservoirs. */
  private static final class GroupedUnit extends Unit {
    private final int m;
    private final List<Group> groups = new ArrayList<>();

    GroupedUnit(int m) {
      this.m = m;
    }

    long keptRows() {
      long n = 0;
      for (Group g : groups) {
        n += g.size;
      }
      return n;
    }

    void add(Row row, Object unitKey, long salt, int k, RandomBits random) {
      Group group = null;
      for (Group g : groups) {
        if (g.cell == row.cell && Arrays.equals(g.extra, row.extra)) {
          group = g;
          break;
        }
      }
      if (group == null) {
        long priority = priority(salt, unitKey, row.cell, row.extra);
        if (groups.size() < m) {
          group = new Group(row.cell, row.extra, priority);
          groups.add(group);
        } else {
          Group worst = groups.get(0);
          for (Group g : groups) {
            if (Long.compareUnsigned(g.priority, worst.priority) > 0) {
              worst = g;
            }
          }
          if (Long.compareUnsigned(priority, worst.priority) >= 0) {
            return; // not among the unit's m groups of smallest priority
          }
          groups.remove(worst);
          group = new Group(row.cell, row.extra, priority);
          groups.add(group);
        }
      }
      int slot = group.slotFor(k, random);
      if (slot >= 0) {
        group.put(slot, row, k);
      }
    }

    /**
     * k of the kept groups' rows, uniformly: k distinct positions among their N rows (Floyd's
     * algorithm), then as many rows uniformly from each group's reservoir as positions fell in
     * the group's range.
     */
    @Override
    List<Row> finalRows(int k, RandomBits random) {
      long n = 0;
      for (Group g : groups) {
        n += g.seen;
      }
      List<Row> out = new ArrayList<>();
      if (n <= k) {
        for (Group g : groups) {
          out.addAll(g.finalRows(k, random));
        }
        return out;
      }
      Set<Long> positions = new HashSet<>();
      for (long j = n - k; j < n; j++) {
        long t = random.uniformBelow(j + 1);
        positions.add(positions.contains(t) ? j : t);
      }
      long start = 0;
      for (Group g : groups) {
        int take = 0;
        for (long p : positions) {
          if (p >= start && p < start + g.seen) {
            take++;
          }
        }
        start += g.seen;
        // a uniform take-subset of the group's reservoir (a partial Fisher–Yates shuffle)
        Row[] pool = Arrays.copyOf(g.rows, g.size);
        for (int i = 0; i < take; i++) {
          int r = i + (int) random.uniformBelow(pool.length - i);
          Row t = pool[r];
          pool[r] = pool[i];
          pool[i] = t;
          out.add(t);
        }
      }
      return out;
    }
  }

  /** One group of a unit (a cell and private keys) with a reservoir of its rows. */
  private static final class Group extends Unit {
    final int cell;
    final Object[] extra;
    final long priority;

    Group(int cell, Object[] extra, long priority) {
      this.cell = cell;
      this.extra = extra;
      this.priority = priority;
    }
  }

  /**
   * The priority of a unit's group: a 64-bit hash of the unit and the group's keys, keyed by
   * {@code salt} (FNV-1a over each value, an integer by its 8 bytes and anything else by its
   * text, each followed by a separator; then the SplitMix64 finaliser). A column's values all
   * have one Java type, so equal values always hash alike.
   */
  static long priority(long salt, Object unit, int cell, Object[] extra) {
    long h = 0xcbf29ce484222325L ^ salt;
    h = mixIn(h, unit);
    h = mixIn(h, (long) cell);
    if (extra != null) {
      for (Object o : extra) {
        h = mixIn(h, o);
      }
    }
    h ^= salt;
    h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
    h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
    return h ^ (h >>> 31);
  }

  private static final long FNV_PRIME = 0x100000001b3L;

  private static long mixIn(long h, Object o) {
    if (o instanceof Integer || o instanceof Long || o instanceof Short || o instanceof Byte) {
      long v = ((Number) o).longValue();
      for (int i = 0; i < Long.BYTES; i++) {
        h = (h ^ (v & 0xff)) * FNV_PRIME;
        v >>>= 8;
      }
      return (h ^ 0x100) * FNV_PRIME; // a separator, as for text
    }
    String s = String.valueOf(o);
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * FNV_PRIME;
    }
    return (h ^ 0xff) * FNV_PRIME; // a separator, so that ("ab", "c") differs from ("a", "bc")
  }

  // ------------------------------------------------------------------ aggregation

  /** A group's identity: its cell and extra keys (private keys or histogram point). */
  private record GroupKey(int cell, Object[] extra) {
    @Override
    public boolean equals(Object o) {
      return o instanceof GroupKey g && g.cell == cell && Arrays.equals(g.extra, extra);
    }

    @Override
    public int hashCode() {
      return 31 * cell + Arrays.hashCode(extra);
    }
  }

  /** A group's aggregates over the kept rows of every unit. */
  private static final class Acc {
    final long[] sums;
    final Set<Object>[] distinct;
    long units;

    @SuppressWarnings("unchecked")
    Acc(int ms) {
      sums = new long[ms];
      distinct = new Set[ms];
    }

    /** Each measurement's exact value, in {@code plan}'s order. */
    long[] values(MeasurementPlan plan) {
      long[] out = sums.clone();
      for (int m = 0; m < out.length; m++) {
        switch (plan.measurements().get(m).kind()) {
          case COUNT_DISTINCT_UNIT -> out[m] = units;
          case COUNT_DISTINCT -> out[m] = distinct[m] == null ? 0 : distinct[m].size();
          default -> { }
        }
      }
      return out;
    }
  }

  /** The groups' aggregates, in the order their first kept row was added. */
  private static final class Aggregates {
    final Map<GroupKey, Acc> groups = new LinkedHashMap<>();
    private final int ms;
    private final Measurement.Kind[] kinds;

    Aggregates(MeasurementPlan plan) {
      ms = plan.measurements().size();
      kinds = new Measurement.Kind[ms];
      for (int i = 0; i < ms; i++) {
        kinds[i] = plan.measurements().get(i).kind();
      }
    }

    /**
     * Adds one unit's kept rows: their values, and the unit once in each of its groups unless
     * {@code counted} is false (the NULL unit, which COUNT(DISTINCT unit) leaves out).
     */
    void add(List<Row> rows, boolean counted) {
      List<Acc> seen = new ArrayList<>(rows.size());
      for (Row r : rows) {
        Acc acc = groups.computeIfAbsent(new GroupKey(r.cell(), r.extra()), g -> new Acc(ms));
        for (int m = 0; m < ms; m++) {
          if (kinds[m] == Measurement.Kind.COUNT_DISTINCT) {
            if (r.distinct()[m] != null) {
              if (acc.distinct[m] == null) {
                acc.distinct[m] = new HashSet<>();
              }
              acc.distinct[m].add(normalise(r.distinct()[m]));
            }
          } else {
            acc.sums[m] += r.values()[m];
          }
        }
        boolean inUnit = false;
        for (Acc a : seen) {
          if (a == acc) {
            inUnit = true;
            break;
          }
        }
        if (!inUnit) {
          seen.add(acc);
          if (counted) {
            acc.units++;
          }
        }
      }
    }

    /** A value as a distinct count compares it: numbers by value, whatever their scale. */
    static Object normalise(Object v) {
      if (v instanceof BigDecimal b) {
        return b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
      }
      return v;
    }
  }
}
