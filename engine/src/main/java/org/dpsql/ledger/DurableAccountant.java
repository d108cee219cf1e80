package org.dpsql.ledger;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.Conversions;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;

/**
 * The {@link Accountant} of one connection of an authenticated analyst: it charges the analyst's
 * durable {@link AnalystAccount}, shared with the analyst's other connections, and caps what this
 * connection may spend.
 *
 * <p>Guarantees: every charge is exact and atomic and is committed to the ledger store before
 * {@link #charge} returns; it is accepted only if it fits both the analyst's remaining total (over
 * all connections, processes and time) and this connection's remaining cap, so concurrent charges
 * never together exceed either. {@link #total()} and {@link #spent()} are the analyst's; {@link
 * #remaining()} is what this connection may still spend: the smaller of the analyst's remaining
 * total and the connection's remaining cap, in every component (so it can be less than {@code
 * total − spent}). {@link #ledger()} is the analyst's whole ledger, every connection's entries
 * included. A cost with more than 1000 decimal places or digits before the point cannot be
 * recorded exactly and is refused as unaffordable (XDP01), before any arithmetic. Store failures surface as {@link LedgerUnavailableException}, and then nothing is
 * charged in memory and nothing may be released.
 */
public final class DurableAccountant implements Accountant {
  private final AnalystAccount account;
  private final PrivacyCost cap;
  private final String connectionId;
  private final BigDecimal reportingDelta;
  private final ReentrantLock lock = new ReentrantLock();

  /** Written only under {@link #lock}. */
  private volatile PrivacyCost connectionSpent = PrivacyCost.ZERO;

  /**
   * @param account the analyst's account
   * @param perConnectionCap the most this connection may spend; only components of the account's
   *     accounting
   * @param connectionId names the connection in the ledger (at most 100 characters are kept)
   * @param reportingDelta for zCDP, the δ in (0, 1) at which ε is reported, or null; ignored by
   *     pure and approx accounting
   * @throws IllegalArgumentException if the cap has a component the accounting does not use, or
   *     the reporting δ is outside (0, 1)
   */
  public DurableAccountant(AnalystAccount account, PrivacyCost perConnectionCap,
      String connectionId, BigDecimal reportingDelta) {
    this.account = Objects.requireNonNull(account, "account");
    this.cap = Objects.requireNonNull(perConnectionCap, "perConnectionCap");
    this.connectionId = Objects.requireNonNull(connectionId, "connectionId");
    Costs.requireOnlyUsedComponents(account.accounting(), perConnectionCap, "per-connection cap");
    if (account.accounting() == Accounting.ZCDP && reportingDelta != null
        && (reportingDelta.signum() <= 0 || reportingDelta.compareTo(BigDecimal.ONE) >= 0)) {
      throw new IllegalArgumentException("reporting delta must be in (0, 1), got "
          + reportingDelta.toPlainString());
    }
    this.reportingDelta = account.accounting() == Accounting.ZCDP ? reportingDelta : null;
  }

  /** The analyst's account this connection charges. */
  public AnalystAccount account() {
    return account;
  }

  /** The most this connection may spend. */
  public PrivacyCost perConnectionCap() {
    return cap;
  }

  /** What this connection has spent so far. */
  public PrivacyCost connectionSpent() {
    return connectionSpent;
  }

  @Override
  public Accounting accounting() {
    return account.accounting();
  }

  /** The analyst's total budget. */
  @Override
  public PrivacyCost total() {
    return account.total();
  }

  /** The analyst's spending as recorded in the store (all connections). */
  @Override
  public PrivacyCost spent() {
    return account.spent();
  }

  /** What this connection may still spend: min(analyst's total − spent, cap − connection spent). */
  @Override
  public PrivacyCost remaining() {
    return Costs.min(Costs.headroom(account.total(), account.spent()),
        Costs.headroom(cap, connectionSpent));
  }

  @Override
  public LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
      Double expectedRmse) throws BudgetExceededException {
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(mechanism, "mechanism");
    Costs.requireOnlyUsedComponents(account.accounting(), cost, "cost");
    lock.lock();
    try {
      PrivacyCost current = connectionSpent;
      LedgerEntry entry = account.charge(connectionId, cost, Costs.headroom(cap, current),
          statement, mechanism, expectedRmse);
      connectionSpent = current.plus(cost);
      return entry;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean canAfford(PrivacyCost cost) {
    Objects.requireNonNull(cost, "cost");
    Costs.requireOnlyUsedComponents(account.accounting(), cost, "cost");
    return Costs.recordable(cost) && Costs.fits(cost, remaining());
  }

  @Override
  public LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse) {
    return account.recordFree(connectionId, statement, mechanism, expectedRmse);
  }

  @Override
  public List<LedgerEntry> ledger() {
    return account.ledger();
  }

  @Override
  public Double epsilonSpentAtDelta() {
    return epsilonOf(spent());
  }

  @Override
  public Double epsilonTotalAtDelta() {
    return epsilonOf(total());
  }

  private Double epsilonOf(PrivacyCost cost) {
    if (account.accounting() != Accounting.ZCDP) {
      return cost.epsilon().doubleValue();
    }
    if (reportingDelta == null) {
      return null;
    }
    // at the reporting δ less the δ spent by approximately zCDP releases (see ZcdpAccountant)
    return Conversions.zcdpToEpsilon(cost.rho().doubleValue(),
        reportingDelta.subtract(spent().delta()).doubleValue());
  }

  @Override
  public String toString() {
    return "DurableAccountant[" + account.analyst() + ", connection " + connectionId + ", cap "
        + cap + ", connection spent " + connectionSpent + "]";
  }
}
