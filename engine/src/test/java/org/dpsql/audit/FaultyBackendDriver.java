package org.dpsql.audit;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * A test-only JDBC driver that stands between dpsql and its H2 backend and applies one {@link
 * BackendFault} to every SQL statement dpsql sends: {@code jdbc:dpsql:dpsql-audit-fault:FAULT:h2:...}
 * opens a dpsql connection whose backend is {@code jdbc:h2:...} seen through the fault. Everything
 * else (metadata, results, parameters) passes through unchanged.
 *
 * <p>With {@code FAULT@trino} the backend also presents itself as Trino ({@code
 * DatabaseMetaData.getDatabaseProductName()}), so that dpsql writes every statement in its Trino
 * dialect and H2 runs it; {@code HONEST@trino} does that without a fault (see {@link
 * BackendFault#asTrino()}).
 *
 * <p>This is how the audit builds broken variants of dpsql without a switch in production code:
 * the driver exists only on the test class path, and a production connection cannot name it.
 * {@link #rewrites(BackendFault)} counts the statements a fault actually changed, so an audit can
 * check that a broken variant really ran broken (a fault that matches nothing would make the
 * broken variant honest and the audit's failure meaningless).
 */
public final class FaultyBackendDriver implements Driver {
  /** The backend URL prefix, after {@code jdbc:dpsql:}. */
  static final String PREFIX = "jdbc:dpsql-audit-fault:";

  private static final Map<BackendFault, AtomicLong> REWRITES = new EnumMap<>(BackendFault.class);
  private static final Set<String> REWRITTEN_METHODS =
      Set.of("prepareStatement", "prepareCall", "nativeSQL", "execute", "executeQuery",
          "executeUpdate", "executeLargeUpdate", "addBatch");

  static {
    for (BackendFault f : BackendFault.values()) {
      REWRITES.put(f, new AtomicLong());
    }
    try {
      DriverManager.registerDriver(new FaultyBackendDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private FaultyBackendDriver() {}

  /** The dpsql URL of {@code h2Url} ({@code jdbc:h2:...}) seen through {@code fault}. */
  static String dpsqlUrl(String h2Url, BackendFault fault) {
    return dpsqlUrl(h2Url, fault, false);
  }

  /**
   * The dpsql URL of {@code h2Url} seen through {@code fault} (none if null), presented as Trino
   * if {@code asTrino}.
   */
  static String dpsqlUrl(String h2Url, BackendFault fault, boolean asTrino) {
    return "jdbc:dpsql:" + PREFIX.substring("jdbc:".length())
        + (fault == null ? "HONEST" : fault.name()) + (asTrino ? "@trino" : "") + ":"
        + h2Url.substring("jdbc:".length());
  }

  /** How many statements {@code fault} has changed so far in this JVM. */
  static long rewrites(BackendFault fault) {
    return REWRITES.get(fault).get();
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    String rest = url.substring(PREFIX.length());
    int colon = rest.indexOf(':');
    String name = rest.substring(0, colon);
    boolean asTrino = name.endsWith("@trino");
    name = asTrino ? name.substring(0, name.length() - "@trino".length()) : name;
    BackendFault fault = name.equals("HONEST") ? null : BackendFault.valueOf(name);
    Connection real = DriverManager.getConnection("jdbc:" + rest.substring(colon + 1), info);
    Connection wrapped = wrap(Connection.class, real, fault, null);
    return asTrino ? asTrino(wrapped) : wrapped;
  }

  /** {@code c} whose metadata names the product Trino (and nothing else changed). */
  private static Connection asTrino(Connection c) {
    Object[] self = new Object[1];
    InvocationHandler h = (proxy, method, args) -> {
      Object result = invoke(method, c, args);
      if (method.getName().equals("getMetaData")) {
        java.sql.DatabaseMetaData md = (java.sql.DatabaseMetaData) result;
        return Proxy.newProxyInstance(FaultyBackendDriver.class.getClassLoader(),
            new Class<?>[] {java.sql.DatabaseMetaData.class}, (p, m, a) -> switch (m.getName()) {
              case "getDatabaseProductName" -> "Trino";
              case "getConnection" -> self[0];
              default -> invoke(m, md, a);
            });
      }
      return result;
    };
    Connection proxy = (Connection) Proxy.newProxyInstance(
        FaultyBackendDriver.class.getClassLoader(), new Class<?>[] {Connection.class}, h);
    self[0] = proxy;
    return proxy;
  }

  /** A proxy of {@code target} that rewrites SQL arguments and wraps the statements it creates. */
  private static <T> T wrap(Class<T> type, Object target, BackendFault fault, Connection owner) {
    Object[] self = new Object[1];
    InvocationHandler h = (proxy, method, args) -> {
      Object[] a = args;
      if (fault != null && a != null && a.length > 0 && a[0] instanceof String sql
          && REWRITTEN_METHODS.contains(method.getName())) {
        String changed = fault.rewrite(sql);
        if (!changed.equals(sql)) {
          REWRITES.get(fault).incrementAndGet();
        }
        a = a.clone();
        a[0] = changed;
      }
      if (method.getName().equals("getConnection") && owner != null) {
        return owner;
      }
      Object result = invoke(method, target, a);
      if (result instanceof Statement s && !(result instanceof java.sql.PreparedStatement)) {
        return wrap(Statement.class, s, fault, (Connection) self[0]);
      }
      return result;
    };
    T proxy = type.cast(Proxy.newProxyInstance(FaultyBackendDriver.class.getClassLoader(),
        new Class<?>[] {type}, h));
    self[0] = proxy;
    return proxy;
  }

  private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public boolean acceptsURL(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 0;
  }

  @Override
  public int getMinorVersion() {
    return 1;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }
}
