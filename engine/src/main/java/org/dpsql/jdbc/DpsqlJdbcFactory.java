package org.dpsql.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
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
    return new AvaticaStatement(connection, h, resultSetType, resultSetConcurrency,
        resultSetHoldability) { };
  }

  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType,
      int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    return new AvaticaPreparedStatement(connection, h, signature, resultSetType,
        resultSetConcurrency, resultSetHoldability) { };
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

  static final class DpsqlDatabaseMetaData extends AvaticaDatabaseMetaData {
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

    @Override
    public boolean isReadOnly() {
      return true;
    }
  }
}
