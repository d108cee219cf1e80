package org.dpsql.ledger;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;

/**
 * One analyst's durable budget in a {@link LedgerStore}: the total the owner granted and the
 * spending recorded in the store. All connections of the analyst in one process charge through this
 * object.
 *
 * <p>Guarantees: {@link #charge} holds the analyst's (fair) lock, reads the stored balance, checks
 * {@code spent + cost ≤ total} and {@code cost ≤ headroom} exactly, and commits the new balance (by
 * compare-and-set on the last sequence number) together with the ledger row before it returns; a
 * refused or failed charge commits nothing. Hence the stored spend never exceeds the total, even
 * with other processes writing the same store, and a charge that returned is on disk (as durable as
 * the store's commit). Each analyst has its own lock and store connection, so analysts never wait
 * for each other. {@link #changeTotal} changes the total (a server re-reading its users file) under
 * the same lock, and only to a total that still covers the stored spending, so the guarantee holds
 * across the change: a charge checks against the total in force when it takes the lock.
 */
public final class AnalystAccount {
  /** Attempts of a charge whose compare-and-set lost to another writer or hit a lock timeout. */
  private static final int MAX_ATTEMPTS = 50;
  private static final int MAX_STATEMENT_LENGTH = 1_000_000;

  private final LedgerStore store;
  private final String analyst;
  private final Accounting accounting;
  /** Written only under {@link #lock}; read by {@link #total()} without it. */
  private volatile PrivacyCost total;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock(true);

  /** Guarded by {@link #lock}; null when closed or after a failure (reopened on next use). */
  private Connection connection;
  private boolean closed;

  AnalystAccount(LedgerStore store, String analyst, Accounting accounting, PrivacyCost total,
      Clock clock) {
    this.store = store;
    this.analyst = analyst;
    this.accounting = accounting;
    this.total = total;
    this.clock = clock;
  }

  /** The analyst's name. */
  public String analyst() {
    return analyst;
  }

  /** How the analyst's costs compose. */
  public Accounting accounting() {
    return accounting;
  }

  /** The analyst's total budget over all connections and all time. */
  public PrivacyCost total() {
    return total;
  }

