package org.dpsql.jdbc;

import java.sql.Connection;
import org.dpsql.session.DpsqlSession;

/**
 * Test-only access to the {@link DpsqlSession} behind a dpsql {@link Connection} opened through
 * {@link java.sql.DriverManager}, for test code outside this package (the privacy audit reads the
 * charge the ledger recorded). Not part of the driver: it exists only on the test class path.
 */
public final class SessionAccess {
  private SessionAccess() {}

  /** The session of {@code c}, which must be a connection of the registered dpsql driver. */
  public static DpsqlSession session(Connection c) {
    return ((DpsqlJdbcFactory.DpsqlConnection) c).dpsqlMeta().session();
  }
}
