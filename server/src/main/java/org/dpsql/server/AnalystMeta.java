package org.dpsql.server;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchConnectionException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.proto.Requests;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.TypedValue;

/**
 * The server side of the Avatica protocol: Avatica's {@link JdbcMeta} over dpsql connections, with
 * every connection opened for, and usable only by, the authenticated analyst.
 *
 * <p>Guarantees: a remote connection is a dpsql connection opened by {@link AnalystConnections}
 * with the server's own policy, backend and seed and the analyst's durable budget; the properties
 * the client sends with its open request are ignored entirely. A connection belongs to the analyst
 * who opened it, and a statement to the connection that created it: any call naming another
 * analyst's connection, or a statement through a connection that does not own it, fails exactly as
 * if the connection or statement did not exist. An analyst holds at most {@code
 * maxConnectionsPerAnalyst} open connections.
 */
final class AnalystMeta extends JdbcMeta {
  /** Opens the dpsql connection of one remote connection of an analyst. */
  @FunctionalInterface
  interface AnalystConnections {
    Connection open(String analyst) throws SQLException;
  }

  private final AnalystConnections connections;
  private final int maxConnectionsPerAnalyst;
  /**
   * Remote connection id → owning analyst, from the moment an open is accepted until the
   * connection is closed or, once expired, forgotten. Entries are added and removed only with the
   * lock on this map, so that the per-analyst count and the entry a new connection adds are one
   * step.
   */
  private final Map<String, String> owners = new ConcurrentHashMap<>();
  /**
   * Ids of connections whose open was accepted and has not completed yet; changed only with the
   * lock on {@code owners}, read without it by {@link #openConnectionCount}.
   */
  private final Set<String> opening = ConcurrentHashMap.newKeySet();
  /** Statement id → connection id that created it. */
  private final Map<Integer, String> statements = new ConcurrentHashMap<>();
  /** Prepared statement id → its SQL, as the server received it (for the audit log). */
  private final Map<Integer, String> preparedSql = new ConcurrentHashMap<>();

  AnalystMeta(AnalystConnections connections, int maxConnectionsPerAnalyst, Properties cache)
      throws SQLException {
    super("jdbc:dpsql:remote", cache);
    this.connections = Objects.requireNonNull(connections, "connections");
    if (maxConnectionsPerAnalyst < 1) {
      throw new IllegalArgumentException("maxConnectionsPerAnalyst must be >= 1");
    }
    this.maxConnectionsPerAnalyst = maxConnectionsPerAnalyst;
  }

  // ---------------------------------------------------------------------------------------------
  // Connections

  @Override
  public void openConnection(ConnectionHandle ch, Map<String, String> clientInfo) {
    String analyst = CurrentAnalyst.require();
    if (ch.id == null || ch.id.isEmpty() || ch.id.length() > 100) {
      throw refused("08001", "a connection id has 1 to 100 characters");
    }
    synchronized (owners) {
      forgetExpiredConnections();
      if (openConnectionCount(analyst) >= maxConnectionsPerAnalyst) {
        throw refused("08004", "analyst '" + analyst + "' already has "
            + maxConnectionsPerAnalyst + " open connections; close one first");
      }
      if (owners.putIfAbsent(ch.id, analyst) != null) {
        throw refused("08002", "connection id already in use; open a new connection");
      }
      // counted from now on, though the connection cache has no entry for it until it is open
      opening.add(ch.id);
    }
    boolean opened = false;
    try {
      super.openConnection(ch, Map.of()); // the client's properties count for nothing
      opened = true;
    } finally {
      synchronized (owners) {
        opening.remove(ch.id);
        if (!opened) {
          owners.remove(ch.id, analyst);
        } else if (!analyst.equals(owners.get(ch.id))) {
          // the analyst was removed from the users file while this connection opened
          getConnectionCache().invalidate(ch.id);
        }
      }
    }
  }

  /**
   * Forgets the owners (and statements) of connections the connection cache no longer holds: it
   * closed them when they expired or were evicted. Connections still being opened are kept: they
   * enter the cache only when their open completes. Called with the lock on {@code owners}.
   */
  private void forgetExpiredConnections() {
    Map<String, Connection> cache = getConnectionCache().asMap(); // reads without touching
    for (Map.Entry<String, String> e : owners.entrySet()) {
      if (!opening.contains(e.getKey()) && !cache.containsKey(e.getKey())) {
        owners.remove(e.getKey(), e.getValue());
        forgetStatementsOf(e.getKey());
      }
    }
  }

  /**
   * The connections {@code analyst} holds, as the limit counts them: those being opened and those
   * open (an expired one is no longer counted, even before it is forgotten).
   */
  int openConnectionCount(String analyst) {
    Map<String, Connection> cache = getConnectionCache().asMap();
    int n = 0;
    for (Map.Entry<String, String> e : owners.entrySet()) {
      if (e.getValue().equals(analyst)
          && (opening.contains(e.getKey()) || cache.containsKey(e.getKey()))) {
        n++;
      }
    }
    return n;
  }

  @Override
  protected Connection createConnection(String url, Properties info) throws SQLException {
    return connections.open(CurrentAnalyst.require());
  }

