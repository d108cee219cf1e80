package org.dpsql.session;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.Objects;

/**
 * The data owner's statement timeout ({@code limits: {statement_timeout_s: N}}) on a backend
 * connection.
 *
 * <p>Guarantees: every {@link Statement}, {@link java.sql.PreparedStatement} and {@link
 * java.sql.CallableStatement} created through {@link #wrap}'s connection has {@link
 * Statement#setQueryTimeout} set to the limit before the caller sees it, so every backend statement
 * dpsql runs on the connection is cancelled by the driver after that many seconds; {@link
 * #translate} turns the driver's cancellation (a {@link SQLTimeoutException}, or SQLState {@code
 * HYT00}/{@code 57014}) into a {@code HYT00} error that names the limit and quotes nothing from the
 * backend.
 */
final class StatementTimeout {
  /** SQLState of a statement cancelled for running too long. */
  static final String TIMEOUT = "HYT00";
  /** SQLState of a cancelled statement (H2, PostgreSQL, DB2). */
  private static final String CANCELLED = "57014";

  private StatementTimeout() {}

  /** {@code backend}, with every statement it creates limited to {@code seconds}. */
  static Connection wrap(Connection backend, int seconds) {
    Objects.requireNonNull(backend, "backend");
    if (seconds <= 0) {
      throw new IllegalArgumentException("a statement timeout is a positive number of seconds, "
          + "got " + seconds);
    }
    InvocationHandler handler = (proxy, method, args) -> {
      Object result;
      try {
        result = method.invoke(backend, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      if (result instanceof Statement s && creates(method)) {
        try {
          s.setQueryTimeout(seconds);
        } catch (SQLException | RuntimeException e) {
          s.close();
          throw e;
        }
      }
      return result;
    };
    return (Connection) Proxy.newProxyInstance(StatementTimeout.class.getClassLoader(),
        new Class<?>[] {Connection.class}, handler);
  }

  private static boolean creates(Method m) {
    String n = m.getName();
    return n.equals("createStatement") || n.equals("prepareStatement")
        || n.equals("prepareCall");
  }

  /** Whether {@code e} reports a statement the driver cancelled (for its timeout). */
  static boolean isTimeout(SQLException e) {
    return e instanceof SQLTimeoutException || TIMEOUT.equals(e.getSQLState())
        || CANCELLED.equals(e.getSQLState());
  }

  /**
   * The error to report for {@code e}: if it is a cancellation and the policy sets a timeout, a
   * {@code HYT00} {@link SQLTimeoutException} naming the limit (the backend's message is withheld:
   * it may quote private values); otherwise {@code e} itself.
   */
  static SQLException translate(SQLException e, Integer seconds) {
    if (seconds == null || !isTimeout(e)) {
      return e;
    }
    return new SQLTimeoutException("the statement ran longer than the data owner's limit of "
        + seconds + " s (policy limits.statement_timeout_s) and was cancelled; nothing was "
        + "charged. Ask for fewer or coarser cells, or run it when the backend is less busy",
        TIMEOUT);
  }
}
