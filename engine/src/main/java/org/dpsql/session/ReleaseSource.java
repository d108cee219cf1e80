package org.dpsql.session;

import java.sql.SQLException;
import java.util.Properties;
import org.dpsql.policy.Policy;

/**
 * Where a new connection's {@link Releases} come from: what it has already been released and may
 * reuse for free.
 *
 * <p>The embedded driver gives every connection its own, in memory ({@link #PER_CONNECTION}), since
 * every connection has its own budget. A server whose analysts share one budget across connections
 * gives all of an analyst's connections the same releases, kept durably.
 *
 * <p>Guarantee required of implementations: the returned releases were all paid for by the budget
 * the connection charges (its {@link AccountantSource}), under a policy with the same {@linkplain
 * Releases#fingerprint fingerprint}.
 */
@FunctionalInterface
public interface ReleaseSource {

  /** Fresh in-memory releases per connection. */
  ReleaseSource PER_CONNECTION = (policy, info) -> Releases.inMemory(policy);

  /**
   * The releases of a connection being opened.
   *
   * @param policy the data owner's policy, as loaded for this connection
   * @param info the connection properties as the driver received them
   * @throws SQLException if the stored releases cannot be read
   */
  Releases open(Policy policy, Properties info) throws SQLException;

  /**
   * One budget holder's releases, kept in {@code store} and shared by all the connections opened
   * through this source: they are read from the store at the first connection (and again when a
   * connection's policy has another {@linkplain Releases#fingerprint fingerprint}, which starts
   * over with that policy's stored releases).
   */
  static ReleaseSource shared(ReleaseStore store) {
    java.util.Objects.requireNonNull(store, "store");
    Releases[] current = new Releases[1];
    return (policy, info) -> {
      synchronized (current) {
        Releases r = current[0];
        if (r == null || !r.policyFingerprint().equals(Releases.fingerprint(policy))) {
          r = Releases.durable(policy, store);
          current[0] = r;
        }
        return r;
      }
    };
  }
}
