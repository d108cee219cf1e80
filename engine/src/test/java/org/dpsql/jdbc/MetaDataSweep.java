package org.dpsql.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Calls every method of {@link DatabaseMetaData} with ordinary arguments, as SchemaCrawler or a BI
 * tool's driver page does, and reads every row and column of every result set returned. A method
 * passes when it returns, or throws {@link SQLFeatureNotSupportedException} (JDBC's "not
 * supported"); any other exception, a runtime one above all, is a failure.
 */
public final class MetaDataSweep {
  /** What one sweep found. */
  public record Result(int methodsCalled, List<String> failures, List<String> notSupported) {}

  private MetaDataSweep() {}

  public static Result sweep(Connection connection) throws Exception {
    DatabaseMetaData md = connection.getMetaData();
    List<String> failures = new ArrayList<>();
    List<String> notSupported = new ArrayList<>();
    Method[] methods = DatabaseMetaData.class.getMethods();
    Arrays.sort(methods, Comparator.comparing(Method::toString));
    int called = 0;
    for (Method m : methods) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      called++;
      Object[] args = arguments(m);
      try {
        Object value = m.invoke(md, args);
        if (value instanceof ResultSet rs) {
          try (rs) {
            int columns = rs.getMetaData().getColumnCount();
            if (columns == 0) {
              failures.add(m.getName() + ": a result set without columns");
            }
            while (rs.next()) {
              for (int i = 1; i <= columns; i++) {
                rs.getObject(i);
              }
            }
          }
        }
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof SQLFeatureNotSupportedException) {
          notSupported.add(m.getName());
        } else {
          failures.add(m.getName() + Arrays.toString(args) + ": " + cause);
        }
      } catch (Exception e) {
        failures.add(m.getName() + Arrays.toString(args) + ": " + e);
      }
    }
    return new Result(called, failures, notSupported);
  }

  /** Ordinary arguments: no catalog, the pattern "%", forward-only read-only result sets. */
  private static Object[] arguments(Method m) {
    Class<?>[] types = m.getParameterTypes();
    Object[] args = new Object[types.length];
    int ints = 0;
    for (int i = 0; i < types.length; i++) {
      Class<?> t = types[i];
      if (t == String.class) {
        args[i] = i == 0 ? null : "%";
      } else if (t == int.class) {
        args[i] = intArgument(m.getName(), ints++);
      } else if (t == boolean.class) {
        args[i] = false;
      } else if (t == Class.class) {
        args[i] = DatabaseMetaData.class;
      } else {
        args[i] = null; // String[] table types, int[] UDT types: all
      }
    }
    return args;
  }

  private static int intArgument(String method, int index) {
    if (method.contains("Holdability")) {
      return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }
    if (method.contains("Isolation")) {
      return Connection.TRANSACTION_READ_COMMITTED;
    }
    if (method.equals("supportsConvert")) {
      return index == 0 ? Types.INTEGER : Types.VARCHAR;
    }
    if (method.equals("getBestRowIdentifier")) {
      return DatabaseMetaData.bestRowSession;
    }
    if (method.equals("supportsResultSetConcurrency") && index == 1) {
      return ResultSet.CONCUR_READ_ONLY;
    }
    return ResultSet.TYPE_FORWARD_ONLY;
  }
}
