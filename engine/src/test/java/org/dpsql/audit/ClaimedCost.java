package org.dpsql.audit;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.jdbc.SessionAccess;
import org.dpsql.session.DpsqlSession;

/**
 * What the ledger charged for one statement, as the (ε, δ) the audit compares against: under
 * {@code pure} the charged ε (δ = 0); under {@code approx} the charged (ε, δ); under {@code zcdp}
 * the ε that the connection reports for the charged ρ at the policy's reporting δ (the same
 * tightest conversion as {@code DPSQL.BUDGET.EPSILON_SPENT}), with that δ.
 */
record ClaimedCost(String accounting, String mechanism, double epsilon, double delta,
    BigDecimal rho) {

  /**
   * The cost of the statement just run on {@code c}, a fresh dpsql connection that has run only
   * that statement: everything the connection was charged (a statement with several private
   * aggregates is charged once per aggregate; the parts add up to the statement's cost).
   */
  static ClaimedCost of(Connection c) throws SQLException {
    DpsqlSession session = SessionAccess.session(c);
    Accountant accountant = session.accountant();
    List<LedgerEntry> charged = accountant.ledger().stream()
        .filter(e -> e.source().equals(LedgerEntry.MEASURED)).toList();
    if (charged.isEmpty()) {
      throw new IllegalStateException("the statement was not charged: " + accountant.ledger());
    }
    String mechanism = String.join("+", charged.stream().map(LedgerEntry::mechanism).distinct()
        .toList());
    PrivacyCost spent = accountant.spent();
    String accounting = session.policy().budget().accounting();
    return switch (accounting) {
      case "pure" -> new ClaimedCost(accounting, mechanism, spent.epsilon().doubleValue(), 0.0,
          null);
      case "approx" -> new ClaimedCost(accounting, mechanism, spent.epsilon().doubleValue(),
          spent.delta().doubleValue(), null);
      case "zcdp" -> new ClaimedCost(accounting, mechanism, accountant.epsilonSpentAtDelta(),
          session.reportingDelta().doubleValue(), spent.rho());
      default -> throw new IllegalStateException(accounting);
    };
  }

  @Override
  public String toString() {
    return accounting + " " + mechanism + ": epsilon " + String.format("%.4f", epsilon)
        + (delta > 0 ? ", delta " + delta : "") + (rho != null ? " (rho " + rho + ")" : "");
  }
}
