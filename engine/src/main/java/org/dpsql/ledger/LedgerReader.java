package org.dpsql.ledger;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;

/**
 * A read-only view of a {@link LedgerStore} for the data owner, used while the server runs: every
 * analyst's balance, counts of paid and free answers, ledger entries and releases.
 *
 * <p>Guarantees: it never writes; it has its own database connection and its own lock, and takes
 * neither an analyst's charging lock nor the store's own connection, so reading never makes a
 * charge wait for it in this process. Each method reads in one {@code REPEATABLE READ}
 * transaction (a snapshot on H2's MVStore and on PostgreSQL, where readers take no row locks), so
 * the balance, the counts and the entries it returns belong to one committed state of the store:
 * the spent budget it reports is the exact sum of the entries it counts.
 */
public final class LedgerReader implements AutoCloseable {
  /** Longest statement text read per entry (the page shows less). */
  public static final int MAX_STATEMENT_CHARS = 2_000;

  private final LedgerStore store;
  /** Guarded by {@code this}; null before first use or after a failure. */
  private Connection connection;
  private boolean closed;

  LedgerReader(LedgerStore store) {
    this.store = store;
  }

  /**
   * What the store holds for one analyst, without the entries.
   *
   * @param analyst the analyst
   * @param accounting the accounting the balance is kept under
   * @param spent the spent budget of the balance row (exact)
   * @param paid the number of charged measurements
   * @param free the number of free answers (derived from earlier releases)
   * @param lastActivity the time of the latest ledger entry, or null if none
   */
  public record Summary(String analyst, Accounting accounting, PrivacyCost spent, long paid,
      long free, Instant lastActivity) {
    /** Checks for nulls. */
    public Summary {
      Objects.requireNonNull(analyst, "analyst");
      Objects.requireNonNull(accounting, "accounting");
      Objects.requireNonNull(spent, "spent");
    }
  }

  /**
   * One release the analyst holds (the stored payload is not read).
   *
   * @param number the release number, in the order they were made
   * @param policyFingerprint the fingerprint of the policy it was released under
   * @param kind {@code answer}, {@code synopsis} or {@code spatial}
   * @param key the statement or synopsis it answers (at most 4000 characters)
   * @param releasedAt when it was stored
   */
  public record Release(long number, String policyFingerprint, String kind, String key,
      Instant releasedAt) {}

  /**
   * One analyst's history, read in one snapshot.
   *
   * @param summary the balance and counts
   * @param spentBefore the exact spent budget before the first entry of {@code entries}
   * @param entries the latest entries, oldest first (statements cut at {@value
   *     #MAX_STATEMENT_CHARS} characters)
   * @param omitted how many older entries were left out
   * @param releases the analyst's latest releases, oldest first
   */
  public record History(Summary summary, PrivacyCost spentBefore, List<LedgerEntry> entries,
      long omitted, List<Release> releases) {
    /** Copies the lists. */
    public History {
      Objects.requireNonNull(summary, "summary");
      Objects.requireNonNull(spentBefore, "spentBefore");
      entries = List.copyOf(entries);
      releases = List.copyOf(releases);
    }
  }

