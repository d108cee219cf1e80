package org.dpsql.session;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

/**
 * Durable storage for what one analyst has been released (answers and synopses), so that a
 * server's {@link Releases} survive restarts. Entries are opaque bytes written by dpsql; each is
 * tagged with the fingerprint of the policy it was released under, and only entries of the current
 * fingerprint are loaded.
 *
 * <p>Guarantee required of implementations: {@link #save} returns only after the entry is durable
 * (committed), and {@link #load} returns every saved entry of that fingerprint, oldest first.
 */
public interface ReleaseStore {

  /** One stored release: its kind, a readable key (the statement or the synopsis), its bytes. */
  record Entry(String kind, String key, byte[] payload) {
    /** Checks the components. */
    public Entry {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(payload, "payload");
    }
  }

  /** The saved entries of {@code policyFingerprint}, oldest first. */
  List<Entry> load(String policyFingerprint) throws SQLException;

  /** Saves one entry durably before returning. */
  void save(String policyFingerprint, Entry entry) throws SQLException;
}
