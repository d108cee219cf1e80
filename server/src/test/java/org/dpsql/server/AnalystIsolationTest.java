package org.dpsql.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.remote.Service.ErrorResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests a JDBC driver would never send: one analyst naming another analyst's connection or
 * statement, reusing a connection id, sending garbage or no credentials.
 */
class AnalystIsolationTest {
  @TempDir static Path dir;
  static DpsqlServer server;

  @BeforeAll
  static void start() throws Exception {
    String backend = TestServers.demoBackend("isolation-test", 2000);
    Path users = TestServers.users(dir, "alice 2", "bob 2", "mallory 2");
    server = DpsqlServer.start(TestServers.options(backend, users, dir.resolve("ledger"), null));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static void assertError(Service.Response r, String sqlState) {
    ErrorResponse e = assertInstanceOf(ErrorResponse.class, r, String.valueOf(r));
    assertEquals(sqlState, e.sqlState, e.errorMessage);
    assertTrue(e.exceptions == null || e.exceptions.isEmpty(), "no stack traces: " + e.exceptions);
  }

  /** Avatica's answer for a statement the caller does not have: "missing", with no results. */
  private static void assertMissingStatement(Service.Response r) {
    if (r instanceof Service.ExecuteResponse e) {
      assertTrue(e.missingStatement, "missing statement");
      assertTrue(e.results == null || e.results.isEmpty(), "no results");
    } else if (r instanceof Service.FetchResponse f) {
      assertTrue(f.missingStatement, "missing statement");
      assertTrue(f.frame == null || f.frame.rows == null
          || !f.frame.rows.iterator().hasNext(), "no rows");
    } else {
      throw new AssertionError("unexpected " + r);
    }
  }

  @Test
  void anAnalystCannotUseCloseOrTakeOverAnotherAnalystsConnectionOrStatement() throws Exception {
    TestServers.RawClient alice = new TestServers.RawClient(server, "alice", "pw-alice");
    TestServers.RawClient bob = new TestServers.RawClient(server, "bob", "pw-bob");
    String sql = "SELECT /*+ DP(rho='0.1') */ COUNT(*) FROM TRIPS";

    assertInstanceOf(Service.OpenConnectionResponse.class,
        alice.call(new Service.OpenConnectionRequest("conn-alice", Map.of())));
    Service.CreateStatementResponse st = assertInstanceOf(Service.CreateStatementResponse.class,
        alice.call(new Service.CreateStatementRequest("conn-alice")));
    assertInstanceOf(Service.OpenConnectionResponse.class,
        bob.call(new Service.OpenConnectionRequest("conn-bob", Map.of())));
    Service.CreateStatementResponse bobs = assertInstanceOf(Service.CreateStatementResponse.class,
        bob.call(new Service.CreateStatementRequest("conn-bob")));

    // bob names alice's connection: it does not exist for him
    assertMissingStatement(bob.call(new Service.PrepareAndExecuteRequest("conn-alice",
        st.statementId, sql, -1)));
    assertError(bob.call(new Service.CreateStatementRequest("conn-alice")),
        ClientErrors.NO_CONNECTION);
    assertError(bob.call(new Service.PrepareRequest("conn-alice", sql, -1)),
        ClientErrors.NO_CONNECTION);
    assertError(bob.call(new Service.CloseConnectionRequest("conn-alice")),
        ClientErrors.NO_CONNECTION);
    assertError(bob.call(new Service.OpenConnectionRequest("conn-alice", Map.of())), "08002");
    assertError(bob.call(new Service.TablesRequest("conn-alice", null, null, null, List.of())),
        ClientErrors.NO_CONNECTION);
    // bob runs alice's statement through his own connection: it does not exist for him either
    assertMissingStatement(bob.call(new Service.PrepareAndExecuteRequest("conn-bob",
        st.statementId, sql, -1)));
    assertMissingStatement(bob.call(new Service.FetchRequest("conn-bob", st.statementId, 0, 100)));
    assertMissingStatement(bob.call(new Service.FetchRequest("conn-alice", st.statementId, 0,
        100)));
    bob.call(new Service.CloseStatementRequest("conn-bob", st.statementId)); // silently ignored

    // alice's connection and statement are untouched, and nothing was charged to her by bob
    assertEquals(0, server.ledger().audit("alice").entries());
    Service.ExecuteResponse mine = assertInstanceOf(Service.ExecuteResponse.class,
        alice.call(new Service.PrepareAndExecuteRequest("conn-alice", st.statementId, sql, -1)));
    assertEquals(1, mine.results.size());
    assertEquals(1, server.ledger().audit("alice").charged());
    assertEquals(0, server.ledger().audit("bob").entries());
    // bob's own statement works through his own connection
    assertInstanceOf(Service.ExecuteResponse.class,
        bob.call(new Service.PrepareAndExecuteRequest("conn-bob", bobs.statementId, sql, -1)));
    assertEquals(1, server.ledger().audit("bob").charged());
  }

  @Test
  void garbageOversizedAndUnauthenticatedRequestsAreRefused() throws Exception {
    TestServers.RawClient mallory = new TestServers.RawClient(server, "mallory", "pw-mallory");
    HttpResponse<byte[]> garbage = mallory.post(new byte[] {1, 2, 3, 4, 5, 6, 7});
    assertEquals(500, garbage.statusCode());
    ErrorResponse e = assertInstanceOf(ErrorResponse.class,
        new org.apache.calcite.avatica.remote.ProtobufTranslationImpl().parseResponse(garbage.body()));
    assertEquals(ClientErrors.PROTOCOL, e.sqlState);
    assertEquals(413, mallory.post(new byte[DpsqlServer.MAX_REQUEST_BYTES + 1]).statusCode());
    TestServers.RawClient anonymous = new TestServers.RawClient(server, null, null);
    assertEquals(401, anonymous.post(new byte[] {1}).statusCode());
    TestServers.RawClient wrong = new TestServers.RawClient(server, "mallory", "guess");
    assertEquals(401, wrong.post(new byte[] {1}).statusCode());
    // statements on a connection never opened
    assertMissingStatement(mallory.call(new Service.PrepareAndExecuteRequest("nope", 1,
        "SELECT 1", -1)));
    assertError(mallory.call(new Service.PrepareRequest("nope", "SELECT 1", -1)),
        ClientErrors.NO_CONNECTION);
  }

  @Test
  void anAnalystMayHoldOnlySoManyConnections() throws Exception {
    TestServers.RawClient mallory = new TestServers.RawClient(server, "mallory", "pw-mallory");
    for (int i = 0; i < 16; i++) {
      assertInstanceOf(Service.OpenConnectionResponse.class,
          mallory.call(new Service.OpenConnectionRequest("m" + i, Map.of())));
    }
    assertError(mallory.call(new Service.OpenConnectionRequest("m16", Map.of())), "08004");
    mallory.call(new Service.CloseConnectionRequest("m0"));
    assertInstanceOf(Service.OpenConnectionResponse.class,
        mallory.call(new Service.OpenConnectionRequest("m16", Map.of())));
    for (int i = 1; i <= 16; i++) {
      mallory.call(new Service.CloseConnectionRequest("m" + i));
    }
  }
}
