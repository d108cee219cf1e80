package org.dpsql.ledger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpsql.session.ReleaseStore;

/**
 * What one analyst has been released, kept in the ledger database ({@code DPSQL_RELEASE}, one row
 * per answer or synopsis), so that a server answers the analyst's repeated and covered queries for
 * free after a restart and on every connection.
 *
 * <p>Guarantees: {@link #save} returns after its row is committed (on H2 with {@code WRITE_DELAY
 * 0}, in the file); {@link #load} returns the analyst's rows of one policy fingerprint in the order
 * they were saved; rows of other analysts are never read. Saves of one analyst are serialised by
 * one lock and never block other analysts; several processes sharing the database number their
 * rows without collision (a clash on the primary key is retried).
 */
public final class AnalystReleases implements ReleaseStore {
  private final LedgerStore store;
  private final String analyst;
  private final Clock clock;
  private Connection connection;
  private boolean closed;
  /** The number of the next row, or 0 when it must be read from the store. */
  private long next;

  AnalystReleases(LedgerStore store, String analyst, Clock clock) {
    this.store = store;
    this.analyst = analyst;
    this.clock = clock;
  }

  /** The analyst whose releases these are. */
  public String analyst() {
    return analyst;
  }

  @Override
  public synchronized List<Entry> load(String policyFingerprint) throws SQLException {
    Objects.requireNonNull(policyFingerprint, "policyFingerprint");
    List<Entry> out = new ArrayList<>();
    try (PreparedStatement ps = connection().prepareStatement("SELECT KIND, RELEASE_KEY, PAYLOAD "
        + "FROM DPSQL_RELEASE WHERE ANALYST = ? AND POLICY_FINGERPRINT = ? ORDER BY RELEASE_NO")) {
      ps.setString(1, analyst);
      ps.setString(2, policyFingerprint);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Entry(rs.getString(1), rs.getString(2), rs.getBytes(3)));
        }
      }
    } catch (SQLException e) {
      discard();
      throw e;
    }
    return out;
  }

  @Override
  public synchronized void save(String policyFingerprint, Entry entry) throws SQLException {
    Objects.requireNonNull(policyFingerprint, "policyFingerprint");
    Objects.requireNonNull(entry, "entry");
    for (int attempt = 1; ; attempt++) {
      try {
        Connection c = connection();
        if (next == 0) {
          try (PreparedStatement ps = c.prepareStatement(
              "SELECT MAX(RELEASE_NO) FROM DPSQL_RELEASE WHERE ANALYST = ?")) {
            ps.setString(1, analyst);
            try (ResultSet rs = ps.executeQuery()) {
              next = (rs.next() ? rs.getLong(1) : 0) + 1;
            }
          }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO DPSQL_RELEASE (ANALYST, "
            + "RELEASE_NO, POLICY_FINGERPRINT, KIND, RELEASE_KEY, RELEASED_AT, PAYLOAD) "
            + "VALUES (?, ?, ?, ?, ?, ?, ?)")) {
          ps.setString(1, analyst);
          ps.setLong(2, next);
          ps.setString(3, policyFingerprint);
          ps.setString(4, entry.kind());
          ps.setString(5, entry.key().length() > 4000 ? entry.key().substring(0, 4000)
              : entry.key());
          ps.setString(6, clock.instant().toString());
          ps.setBytes(7, entry.payload());
          store.executeWrite(ps);
        }
        next++;
        return;
      } catch (SQLException e) {
        discard();
        next = 0;
        if (attempt >= 3) {
          throw e;
        }
        // another process may have taken the number: the maximum is read again
      }
    }
  }

  /** Closes the connection; a later use reopens it unless the store is closed. */
  synchronized void close() {
    closed = true;
    discard();
  }

  private Connection connection() throws SQLException {
    if (closed) {
      throw new IllegalStateException("the ledger store is closed");
    }
    if (connection == null) {
      connection = store.connect(true);
    }
    return connection;
  }

  private void discard() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // already broken
      }
      connection = null;
    }
  }
}
