package org.dpsql.backend;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.rewrite.MeasuredGroup;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.QuantileGrid;

/**
 * The streaming strategy: the backend only filters ({@link MeasurementSql#rows}: the unit, the
 * cells' keys, the clamped per-row values, computed by the same SQL expressions as the push-down
 * statement), and dpsql reads the filtered rows once, forward only ({@link Statement#setFetchSize},
 * H2's lazy execution, PostgreSQL's server-side cursor), keeping per privacy unit only the state
 * its bounding needs, then aggregates the kept rows per cell.
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
 * rows in all; a statement that would keep more stops its scan with {@link OverCap} and the
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
    Aggregates agg = scan(MeasurementSql.rows(plan, dialect, List.of(), List.of()), plan, 0,
        false, parameters);
    int ms = plan.measurements().size();
    long[][] out = new long[ms][plan.cells().size()];
    for (Map.Entry<GroupKey, Acc> e : agg.groups.entrySet()) {
      long[] values = e.getValue().values(plan);
      for (int m = 0; m < ms; m++) {
        out[m][e.getKey().cell] = values[m];
      }
    }
    return out;
  }

  @Override
  public List<MeasuredGroup> partitions(MeasurementPlan plan, List<Object> parameters)
      throws SQLException {
    boolean chooseGroups = plan.query().maxGroupsPerUnit() < plan.maxRowsPerUnit();
    Aggregates agg = scan(MeasurementSql.partitionRows(plan, dialect), plan,
        plan.query().privateGroupBy().size(), chooseGroups, parameters);
    List<MeasuredGroup> out = new ArrayList<>();
    for (Map.Entry<GroupKey, Acc> e : agg.groups.entrySet()) {
      out.add(new MeasuredGroup(e.getKey().cell, Arrays.asList(e.getKey().extra),
          e.getValue().units, e.getValue().values(plan)));
    }
    return out;
  }

  @Override
  public long[][] histogram(MeasurementPlan plan, ColumnPolicy column, QuantileGrid grid,
      List<Object> parameters) throws SQLException {
    MeasurementPlan counts = HistogramSql.counts(plan);
    Aggregates agg = scan(HistogramSql.rows(plan, column, grid, dialect), counts, 1, false,
        parameters);
    long[][] out = new long[plan.cells().size()][grid.size()];
    for (Map.Entry<GroupKey, Acc> e : agg.groups.entrySet()) {
      // the SQL's point is in [0, size); kept there against a backend's rounding at the ends
      int point = Math.max(0, Math.min(grid.size() - 1, new BigDecimal(
          e.getKey().extra[0].toString()).setScale(0, RoundingMode.FLOOR).intValueExact()));
      out[e.getKey().cell][point] += e.getValue().values(counts)[0];
    }
    return out;
  }

  // ------------------------------------------------------------------ the scan

  /**
   * One forward pass over the rows of {@code sql} (laid out as {@link MeasurementSql#rows}
   * writes them, with {@code extraKeys} keys after the cells'), bounding every unit, then the
   * aggregates of the kept rows per group (cell and extra keys).
   */
  private Aggregates scan(MeasurementSql sql, MeasurementPlan plan, int extraKeys,
      boolean chooseGroups, List<Object> parameters) throws SQLException {
    Layout layout = new Layout(plan, extraKeys);
    int k = plan.maxRowsPerUnit() + extraRows;
    int m = plan.query().maxGroupsPerUnit();
    long salt = random.nextLong();
    Map<Object, Unit> units = new HashMap<>();
    long[] kept = {0};
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
      Object[] keyValues = new Object[plan.cells().columns().size()];
      try (ResultSet rs = ps.executeQuery()) {
        long rows = 0;
        while (rs.next()) {
          if (++rows % CHECK_EVERY == 0) {
            stopIfOverdue(ps, deadline, timeout);
          }
          Object unitKey = rs.getObject(1);
          Unit unit = units.get(unitKey);
          if (unit == null) {
            unit = chooseGroups ? new GroupedUnit(m) : new Unit();
            units.put(unitKey, unit);
          }
          if (!chooseGroups) {
            int slot = unit.slotFor(k, random);
            if (slot >= 0) {
              Row row = layout.read(rs, plan, keyValues);
              if (row != null && unit.put(slot, row, k)) {
                capCheck(++kept[0]);
              }
            }
          } else {
            Row row = layout.read(rs, plan, keyValues);
            if (row != null) {
              long before = ((GroupedUnit) unit).keptRows();
              ((GroupedUnit) unit).add(row, unitKey, salt, k, random);
              kept[0] += ((GroupedUnit) unit).keptRows() - before;
              capCheck(kept[0]);
            }
          }
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
    Aggregates agg = new Aggregates(plan);
    for (Unit unit : units.values()) {
      agg.add(unit.finalRows(k, random));
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

  /** Where each part of a streamed row is, and how it becomes a {@link Row}. */
  private static final class Layout {
    private final int keys;
    private final int extraKeys;
    /** Per measurement: its V column (1-based), or 0 for COUNT(*). */
    private final int[] valueColumn;
    private final Measurement.Kind[] kinds;
    private final boolean anyDistinct;

    Layout(MeasurementPlan plan, int extraKeys) {
      this.keys = plan.cells().columns().size();
      this.extraKeys = extraKeys;
      int ms = plan.measurements().size();
      valueColumn = new int[ms];
      kinds = new Measurement.Kind[ms];
      int next = 2 + keys + extraKeys;
      boolean distinct = false;
      for (int i = 0; i < ms; i++) {
        kinds[i] = plan.measurements().get(i).kind();
        valueColumn[i] = kinds[i] == Measurement.Kind.COUNT_STAR ? 0 : next++;
        distinct |= kinds[i] == Measurement.Kind.COUNT_DISTINCT;
      }
      anyDistinct = distinct;
    }

    /** The current row of {@code rs}, or null if its keys lie outside the domain (never). */
    Row read(ResultSet rs, MeasurementPlan plan, Object[] keyValues) throws SQLException {
      for (int i = 0; i < keys; i++) {
        keyValues[i] = rs.getObject(2 + i);
      }
      int cell = cellOf(plan, keyValues);
      if (cell < 0) {
        return null;
      }
      Object[] extra = null;
      if (extraKeys > 0) {
        extra = new Object[extraKeys];
        for (int i = 0; i < extraKeys; i++) {
          extra[i] = rs.getObject(2 + keys + i);
        }
      }
      long[] values = new long[kinds.length];
      Object[] distinct = anyDistinct ? new Object[kinds.length] : null;
      for (int i = 0; i < kinds.length; i++) {
        switch (kinds[i]) {
          case COUNT_STAR -> values[i] = 1;
          case COUNT -> values[i] = rs.getObject(valueColumn[i]) == null ? 0 : 1;
          case SUM -> values[i] = steps(rs.getObject(valueColumn[i]));
          case COUNT_DISTINCT -> distinct[i] = rs.getObject(valueColumn[i]);
          case COUNT_DISTINCT_UNIT -> { } // counted per unit when aggregating
        }
      }
      return new Row(cell, extra, values, distinct);
    }

    /**
     * The cell of a row's keys, as {@link org.dpsql.rewrite.CellDomain#cellOf}: directly when
     * every key is an ordered or time bin index read as an integer (the usual case, and once per
     * streamed row), else by {@code cellOf}.
     */
    private static int cellOf(MeasurementPlan plan, Object[] keyValues) {
      List<ColumnPolicy> columns = plan.cells().columns();
      long cell = 0;
      for (int i = 0; i < keyValues.length; i++) {
        ColumnPolicy c = columns.get(i);
        if (c.categorical().isPresent()
            || !(keyValues[i] instanceof Integer || keyValues[i] instanceof Long)) {
          return plan.cells().cellOf(keyValues);
        }
        long bin = ((Number) keyValues[i]).longValue();
        int size = c.domainSize();
        if (bin < 0 || bin >= size) {
          return -1;
        }
        cell = cell * size + bin;
      }
      return (int) cell;
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
   * {@code salt} (FNV-1a over their text, then the SplitMix64 finaliser).
   */
  static long priority(long salt, Object unit, int cell, Object[] extra) {
    long h = 0xcbf29ce484222325L ^ salt;
    h = mixIn(h, String.valueOf(unit));
    h = mixIn(h, Integer.toString(cell));
    if (extra != null) {
      for (Object o : extra) {
        h = mixIn(h, String.valueOf(o));
      }
    }
    h ^= salt;
    h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
    h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
    return h ^ (h >>> 31);
  }

  private static long mixIn(long h, String s) {
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * 0x100000001b3L;
    }
    return (h ^ 0xff) * 0x100000001b3L; // a separator, so that ("ab", "c") differs from ("a", "bc")
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

    /** Adds one unit's kept rows: their values, and the unit once in each of its groups. */
    void add(List<Row> rows) {
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
        boolean counted = false;
        for (Acc a : seen) {
          if (a == acc) {
            counted = true;
            break;
          }
        }
        if (!counted) {
          seen.add(acc);
          acc.units++;
        }
      }
    }

    /** A value as a distinct count compares it: numbers by value, whatever their scale. */
    private static Object normalise(Object v) {
      if (v instanceof BigDecimal b) {
        return b.signum() == 0 ? BigDecimal.ZERO : b.stripTrailingZeros();
      }
      return v;
    }
  }
}
