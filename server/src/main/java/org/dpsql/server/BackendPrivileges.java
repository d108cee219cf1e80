package org.dpsql.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Refuses a backend user with administrator rights.
 *
 * <p>dpsql passes statements on public tables through to the backend. With an administrator
 * account, backend functions such as H2's {@code FILE_READ} and {@code CSVWRITE} (or PostgreSQL's
 * {@code pg_read_file}) would let an analyst read files on the database host or copy private rows
 * into a file and read them back through a public-table query. The server therefore runs only with
 * an unprivileged, read-only backend user.
 *
 * <p>Guarantee: {@link #check} throws if the connection's user is an H2 administrator or a
 * PostgreSQL superuser; for other databases it checks nothing (the owner must grant only SELECT).
 */
final class BackendPrivileges {
  private BackendPrivileges() {}

  /**
   * @throws IllegalArgumentException naming the user and what to do, if the user is privileged
   * @throws SQLException if the privileges cannot be read
   */
  static void check(Connection backend) throws SQLException {
    String product = backend.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT);
    String query;
    if (product.equals("h2")) {
      query = "SELECT IS_ADMIN FROM INFORMATION_SCHEMA.USERS WHERE USER_NAME = CURRENT_USER";
    } else if (product.contains("postgresql")) {
      query = "SELECT rolsuper FROM pg_roles WHERE rolname = current_user";
    } else {
      return;
    }
    boolean privileged;
    try (PreparedStatement ps = backend.prepareStatement(query); ResultSet rs = ps.executeQuery()) {
      privileged = rs.next() && rs.getBoolean(1);
    }
    if (privileged) {
      throw new IllegalArgumentException("the backend user '" + backend.getMetaData().getUserName()
          + "' has administrator rights, which would let analysts read and write files on the "
          + "database host through public-table queries; give --backend-user an account that may "
          + "only SELECT the policy's tables (H2: CREATE USER READER PASSWORD '...'; GRANT SELECT "
          + "ON TRIPS, COUNTIES TO READER)");
    }
  }
}
