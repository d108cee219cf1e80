package org.dpsql.backend;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.Bounding;
import org.dpsql.policy.MeasurementChoice;
import org.dpsql.policy.TablePolicy;
import org.dpsql.rewrite.MeasurementPlan;

/**
 * The exact, bounded measurements of a connection: for each plan it picks a {@link
 * MeasurementStrategy} ({@link #choose}: {@link StreamingMeasurement} for an embedded H2 database,
 * {@link PushDownMeasurement} otherwise, or as the policy's {@code measurement} says) and returns
 * its measurement vectors, one entry per cell of the domain (cells without rows are 0). Both
 * strategies bound every unit from its own rows alone to the same k rows, so the choice never
 * changes the sensitivity (see {@link MeasurementStrategy}). A streamed measurement that would
 * keep more rows than {@code limits.streaming_max_rows} is measured again by push-down (nothing
 * has been charged or released at that point).
 */
public final class ExactMeasurer {
  private final Connection backend;
  private final SqlDialect dialect;
  private final BoundedSnapshots snapshots;
  private final UniqueUnits uniqueUnits;
  private final MeasurementChoice choice;
  private final PushDownMeasurement pushDown;
  private final StreamingMeasurement streaming;
  private final boolean embedded;
  private final long maxKeptRows;
  /**
   * Held by every measurement on an embedded H2 connection, for the whole measurement: a streamed
   * scan reads a lazy result across many H2 commands in the connection's one transaction, and a
   * statement that another thread runs on the same connection meanwhile ends that transaction
   * when it auto-commits (H2: "Transaction 1 is closed"; the scan then fails and charges nothing).
   * H2 runs one command of a session at a time anyway, so little concurrency is lost.
   */
  private final java.util.concurrent.locks.ReentrantLock embeddedScans =
      new java.util.concurrent.locks.ReentrantLock();

  /** Push-down only (no bounding randomness in the JVM). */
  public ExactMeasurer(Connection backend, SqlDialect dialect) {
    this(backend, dialect, MeasurementChoice.PUSH_DOWN, 1, null);
  }

  /**
   * Strategies as {@code choice} says; {@code random} is the bounding randomness of the streaming
   * strategy (the engine's {@link RandomBits}, never the backend's), {@code maxKeptRows} its cap.
   */
  public ExactMeasurer(Connection backend, SqlDialect dialect, MeasurementChoice choice,
      long maxKeptRows, RandomBits random) {
    this.backend = backend;
    this.dialect = dialect;
    this.snapshots = new BoundedSnapshots(backend, dialect);
    this.uniqueUnits = new UniqueUnits(backend);
    this.choice = choice;
    this.maxKeptRows = maxKeptRows;
    this.pushDown = new PushDownMeasurement(backend, this);
    this.streaming = random == null ? null
        : new StreamingMeasurement(backend, dialect, random, maxKeptRows);
    this.embedded = isEmbeddedH2(backend, dialect);
  }

  /**
   * As the public constructor with a given streaming strategy (the privacy audit's deliberately
   * broken reservoir; test code in this package only).
   */
  ExactMeasurer(Connection backend, SqlDialect dialect, StreamingMeasurement streaming) {
    this.backend = backend;
    this.dialect = dialect;
    this.snapshots = new BoundedSnapshots(backend, dialect);
    this.uniqueUnits = new UniqueUnits(backend);
    this.choice = MeasurementChoice.STREAMING;
    this.maxKeptRows = Long.MAX_VALUE;
    this.pushDown = new PushDownMeasurement(backend, this);
    this.streaming = streaming;
    this.embedded = isEmbeddedH2(backend, dialect);
  }

  /**
   * Whether the backend is H2 running inside this JVM: an in-memory ({@code jdbc:h2:mem:}) or
   * file database, not one reached over TCP or SSL (whose rows would cross a network).
   */
  public static boolean isEmbeddedH2(Connection backend, SqlDialect dialect) {
    if (!(dialect instanceof org.apache.calcite.sql.dialect.H2SqlDialect)) {
      return false;
    }
    try {
      String url = backend.getMetaData().getURL();
      if (url == null || !url.regionMatches(true, 0, "jdbc:h2:", 0, 8)) {
        return false;
      }
      String rest = url.substring(8).toLowerCase(java.util.Locale.ROOT);
      return !rest.startsWith("tcp:") && !rest.startsWith("ssl:");
    } catch (SQLException e) {
      return false;
    }
  }

