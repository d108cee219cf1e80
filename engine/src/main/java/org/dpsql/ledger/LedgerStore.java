package org.dpsql.ledger;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;

/**
 * A durable record of what every analyst has spent and been released: three tables in a JDBC
 * database (an embedded H2 file by default, or any database the owner names by URL).
 *
 * <p>{@code DPSQL_BALANCE} holds one row per analyst (accounting, exact spent ε, δ and ρ as decimal
 * text, and the sequence number of the analyst's last ledger entry); {@code DPSQL_LEDGER} holds one
 * row per charge or free answer; {@code DPSQL_RELEASE} holds what each analyst was released
 * ({@link AnalystReleases}). A charge updates the balance row with a compare-and-set on the
 * last sequence number and inserts its ledger row in the same transaction.
 *
 * <p>On H2 the store sets {@code WRITE_DELAY 0}, so every commit is in the file before it returns
 * and a killed process loses no acknowledged charge (the operating system must still survive:
 * for power-loss durability use a database that syncs its log on commit, such as PostgreSQL with
 * its defaults). H2's file store writes one table's map at a time: a commit of one transaction
 * while another's commit is being written can leave the file, if the process dies at that moment,
 * with one transaction's ledger row but not its balance update (ServerCrashTest saw a balance of
 * ρ 0.031 beside ledger rows summing to 0.032, and an index entry without its row). On H2 the
 * store therefore writes one transaction at a time in this process ({@link #beginWrite}), whatever
 * store of the process writes; an embedded H2 file has no writer in another process.
 *
 * <p>Guarantees: the balance's spent equals the exact sum of the analyst's ledger rows (both change
 * in one transaction; {@link #audit} checks it); a charge that fits is committed before {@link
 * AnalystAccount#charge} returns; because the compare-and-set fails when any other writer changed
 * the balance since it was read, even several stores (processes) sharing one database never admit
 * charges that together exceed an analyst's total. Within one store, charges of one analyst are
 * serialised by one lock; other analysts' charges proceed concurrently, except on H2, where only
 * their writes and commits take turns.
 */
public final class LedgerStore implements AutoCloseable {
  private static final String CREATE_BALANCE = "CREATE TABLE IF NOT EXISTS DPSQL_BALANCE ("
      + "ANALYST VARCHAR(200) NOT NULL PRIMARY KEY, "
      + "ACCOUNTING VARCHAR(10) NOT NULL, "
      + "SPENT_EPSILON VARCHAR(4000) NOT NULL, "
      + "SPENT_DELTA VARCHAR(4000) NOT NULL, "
      + "SPENT_RHO VARCHAR(4000) NOT NULL, "
      + "LAST_SEQUENCE BIGINT NOT NULL)";
  private static final String CREATE_LEDGER = "CREATE TABLE IF NOT EXISTS DPSQL_LEDGER ("
      + "ANALYST VARCHAR(200) NOT NULL, "
      + "SEQUENCE_NO BIGINT NOT NULL, "
      + "CONNECTION_ID VARCHAR(100) NOT NULL, "
      + "CHARGED_AT VARCHAR(40) NOT NULL, "
      + "STATEMENT_TEXT VARCHAR(1000000) NOT NULL, "
      + "MECHANISM VARCHAR(200) NOT NULL, "
      + "EPSILON VARCHAR(4000) NOT NULL, "
      + "DELTA VARCHAR(4000) NOT NULL, "
      + "RHO VARCHAR(4000) NOT NULL, "
      + "SOURCE VARCHAR(20) NOT NULL, "
      + "EXPECTED_RMSE DOUBLE PRECISION, "
      + "PRIMARY KEY (ANALYST, SEQUENCE_NO))";
  /** {@code %s}: the binary type of the database (BYTEA, LONGBLOB or BLOB). */
  private static final String CREATE_RELEASE = "CREATE TABLE IF NOT EXISTS DPSQL_RELEASE ("
      + "ANALYST VARCHAR(200) NOT NULL, "
      + "RELEASE_NO BIGINT NOT NULL, "
      + "POLICY_FINGERPRINT VARCHAR(64) NOT NULL, "
      + "KIND VARCHAR(20) NOT NULL, "
      + "RELEASE_KEY VARCHAR(4000) NOT NULL, "
      + "RELEASED_AT VARCHAR(40) NOT NULL, "
      + "PAYLOAD %s NOT NULL, "
      + "PRIMARY KEY (ANALYST, RELEASE_NO))";

