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
 * @param cost the cost charged (zero for an answer derived from released values)
 * @param source {@link #MEASURED} when the backend was measured with noise, {@link #SYNOPSIS} when
 *     the answer was derived from an earlier release at no cost
 * @param expectedRmse the mechanism's expected root mean squared error per released value, from
 *     its formula (null when not computed)
 */
public record LedgerEntry(long sequence, Instant time, String statement, String mechanism,
    PrivacyCost cost, String source, Double expectedRmse) {

  /** {@link #source()} of a charged measurement. */
  public static final String MEASURED = "measurement";
  /** {@link #source()} of a free answer from a released synopsis. */
  public static final String SYNOPSIS = "synopsis";

  /** A charged measurement without an error estimate. */
  public LedgerEntry(long sequence, Instant time, String statement, String mechanism,
      PrivacyCost cost) {
    this(sequence, time, statement, mechanism, cost, MEASURED, null);
  }

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
    Objects.requireNonNull(source, "source");
  }
}
