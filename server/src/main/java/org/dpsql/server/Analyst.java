package org.dpsql.server;

import java.util.Objects;
import org.dpsql.accounting.PrivacyCost;

/**
 * One analyst as the owner's users file declares them: the login name, the password hash, the
 * total privacy budget over all connections and all time, and an optional cap per connection.
 *
 * <p>Guarantees: immutable; the budgets are exact and use only the components of the policy's
 * accounting (checked by {@link UsersFile}); the cap, when present, is positive.
 *
 * @param name the login name (the HTTP user)
 * @param password the password hash
 * @param total the analyst's total budget
 * @param perConnection the most one connection may spend, or null for the policy's
 *     per-connection budget alone
 */
public record Analyst(String name, PasswordHash password, PrivacyCost total,
    PrivacyCost perConnection) {

  /** Checks for nulls. */
  public Analyst {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(total, "total");
  }
}