  /**
   * Changes the analyst's total budget (the owner raised or lowered it) if the new total still
   * covers what the store records as spent, in every component.
   *
   * @param newTotal the new total; only components of {@link #accounting()}
   * @return true if changed; false (nothing changed) if the stored spending exceeds it in some
   *     component
   * @throws IllegalArgumentException if the total has a component the accounting does not use
   * @throws LedgerUnavailableException if the store cannot be read (nothing changed)
   */
  public boolean changeTotal(PrivacyCost newTotal) {
    Objects.requireNonNull(newTotal, "newTotal");
    Costs.requireOnlyUsedComponents(accounting, newTotal, "total budget of analyst '" + analyst
        + "'");
    lock.lock();
    try {
      if (!Costs.fits(spent(), newTotal)) {
        return false;
      }
      total = newTotal;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The spending recorded in the store now (all connections, all processes, all time).
   *
   * @throws LedgerUnavailableException if the store cannot be read
   */
  public PrivacyCost spent() {
    lock.lock();
    try {
      Connection c = connection();
      try {
        Balance b = readBalance(c);
        c.commit();
        return b.spent;
      } catch (SQLException e) {
        discard();
        throw new LedgerUnavailableException("cannot read the budget of analyst '" + analyst
            + "' from the ledger: " + e.getMessage(), e);
      }
    } catch (SQLException e) {
      throw new LedgerUnavailableException("cannot reach the ledger: " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Records a charge durably if it fits both the analyst's remaining budget and {@code headroom}.
   *
   * @param connectionId the charging connection, for the ledger
   * @param cost the cost; only components of {@link #accounting()}
   * @param headroom what the charging connection may still spend (its per-connection cap)
   * @param statement the statement charged
   * @param mechanism the mechanism spending
   * @param expectedRmse the expected RMSE per released value, or null
   * @return the committed ledger entry
   * @throws BudgetExceededException (XDP01) if the cost does not fit, or has more than 1000
   *     decimal places or digits before the point (it cannot be recorded exactly); nothing was
   *     recorded
   * @throws LedgerUnavailableException if the store failed; nothing may be released
   */
  public LedgerEntry charge(String connectionId, PrivacyCost cost, PrivacyCost headroom,
      String statement, String mechanism, Double expectedRmse) throws BudgetExceededException {
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(headroom, "headroom");
    Costs.requireOnlyUsedComponents(accounting, cost, "cost");
    if (!Costs.recordable(cost)) {
      // refused before any exact arithmetic, which would need ~10^|exponent| digits
      throw new BudgetExceededException(accounting, cost, PrivacyCost.ZERO);
    }
    return append(connectionId, cost, headroom, statement, mechanism, LedgerEntry.MEASURED,
        expectedRmse);
  }

  /**
   * Records durably, at no cost, an answer derived from already released values.
   *
   * @throws LedgerUnavailableException if the store failed
   */
  public LedgerEntry recordFree(String connectionId, String statement, String mechanism,
      Double expectedRmse) {
    try {
      return append(connectionId, PrivacyCost.ZERO, PrivacyCost.ZERO, statement, mechanism,
          LedgerEntry.SYNOPSIS, expectedRmse);
    } catch (BudgetExceededException e) {
      throw new AssertionError("a zero cost always fits", e);
    }
  }

  private LedgerEntry append(String connectionId, PrivacyCost cost, PrivacyCost headroom,
      String statement, String mechanism, String source, Double expectedRmse)
      throws BudgetExceededException {
    Objects.requireNonNull(connectionId, "connectionId");
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(mechanism, "mechanism");
    String text = statement.length() > MAX_STATEMENT_LENGTH
        ? statement.substring(0, MAX_STATEMENT_LENGTH) : statement;
    lock.lock();
    try {
      SQLException last = null;
      for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        Connection c;
        try {
          c = connection();
        } catch (SQLException e) {
          last = e;
          pause(attempt);
          continue;
        }
        Balance b;
        try {
          b = readBalance(c);
        } catch (SQLException e) {
          discard();
          last = e;
          pause(attempt);
          continue;
        }
        if (!Costs.fitsAfter(b.spent, cost, total) || !Costs.fits(cost, headroom)) {
          rollbackQuietly(c);
          throw new BudgetExceededException(accounting, cost,
              Costs.min(Costs.headroom(total, b.spent), headroom));
        }
        long sequence = b.lastSequence + 1;
        Instant now = clock.instant();
        PrivacyCost spent = b.spent.plus(cost);
        boolean recorded;
        SQLException failure = null;
        store.beginWrite();
        try {
          // false: another writer committed since we read; read again
          recorded = compareAndSet(c, b.lastSequence, sequence, spent);
          if (recorded) {
            insertEntry(c, sequence, connectionId, now, text, mechanism, cost, source,
                expectedRmse);
            c.commit();
          } else {
            rollbackQuietly(c);
          }
        } catch (SQLException e) {
          recorded = false;
          failure = e;
          rollbackQuietly(c);
        } finally {
          store.endWrite();
        }
        if (recorded) {
          return new LedgerEntry(sequence, now, text, mechanism, cost, source, expectedRmse);
        }
        if (failure != null) {
          discard();
          if (!retryable(failure)) {
            throw new LedgerUnavailableException("cannot record the charge of analyst '"
                + analyst + "' in the ledger; nothing is released: " + failure.getMessage(),
                failure);
          }
          last = failure;
        }
        pause(attempt);
      }
      throw new LedgerUnavailableException("cannot record the charge of analyst '" + analyst
          + "' in the ledger after " + MAX_ATTEMPTS + " attempts; nothing is released"
          + (last == null ? "" : ": " + last.getMessage()), last);
    } finally {
      lock.unlock();
    }
  }

  /**
   * The analyst's ledger, in sequence order: every charge and free answer of every connection.
   *
   * @throws LedgerUnavailableException if the store cannot be read
   */
  public List<LedgerEntry> ledger() {
    lock.lock();
    try {
      Connection c = connection();
      try (PreparedStatement ps = c.prepareStatement("SELECT SEQUENCE_NO, CHARGED_AT, "
          + "STATEMENT_TEXT, MECHANISM, EPSILON, DELTA, RHO, SOURCE, EXPECTED_RMSE "
          + "FROM DPSQL_LEDGER WHERE ANALYST = ? ORDER BY SEQUENCE_NO")) {
        ps.setString(1, analyst);
        List<LedgerEntry> entries = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            double rmse = rs.getDouble(9);
            Double expected = rs.wasNull() ? null : rmse;
            entries.add(new LedgerEntry(rs.getLong(1), Instant.parse(rs.getString(2)),
                rs.getString(3), rs.getString(4), new PrivacyCost(new BigDecimal(rs.getString(5)),
                    new BigDecimal(rs.getString(6)), new BigDecimal(rs.getString(7))),
                rs.getString(8), expected));
          }
        }
        c.commit();
        return List.copyOf(entries);
      } catch (SQLException e) {
        discard();
        throw new LedgerUnavailableException("cannot read the ledger of analyst '" + analyst
            + "': " + e.getMessage(), e);
      }
    } catch (SQLException e) {
      throw new LedgerUnavailableException("cannot reach the ledger: " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  /** Closes the account's store connection; a later use reopens it unless the store is closed. */
  void close() {
    lock.lock();
    try {
      closed = true;
      discard();
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------------------------------------

  private record Balance(PrivacyCost spent, long lastSequence) {}

  /** The account's connection, opened on demand; only under {@link #lock}. */
  private Connection connection() throws SQLException {
    if (closed) {
      throw new IllegalStateException("the ledger store is closed");
    }
    if (connection == null) {
      connection = store.connect(false);
    }
    return connection;
  }

  private Balance readBalance(Connection c) throws SQLException {
    BalanceRow row = BalanceRow.read(c, analyst);
    if (row == null) {
      throw new SQLException("the ledger has no balance row for analyst '" + analyst + "'");
    }
    if (!accounting.policyName().equals(row.accounting())) {
      throw new SQLException("the ledger of analyst '" + analyst + "' is kept under "
          + row.accounting() + " accounting, not " + accounting.policyName());
    }
    return new Balance(row.spent(), row.lastSequence());
  }

  private boolean compareAndSet(Connection c, long expectedSequence, long sequence,
      PrivacyCost spent) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE DPSQL_BALANCE SET SPENT_EPSILON = ?, "
        + "SPENT_DELTA = ?, SPENT_RHO = ?, LAST_SEQUENCE = ? "
        + "WHERE ANALYST = ? AND LAST_SEQUENCE = ?")) {
      ps.setString(1, spent.epsilon().toString());
      ps.setString(2, spent.delta().toString());
      ps.setString(3, spent.rho().toString());
      ps.setLong(4, sequence);
      ps.setString(5, analyst);
      ps.setLong(6, expectedSequence);
      return ps.executeUpdate() == 1;
    }
  }

  private void insertEntry(Connection c, long sequence, String connectionId, Instant time,
      String statement, String mechanism, PrivacyCost cost, String source, Double expectedRmse)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO DPSQL_LEDGER (ANALYST, SEQUENCE_NO, "
        + "CONNECTION_ID, CHARGED_AT, STATEMENT_TEXT, MECHANISM, EPSILON, DELTA, RHO, SOURCE, "
        + "EXPECTED_RMSE) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      ps.setString(1, analyst);
      ps.setLong(2, sequence);
      ps.setString(3, connectionId.length() > 100 ? connectionId.substring(0, 100) : connectionId);
      ps.setString(4, time.toString());
      ps.setString(5, statement);
      ps.setString(6, mechanism.length() > 200 ? mechanism.substring(0, 200) : mechanism);
      ps.setString(7, cost.epsilon().toString());
      ps.setString(8, cost.delta().toString());
      ps.setString(9, cost.rho().toString());
      ps.setString(10, source);
      if (expectedRmse == null || expectedRmse.isNaN() || expectedRmse.isInfinite()) {
        ps.setNull(11, Types.DOUBLE);
      } else {
        ps.setDouble(11, expectedRmse);
      }
      ps.executeUpdate();
    }
  }

  /**
   * Whether a failed transaction may simply be tried again: serialisation failures and deadlocks
   * (class 40), lock timeouts, H2's concurrent-update and duplicate-key errors (another writer took
   * the sequence number first), and a lost connection (class 08).
   */
  private static boolean retryable(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("40") || state.startsWith("08")
        || state.equals("HYT00") || state.equals("90131") || state.equals("23505"));
  }

  private static void rollbackQuietly(Connection c) {
    try {
      c.rollback();
    } catch (SQLException ignored) {
      // the connection is discarded on the next failure
    }
  }

  /** Drops the connection after a failure (rolling back what it can); the next use reopens. */
  private void discard() {
    Connection c = connection;
    connection = null;
    rollbackAndClose(c);
  }

  /** Rolls back and closes {@code c} (if not null), ignoring failures: it is being dropped. */
  static void rollbackAndClose(Connection c) {
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

  private static void pause(int attempt) {
    if (attempt <= 1) {
      return;
    }
    try {
      // short randomised back-off so competing writers stop colliding (not a privacy use)
      Thread.sleep(ThreadLocalRandom.current().nextInt(1, 2 + Math.min(attempt, 20)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LedgerUnavailableException("interrupted while retrying a ledger write", e);
    }
  }

  @Override
  public String toString() {
    return "AnalystAccount[" + analyst + ", " + accounting.policyName() + ", total " + total + "]";
  }
}
