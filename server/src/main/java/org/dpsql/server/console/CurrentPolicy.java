package org.dpsql.server.console;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.session.Releases;

/**
 * The policy as the server's connections see it now: its file (or class-path resource) read and
 * checked against the backend, with its release fingerprint.
 *
 * <p>Guarantees: {@link #get} reflects the policy text at the time of the call (each new analyst
 * connection reads the file again, so an edit shows here too); the text is checked against the
 * backend only when it changed since the last check, so frequent page views cost a file read;
 * a policy that no longer loads is reported with its error, never shown as if it were in force.
 */
public final class CurrentPolicy {
  /** Opens a connection to the backend as the server reads it. */
  @FunctionalInterface
  public interface Backend {
    /** A new backend connection (closed by the caller). */
    Connection open() throws SQLException;
  }

  /**
   * The policy and its fingerprint.
   *
   * @param policy the checked policy
   * @param fingerprint {@link Releases#fingerprint(Policy)}: releases stored under another one are
   *     not used any more
   */
  public record Loaded(Policy policy, String fingerprint) {}

  private final String source;
  private final Backend backend;
  private String checkedText;
  private Loaded checked;

  /**
   * @param source the policy source, as the server was started with it
   * @param backend how to reach the backend to check the policy
   */
  public CurrentPolicy(String source, Backend backend) {
    this.source = Objects.requireNonNull(source, "source");
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  /**
   * The policy now.
   *
   * @throws SQLException XDP04 if it does not load any more, or the backend's error
   */
  public synchronized Loaded get() throws SQLException {
    String text = PolicyLoader.read(source);
    if (checked == null || !text.equals(checkedText)) {
      Policy policy;
      try (Connection c = backend.open()) {
        policy = PolicyLoader.validate(PolicyLoader.parse(text, source.strip()), c);
      }
      checked = new Loaded(policy, Releases.fingerprint(policy));
      checkedText = text;
    }
    return checked;
  }

  /** Where the policy is read from. */
  public String source() {
    return source;
  }
}
