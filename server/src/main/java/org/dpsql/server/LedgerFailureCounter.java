package org.dpsql.server;

import java.util.Objects;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.ForwardingAccountant;
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
final class LedgerFailureCounter extends ForwardingAccountant {
  private final ServerMetrics metrics;

  LedgerFailureCounter(Accountant ledger, ServerMetrics metrics) {
    super(ledger);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  @Override
  public LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
      Double expectedRmse) throws BudgetExceededException {
    try {
      return delegate().charge(cost, statement, mechanism, expectedRmse);
    } catch (LedgerUnavailableException e) {
      metrics.ledgerWriteFailed();
      throw e;
    }
  }

  @Override
  public LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse) {
    try {
      return delegate().recordFree(statement, mechanism, expectedRmse);
    } catch (LedgerUnavailableException e) {
      metrics.ledgerWriteFailed();
      throw e;
    }
  }
}
