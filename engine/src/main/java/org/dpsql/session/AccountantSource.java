package org.dpsql.session;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Properties;
import org.dpsql.accounting.Accountant;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.policy.Policy;

/**
 * Where a new connection's {@link Accountant} comes from.
 *
 * <p>The embedded driver gives every connection a fresh in-memory accountant holding the policy's
 * per-connection budget ({@link #PER_CONNECTION}). A server that authenticates analysts supplies
 * its own source, so that all connections of one analyst charge one durable, shared budget.
 *
 * <p>Guarantee required of implementations: the returned accountant composes under {@code
 * accounting} and never lets a connection spend more than {@code perConnection}.
 */
@FunctionalInterface
public interface AccountantSource {

  /** A fresh in-memory accountant per connection, holding the policy's per-connection budget. */
  AccountantSource PER_CONNECTION = (policy, info, accounting, perConnection, reportingDelta) ->
      Accountant.create(accounting, perConnection, reportingDelta);

  /**
   * The accountant for a connection being opened.
   *
   * @param policy the data owner's policy
   * @param info the connection properties as the driver received them (policy and seed included)
   * @param accounting how the policy composes costs
   * @param perConnection the policy's per-connection budget, in {@code accounting}'s components
   * @param reportingDelta for zCDP, the δ at which ε is reported, else {@code null}
   * @throws SQLException to refuse the connection (e.g. an analyst without a budget)
   */
  Accountant open(Policy policy, Properties info, Accounting accounting, PrivacyCost perConnection,
      BigDecimal reportingDelta) throws SQLException;
}
