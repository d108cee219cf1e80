package org.dpsql.policy;

/**
 * The data owner's hardening limits on every statement of a connection (policy key {@code
 * limits}): how long one backend statement may run and how many cells one private query's data
 * vector may have.
 *
 * <p>Guarantees: immutable; a present limit is positive; an absent one ({@code null}) leaves the
 * engine's own limits in force. The cell limit only lowers the engine's built-in maxima, never
 * raises them.
 *
 * @param statementTimeoutSeconds the most seconds one backend statement may run before it is
 *     cancelled ({@code java.sql.Statement#setQueryTimeout}), or null for no timeout
 * @param maxCells the most cells (the product of the domain sizes of the columns a query groups
 *     or filters by) one private query may measure, or null for the engine's limits only
 * @param measurement where measurements are computed (top-level policy key {@code measurement}),
 *     null for {@link MeasurementChoice#AUTO}
 * @param streamingMaxRows the most rows a streamed measurement may keep in the JVM (units × their
 *     kept rows, {@code limits.streaming_max_rows}); beyond it the statement is measured by
 *     push-down instead. Null for {@link #DEFAULT_STREAMING_MAX_ROWS}
 */
public record QueryLimits(Integer statementTimeoutSeconds, Integer maxCells,
    MeasurementChoice measurement, Long streamingMaxRows) {
  /** No limits beyond the engine's own. */
  public static final QueryLimits NONE = new QueryLimits(null, null);

  /**
   * The default cap on rows kept by a streamed measurement: 20,000,000 rows, about 3 GiB of heap
   * at the measured cost of about 150 bytes per kept row with its unit (sized for a 24 GiB
   * machine whose JVM gets a quarter of it by default).
   */
  public static final long DEFAULT_STREAMING_MAX_ROWS = 20_000_000L;

  /** The two limits, measurement chosen automatically, default streaming cap. */
  public QueryLimits(Integer statementTimeoutSeconds, Integer maxCells) {
    this(statementTimeoutSeconds, maxCells, null, null);
  }

  /** The measurement choice in force ({@code auto} when the policy names none). */
  public MeasurementChoice measurementChoice() {
    return measurement == null ? MeasurementChoice.AUTO : measurement;
  }

  /** The streaming cap in force. */
  public long streamingMaxRowsOrDefault() {
    return streamingMaxRows == null ? DEFAULT_STREAMING_MAX_ROWS : streamingMaxRows;
  }

  /** Checks that present limits are positive. */
  public QueryLimits {
    if (streamingMaxRows != null && streamingMaxRows <= 0) {
      throw new IllegalArgumentException("streaming_max_rows must be positive, got "
          + streamingMaxRows);
    }
    if (statementTimeoutSeconds != null && statementTimeoutSeconds <= 0) {
      throw new IllegalArgumentException("statement_timeout_s must be a positive number of "
          + "seconds, got " + statementTimeoutSeconds);
    }
    if (maxCells != null && maxCells <= 0) {
      throw new IllegalArgumentException("max_cells must be positive, got " + maxCells);
    }
  }
}
