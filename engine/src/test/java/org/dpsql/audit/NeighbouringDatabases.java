package org.dpsql.audit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

/**
 * Two in-memory H2 databases that differ in exactly one privacy unit, and the policy file that
 * governs both: D holds the background rows; D' holds the same rows plus the rows of one more
 * unit (all of that unit's rows, none of anybody else's). Both stay open until {@link #close()}.
 */
final class NeighbouringDatabases implements AutoCloseable {
  /** Which of the two databases. */
  enum Side {
    /** D: without the unit. */
    WITHOUT,
    /** D': with the unit. */
    WITH
  }

  private final String urlWithout;
  private final String urlWith;
  private final Connection keepWithout;
  private final Connection keepWith;
  private final Path policy;

  private NeighbouringDatabases(String urlWithout, String urlWith, Connection keepWithout,
      Connection keepWith, Path policy) {
    this.urlWithout = urlWithout;
    this.urlWith = urlWith;
    this.keepWithout = keepWithout;
    this.keepWith = keepWith;
    this.policy = policy;
  }

  /**
   * Creates D from {@code schemaAndBackground} (DDL and the background rows) and D' from the same
   * statements followed by {@code unitRows} (the added unit's rows), and writes {@code policyYaml}
   * to a temporary file.
   */
  static NeighbouringDatabases create(List<String> schemaAndBackground, List<String> unitRows,
      String policyYaml) throws SQLException, IOException {
    String base = "jdbc:h2:mem:audit" + UUID.randomUUID().toString().replace("-", "");
    String without = base + "d;DB_CLOSE_DELAY=-1";
    String with = base + "dprime;DB_CLOSE_DELAY=-1";
    Connection a = DriverManager.getConnection(without);
    Connection b = DriverManager.getConnection(with);
    run(a, schemaAndBackground);
    run(b, schemaAndBackground);
    run(b, unitRows);
    Path p = Files.createTempFile("dpsql-audit", ".yaml");
    Files.writeString(p, policyYaml);
    return new NeighbouringDatabases(without, with, a, b, p);
  }

  private static void run(Connection c, List<String> sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }

  /** The policy file of both databases. */
  Path policy() {
    return policy;
  }

  /** The dpsql URL of one side, honest ({@code fault} null) or seen through a backend fault. */
  String dpsqlUrl(Side side, BackendFault fault) {
    return dpsqlUrl(side, fault, false);
  }

  /** As {@link #dpsqlUrl(Side, BackendFault)}, the backend presented as Trino if {@code asTrino}. */
  String dpsqlUrl(Side side, BackendFault fault, boolean asTrino) {
    String h2 = side == Side.WITHOUT ? urlWithout : urlWith;
    if (asTrino) {
      return FaultyBackendDriver.dpsqlUrl(h2, fault, true);
    }
    return fault == null ? "jdbc:dpsql:" + h2.substring("jdbc:".length())
        : FaultyBackendDriver.dpsqlUrl(h2, fault);
  }

  /** A direct (non-private) connection to one side, for checks of the data. */
  Connection direct(Side side) {
    return side == Side.WITHOUT ? keepWithout : keepWith;
  }

  @Override
  public void close() throws SQLException, IOException {
    for (Connection c : List.of(keepWithout, keepWith)) {
      try (Statement st = c.createStatement()) {
        st.execute("SHUTDOWN");
      } catch (SQLException ignored) {
        // already closed
      }
    }
    Files.deleteIfExists(policy);
  }
}
