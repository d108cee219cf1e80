package org.dpsql.server;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;
import org.dpsql.ledger.LedgerUnavailableException;

/**
 * Turns whatever a remote call threw into the error the client sees.
 *
 * <p>Guarantees: the response never carries a stack trace or an exception class name. A dpsql
 * refusal keeps its contract SQLState (XDP01..XDP05, 42xxx) and its message (dpsql messages never
 * quote private values); a missing or foreign connection is {@code 08003} and a missing or foreign
 * statement {@code 26000}, with the same words whether it never existed or belongs to someone
 * else; a ledger failure is {@code HY000} saying nothing was released; anything else is an internal
 * error {@code HY000} whose details go only to the server's log, under a reference number the
 * message quotes.
 */
final class ClientErrors {
  /** SQLState of a connection the caller does not have. */
  static final String NO_CONNECTION = "08003";
  /** SQLState of a statement the caller does not have. */
  static final String NO_STATEMENT = "26000";
  /** SQLState of an internal error. */
  static final String INTERNAL = "HY000";
  /** SQLState of a request that is not a valid Avatica protobuf message. */
  static final String PROTOCOL = "08P01";

  private static final String AVATICA_PREFIX = "Error while executing SQL \"";
  private static final AtomicLong REFERENCES = new AtomicLong();

  private ClientErrors() {}

  static ErrorResponse response(String message, String sqlState) {
    return response(message, 0, sqlState);
  }

  private static ErrorResponse response(String message, int code, String sqlState) {
    return new ErrorResponse(List.of(), message, code, sqlState, AvaticaSeverity.ERROR, null);
  }

  /** The client's view of {@code failure}; internal errors are logged to standard error. */
  static ErrorResponse of(Throwable failure) {
    if (failure instanceof AvaticaRuntimeException a) {
      return response(a.getErrorMessage(), a.getErrorCode(), a.getSqlState());
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof NoSuchConnectionException) {
        return response("connection not found: it was closed, expired, or is not yours; open a "
            + "new connection", ErrorResponse.MISSING_CONNECTION_ERROR_CODE, NO_CONNECTION);
      }
      if (t instanceof NoSuchStatementException) {
        return response("statement not found: it was closed, expired, or is not yours",
            NO_STATEMENT);
      }
      if (t instanceof SQLException s && s.getSQLState() != null) {
        return response(clean(s.getMessage()), s.getErrorCode(), s.getSQLState());
      }
      if (t instanceof LedgerUnavailableException l) {
        long ref = log(failure);
        return response("the privacy ledger is unavailable, so nothing was released (reference "
            + ref + " in the server log)", l.sqlState());
      }
      if (t.getCause() == t) {
        break;
      }
    }
    long ref = log(failure);
    return response("internal server error (reference " + ref + " in the server log); nothing "
        + "was charged unless an answer was returned", INTERNAL);
  }

  /** The client's error when the audit log cannot be written: the answer is withheld. */
  static ErrorResponse auditUnavailable(Throwable failure) {
    long ref = log(failure);
    return response("the audit log cannot be written, so the answer is withheld (reference " + ref
        + " in the server log)", INTERNAL);
  }

  /** Strips Avatica's "Error while executing SQL "...": " wrapper from a message. */
  static String clean(String message) {
    if (message == null) {
      return "";
    }
    if (message.startsWith(AVATICA_PREFIX)) {
      int end = message.indexOf("\": ", AVATICA_PREFIX.length());
      if (end >= 0) {
        return message.substring(end + 3);
      }
    }
    return message;
  }

  private static long log(Throwable failure) {
    long ref = REFERENCES.incrementAndGet();
    synchronized (System.err) {
      System.err.println("dpsql-server: error reference " + ref + ":");
      failure.printStackTrace(System.err);
    }
    return ref;
  }
}