  /** Longest analyst name the store accepts. */
  public static final int MAX_ANALYST_LENGTH = 200;

  private final String url;
  private final Properties connectionProperties;
  private final Clock clock;
  private final Connection anchor;
  private final ConcurrentHashMap<String, AnalystAccount> accounts = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, AnalystReleases> releases = new ConcurrentHashMap<>();
  private final java.util.Set<LedgerReader> readers = ConcurrentHashMap.newKeySet();
  /**
   * Per embedded H2 database (its URL without settings), the lock held from the first write of a
   * transaction to its commit or rollback: shared by every store of this process on that database.
   */
  private static final ConcurrentHashMap<String, java.util.concurrent.locks.ReentrantLock>
      H2_WRITES = new ConcurrentHashMap<>();
  private final java.util.concurrent.locks.ReentrantLock writes;
  private final boolean serializeWrites;
  private volatile boolean closed;

  private LedgerStore(String url, Properties connectionProperties, Clock clock, Connection anchor,
      boolean serializeWrites) {
    this.url = url;
    this.connectionProperties = connectionProperties;
    this.clock = clock;
    this.anchor = anchor;
    this.serializeWrites = serializeWrites;
    int settings = url.indexOf(';');
    this.writes = H2_WRITES.computeIfAbsent(settings < 0 ? url : url.substring(0, settings),
        k -> new java.util.concurrent.locks.ReentrantLock());
  }

  /**
   * Starts a write transaction (or an auto-committed write) of this process: on H2, waits until no
   * other is between its first write and its commit, so that every commit's file write sees no
   * other transaction half-committed (see the class comment). Always paired with {@link #endWrite}
   * in a {@code finally}, after the commit or rollback.
   */
  void beginWrite() {
    if (serializeWrites) {
      writes.lock();
    }
  }

  /** Ends what {@link #beginWrite} started. */
  void endWrite() {
    if (serializeWrites) {
      writes.unlock();
    }
  }

  /** Runs one auto-committed write statement between {@link #beginWrite} and {@link #endWrite}. */
  int executeWrite(PreparedStatement ps) throws SQLException {
    beginWrite();
    try {
      return ps.executeUpdate();
    } finally {
      endWrite();
    }
  }

  /**
   * Opens (creating the tables if needed) the ledger at a JDBC URL.
   *
   * @param jdbcUrl the database, e.g. {@link #h2File(Path)} or {@code jdbc:postgresql://...}
   * @param connectionProperties user, password and other driver properties (copied)
   * @throws SQLException if the database cannot be opened or the tables cannot be created
   */
  public static LedgerStore open(String jdbcUrl, Properties connectionProperties)
      throws SQLException {
    return open(jdbcUrl, connectionProperties, Clock.systemUTC());
  }

  /** As {@link #open(String, Properties)}, with the clock that stamps ledger entries. */
  public static LedgerStore open(String jdbcUrl, Properties connectionProperties, Clock clock)
      throws SQLException {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(clock, "clock");
    Properties props = new Properties();
    if (connectionProperties != null) {
      props.putAll(connectionProperties);
    }
    Connection anchor = DriverManager.getConnection(jdbcUrl, props);
    boolean h2;
    try (Statement s = anchor.createStatement()) {
      anchor.setAutoCommit(true);
      h2 = "H2".equals(anchor.getMetaData().getDatabaseProductName());
      if (h2) {
        // H2 otherwise writes commits to the file up to 500 ms later: a killed process would lose
        // charges it had acknowledged (LedgerCrashTest shows it)
        s.execute("SET WRITE_DELAY 0");
      }
      s.execute(CREATE_BALANCE);
      s.execute(CREATE_LEDGER);
      String product = anchor.getMetaData().getDatabaseProductName();
      s.execute(String.format(CREATE_RELEASE, product.equals("PostgreSQL") ? "BYTEA"
          : product.equals("MySQL") || product.equals("MariaDB") ? "LONGBLOB" : "BLOB"));
    } catch (SQLException | RuntimeException e) {
      anchor.close();
      throw e;
    }
    return new LedgerStore(jdbcUrl, props, clock, anchor, h2);
  }

  /**
   * The JDBC URL of an embedded H2 ledger in {@code file} (H2 appends {@code .mv.db}). {@code
   * WRITE_DELAY=0} makes H2 write every commit to the file before the commit returns, so a killed
   * process loses no committed charge.
   */
  public static String h2File(Path file) {
    return "jdbc:h2:file:" + file.toAbsolutePath() + ";WRITE_DELAY=0";
  }

