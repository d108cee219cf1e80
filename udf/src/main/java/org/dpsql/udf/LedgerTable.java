package org.dpsql.udf;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.release.ResultColumn;
import org.dpsql.session.SessionView;
import org.dpsql.session.SystemTable;

/**
 * {@code DPSQL.LEDGER}: one row per charged query of the connection, in charge order: SEQ, TIME,
 * STATEMENT (normalised text), MECHANISM, EPSILON, DELTA, RHO (the components the accounting uses;
 * the others are 0), SOURCE ({@code measurement}, or {@code synopsis} for a statement answered at
 * no cost from an earlier release) and EXPECTED_RMSE (the mechanism's expected root mean squared
 * error per released value, when known). Identical repeats return the earlier answer and are not
 * listed again.
 */
public final class LedgerTable implements SystemTable {
  @Override
  public String name() {
    return "LEDGER";
  }

  @Override
  public List<ResultColumn> columns() {
    return List.of(
        ResultColumn.bigint("SEQ", false),
        ResultColumn.timestamp("TIME", false),
        ResultColumn.varchar("STATEMENT", false),
        ResultColumn.varchar("MECHANISM", false),
        ResultColumn.decimal("EPSILON", 12, false),
        ResultColumn.decimal("DELTA", 15, false),
        ResultColumn.decimal("RHO", 12, false),
        ResultColumn.varchar("SOURCE", false),
        ResultColumn.doubles("EXPECTED_RMSE", true));
  }

  @Override
  public List<Object[]> rows(SessionView session) {
    List<Object[]> rows = new ArrayList<>();
    for (LedgerEntry e : session.accountant().ledger()) {
      rows.add(new Object[] {e.sequence(), Timestamp.from(e.time()), e.statement(), e.mechanism(),
          e.cost().epsilon(), e.cost().delta(), e.cost().rho(), e.source(), e.expectedRmse()});
    }
    return rows;
  }
}
