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
 * the spent budget it reports is the exact sum of the entries it counts. A reader is meant to be
 * polled: it remembers the free answers it has counted, so a summary costs the new entries only.
 */
public final class LedgerReader implements AutoCloseable {
  /** Longest statement text read per entry. */
  public static final int MAX_STATEMENT_CHARS = 1_000;

  private final LedgerStore store;
  /** Guarded by {@code this}; null before first use or after a failure. */
  private Connection connection;
  private boolean closed;
  /** Per analyst: the last sequence number counted and the free answers up to it. */
  private final Map<String, long[]> freeCounts = new java.util.HashMap<>();

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
   * One point of an analyst's spending series.
   *
   * @param sequence the entry's sequence number
   * @param time when it was recorded
   * @param cost what it cost (zero for a free answer)
   * @param paid whether it was a charged measurement (not a free answer from a synopsis)
   */
  public record Charge(long sequence, Instant time, PrivacyCost cost, boolean paid) {}

  /**
   * One analyst's history, read in one snapshot.
   *
   * @param summary the balance and counts
   * @param spentBefore the exact spent budget before the first of {@code charges}
   * @param charges the latest entries as a spending series, oldest first
   * @param entries the latest entries in full, oldest first (statements cut at {@value
   *     #MAX_STATEMENT_CHARS} characters)
   * @param releases the analyst's latest releases, oldest first
   */
  public record History(Summary summary, PrivacyCost spentBefore, List<Charge> charges,
      List<LedgerEntry> entries, List<Release> releases) {
    /** Copies the lists. */
    public History {
      Objects.requireNonNull(summary, "summary");
      Objects.requireNonNull(spentBefore, "spentBefore");
      charges = List.copyOf(charges);
      entries = List.copyOf(entries);
      releases = List.copyOf(releases);
    }

    /** How many older entries the spending series leaves out. */
    public long omitted() {
      return summary.paid() + summary.free() - charges.size();
    }
  }

