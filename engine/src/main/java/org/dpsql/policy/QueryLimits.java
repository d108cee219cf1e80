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
 */
public record QueryLimits(Integer statementTimeoutSeconds, Integer maxCells) {
  /** No limits beyond the engine's own. */
  public static final QueryLimits NONE = new QueryLimits(null, null);

  /** Checks that present limits are positive. */
  public QueryLimits {
    if (statementTimeoutSeconds != null && statementTimeoutSeconds <= 0) {
      throw new IllegalArgumentException("statement_timeout_s must be a positive number of "
          + "seconds, got " + statementTimeoutSeconds);
    }
    if (maxCells != null && maxCells <= 0) {
      throw new IllegalArgumentException("max_cells must be positive, got " + maxCells);
    }
  }
}
