package org.dpsql.server;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.ChargeMeter;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.dpsql.jdbc.DpsqlDriver;
import org.dpsql.ledger.AnalystAccount;
import org.dpsql.ledger.DurableAccountant;
import org.dpsql.ledger.LedgerStore;
import org.dpsql.ledger.LedgerUnavailableException;
import org.dpsql.session.AccountantSource;
import org.dpsql.session.ReleaseSource;

/**
 * The users in force on a running server, and what changes when the owner edits the users file:
 * the passwords, roles and budgets that the login service, the console and new connections read,
 * and each analyst's durable account in the ledger.
 *
 * <p>Guarantees: {@link #current()} is always a valid users file whose every analyst has an open
 * account in the ledger whose total is that analyst's budget. {@link #apply} takes a new file entry
 * by entry: a new analyst gets an account; a changed budget is applied to the account only if it
 * still covers what the ledger records as spent ({@link AnalystAccount#changeTotal}), else the
 * entry is refused, the old entry (password, role, budget) is kept and a log line says why; so is
 * an entry whose δ the policy cannot report ({@link UsersFile#checkDeltas}). The open connections
 * of an analyst who no longer has a budget are closed. A connection opened by an analyst charges
 * their one shared account, capped by the smaller of the policy's per-connection budget and the
 * {@code per_connection} in force when it opens.
 */
final class AnalystDirectory implements AnalystMeta.AnalystConnections, Supplier<UsersFile> {
  private static final System.Logger LOG = System.getLogger(AnalystDirectory.class.getName());

  private final LedgerStore ledger;
  private final Accounting accounting;
  private final BigDecimal reportingDelta;
  private final String dpsqlUrl;
  private final Properties serverProps;
  private final ServerMetrics metrics;
  /** Accounts and drivers of every analyst ever in force (kept when removed, for a re-add). */
  private final Map<String, AnalystAccount> accounts = new ConcurrentHashMap<>();
  private final Map<String, DpsqlDriver> drivers = new ConcurrentHashMap<>();
  private volatile UsersFile current;
  private volatile Consumer<String> closeConnections = analyst -> { };

  /**
   * Opens every analyst's account.
   *
   * @throws SQLException if the ledger refuses an account (another accounting)
   * @throws IllegalArgumentException if an analyst's δ does not fit the policy
   */
  AnalystDirectory(UsersFile users, LedgerStore ledger, Accounting accounting,
      BigDecimal reportingDelta, String dpsqlUrl, Properties serverProps, ServerMetrics metrics)
      throws SQLException {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.accounting = Objects.requireNonNull(accounting, "accounting");
    this.reportingDelta = reportingDelta;
    this.dpsqlUrl = Objects.requireNonNull(dpsqlUrl, "dpsqlUrl");
    this.serverProps = Objects.requireNonNull(serverProps, "serverProps");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    users.checkDeltas(accounting, reportingDelta);
    for (Analyst a : users.analysts().values()) {
      accounts.put(a.name(), ledger.account(a.name(), accounting, a.total()));
    }
    this.current = users;
  }

  /** Where {@link #apply} closes a removed analyst's connections (set once the meta exists). */
  void onRemoved(Consumer<String> closer) {
    this.closeConnections = Objects.requireNonNull(closer, "closer");
  }

  /** The users in force now. */
  @Override
  public UsersFile get() {
    return current;
  }

  /** The users in force now. */
  UsersFile current() {
    return current;
  }

  /**
   * Puts a re-read users file in force, entry by entry (see the class comment).
   *
   * @return the refused entries' reasons (empty if all applied)
   */
  synchronized List<String> apply(UsersFile next) {
    UsersFile old = current;
    UsersFile result = next;
    List<String> refused = new ArrayList<>();
    for (Analyst a : next.analysts().values()) {
      String name = a.name();
      String problem = null;
      try {
        problem = UsersFile.deltaProblem(a, accounting, reportingDelta);
        AnalystAccount account = accounts.get(name);
        if (problem != null) {
          // refused below, before any account changes
        } else if (account == null) {
          accounts.put(name, ledger.account(name, accounting, a.total()));
        } else if (!account.total().equals(a.total()) && !account.changeTotal(a.total())) {
          problem = "the new budget " + a.total() + " is below what the ledger records as spent ("
              + account.spent() + ")";
        }
      } catch (IllegalArgumentException | SQLException | LedgerUnavailableException e) {
        problem = e.getMessage();
      }
      if (problem != null) {
        refused.add(problem.startsWith("analysts.") ? problem : "analysts." + name + ": "
            + problem);
        result = result.keeping(name, old);
      }
    }
    current = result;
    for (String name : old.analysts().keySet()) {
      if (!result.analysts().containsKey(name)) {
        closeConnections.accept(name);
        LOG.log(System.Logger.Level.INFO, "users file: analyst '" + name + "' removed; their open "
            + "connections are closed");
      }
    }
    for (String r : refused) {
      LOG.log(System.Logger.Level.WARNING, "users file: entry refused, the old one is kept: " + r);
    }
    return List.copyOf(refused);
  }

  /** Opens a remote connection's dpsql connection for {@code analyst}, if they have a budget. */
  @Override
  public Connection open(String analyst) throws SQLException {
    if (!current.analysts().containsKey(analyst)) {
      throw SqlStates.notAllowed("analyst '" + analyst + "' has no budget on this server");
    }
    DpsqlDriver driver = drivers.computeIfAbsent(analyst, name -> new DpsqlDriver(
        budgetOf(name), ReleaseSource.shared(ledger.releases(name))));
    Connection c = driver.connect(dpsqlUrl, serverProps);
    if (!current.analysts().containsKey(analyst)) { // removed while this connection opened
      c.close();
      throw SqlStates.notAllowed("analyst '" + analyst + "' has no budget on this server");
    }
    return c;
  }

  /** The accountant source of one analyst: their durable account, capped per connection. */
  private AccountantSource budgetOf(String name) {
    return (policy, info, accounting, perConnection, reportingDelta) -> {
      Analyst analyst = current.analysts().get(name);
      AnalystAccount account = accounts.get(name);
      if (analyst == null || account == null) {
        throw SqlStates.notAllowed("analyst '" + name + "' has no budget on this server");
      }
      if (accounting != account.accounting()) {
        throw SqlStates.policyError("the policy's accounting changed to "
            + accounting.policyName() + " while the server runs; restart the server");
      }
      PrivacyCost cap = perConnection;
      if (analyst.perConnection() != null) {
        cap = new PrivacyCost(cap.epsilon().min(analyst.perConnection().epsilon()),
            cap.delta().min(analyst.perConnection().delta()),
            cap.rho().min(analyst.perConnection().rho()));
      }
      return ChargeMeter.metered(new LedgerFailureCounter(
          new DurableAccountant(account, cap, UUID.randomUUID().toString(), reportingDelta),
          metrics));
    };
  }
}
