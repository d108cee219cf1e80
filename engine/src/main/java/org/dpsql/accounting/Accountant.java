package org.dpsql.accounting;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Tracks the privacy budget spent against a fixed total, under one {@link Accounting}.
 *
 * <p>Guarantees: all budget arithmetic is exact ({@link BigDecimal}); {@link #charge} is atomic and
 * thread-safe — concurrent charges can never together exceed {@link #total()} in any component,
 * and a refused charge changes nothing; the ledger records every successful charge (and every free
 * answer derived from a synopsis), in order, with unique increasing sequence numbers.
 */
public interface Accountant {

  /** The accounting this accountant composes under. */
  Accounting accounting();

  /** The total budget; only components used by {@link #accounting()} are non-zero. */
  PrivacyCost total();

  /** The budget spent so far (exact sum of all successful charges). */
  PrivacyCost spent();

  /** {@code total().minus(spent())}, never negative in any component. */
  PrivacyCost remaining();

  /**
   * Atomically checks that {@code spent() + cost ≤ total()} in every component the accounting
   * uses and, if so, records the charge in the ledger and returns its entry.
   *
   * @param cost the cost to charge; may only have components the accounting uses (convert first,
   *     e.g. with {@link Conversions})
   * @param statement the SQL statement being charged, for the ledger
   * @param mechanism the mechanism spending the budget, for the ledger
   * @return the new ledger entry
   * @throws BudgetExceededException (SQLState XDP01) if the cost does not fit; nothing is charged
   * @throws IllegalArgumentException if {@code cost} has a non-zero component the accounting does
   *     not use
   * @throws NullPointerException if an argument is null
   */
  default LedgerEntry charge(PrivacyCost cost, String statement, String mechanism)
      throws BudgetExceededException {
    return charge(cost, statement, mechanism, null);
  }

  /**
   * {@link #charge(PrivacyCost, String, String)}, recording the mechanism's expected RMSE per
   * released value in the ledger.
   */
  LedgerEntry charge(PrivacyCost cost, String statement, String mechanism, Double expectedRmse)
      throws BudgetExceededException;

  /**
   * Whether {@code cost} would fit in the remaining budget right now. Advisory only: a concurrent
   * charge may use the budget before the caller charges; {@link #charge} is the authority.
   *
   * @throws IllegalArgumentException if {@code cost} has a non-zero component the accounting does
   *     not use
   */
  boolean canAfford(PrivacyCost cost);

  /**
   * Records, at no cost, an answer derived from already released values (source {@link
   * LedgerEntry#SYNOPSIS}), so the ledger shows every private statement answered.
   */
  LedgerEntry recordFree(String statement, String mechanism, Double expectedRmse);

  /** An immutable snapshot of the successful charges, in charge order. */
  List<LedgerEntry> ledger();

  /**
   * The ε spent, as a double: for {@link Accounting#ZCDP} the ε of the spent ρ at the reporting δ
   * ({@code null} if no reporting δ was configured); otherwise the spent ε.
   */
  Double epsilonSpentAtDelta();

  /**
   * The ε of the total budget, as a double: for {@link Accounting#ZCDP} the ε of the total ρ at the
   * reporting δ ({@code null} if no reporting δ was configured); otherwise the total ε.
   */
  Double epsilonTotalAtDelta();

  /**
   * Creates an empty accountant.
   *
   * @param accounting how costs compose
   * @param total the total budget; may only have components {@code accounting} uses
   * @param reportingDelta for {@link Accounting#ZCDP}, the δ in (0, 1) at which ε is reported, or
   *     {@code null} not to report ε; ignored by {@link Accounting#PURE} and {@link
   *     Accounting#APPROX}, which report their ε directly
   * @throws IllegalArgumentException if {@code total} has a component the accounting does not use,
   *     or a given ZCDP {@code reportingDelta} is not in (0, 1)
   * @throws NullPointerException if {@code accounting} or {@code total} is null
   */
  static Accountant create(Accounting accounting, PrivacyCost total, BigDecimal reportingDelta) {
    return create(accounting, total, reportingDelta, Clock.systemUTC());
  }

  /**
   * As {@link #create(Accounting, PrivacyCost, BigDecimal)}, with the clock that stamps ledger
   * entries (for tests and reproducible ledgers).
   */
  static Accountant create(
      Accounting accounting, PrivacyCost total, BigDecimal reportingDelta, Clock clock) {
    Objects.requireNonNull(accounting, "accounting");
    return switch (accounting) {
      case PURE -> new PureDpAccountant(total, clock);
      case APPROX -> new ApproxDpAccountant(total, clock);
      case ZCDP -> new ZcdpAccountant(total, reportingDelta, clock);
    };
  }
}
