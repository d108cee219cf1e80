package org.dpsql.accounting;

import java.util.List;
import java.util.Objects;

/**
 * An {@link Accountant} that passes every call to another one: the base of decorators that add to
 * some calls (metering a charge, counting a failed ledger write) and change none.
 *
 * <p>Guarantee: a subclass that overrides nothing charges, refuses, records and throws exactly as
 * the accountant it wraps.
 */
public abstract class ForwardingAccountant implements Accountant {
  private final Accountant delegate;

  protected ForwardingAccountant(Accountant delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The wrapped accountant. */
  protected final Accountant delegate() {
    return delegate;
  }

  @Override
  public Accounting accounting() {
    return delegate.accounting();
  }

  @Override
  public PrivacyCost total() {
    return delegate.total();
  }

  @Override
  public PrivacyCost spent() {
    return delegate.spent();
  }

  @Override
  public PrivacyCost remaining() {
    return delegate.remaining();
  }

  @Override
  public LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
      Double expectedRmse) throws BudgetExceededException {
    return delegate.charge(cost, statement, mechanism, expectedRmse);
  }

  @Override
  public boolean canAfford(PrivacyCost cost) {
    return delegate.canAfford(cost);
  }

  @Override
  public LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse) {
    return delegate.recordFree(statement, mechanism, expectedRmse);
  }

  @Override
  public List<LedgerEntry> ledger() {
    return delegate.ledger();
  }

  @Override
  public Double epsilonSpentAtDelta() {
    return delegate.epsilonSpentAtDelta();
  }

  @Override
  public Double epsilonTotalAtDelta() {
    return delegate.epsilonTotalAtDelta();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
