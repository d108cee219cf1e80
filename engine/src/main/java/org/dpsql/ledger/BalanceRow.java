package org.dpsql.ledger;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.dpsql.accounting.PrivacyCost;

/**
 * One analyst's row of {@code DPSQL_BALANCE} as stored: the accounting it is kept under (its policy
 * name), the total spent, and the sequence number of the last charge. Read in the caller's
 * transaction, so it is consistent with whatever else the caller reads there.
 */
record BalanceRow(String accounting, PrivacyCost spent, long lastSequence) {

  /** The analyst's row, or null when the ledger has none. */
  static BalanceRow read(Connection c, String analyst) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT ACCOUNTING, SPENT_EPSILON, SPENT_DELTA, "
        + "SPENT_RHO, LAST_SEQUENCE FROM DPSQL_BALANCE WHERE ANALYST = ?")) {
      ps.setString(1, analyst);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        return new BalanceRow(rs.getString(1), new PrivacyCost(new BigDecimal(rs.getString(2)),
            new BigDecimal(rs.getString(3)), new BigDecimal(rs.getString(4))), rs.getLong(5));
      }
    }
  }
}
