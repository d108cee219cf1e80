package org.dpsql.accounting;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The shared implementation of {@link Accountant}: exact component-wise basic composition guarded
 * by one lock.
 *
 * <p>Guarantees: {@link #charge} checks and records under a single lock, so the check-then-add is
 * atomic and concurrent charges never together exceed the total. Components the accounting does
 * not use are zero in both the total and every accepted cost, so checking all three components is
 * exactly checking the used ones. Reads of {@link #spent()} and {@link #remaining()} are lock-free
 * and see a consistent (immutable) snapshot.
 */
abstract sealed class AbstractAccountant implements Accountant
    permits PureDpAccountant, ApproxDpAccountant, ZcdpAccountant {

  private final Accounting accounting;
  private final PrivacyCost total;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();

  /** Written only under {@link #lock}; volatile for lock-free reads. */
  private volatile PrivacyCost spent = PrivacyCost.ZERO;

  /** Guarded by {@link #lock}. */
  private final List<LedgerEntry> entries = new ArrayList<>();

  /** Guarded by {@link #lock}. */
  private long nextSequence = 1;

  AbstractAccountant(Accounting accounting, PrivacyCost total, Clock clock) {
    this.accounting = Objects.requireNonNull(accounting, "accounting");
    this.total = Objects.requireNonNull(total, "total");
    this.clock = Objects.requireNonNull(clock, "clock");
    accounting.requireOnlyUsedComponents(total, "total budget");
  }

  @Override
  public final Accounting accounting() {
    return accounting;
  }

  @Override
  public final PrivacyCost total() {
    return total;
  }

  @Override
  public final PrivacyCost spent() {
    return spent;
  }

  @Override
  public final PrivacyCost remaining() {
    return total.minus(spent);
  }

  @Override
  public final LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
      Double expectedRmse) throws BudgetExceededException {
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(mechanism, "mechanism");
    accounting.requireOnlyUsedComponents(cost, "cost");
    lock.lock();
    try {
      PrivacyCost current = spent;
      if (!fits(current, cost)) {
        throw new BudgetExceededException(accounting, cost, total.minus(current));
      }
      // Build everything before mutating, so a failure leaves the state untouched.
      PrivacyCost updated = current.plus(cost);
      LedgerEntry entry = new LedgerEntry(nextSequence, clock.instant(), statement, mechanism,
          cost, LedgerEntry.MEASURED, expectedRmse);
      entries.add(entry);
      nextSequence++;
      spent = updated;
      return entry;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public final LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse) {
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(mechanism, "mechanism");
    lock.lock();
    try {
      LedgerEntry entry = new LedgerEntry(nextSequence, clock.instant(), statement, mechanism,
          PrivacyCost.ZERO, LedgerEntry.SYNOPSIS, expectedRmse);
      entries.add(entry);
      nextSequence++;
      return entry;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public final boolean canAfford(PrivacyCost cost) {
    Objects.requireNonNull(cost, "cost");
    accounting.requireOnlyUsedComponents(cost, "cost");
    return fits(spent, cost);
  }

  @Override
  public final List<LedgerEntry> ledger() {
    lock.lock();
    try {
      return List.copyOf(entries);
    } finally {
      lock.unlock();
    }
  }

  /** For PURE and APPROX: the spent ε. */
  @Override
  public Double epsilonSpentAtDelta() {
    return spent.epsilon().doubleValue();
  }

  /** For PURE and APPROX: the total ε. */
  @Override
  public Double epsilonTotalAtDelta() {
    return total.epsilon().doubleValue();
  }

  /**
   * Whether {@code spentSoFar + cost ≤ total} in every component. Compares sums directly rather
   * than building a {@link PrivacyCost}, whose δ &lt; 1 check would reject an over-budget δ sum
   * with the wrong exception.
   */
  private boolean fits(PrivacyCost spentSoFar, PrivacyCost cost) {
    return spentSoFar.epsilon().add(cost.epsilon()).compareTo(total.epsilon()) <= 0
        && spentSoFar.delta().add(cost.delta()).compareTo(total.delta()) <= 0
        && spentSoFar.rho().add(cost.rho()).compareTo(total.rho()) <= 0;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName()
        + "[spent "
        + accounting.describe(spent)
        + " of "
        + accounting.describe(total)
        + "]";
  }
}
