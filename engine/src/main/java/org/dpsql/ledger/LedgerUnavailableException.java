package org.dpsql.ledger;

/**
 * The durable ledger could not be read or written, so a charge could not be recorded.
 *
 * <p>Guarantee: when thrown by a charge, the caller has not been given permission to release
 * anything. The charge either did not commit, or (if the store failed while acknowledging the
 * commit) it committed and is counted against the budget although nothing is released: recorded
 * spend is never less than released spend. The message names the store problem, never data.
 */
public final class LedgerUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** SQLState reported to clients: a general error, nothing released. */
  public static final String SQL_STATE = "HY000";

  /**
   * @param message what failed
   * @param cause the store's exception
   */
  public LedgerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** {@link #SQL_STATE}. */
  public String sqlState() {
    return SQL_STATE;
  }
}