  /**
   * Refuses (XDP04, when the connection opens) {@code measurement: streaming} on a backend that
   * cannot stream: Trino (its JDBC driver pages a whole result through the coordinator; dpsql
   * keeps Trino on push-down).
   */
  public static void checkChoice(MeasurementChoice choice, SqlDialect dialect, String product)
      throws SQLException {
    if (choice == MeasurementChoice.STREAMING && BackendDialects.isTrino(dialect)) {
      throw org.dpsql.errors.SqlStates.policyError("measurement: streaming reads every filtered "
          + "row into dpsql's JVM, which dpsql does not do on " + product + " (a distributed "
          + "engine: its rows would cross the network through the coordinator); use measurement: "
          + "auto or push_down, which bound inside the backend");
    }
  }

  /** The strategy that measures a plan, and why (as EXPLAIN says it). */
  public record Choice(MeasurementStrategy strategy, String reason) {
    /** Whether the plan's rows are streamed into the JVM. */
    public boolean streams() {
      return strategy instanceof StreamingMeasurement;
    }
  }

  /** The strategy for {@code plan}: see {@link MeasurementChoice}. */
  public Choice choose(MeasurementPlan plan) {
    TablePolicy table = plan.query().table();
    if (table.unitIsRow()) {
      return new Choice(pushDown, "each row is its own unit: nothing to bound, one GROUP BY in "
          + "the backend");
    }
    if (oneRowPerUnit(table)) {
      return new Choice(pushDown, "the backend declares the unit unique: nothing to bound, one "
          + "GROUP BY in the backend");
    }
    if (table.bounding() == Bounding.SNAPSHOT) {
      return new Choice(pushDown, "bounding: snapshot reads the connection's bounded snapshot");
    }
    if (streaming == null || choice == MeasurementChoice.PUSH_DOWN) {
      return new Choice(pushDown, "policy measurement: push_down");
    }
    String cap = "; measured by push-down instead if it would keep more than " + maxKeptRows
        + " rows (limits.streaming_max_rows)";
    if (choice == MeasurementChoice.STREAMING) {
      return new Choice(streaming, "policy measurement: streaming" + cap);
    }
    if (embedded) {
      return new Choice(streaming, "measurement: auto, and the backend is H2 embedded in this "
          + "JVM: one forward pass over the filtered rows, each unit bounded in the JVM" + cap);
    }
    return new Choice(pushDown, "measurement: auto, and the backend runs outside this JVM: its "
        + "rows stay there");
  }

  /** One measurement by the plan's strategy, by push-down if the stream goes over its cap. */
  @FunctionalInterface
  private interface Run<T> {
    T by(MeasurementStrategy strategy) throws SQLException;
  }

  private <T> T run(MeasurementPlan plan, Run<T> run) throws SQLException {
    if (!embedded) {
      return runUnlocked(plan, run);
    }
    try {
      embeddedScans.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("the statement was cancelled before its answer was released. "
          + "Nothing was charged.", "57014", e);
    }
    try {
      return runUnlocked(plan, run);
    } finally {
      embeddedScans.unlock();
    }
  }

  private <T> T runUnlocked(MeasurementPlan plan, Run<T> run) throws SQLException {
    MeasurementStrategy strategy = choose(plan).strategy();
    if (strategy == pushDown) {
      return run.by(pushDown);
    }
    try {
      return run.by(strategy);
    } catch (StreamingMeasurement.OverCap e) {
      return run.by(pushDown);
    }
  }

  /**
   * The SQL a streamed measurement of {@code plan} runs: its filtered rows (see {@link
   * MeasurementSql#rows}).
   */
  public MeasurementSql streamedRowsSqlFor(MeasurementPlan plan) {
    return plan.query().hasPrivateKeys() ? MeasurementSql.partitionRows(plan, dialect)
        : MeasurementSql.rows(plan, dialect, List.of(), List.of());
  }

  /** The SQL a streamed histogram of {@code column} runs. */
  public MeasurementSql streamedHistogramSqlFor(MeasurementPlan plan,
      org.dpsql.policy.ColumnPolicy column, org.dpsql.rewrite.QuantileGrid grid) {
    return HistogramSql.rows(plan, column, grid, dialect);
  }

