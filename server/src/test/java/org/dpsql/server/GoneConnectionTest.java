package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.remote.Service;
import org.dpsql.jdbc.DpsqlDriver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A connection the server no longer has (closed behind the client's back, as expiry or eviction
 * would) answers every call of the dpsql remote driver with an {@code SQLException} of SQLState
 * {@code 08003}, never an unchecked exception, and closing it, or its statements, is a no-op.
 */
class GoneConnectionTest {
  private static final String SQL =
      "SELECT /*+ DP(rho='0.01') */ PAYMENT, COUNT(*) FROM TRIPS GROUP BY PAYMENT";

  @TempDir static Path dir;
  private static DpsqlServer server;

  @BeforeAll
  static void start() throws Exception {
    String backend = TestServers.demoBackend("gone-connection", 200);
    Path users = TestServers.users(dir, "bob 1");
    server = DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Connection connect() throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", "bob");
    props.setProperty("password", "pw-bob");
    return DriverManager.getConnection(
        DpsqlDriver.REMOTE_PREFIX + "url=http://127.0.0.1:" + server.port(), props);
  }

  /** Closes {@code c} on the server only, as its expiry would. */
  private static void forgetOnServer(Connection c) throws Exception {
    String id = c.unwrap(AvaticaConnection.class).id;
    Service.Response r = new TestServers.RawClient(server, "bob", "pw-bob")
        .call(new Service.CloseConnectionRequest(id));
    assertInstanceOf(Service.CloseConnectionResponse.class, r);
  }

  private static void assertGone(Executable call) {
    SQLException e = assertThrows(SQLException.class, call);
    assertTrue("08003".equals(e.getSQLState()) || "26000".equals(e.getSQLState()),
        () -> e.getSQLState() + ": " + e.getMessage() + " caused by " + e.getCause());
  }

  @Test
  void everyCallOnAForgottenConnectionIsAnSqlExceptionAndClosingIsANoOp() throws Exception {
    Connection c = connect();
    Statement before = c.createStatement();
    PreparedStatement prepared = c.prepareStatement(SQL);
    try (ResultSet rs = before.executeQuery(SQL)) {
      assertTrue(rs.next());
    }
    forgetOnServer(c);
    assertEquals(0, server.openConnections("bob"));

    SQLException create = assertThrows(SQLException.class, c::createStatement);
    assertEquals("08003", create.getSQLState(), create.getMessage());
    assertGone(() -> c.prepareStatement(SQL));
    assertGone(() -> before.executeQuery(SQL));
    assertGone(prepared::executeQuery);
    assertGone(() -> c.getMetaData().getTables(null, null, "%", null));

    assertDoesNotThrow(prepared::close);
    assertDoesNotThrow(before::close);
    assertDoesNotThrow(c::close);
    assertDoesNotThrow(c::close);
    assertTrue(c.isClosed());
  }

  @Test
  void aLiveConnectionStillAnswersAndItsObjectsLeadBackToIt() throws Exception {
    try (Connection c = connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(SQL)) {
      assertTrue(rs.next());
      assertEquals(s, rs.getStatement());
      assertEquals(c, s.getConnection());
      assertEquals(c, c.getMetaData().getConnection());
      assertTrue(c.isWrapperFor(AvaticaConnection.class));
      // a refusal keeps its contract SQLState
      SQLException refused = assertThrows(SQLException.class,
          () -> s.executeQuery("SELECT RIDER_ID FROM TRIPS"));
      assertTrue(refused.getSQLState().startsWith("XDP") || refused.getSQLState().startsWith("42"),
          refused.getSQLState());
    }
  }

  @Test
  void aServerThatIsNotThereIsAConnectionExceptionNotAnUncheckedOne() {
    Properties props = new Properties();
    props.setProperty("user", "bob");
    props.setProperty("password", "pw-bob");
    SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
        DpsqlDriver.REMOTE_PREFIX + "url=http://127.0.0.1:1", props));
    assertTrue(e.getSQLState().startsWith("08"), e.getSQLState() + ": " + e.getMessage());
  }
}
