package org.dpsql.udf;

import java.math.BigDecimal;
import java.util.List;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.release.ResultColumn;
import org.dpsql.session.SessionView;
import org.dpsql.session.SystemTable;

/**
 * {@code DPSQL.BUDGET}: one row with the connection's budget in the accounting's own unit (ε for
 * pure and approx, ρ for zCDP) and, for zCDP, the ε it amounts to at the policy's δ.
 *
 * <p>Columns: ACCOUNTING ('pure'|'approx'|'zcdp'), UNIT ('epsilon'|'rho'), TOTAL, SPENT,
 * REMAINING, DELTA (the δ budget under approx, the reporting δ under zCDP, else NULL),
 * DELTA_SPENT (approx; under zCDP the δ spent by approximately zCDP releases, i.e. GROUP BY over
 * keys: private columns), EPSILON_SPENT and EPSILON_TOTAL (under zCDP ε at DELTA less
 * DELTA_SPENT; equal to SPENT and TOTAL under pure and approx), QUERIES (charged queries so far; free answers from synopses are not
 * counted).
 */
public final class BudgetTable implements SystemTable {
  @Override
  public String name() {
    return "BUDGET";
  }

  @Override
  public List<ResultColumn> columns() {
    return List.of(
        ResultColumn.varchar("ACCOUNTING", false),
        ResultColumn.varchar("UNIT", false),
        ResultColumn.decimal("TOTAL", 12, false),
        ResultColumn.decimal("SPENT", 12, false),
        ResultColumn.decimal("REMAINING", 12, false),
        ResultColumn.decimal("DELTA", 15, true),
        ResultColumn.decimal("DELTA_SPENT", 15, true),
        ResultColumn.doubles("EPSILON_SPENT", true),
        ResultColumn.doubles("EPSILON_TOTAL", true),
        ResultColumn.bigint("QUERIES", false));
  }

  @Override
  public List<Object[]> rows(SessionView session) {
    Accountant a = session.accountant();
    boolean rho = a.accounting() == Accounting.ZCDP;
    PrivacyCost total = a.total();
    PrivacyCost spent = a.spent();
    PrivacyCost remaining = a.remaining();
    BigDecimal delta = switch (a.accounting()) {
      case APPROX -> total.delta();
      case ZCDP -> session.reportingDelta();
      default -> null;
    };
    return List.<Object[]>of(new Object[] {
        a.accounting().policyName(),
        rho ? "rho" : "epsilon",
        rho ? total.rho() : total.epsilon(),
        rho ? spent.rho() : spent.epsilon(),
        rho ? remaining.rho() : remaining.epsilon(),
        delta,
        a.accounting() == Accounting.PURE ? null : spent.delta(),
        a.epsilonSpentAtDelta(),
        a.epsilonTotalAtDelta(),
        a.ledger().stream().filter(e -> e.source().equals(LedgerEntry.MEASURED)).count()});
  }
}
