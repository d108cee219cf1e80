package org.dpsql.accounting;

import java.sql.SQLException;
import java.util.Objects;
import org.dpsql.errors.SqlStates;

/**
 * Thrown when a charge would exceed the remaining privacy budget.
 *
 * <p>Guarantees: SQLState is {@link SqlStates#BUDGET_EXHAUSTED} ({@code XDP01}); nothing was
 * charged; the message states the requested cost, the remaining budget and how to proceed. It
 * contains only budget values, never data read from private rows.
 */
public final class BudgetExceededException extends SQLException {

  private static final long serialVersionUID = 1L;

  private final Accounting accounting;
  private final PrivacyCost requested;
  private final PrivacyCost remaining;

  /**
   * @param accounting the accounting of the refusing accountant
   * @param requested the cost that was refused
   * @param remaining the budget left at the time of the refusal
   */
  public BudgetExceededException(
      Accounting accounting, PrivacyCost requested, PrivacyCost remaining) {
    super(
        message(
            Objects.requireNonNull(accounting, "accounting"),
            Objects.requireNonNull(requested, "requested"),
            Objects.requireNonNull(remaining, "remaining")),
        SqlStates.BUDGET_EXHAUSTED);
    this.accounting = accounting;
    this.requested = requested;
    this.remaining = remaining;
  }

  /** The accounting of the accountant that refused. */
  public Accounting accounting() {
    return accounting;
  }

  /** The cost that was refused. */
  public PrivacyCost requested() {
    return requested;
  }

  /** The budget that remained when the charge was refused. */
  public PrivacyCost remaining() {
    return remaining;
  }

  private static String message(
      Accounting accounting, PrivacyCost requested, PrivacyCost remaining) {
    StringBuilder shortOf = new StringBuilder();
    appendIfShort(shortOf, "ε", requested.epsilon().compareTo(remaining.epsilon()) > 0);
    appendIfShort(shortOf, "δ", requested.delta().compareTo(remaining.delta()) > 0);
    appendIfShort(shortOf, "ρ", requested.rho().compareTo(remaining.rho()) > 0);
    return "Privacy budget exhausted: the query requests "
        + accounting.describe(requested)
        + " but the remaining budget is "
        + accounting.describe(remaining)
        + " ("
        + accounting.policyName()
        + " accounting"
        + (shortOf.length() == 0 ? "" : "; not enough " + shortOf)
        + "). Nothing was charged. Ask for a smaller cost with the DP hint,"
        + " or open a new connection if the policy allows.";
  }

  private static void appendIfShort(StringBuilder sb, String component, boolean isShort) {
    if (isShort) {
      sb.append(sb.length() == 0 ? "" : ", ").append(component);
    }
  }
}
