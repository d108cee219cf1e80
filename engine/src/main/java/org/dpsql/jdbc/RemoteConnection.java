package org.dpsql.jdbc;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Set;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;

/**
 * The dpsql remote driver's view of a thin-client connection to a dpsql server: Avatica's own
 * connection behind a proxy that keeps JDBC's error contract.
 *
 * <p>Guarantees, for the connection and for every statement, result set and metadata object
 * reached from it: a call either returns or throws a {@link SQLException}. Avatica's thin client
 * lets some server refusals escape as unchecked exceptions ({@code createStatement} on a
 * connection the server no longer has throws an {@code AvaticaClientRuntimeException}); those
 * become {@code SQLException}s with the server's SQLState ({@code 08003} for a connection that was
 * closed, expired or evicted, {@code 26000} for a statement), a failed exchange with the server
 * becomes {@code 08006}, an operation Avatica does not implement {@code 0A000}. {@code close()} of a
 * connection or statement the server no longer has is a no-op, as JDBC asks of closing what is
 * already closed. Nothing else changes: values, types and SQLStates of answered calls are
 * Avatica's.
 */
final class RemoteConnection {
  /** SQLState of a connection the server no longer has. */
  static final String NO_CONNECTION = "08003";
  /** SQLState of a statement the server no longer has. */
  static final String NO_STATEMENT = "26000";
  /** SQLState of a failed exchange with the server. */
  static final String LINK_FAILURE = "08006";

  /** The interfaces whose objects, returned by a wrapped call, are wrapped in turn. */
  private static final Set<Class<?>> WRAPPED = Set.of(Connection.class, Statement.class,
      PreparedStatement.class, CallableStatement.class, ResultSet.class, DatabaseMetaData.class);

  private RemoteConnection() {}

  /** The thin-client connection {@code avatica} with JDBC's error contract. */
  static Connection wrap(Connection avatica) {
    return (Connection) proxy(Connection.class, avatica, null, null);
  }

  /**
   * Runs {@code open} (the thin client's connect) and reports its unchecked failures as
   * {@code SQLException}s: {@code 08001} when the server cannot be reached.
   */
  static Connection open(Opener open) throws SQLException {
    try {
      return wrap(open.open());
    } catch (RuntimeException e) {
      SQLException s = translate(e);
      if (LINK_FAILURE.equals(s.getSQLState())) {
        throw new SQLException("cannot connect to the dpsql server: " + s.getMessage()
            + "; check the URL's host and port and that the server runs", "08001", e);
      }
      throw s;
    }
  }

  /** The thin client's connect. */
  @FunctionalInterface
  interface Opener {
    Connection open() throws SQLException;
  }

  private static Object proxy(Class<?> type, Object target, Object connection, Object parent) {
    Handler handler = new Handler(target, connection, parent);
    Object proxy = Proxy.newProxyInstance(RemoteConnection.class.getClassLoader(),
        new Class<?>[] {type}, handler);
    handler.self = proxy;
    if (connection == null) {
      handler.connection = proxy;
    }
    return proxy;
  }

  /** Forwards calls to one thin-client object. */
  private static final class Handler implements InvocationHandler {
    private final Object target;
    /** The connection proxy this object was reached from (itself for the connection). */
    private Object connection;
    /** The proxy that created this one (a result set's statement), or null. */
    private final Object parent;
    private Object self;

    Handler(Object target, Object connection, Object parent) {
      this.target = target;
      this.connection = connection;
      this.parent = parent;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      String name = method.getName();
      int arity = args == null ? 0 : args.length;
      switch (name) {
        case "equals":
          if (arity == 1 && method.getDeclaringClass() == Object.class) {
            return proxy == args[0];
          }
          break;
        case "hashCode":
          if (arity == 0) {
            return System.identityHashCode(proxy);
          }
          break;
        case "toString":
          if (arity == 0) {
            return target.toString();
          }
          break;
        case "unwrap":
          if (arity == 1 && ((Class<?>) args[0]).isInstance(proxy)) {
            return proxy;
          }
          break;
        case "isWrapperFor":
          if (arity == 1 && ((Class<?>) args[0]).isInstance(proxy)) {
            return true;
          }
          break;
        case "getConnection":
          if (arity == 0 && !(target instanceof Connection)) {
            return connection;
          }
          break;
        case "getStatement":
          if (arity == 0 && target instanceof ResultSet && parent instanceof Statement) {
            return parent;
          }
          break;
        default:
          break;
      }
      Object result;
      try {
        result = method.invoke(target, args);
      } catch (InvocationTargetException e) {
        Throwable failure = e.getCause();
        if (name.equals("close") && arity == 0 && isGone(failure)) {
          return null; // the server has already forgotten it: closing it again changes nothing
        }
        if (failure instanceof RuntimeException r
            && Arrays.asList(method.getExceptionTypes()).contains(SQLException.class)) {
          throw translate(r);
        }
        if (failure instanceof SQLException s && s.getSQLState() == null) {
          throw withCauseState(s);
        }
        throw failure;
      }
      Class<?> returned = method.getReturnType();
      if (result != null && WRAPPED.contains(returned) && !(result instanceof Proxy)) {
        return proxy(returned, result, connection, self);
      }
      return result;
    }
  }

  /** Whether {@code failure} says the server no longer has the connection or statement. */
  private static boolean isGone(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      String state = stateOf(t);
      if (state != null) {
        return NO_CONNECTION.equals(state) || NO_STATEMENT.equals(state);
      }
    }
    return false;
  }

  /**
   * {@code s} with the SQLState of the failure it wraps (Avatica wraps some server refusals in a
   * {@code SQLException} without a state), or {@code s} itself when no cause has one.
   */
  private static SQLException withCauseState(SQLException s) {
    for (Throwable t = s.getCause(); t != null && t.getCause() != t; t = t.getCause()) {
      String state = stateOf(t);
      if (state != null) {
        String message = s.getMessage() != null ? s.getMessage()
            : state.equals(NO_STATEMENT) ? "statement not found: it was closed or expired, or its "
                + "connection was; open a new connection" : t.toString();
        return new SQLException(message, state, s.getErrorCode(), s);
      }
    }
    return s;
  }

  /** The SQLState {@code t} carries or stands for, or null. */
  private static String stateOf(Throwable t) {
    if (t instanceof SQLException s) {
      return s.getSQLState();
    }
    if (t instanceof AvaticaClientRuntimeException a) {
      return a.getSqlState();
    }
    if (t instanceof NoSuchStatementException) { // the client's own finding: the server said so
      return NO_STATEMENT;
    }
    if (t instanceof NoSuchConnectionException) {
      return NO_CONNECTION;
    }
    return null;
  }

  /** The {@code SQLException} a JDBC caller expects for an unchecked failure of the thin client. */
  static SQLException translate(RuntimeException e) {
    if (e instanceof AvaticaClientRuntimeException a) {
      return new SQLException(a.getMessage(), a.getSqlState(), a.getErrorCode(), a);
    }
    if (e instanceof UnsupportedOperationException) {
      return new SQLFeatureNotSupportedException(
          e.getMessage() == null ? "not supported by the thin client" : e.getMessage(), "0A000", e);
    }
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof IOException) {
        return new SQLException("the exchange with the dpsql server failed: " + t.getMessage(),
            LINK_FAILURE, e);
      }
    }
    return new SQLException(e.toString(), "HY000", e);
  }
}
