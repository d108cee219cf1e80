package org.dpsql.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaSqlException;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * Creates the JDBC objects of a dpsql connection. They are Avatica's standard implementations; the
 * only change is that a statement refused at prepare time keeps dpsql's message and SQLState.
 */
public class DpsqlJdbcFactory implements AvaticaFactory {
  @Override
  public int getJdbcMajorVersion() {
    return 4;
  }

  @Override
  public int getJdbcMinorVersion() {
    return 1;
  }

  @Override
  public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory,
      String url, Properties info) {
    return new DpsqlConnection(driver, factory, url, info);
  }

  @Override
  public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new DpsqlDatabaseMetaData(connection);
  }

  @Override
  public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h,
      int resultSetType, int resultSetConcurrency, int resultSetHoldability) {
    return new DpsqlStatement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new DpsqlPreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability);
  }

  @Override
  public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    ResultSetMetaData md = newResultSetMetaData(statement, signature);
    return new AvaticaResultSet(statement, state, signature, md, timeZone, firstFrame);
  }

  @Override
  public AvaticaResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  /** A connection whose prepare errors carry dpsql's message, not only Avatica's wrapper text. */
  static final class DpsqlConnection extends AvaticaConnection {
    DpsqlConnection(UnregisteredDriver driver, AvaticaFactory factory, String url, Properties info) {
      super(driver, factory, url, info);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType,
        int resultSetConcurrency, int resultSetHoldability) throws SQLException {
      checkOpen();
      try {
        Meta.StatementHandle h = meta.prepare(handle, sql, -1);
        return factory.newPreparedStatement(this, h, h.signature, resultSetType,
            resultSetConcurrency, resultSetHoldability);
      } catch (AvaticaClientRuntimeException e) {
        throw new SQLException(e.getMessage(), e.getSqlState(), e.getErrorCode(), e.getCause());
      }
    }

    /** The dpsql session behind this connection (for tools and tests). */
    DpsqlMeta dpsqlMeta() {
      return (DpsqlMeta) meta;
    }
  }

  /**
   * Avatica reports a failed statement as "Error 0 (XDP02) : Error while executing SQL "...": ...";
   * this gives the application dpsql's own message and SQLState instead.
   */
  static SQLException clean(SQLException e, String sql) {
    if (!(e instanceof AvaticaSqlException a)) {
      return e;
    }
    String message = a.getErrorMessage();
    String prefix = "Error while executing SQL \"" + sql + "\": ";
    if (message != null && message.startsWith(prefix)) {
      message = message.substring(prefix.length());
    }
    return new SQLException(message, a.getSQLState(), a.getErrorCode(), a);
  }

  /** A JDBC call that may fail. */
  private interface SqlCall<T> {
    T run() throws SQLException;
  }

  /** Runs a statement call, reporting a failure with dpsql's own message and SQLState. */
  private static <T> T cleaned(SqlCall<T> call, String sql) throws SQLException {
    try {
      return call.run();
    } catch (SQLException e) {
      throw clean(e, sql);
    }
  }

  /** A statement whose errors carry dpsql's message and SQLState. */
  static final class DpsqlStatement extends AvaticaStatement {
    DpsqlStatement(AvaticaConnection connection, Meta.StatementHandle h, int type,
        int concurrency, int holdability) {
      super(connection, h, type, concurrency, holdability);
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
      return cleaned(() -> super.executeQuery(sql), sql);
    }

    @Override
    public boolean execute(String sql) throws SQLException {
      return cleaned(() -> super.execute(sql), sql);
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
      return cleaned(() -> super.executeLargeUpdate(sql), sql);
    }
  }

  /** A prepared statement whose errors carry dpsql's message and SQLState. */
  static final class DpsqlPreparedStatement extends AvaticaPreparedStatement {
    DpsqlPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
        Meta.Signature signature, int type, int concurrency, int holdability) throws SQLException {
      super(connection, h, signature, type, concurrency, holdability);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
      return cleaned(super::executeQuery, getSignature().sql);
    }

    @Override
    public boolean execute() throws SQLException {
      return cleaned(super::execute, getSignature().sql);
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
      return cleaned(super::executeLargeUpdate, getSignature().sql);
    }
  }

  /** The embedded connection's metadata: dpsql's product name and version, read-only results. */
  static final class DpsqlDatabaseMetaData extends ReadOnlyDatabaseMetaData {
    DpsqlDatabaseMetaData(AvaticaConnection connection) {
      super(connection);
    }

    @Override
    public String getDatabaseProductName() {
      return "dpsql";
    }

    @Override
    public String getDatabaseProductVersion() {
      return DpsqlDriver.VERSION;
    }
  }
}