  @Override
  protected Connection getConnection(String id) throws SQLException {
    requireOwnConnection(id);
    return super.getConnection(id);
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    requireOwnConnection(ch.id);
    try {
      super.closeConnection(ch);
    } finally {
      synchronized (owners) {
        owners.remove(ch.id);
      }
      forgetStatementsOf(ch.id);
    }
  }

  private void forgetStatementsOf(String connectionId) {
    statements.entrySet().removeIf(e -> {
      if (e.getValue().equals(connectionId)) {
        preparedSql.remove(e.getKey());
        return true;
      }
      return false;
    });
  }

  /**
   * The SQL a statement of the current analyst was prepared with, or null if the statement is not
   * theirs or was not prepared (for the audit log of an execute request, whose handle the client
   * could have filled with any text).
   */
  String preparedSql(StatementHandle h) {
    return ownStatement(h) ? preparedSql.get(h.id) : null;
  }

  private void requireOwnConnection(String id) {
    String analyst = CurrentAnalyst.require();
    if (id == null || !analyst.equals(owners.get(id))) {
      throw new NoSuchConnectionException("Connection not found: invalid id, closed, or expired: "
          + id);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

  @Override
  public StatementHandle createStatement(ConnectionHandle ch) {
    StatementHandle h = super.createStatement(ch);
    statements.put(h.id, ch.id);
    return h;
  }

  /** An empty statement arrives as null; refuse it as a syntax error, as Calcite would. */
  private static void requireStatement(String sql) {
    if (sql == null || sql.isBlank()) {
      throw refused("42000", "the statement is empty");
    }
  }

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    requireStatement(sql);
    StatementHandle h = super.prepare(ch, sql, maxRowCount);
    statements.put(h.id, ch.id);
    preparedSql.put(h.id, sql);
    return h;
  }

  /** Whether the statement was created by the handle's connection, owned by the analyst. */
  private boolean ownStatement(StatementHandle h) {
    if (h == null) {
      return false;
    }
    String connection = statements.get(h.id);
    return connection != null && connection.equals(h.connectionId)
        && CurrentAnalyst.require().equals(owners.get(connection));
  }

  private void requireOwnStatement(StatementHandle h) throws NoSuchStatementException {
    if (!ownStatement(h)) {
      throw new NoSuchStatementException(h);
    }
  }

  @Override
  public void closeStatement(StatementHandle h) {
    if (ownStatement(h)) {
      try {
        super.closeStatement(h);
      } finally {
        statements.remove(h.id);
        preparedSql.remove(h.id);
      }
    }
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    requireOwnStatement(h);
    requireStatement(sql);
    return super.prepareAndExecute(h, sql, maxRowCount, callback);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    requireOwnStatement(h);
    requireStatement(sql);
    return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      long maxRowCount) throws NoSuchStatementException {
    requireOwnStatement(h);
    return super.execute(h, parameterValues, maxRowCount);
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    requireOwnStatement(h);
    return super.execute(h, parameterValues, maxRowsInFirstFrame);
  }

  @Override
  public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    requireOwnStatement(h);
    return super.fetch(h, offset, fetchMaxRowCount);
  }

  @Override
  public boolean syncResults(StatementHandle sh, QueryState state, long offset)
      throws NoSuchStatementException {
    requireOwnStatement(sh);
    return super.syncResults(sh, state, offset);
  }

  @Override
  public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
      throws NoSuchStatementException {
    requireOwnStatement(h);
    return super.prepareAndExecuteBatch(h, sqlCommands);
  }

  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> batches)
      throws NoSuchStatementException {
    requireOwnStatement(h);
    return super.executeBatch(h, batches);
  }

  @Override
  public ExecuteBatchResult executeBatchProtobuf(StatementHandle h,
      List<Requests.UpdateBatch> batches) throws NoSuchStatementException {
    requireOwnStatement(h);
    return super.executeBatchProtobuf(h, batches);
  }

  private static AvaticaRuntimeException refused(String sqlState, String message) {
    return new AvaticaRuntimeException(message, 0, sqlState, AvaticaSeverity.ERROR);
  }

  // ---------------------------------------------------------------------------------------------
  // Operations (metrics, users-file reload)

  /** Open remote connections of all analysts now, as the per-analyst limit counts them. */
  int openConnectionCount() {
    Map<String, Connection> cache = getConnectionCache().asMap();
    int n = 0;
    for (String id : owners.keySet()) {
      if (opening.contains(id) || cache.containsKey(id)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Closes every open connection of {@code analyst} (removed from the users file): later calls
   * naming them fail as for a closed connection, and a connection of theirs still being opened is
   * closed as its open completes. Returns how many were closed or will be.
   */
  int closeConnectionsOf(String analyst) {
    int n = 0;
    synchronized (owners) {
      for (Map.Entry<String, String> e : owners.entrySet()) {
        if (e.getValue().equals(analyst) && owners.remove(e.getKey(), analyst)) {
          forgetStatementsOf(e.getKey());
          getConnectionCache().invalidate(e.getKey()); // the cache's listener closes it
          n++;
        }
      }
    }
    return n;
  }
}
