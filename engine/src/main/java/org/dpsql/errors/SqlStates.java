package org.dpsql.errors;

import java.sql.SQLException;

/**
 * The SQLStates of the public contract (§6) and factories for exceptions that carry them.
 *
 * <p>Every refusal dpsql makes is a {@link SQLException} whose SQLState is one of these and whose
 * message tells the user what to change. Messages never contain values read from private rows.
 */
public final class SqlStates {
  /** Budget exhausted: the query would exceed the remaining budget; nothing was charged. */
  public static final String BUDGET_EXHAUSTED = "XDP01";
  /** Not allowed: raw rows of a private table, a column outside the policy, a write. */
  public static final String NOT_ALLOWED = "XDP02";
  /** Not supported: an aggregate or query shape dpsql cannot answer privately. */
  public static final String NOT_SUPPORTED = "XDP03";
  /** Policy error: malformed file, unknown table/column, contradiction with the schema. */
  public static final String POLICY_ERROR = "XDP04";
  /** Bad privacy parameter: non-positive epsilon, delta outside (0,1), unknown mechanism. */
  public static final String BAD_PRIVACY_PARAMETER = "XDP05";

  private SqlStates() {}

  public static SQLException budgetExhausted(String message) {
    return new SQLException(message, BUDGET_EXHAUSTED);
  }

  public static SQLException notAllowed(String message) {
    return new SQLException(message, NOT_ALLOWED);
  }

  public static SQLException notSupported(String message) {
    return new SQLException(message, NOT_SUPPORTED);
  }

  public static SQLException policyError(String message) {
    return new SQLException(message, POLICY_ERROR);
  }

  public static SQLException policyError(String message, Throwable cause) {
    return new SQLException(message, POLICY_ERROR, cause);
  }

  public static SQLException badPrivacyParameter(String message) {
    return new SQLException(message, BAD_PRIVACY_PARAMETER);
  }

  /**
   * A backend failure while measuring private data, reported without the backend's message (it
   * may quote row values): its SQLState ({@code HY000} if none), what failed, and that nothing was
   * charged. An unset parameter ({@code 07001}) says nothing about the data and is returned as is.
   *
   * @param failure what could not be done, e.g. "could not evaluate this private query"
   * @param advice a sentence telling the user what to check, ending in ". ", or ""
   */
  public static SQLException backendFailureWithheld(String failure, SQLException cause,
      String advice) {
    if ("07001".equals(cause.getSQLState())) {
      return cause;
    }
    if ("57014".equals(cause.getSQLState())) { // cancelled (Statement.cancel): nothing private
      return new SQLException("the statement was cancelled before its answer was released. "
          + "Nothing was charged.", "57014", cause);
    }
    if (outOfResources(cause)) {
      // what ran out is no private value: say so, with the backend's code, and keep class 53
      return new SQLException("the backend " + failure + ": it ran out of resources (backend "
          + "SQLState " + cause.getSQLState() + ", code " + cause.getErrorCode() + "; its message is "
          + "withheld). Give the backend more resources (Trino: query.max-memory-per-node, "
          + "query.max-execution-time), or group by fewer cells or filter to fewer rows. Nothing "
          + "was charged.",
          cause.getSQLState() != null && cause.getSQLState().startsWith("53")
              ? cause.getSQLState() : "53000", cause);
    }
    return new SQLException("the backend " + failure + " (backend SQLState " + cause.getSQLState()
        + "); its message is withheld because it may quote private values. " + advice
        + "Nothing was charged.", cause.getSQLState() == null ? "HY000" : cause.getSQLState());
  }

  /**
   * A backend failure on a statement dpsql passed through to a public table (or ran on its system
   * tables). A standard SQLState (class {@code 0}–{@code 4} or {@code A}–{@code H}: e.g. {@code
   * 42xxx} syntax, {@code 22xxx} data, {@code 07001} unset parameter, {@code HYT00} timeout) is
   * kept; a backend's own code (e.g. H2's {@code 90022}, unknown function) becomes {@code 42000},
   * the backend refused the statement, with the backend's code in the message. The message is the
   * backend's: it concerns public data only.
   */
  public static SQLException publicStatementFailure(SQLException cause) {
    String state = cause.getSQLState();
    if (state != null && state.length() == 5 && standardClass(state.charAt(0))) {
      return cause;
    }
    return new SQLException("the backend refused this statement: " + cause.getMessage()
        + " (backend SQLState " + state + ", code " + cause.getErrorCode() + ")", "42000", cause);
  }

  /**
   * Whether a backend failure is a lack of resources: SQLState class {@code 53} (insufficient
   * resources: PostgreSQL's out of memory or disk), or a Trino error of type {@code
   * INSUFFICIENT_RESOURCES} (codes {@code 0x20000} to {@code 0x2FFFF}, e.g. {@code
   * EXCEEDED_LOCAL_MEMORY_LIMIT}, 131079), which Trino's driver reports without an SQLState.
   */
  static boolean outOfResources(SQLException e) {
    String state = e.getSQLState();
    if (state != null && state.startsWith("53")) {
      return true;
    }
    return state == null && e.getErrorCode() >= 0x20000 && e.getErrorCode() < 0x30000
        && e.getMessage() != null && e.getMessage().startsWith("Query failed (#");
  }

  /** Whether an SQLState class starting with {@code c} is defined by the SQL standard. */
  private static boolean standardClass(char c) {
    return (c >= '0' && c <= '4') || (c >= 'A' && c <= 'H');
  }
}
