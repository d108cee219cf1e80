package org.dpsql.backend;

import java.sql.Connection;
import java.sql.SQLException;
import org.h2.engine.Session;
import org.h2.jdbc.JdbcConnection;

/**
 * H2's thread-local session held on the scanning thread for the length of one lazy scan.
 *
 * <p>Why: in lazy execution H2 computes each row when {@code ResultSet.next()} asks for it, and
 * around that computation it installs the connection's session as the thread's current session
 * and then restores the previous one. With no session installed before, "restore" removes the
 * thread-local entry and the next row inserts it again: a {@code ThreadLocal} insertion (with its
 * stale-slot sweep) and removal per row, which measured as much as the scan itself. With the
 * session installed for the whole scan, each row only overwrites the entry with the same value.
 *
 * <p>Guarantee: no effect on what the scan returns (the installed session is the one H2 installs
 * for every row anyway, and only on this thread); {@link #close()} restores the thread's
 * previous session, so nothing outlives the scan. On a connection that is not H2's own (a pool's
 * wrapper that does not unwrap, a remote session) {@link #pin} does nothing.
 */
final class EmbeddedH2Session implements AutoCloseable {
  private final Session session;
  private final Session previous;

  private EmbeddedH2Session(Session session, Session previous) {
    this.session = session;
    this.previous = previous;
  }

  /** Installs {@code backend}'s H2 session on this thread, or returns null if it has none. */
  static EmbeddedH2Session pin(Connection backend) {
    try {
      if (!backend.isWrapperFor(JdbcConnection.class)) {
        return null;
      }
      Session session = backend.unwrap(JdbcConnection.class).getSession();
      return session == null ? null : new EmbeddedH2Session(session,
          session.setThreadLocalSession());
    } catch (SQLException | LinkageError e) {
      return null; // another H2 version or driver: the scan runs unpinned, only slower
    }
  }

  /** Restores the thread's previous session. */
  @Override
  public void close() {
    session.resetThreadLocalSession(previous);
  }
}