  /**
   * Every analyst with a balance in the store, sorted by name.
   *
   * @throws SQLException the store's error
   */
  public synchronized List<Summary> summaries() throws SQLException {
    return inSnapshot(c -> {
      Map<String, long[]> counts = new LinkedHashMap<>();
      Map<String, String> last = new LinkedHashMap<>();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ANALYST, SOURCE, COUNT(*), MAX(CHARGED_AT) "
              + "FROM DPSQL_LEDGER GROUP BY ANALYST, SOURCE")) {
        while (rs.next()) {
          long[] n = counts.computeIfAbsent(rs.getString(1), a -> new long[2]);
          n[LedgerEntry.SYNOPSIS.equals(rs.getString(2)) ? 1 : 0] += rs.getLong(3);
          // ISO-8601 instants of one format order as text
          last.merge(rs.getString(1), rs.getString(4), (x, y) -> x.compareTo(y) >= 0 ? x : y);
        }
      }
      List<Summary> out = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ANALYST, ACCOUNTING, SPENT_EPSILON, SPENT_DELTA, "
              + "SPENT_RHO FROM DPSQL_BALANCE ORDER BY ANALYST")) {
        while (rs.next()) {
          String analyst = rs.getString(1);
          long[] n = counts.getOrDefault(analyst, new long[2]);
          String when = last.get(analyst);
          out.add(new Summary(analyst, Accounting.parse(rs.getString(2)), cost(rs, 3), n[0], n[1],
              when == null ? null : Instant.parse(when)));
        }
      }
      return out;
    });
  }

  /**
   * One analyst's balance, latest entries and latest releases.
   *
   * @param analyst the analyst
   * @param maxEntries the most entries (and releases) returned, the latest ones
   * @return the history, or null if the store has no balance for the analyst
   * @throws SQLException the store's error
   */
  public synchronized History history(String analyst, int maxEntries) throws SQLException {
    Objects.requireNonNull(analyst, "analyst");
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be >= 1");
    }
    return inSnapshot(c -> {
      Accounting accounting;
      PrivacyCost spent;
      long lastSequence;
      try (PreparedStatement ps = c.prepareStatement("SELECT ACCOUNTING, SPENT_EPSILON, "
          + "SPENT_DELTA, SPENT_RHO, LAST_SEQUENCE FROM DPSQL_BALANCE WHERE ANALYST = ?")) {
        ps.setString(1, analyst);
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return null;
          }
          accounting = Accounting.parse(rs.getString(1));
          spent = cost(rs, 2);
          lastSequence = rs.getLong(5);
        }
      }
      long paid = 0;
      long free = 0;
      try (PreparedStatement ps = c.prepareStatement("SELECT SOURCE, COUNT(*) FROM DPSQL_LEDGER "
          + "WHERE ANALYST = ? GROUP BY SOURCE")) {
        ps.setString(1, analyst);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (LedgerEntry.SYNOPSIS.equals(rs.getString(1))) {
              free += rs.getLong(2);
            } else {
              paid += rs.getLong(2);
            }
          }
        }
      }
      List<LedgerEntry> entries = new ArrayList<>();
      PrivacyCost window = PrivacyCost.ZERO;
      try (PreparedStatement ps = c.prepareStatement("SELECT SEQUENCE_NO, CHARGED_AT, "
          + "SUBSTRING(STATEMENT_TEXT FROM 1 FOR " + MAX_STATEMENT_CHARS + "), MECHANISM, "
          + "EPSILON, DELTA, RHO, SOURCE, EXPECTED_RMSE FROM DPSQL_LEDGER "
          + "WHERE ANALYST = ? AND SEQUENCE_NO > ? ORDER BY SEQUENCE_NO")) {
        ps.setString(1, analyst);
        ps.setLong(2, lastSequence - maxEntries);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            double rmse = rs.getDouble(9);
            Double expected = rs.wasNull() ? null : rmse;
            PrivacyCost cost = cost(rs, 5);
            window = window.plus(cost);
            entries.add(new LedgerEntry(rs.getLong(1), Instant.parse(rs.getString(2)),
                rs.getString(3), rs.getString(4), cost, rs.getString(8), expected));
          }
        }
      }
      long omitted = Math.max(0, paid + free - entries.size());
      Instant last = entries.isEmpty() ? null : entries.get(entries.size() - 1).time();
      Summary summary = new Summary(analyst, accounting, spent, paid, free, last);
      List<Release> releases = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT RELEASE_NO, POLICY_FINGERPRINT, "
          + "KIND, RELEASE_KEY, RELEASED_AT FROM DPSQL_RELEASE WHERE ANALYST = ? "
          + "ORDER BY RELEASE_NO DESC")) {
        ps.setString(1, analyst);
        ps.setMaxRows(maxEntries);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            releases.add(0, new Release(rs.getLong(1), rs.getString(2), rs.getString(3),
                rs.getString(4), Instant.parse(rs.getString(5))));
          }
        }
      }
      return new History(summary, nonNegative(spent, window), entries, omitted, releases);
    });
  }

  /** A read of the store inside one snapshot transaction. */
  @FunctionalInterface
  interface SnapshotRead<T> {
    T read(Connection c) throws SQLException;
  }

  /** Runs {@code read} in the reader's snapshot transaction (tests run charges inside it). */
  synchronized <T> T read(SnapshotRead<T> read) throws SQLException {
    return inSnapshot(read);
  }

  /** Runs {@code read} in one REPEATABLE READ transaction; only under {@code this}. */
  private <T> T inSnapshot(SnapshotRead<T> read) throws SQLException {
    if (closed) {
      throw new IllegalStateException("the ledger reader is closed");
    }
    Connection c = connection;
    if (c == null) {
      c = store.connect(false);
      try {
        c.setReadOnly(true);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      } catch (SQLException e) {
        c.close();
        throw e;
      }
      connection = c;
    }
    try {
      T result = read.read(c);
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      discard();
      throw e;
    }
  }

  /** {@code spent − window}, component-wise, never below zero (it is exact in a snapshot). */
  private static PrivacyCost nonNegative(PrivacyCost spent, PrivacyCost window) {
    return Costs.headroom(spent, window);
  }

  private static PrivacyCost cost(ResultSet rs, int first) throws SQLException {
    return new PrivacyCost(new BigDecimal(rs.getString(first)),
        new BigDecimal(rs.getString(first + 1)), new BigDecimal(rs.getString(first + 2)));
  }

  private void discard() {
    Connection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.rollback();
      } catch (SQLException ignored) {
        // closing anyway
      }
      try {
        c.close();
      } catch (SQLException ignored) {
        // nothing more to do
      }
    }
  }

  /** Closes the reader's connection. */
  @Override
  public synchronized void close() {
    closed = true;
    discard();
  }
}