  /**
   * The account of {@code analyst}: the same instance for every call with the same name, so that
   * all connections of the analyst in this process charge through one lock. Creates the balance row
   * (nothing spent) on first use.
   *
   * @param analyst the authenticated analyst's name (1 to {@value #MAX_ANALYST_LENGTH} characters)
   * @param accounting how the analyst's costs compose; must be the accounting the analyst's stored
   *     spending was recorded under
   * @param total the analyst's total budget over all connections and all time; only components of
   *     {@code accounting}
   * @throws SQLException {@code XDP04} if the stored balance was kept under another accounting, or
   *     if an account for the analyst was already opened here with another accounting or total; or
   *     the store's error
   * @throws IllegalArgumentException if the name or the total is malformed
   */
  public AnalystAccount account(String analyst, Accounting accounting, PrivacyCost total)
      throws SQLException {
    Objects.requireNonNull(analyst, "analyst");
    Objects.requireNonNull(accounting, "accounting");
    Objects.requireNonNull(total, "total");
    if (analyst.isEmpty() || analyst.length() > MAX_ANALYST_LENGTH) {
      throw new IllegalArgumentException("an analyst name has 1 to " + MAX_ANALYST_LENGTH
          + " characters, got " + analyst.length());
    }
    Costs.requireOnlyUsedComponents(accounting, total, "total budget of analyst '" + analyst + "'");
    checkOpen();
    AnalystAccount existing = accounts.get(analyst);
    if (existing == null) {
      synchronized (accounts) {
        existing = accounts.get(analyst);
        if (existing == null) {
          ensureBalance(analyst, accounting);
          existing = new AnalystAccount(this, analyst, accounting, total, clock);
          accounts.put(analyst, existing);
          return existing;
        }
      }
    }
    if (existing.accounting() != accounting || !existing.total().equals(total)) {
      throw SqlStates.policyError("analyst '" + analyst + "' already has an open account with "
          + existing.accounting().policyName() + " accounting and total " + existing.total()
          + "; change its total with AnalystAccount.changeTotal, or restart the server");
    }
    return existing;
  }

  /**
   * What {@code analyst} has been released (answers and synopses), kept in this store: the same
   * instance for every call with the same name.
   *
   * @throws IllegalArgumentException if the name is malformed
   */
  public AnalystReleases releases(String analyst) {
    Objects.requireNonNull(analyst, "analyst");
    if (analyst.isEmpty() || analyst.length() > MAX_ANALYST_LENGTH) {
      throw new IllegalArgumentException("an analyst name has 1 to " + MAX_ANALYST_LENGTH
          + " characters, got " + analyst.length());
    }
    checkOpen();
    return releases.computeIfAbsent(analyst, a -> new AnalystReleases(this, a, clock));
  }

  /**
   * A new read-only view of the store with its own connection, for the data owner's console:
   * reading through it never waits for, or makes wait, an analyst's charge in this process. Closed
   * with the store.
   */
  public LedgerReader reader() {
    checkOpen();
    LedgerReader r = new LedgerReader(this);
    readers.add(r);
    return r;
  }

  /** Creates the analyst's balance row if absent; checks its accounting if present. */
  private void ensureBalance(String analyst, Accounting accounting) throws SQLException {
    synchronized (anchor) {
      String stored = storedAccounting(analyst);
      if (stored == null) {
        try (PreparedStatement ps = anchor.prepareStatement("INSERT INTO DPSQL_BALANCE (ANALYST, "
            + "ACCOUNTING, SPENT_EPSILON, SPENT_DELTA, SPENT_RHO, LAST_SEQUENCE) "
            + "VALUES (?, ?, '0', '0', '0', 0)")) {
          ps.setString(1, analyst);
          ps.setString(2, accounting.policyName());
          executeWrite(ps);
        } catch (SQLException e) {
          // another process may have created it meanwhile: then it must be there now
          stored = storedAccounting(analyst);
          if (stored == null) {
            throw e;
          }
        }
      }
      if (stored != null && !stored.equals(accounting.policyName())) {
        throw SqlStates.policyError("the ledger of analyst '" + analyst + "' was kept under "
            + stored + " accounting but the policy now uses " + accounting.policyName()
            + " accounting; spending cannot be carried across accountings. Keep the policy's "
            + "accounting or start a new ledger for this analyst");
      }
    }
  }

