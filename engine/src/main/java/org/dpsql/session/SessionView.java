package org.dpsql.session;

import java.math.BigDecimal;
import org.dpsql.accounting.Accountant;
import org.dpsql.policy.Policy;

/** What system tables may read about a connection: its policy and its accountant. */
public interface SessionView {
  Policy policy();

  Accountant accountant();

  /** The δ at which a zCDP budget is reported as ε, or null. */
  BigDecimal reportingDelta();
}
