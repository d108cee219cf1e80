package org.dpsql.accounting;

import java.time.Instant;
import java.util.Objects;

/**
 * One successful charge recorded by an {@link Accountant}.
 *
 * <p>Guarantees: immutable, all fields non-null, {@code sequence ≥ 1}; within one accountant the
 * sequence numbers are unique and increase in charge order.
 *
 * @param sequence the charge's position in its accountant's ledger, starting at 1
 * @param time when the charge was recorded
 * @param statement the SQL statement that was charged
 * @param mechanism the mechanism that spent the budget (e.g. "laplace", "gaussian")
 * @param cost the cost charged
 */
public record LedgerEntry(
    long sequence, Instant time, String statement, String mechanism, PrivacyCost cost) {

  /**
   * Validates the fields.
   *
   * @throws NullPointerException if a reference field is null
   * @throws IllegalArgumentException if {@code sequence < 1}
   */
  public LedgerEntry {
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence must be >= 1, got " + sequence);
    }
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(statement, "statement");
    Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(cost, "cost");
  }
}
