package org.dpsql.jdbc;

import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaConnection;
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
 * The JDBC objects of a thin-client connection to a dpsql server: Avatica's standard ones, except
 * that its {@code DatabaseMetaData} is {@link ReadOnlyDatabaseMetaData}, which answers every method.
 * The catalog comes from the server, as with Avatica's own factory; the product is dpsql.
 */
public final class ThinClientFactory implements AvaticaFactory {
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
    return new AvaticaConnection(driver, factory, url, info) { };
  }

  @Override
  public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new ReadOnlyDatabaseMetaData(connection);
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
    return new AvaticaResultSet(statement, state, signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame);
  }

  @Override
  public AvaticaResultSetMetaData newResultSetMetaData(AvaticaStatement statement,
      Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  /** Avatica's thin-client driver, building its JDBC objects with {@link ThinClientFactory}. */
  static final class Driver extends org.apache.calcite.avatica.remote.Driver {
    @Override
    protected String getFactoryClassName(JdbcVersion jdbcVersion) {
      return ThinClientFactory.class.getName();
    }

    /** The database is dpsql (the server runs the same release as this client). */
    @Override
    protected org.apache.calcite.avatica.DriverVersion createDriverVersion() {
      return new org.apache.calcite.avatica.DriverVersion("dpsql thin client", DpsqlDriver.VERSION,
          "dpsql", DpsqlDriver.VERSION, true, 0, 1, 0, 1);
    }
  }
}