  private String storedAccounting(String analyst) throws SQLException {
    try (PreparedStatement ps =
        anchor.prepareStatement("SELECT ACCOUNTING FROM DPSQL_BALANCE WHERE ANALYST = ?")) {
      ps.setString(1, analyst);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /**
   * What the store holds for one analyst, read in one transaction: the balance row and the exact
   * sum of the ledger rows.
   *
   * @param analyst the analyst
   * @return the audit, or {@code null} if the store has no balance for the analyst
   * @throws SQLException the store's error
   */
  public LedgerAudit audit(String analyst) throws SQLException {
    Objects.requireNonNull(analyst, "analyst");
    checkOpen();
    synchronized (anchor) {
      boolean autoCommit = anchor.getAutoCommit();
      anchor.setAutoCommit(false);
      try {
        BalanceRow row = BalanceRow.read(anchor, analyst);
        if (row == null) {
          return null;
        }
        PrivacyCost balance = row.spent();
        long lastSequence = row.lastSequence();
        String accounting = row.accounting();
        PrivacyCost sum = PrivacyCost.ZERO;
        long entries = 0;
        long charged = 0;
        long maxSequence = 0;
        try (PreparedStatement ps = anchor.prepareStatement("SELECT EPSILON, DELTA, RHO, "
            + "SEQUENCE_NO, SOURCE FROM DPSQL_LEDGER WHERE ANALYST = ?")) {
          ps.setString(1, analyst);
          try (ResultSet rs = ps.executeQuery()) {
            BigDecimal e = BigDecimal.ZERO;
            BigDecimal d = BigDecimal.ZERO;
            BigDecimal r = BigDecimal.ZERO;
            while (rs.next()) {
              e = e.add(new BigDecimal(rs.getString(1)));
              d = d.add(new BigDecimal(rs.getString(2)));
              r = r.add(new BigDecimal(rs.getString(3)));
              maxSequence = Math.max(maxSequence, rs.getLong(4));
              entries++;
              if (!"synopsis".equals(rs.getString(5))) {
                charged++;
              }
            }
            sum = new PrivacyCost(e, d, r);
          }
        }
        anchor.commit();
        return new LedgerAudit(analyst, Accounting.parse(accounting), balance, sum, lastSequence,
            maxSequence, entries, charged);
      } finally {
        anchor.rollback();
        anchor.setAutoCommit(autoCommit);
      }
    }
  }

  /** The analysts that have a balance in the store, sorted by name. */
  public List<String> analysts() throws SQLException {
    checkOpen();
    synchronized (anchor) {
      List<String> names = new ArrayList<>();
      try (Statement s = anchor.createStatement();
          ResultSet rs = s.executeQuery("SELECT ANALYST FROM DPSQL_BALANCE ORDER BY ANALYST")) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
      return names;
    }
  }

  /**
   * A new connection to the store (one per analyst account or release store): in transactions at
   * READ COMMITTED, or in auto-commit mode.
   */
  Connection connect(boolean autoCommit) throws SQLException {
    checkOpen();
    Connection c = DriverManager.getConnection(url, connectionProperties);
    try {
      c.setAutoCommit(autoCommit);
      if (!autoCommit) {
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      }
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * Whether the store answers now: a new connection opens and reads the balance table within
   * {@code timeoutSeconds} (for a server's health check; reads no analyst's data).
   */
  public boolean reachable(int timeoutSeconds) {
    if (closed) {
      return false;
    }
    try (Connection c = DriverManager.getConnection(url, connectionProperties);
        PreparedStatement ps = c.prepareStatement("SELECT 1 FROM DPSQL_BALANCE WHERE 1 = 0")) {
      ps.setQueryTimeout(timeoutSeconds);
      try (ResultSet rs = ps.executeQuery()) {
        return !rs.next();
      }
    } catch (SQLException e) {
      return false;
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the ledger store is closed");
    }
  }

  /** Closes every account's connection and the store's own; later charges fail. */
  @Override
  public void close() throws SQLException {
    closed = true;
    for (AnalystAccount a : accounts.values()) {
      a.close();
    }
    for (AnalystReleases r : releases.values()) {
      r.close();
    }
    for (LedgerReader r : readers) {
      r.close();
    }
    synchronized (anchor) {
      anchor.close();
    }
  }
}