  /**
   * Every analyst with a balance in the store, sorted by name.
   *
   * <p>The ledger is append-only with contiguous sequence numbers (every committed state has
   * {@code entries == LAST_SEQUENCE}), so the free answers counted at an earlier call are kept and
   * only the entries added since are counted: a call reads the balance rows and the new entries,
   * not the whole ledger.
   *
   * @throws SQLException the store's error
   */
  public synchronized List<Summary> summaries() throws SQLException {
    return inSnapshot(c -> {
      List<Summary> out = new ArrayList<>();
      Map<String, long[]> seen = new LinkedHashMap<>();
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT b.ANALYST, b.ACCOUNTING, b.SPENT_EPSILON, "
              + "b.SPENT_DELTA, b.SPENT_RHO, b.LAST_SEQUENCE, l.CHARGED_AT FROM DPSQL_BALANCE b "
              + "LEFT JOIN DPSQL_LEDGER l ON l.ANALYST = b.ANALYST "
              + "AND l.SEQUENCE_NO = b.LAST_SEQUENCE ORDER BY b.ANALYST")) {
        while (rs.next()) {
          String analyst = rs.getString(1);
          long last = rs.getLong(6);
          long free = freeUpTo(c, analyst, last);
          seen.put(analyst, new long[] {last, free});
          String when = rs.getString(7);
          out.add(new Summary(analyst, Accounting.parse(rs.getString(2)), cost(rs, 3), last - free,
              free, when == null ? null : Instant.parse(when)));
        }
      }
      freeCounts.keySet().retainAll(seen.keySet());
      return out;
    });
  }

  /** The analyst's free answers among sequence numbers 1..last, counting only new ones. */
  private long freeUpTo(Connection c, String analyst, long last) throws SQLException {
    long[] known = freeCounts.get(analyst);
    if (known == null || known[0] > last) {
      known = new long[] {0, 0}; // first look, or the ledger was replaced: count from the start
    }
    if (known[0] < last) {
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM DPSQL_LEDGER "
          + "WHERE ANALYST = ? AND SEQUENCE_NO > ? AND SEQUENCE_NO <= ? AND SOURCE = ?")) {
        ps.setString(1, analyst);
        ps.setLong(2, known[0]);
        ps.setLong(3, last);
        ps.setString(4, LedgerEntry.SYNOPSIS);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          known = new long[] {last, known[1] + rs.getLong(1)};
        }
      }
    }
    freeCounts.put(analyst, known);
    return known[1];
  }

  /**
   * One analyst's balance, spending series, latest entries and latest releases.
   *
   * @param analyst the analyst
   * @param maxCharges the most entries of the spending series, the latest ones
   * @param maxEntries the most entries returned in full (with statements), the latest ones
   * @param maxReleases the most releases returned, the latest ones
   * @return the history, or null if the store has no balance for the analyst
   * @throws SQLException the store's error
   */
  public synchronized History history(String analyst, int maxCharges, int maxEntries,
      int maxReleases) throws SQLException {
    Objects.requireNonNull(analyst, "analyst");
    if (maxCharges < 1 || maxEntries < 1 || maxReleases < 1) {
      throw new IllegalArgumentException("maxCharges, maxEntries and maxReleases must be >= 1");
    }
    return inSnapshot(c -> {
      BalanceRow row = BalanceRow.read(c, analyst);
      if (row == null) {
        return null;
      }
      Accounting accounting = Accounting.parse(row.accounting());
      PrivacyCost spent = row.spent();
      long lastSequence = row.lastSequence();
      long free = freeUpTo(c, analyst, lastSequence);
      List<Charge> charges = new ArrayList<>();
      PrivacyCost window = PrivacyCost.ZERO;
      try (PreparedStatement ps = c.prepareStatement("SELECT SEQUENCE_NO, CHARGED_AT, EPSILON, "
          + "DELTA, RHO, SOURCE FROM DPSQL_LEDGER WHERE ANALYST = ? AND SEQUENCE_NO > ? "
          + "ORDER BY SEQUENCE_NO")) {
        ps.setString(1, analyst);
        ps.setLong(2, lastSequence - maxCharges);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            PrivacyCost cost = cost(rs, 3);
            window = window.plus(cost);
            charges.add(new Charge(rs.getLong(1), Instant.parse(rs.getString(2)), cost,
                !LedgerEntry.SYNOPSIS.equals(rs.getString(6))));
          }
        }
      }
      List<LedgerEntry> entries = new ArrayList<>();
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
            entries.add(new LedgerEntry(rs.getLong(1), Instant.parse(rs.getString(2)),
                rs.getString(3), rs.getString(4), cost(rs, 5), rs.getString(8), expected));
          }
        }
      }
      Instant last = charges.isEmpty() ? null : charges.get(charges.size() - 1).time();
      Summary summary = new Summary(analyst, accounting, spent, lastSequence - free, free, last);
      List<Release> releases = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT RELEASE_NO, POLICY_FINGERPRINT, "
          + "KIND, RELEASE_KEY, RELEASED_AT FROM DPSQL_RELEASE WHERE ANALYST = ? "
          + "ORDER BY RELEASE_NO DESC")) {
        ps.setString(1, analyst);
        ps.setMaxRows(maxReleases);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            releases.add(0, new Release(rs.getLong(1), rs.getString(2), rs.getString(3),
                rs.getString(4), Instant.parse(rs.getString(5))));
          }
        }
      }
      return new History(summary, Costs.headroom(spent, window), charges, entries, releases);
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

  private static PrivacyCost cost(ResultSet rs, int first) throws SQLException {
    return new PrivacyCost(new BigDecimal(rs.getString(first)),
        new BigDecimal(rs.getString(first + 1)), new BigDecimal(rs.getString(first + 2)));
  }

  private void discard() {
    Connection c = connection;
    connection = null;
    AnalystAccount.rollbackAndClose(c);
  }

  /** Closes the reader's connection. */
  @Override
  public synchronized void close() {
    closed = true;
    discard();
  }
}
