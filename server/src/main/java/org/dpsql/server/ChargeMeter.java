package org.dpsql.server;

import java.util.List;
import java.util.Objects;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;

/**
 * What the remote call running on the current thread has charged, for the audit log: {@link
 * ProtobufEndpoint} starts the meter around each call, and every connection's accountant is
 * wrapped by {@link #metered} so that its successful charges add to the meter of the thread that
 * charges.
 *
 * <p>Guarantees: between {@link #start} and {@link #stop} on one thread, {@link #stop} returns the
 * exact sum of the charges that returned on that thread (refused or failed charges add nothing);
 * a thread without a started meter records nothing; the wrapped accountant behaves exactly as the
 * one it wraps.
 */
final class ChargeMeter {
  private static final ThreadLocal<PrivacyCost[]> CHARGED = new ThreadLocal<>();

  private ChargeMeter() {}

  /** Starts metering the current thread's charges from zero. */
  static void start() {
    CHARGED.set(new PrivacyCost[] {PrivacyCost.ZERO});
  }

  /** Stops metering; returns what the thread charged since {@link #start} (zero if not started). */
  static PrivacyCost stop() {
    PrivacyCost[] c = CHARGED.get();
    CHARGED.remove();
    return c == null ? PrivacyCost.ZERO : c[0];
  }

  private static void add(PrivacyCost cost) {
    PrivacyCost[] c = CHARGED.get();
    if (c != null) {
      c[0] = c[0].plus(cost);
    }
  }

  /** {@code accountant}, adding every charge that returns to the charging thread's meter. */
  static Accountant metered(Accountant accountant) {
    Objects.requireNonNull(accountant, "accountant");
    return new Accountant() {
      @Override
      public Accounting accounting() {
        return accountant.accounting();
      }

      @Override
      public PrivacyCost total() {
        return accountant.total();
      }

      @Override
      public PrivacyCost spent() {
        return accountant.spent();
      }

      @Override
      public PrivacyCost remaining() {
        return accountant.remaining();
      }

      @Override
      public LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
          Double expectedRmse) throws BudgetExceededException {
        LedgerEntry e = accountant.charge(cost, statement, mechanism, expectedRmse);
        add(e.cost());
        return e;
      }

      @Override
      public boolean canAfford(PrivacyCost cost) {
        return accountant.canAfford(cost);
      }

      @Override
      public LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse) {
        return accountant.recordFree(statement, mechanism, expectedRmse);
      }

      @Override
      public List<LedgerEntry> ledger() {
        return accountant.ledger();
      }

      @Override
      public Double epsilonSpentAtDelta() {
        return accountant.epsilonSpentAtDelta();
      }

      @Override
      public Double epsilonTotalAtDelta() {
        return accountant.epsilonTotalAtDelta();
      }

      @Override
      public String toString() {
        return accountant.toString();
      }
    };
  }
}
