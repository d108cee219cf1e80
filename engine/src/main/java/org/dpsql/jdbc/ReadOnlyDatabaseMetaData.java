package org.dpsql.jdbc;

import java.sql.ResultSet;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;

/**
 * Avatica's {@code DatabaseMetaData}, completed with truthful answers for the methods Avatica
 * leaves unimplemented (they throw a {@code RuntimeException} there), for embedded and thin-client
 * connections alike.
 *
 * <p>Guarantees: a dpsql connection is read-only and its result sets are forward-only, read-only,
 * and sent whole, so no update, delete or insert is ever visible or detected, and the only
 * holdability supported is the one {@link #getResultSetHoldability()} reports. Every method of
 * {@code DatabaseMetaData} returns or throws a {@code SQLException}; none throws a runtime exception
 * (DatabaseMetaDataSweepTest calls them all).
 */
class ReadOnlyDatabaseMetaData extends AvaticaDatabaseMetaData {
  ReadOnlyDatabaseMetaData(AvaticaConnection connection) {
    super(connection);
  }

  @Override
  public boolean isReadOnly() {
    return true;
  }

  @Override
  public boolean ownUpdatesAreVisible(int type) {
    return false; // nothing can be updated
  }

  @Override
  public boolean ownDeletesAreVisible(int type) {
    return false;
  }

  @Override
  public boolean ownInsertsAreVisible(int type) {
    return false;
  }

  @Override
  public boolean othersUpdatesAreVisible(int type) {
    return false; // a result is computed whole before the first row is read
  }

  @Override
  public boolean othersDeletesAreVisible(int type) {
    return false;
  }

  @Override
  public boolean othersInsertsAreVisible(int type) {
    return false;
  }

  @Override
  public boolean updatesAreDetected(int type) {
    return false;
  }

  @Override
  public boolean deletesAreDetected(int type) {
    return false;
  }

  @Override
  public boolean insertsAreDetected(int type) {
    return false;
  }

  @Override
  public boolean supportsResultSetHoldability(int holdability) {
    return holdability == getResultSetHoldability();
  }

  @Override
  public int getResultSetHoldability() {
    // results are sent whole in their first frame, and a read-only connection commits nothing:
    // a cursor outlives any commit
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }
}