  /** The backend SQL that measures a plan (creating the table's bounded snapshot if it needs one). */
  public MeasurementSql sqlFor(MeasurementPlan plan) throws SQLException {
    Rows rows = rowsOf(plan.query().table());
    return MeasurementSql.of(plan, dialect, rows.snapshot(), rows.oneRowPerUnit());
  }

  /**
   * Where a measurement of a table reads its bounded rows: the table itself, bounded per query
   * ({@code snapshot} null), already one row per unit, or the connection's bounded snapshot.
   */
  private record Rows(String snapshot, boolean oneRowPerUnit) {}

  /**
   * How a measurement of {@code table} is bounded (creating its snapshot if it needs one), or
   * XDP04 for snapshot bounding on a backend without temporary tables.
   */
  private Rows rowsOf(TablePolicy table) throws SQLException {
    if (oneRowPerUnit(table)) {
      return new Rows(null, true); // nothing to bound, no snapshot needed
    }
    if (!table.unitIsRow() && table.bounding() == Bounding.SNAPSHOT) {
      if (!BackendDialects.supportsTemporaryTables(dialect)) {
        throw org.dpsql.errors.SqlStates.policyError("tables." + table.name() + ".bounding: "
            + "snapshot needs a temporary table, which this backend does not have; use "
            + "bounding: per_query");
      }
      return new Rows(snapshots.snapshotOf(table), false);
    }
    return new Rows(null, false);
  }

  /**
   * Whether the backend declares the table's privacy unit unique and not null (its primary key or
   * a unique index), so that its measurements need no contribution bounding (see {@link
   * UniqueUnits}); read once per table.
   */
  public boolean oneRowPerUnit(TablePolicy table) {
    return uniqueUnits.oneRowPerUnit(table);
  }

  public SqlDialect dialect() {
    return dialect;
  }

  /** {@code result[m][cell]}: measurement m (counts, or sums in resolution steps) of each cell. */
  public long[][] measure(MeasurementPlan plan, List<Object> parameters) throws SQLException {
    return run(plan, s -> s.measure(plan, parameters));
  }

  /** The backend SQL that measures a plan grouping by private keys (see {@link MeasurementSql#partitions}). */
  public MeasurementSql partitionSqlFor(MeasurementPlan plan) throws SQLException {
    Rows rows = rowsOf(plan.query().table());
    return MeasurementSql.partitions(plan, dialect, rows.snapshot(), rows.oneRowPerUnit());
  }

  /**
   * Every non-empty group of a plan that groups by private keys, with its exact distinct-unit
   * count and measurements over the bounded rows.
   */
  public List<org.dpsql.rewrite.MeasuredGroup> partitions(MeasurementPlan plan,
      List<Object> parameters) throws SQLException {
    return run(plan, s -> s.partitions(plan, parameters));
  }

  /** The backend SQL of a column's histogram over its grid (see {@link HistogramSql}). */
  public MeasurementSql histogramSqlFor(MeasurementPlan plan, org.dpsql.policy.ColumnPolicy column,
      org.dpsql.rewrite.QuantileGrid grid) throws SQLException {
    Rows rows = rowsOf(plan.query().table());
    return HistogramSql.of(plan, column, grid, dialect, rows.snapshot(), rows.oneRowPerUnit());
  }

  /**
   * {@code result[cell][point]}: the number of the cell's bounded, non-null values of {@code
   * column} that count at each point of {@code grid}.
   */
  public long[][] histogram(MeasurementPlan plan, org.dpsql.policy.ColumnPolicy column,
      org.dpsql.rewrite.QuantileGrid grid, List<Object> parameters) throws SQLException {
    return run(plan, s -> s.histogram(plan, column, grid, parameters));
  }

  /** Binds the analyst's parameters in the order the statement takes them (07001 if unset). */
  static void bind(PreparedStatement ps, MeasurementSql sql, List<Object> parameters)
      throws SQLException {
    List<Integer> order = sql.parameterOrder();
    for (int i = 0; i < order.size(); i++) {
      int p = order.get(i);
      if (p >= parameters.size() || parameters.get(p) == UNSET) {
        throw new SQLException("parameter " + (p + 1) + " is not set", "07001");
      }
      ps.setObject(i + 1, parameters.get(p));
    }
  }

  /** Marks a parameter the application has not set. */
  public static final Object UNSET = new Object() {
    @Override
    public String toString() {
      return "<unset>";
    }
  };
}
