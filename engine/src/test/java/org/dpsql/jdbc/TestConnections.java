package org.dpsql.jdbc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * dpsql connections over a test's own H2 backend, through {@link DriverManager} as an application
 * opens them, and the backend's end after the tests.
 */
final class TestConnections {
  private TestConnections() {}

  /**
   * A dpsql connection over {@code backendUrl} (a plain {@code jdbc:h2:...} URL) under {@code
   * policy}, its noise fixed by {@code seed} (null: no seed).
   */
  static Connection open(String backendUrl, Path policy, String seed) throws SQLException {
    Properties p = new Properties();
    p.setProperty("policy", policy.toString());
    if (seed != null) {
      p.setProperty("seed", seed);
    }
    return DriverManager.getConnection("jdbc:dpsql:" + backendUrl.substring("jdbc:".length()), p);
  }

  /** Shuts the in-memory backend of {@code direct} down and deletes the policy file. */
  static void shutDown(Connection direct, Path policy) throws Exception {
    try (Statement st = direct.createStatement()) {
      st.execute("SHUTDOWN");
    }
    Files.deleteIfExists(policy);
  }
}
