package org.dpsql.server;

import java.util.List;
import java.util.Objects;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.ledger.LedgerUnavailableException;

/**
 * An analyst connection's {@link Accountant} that counts, for the metrics, the ledger writes that
 * failed: every call is passed to the durable accountant unchanged, and a {@link
 * LedgerUnavailableException} from a charge or a free answer is counted, then rethrown.
 *
 * <p>Guarantee: changes nothing of what the wrapped accountant charges, refuses or throws.
 */
final class LedgerFailureCounter implements Accountant {
  private final Accountant ledger;
  private final ServerMetrics metrics;

  LedgerFailureCounter(Accountant ledger, ServerMetrics metrics) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public Accounting accounting() {
    return ledger.accounting();
  }

  @Override
  public PrivacyCost total() {
    return ledger.total();
  }

  @Override
  public PrivacyCost spent() {
    return ledger.spent();
  }

  @Override
  public PrivacyCost remaining() {
    return ledger.remaining();
  }

  @Override
  public LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
      Double expectedRmse) throws BudgetExceededException {
    try {
      return ledger.charge(cost, statement, mechanism, expectedRmse);
    } catch (LedgerUnavailableException e) {
      metrics.ledgerWriteFailed();
      throw e;
    }
  }

  @Override
  public boolean canAfford(PrivacyCost cost) {
    return ledger.canAfford(cost);
  }

  @Override
  public LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse) {
    try {
      return ledger.recordFree(statement, mechanism, expectedRmse);
    } catch (LedgerUnavailableException e) {
      metrics.ledgerWriteFailed();
      throw e;
    }
  }

  @Override
  public List<LedgerEntry> ledger() {
    return ledger.ledger();
  }

  @Override
  public Double epsilonSpentAtDelta() {
    return ledger.epsilonSpentAtDelta();
  }

  @Override
  public Double epsilonTotalAtDelta() {
    return ledger.epsilonTotalAtDelta();
  }

  @Override
  public String toString() {
    return ledger.toString();
  }
}
