package org.dpsql.ledger;

import java.util.Objects;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;

/**
 * What a {@link LedgerStore} holds for one analyst, read in one transaction.
 *
 * <p>Guarantee: a snapshot; {@link #consistent()} is true exactly when the balance equals the exact
 * sum of the ledger rows and the last sequence number is the largest one recorded, which every
 * committed state of the store satisfies.
 *
 * @param analyst the analyst
 * @param accounting the accounting the balance is kept under
 * @param balance the spent budget in the balance row
 * @param ledgerSum the exact sum of the costs of the analyst's ledger rows
 * @param lastSequence the last sequence number in the balance row
 * @param maxSequence the largest sequence number among the ledger rows (0 if none)
 * @param entries the number of ledger rows, free answers included
 * @param charged the number of ledger rows of charged measurements
 */
public record LedgerAudit(String analyst, Accounting accounting, PrivacyCost balance,
    PrivacyCost ledgerSum, long lastSequence, long maxSequence, long entries, long charged) {

  /** Checks for nulls. */
  public LedgerAudit {
    Objects.requireNonNull(analyst, "analyst");
    Objects.requireNonNull(accounting, "accounting");
    Objects.requireNonNull(balance, "balance");
    Objects.requireNonNull(ledgerSum, "ledgerSum");
  }

  /** Whether the balance row agrees exactly with the ledger rows. */
  public boolean consistent() {
    return balance.equals(ledgerSum) && lastSequence == maxSequence && entries == lastSequence;
  }
}
