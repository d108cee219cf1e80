package org.dpsql.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.AvaticaClientRuntimeException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaParameter;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.dpsql.backend.BackendColumn;
import org.dpsql.backend.BackendTable;
import org.dpsql.backend.ExactMeasurer;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.session.DpsqlSession;
import org.dpsql.session.PreparedQuery;
import org.dpsql.session.SystemTable;
import org.dpsql.sql.AnalyzedStatement;
import org.dpsql.sql.FrontEnd;

/**
 * The Avatica {@link org.apache.calcite.avatica.Meta} of one dpsql connection: the single place
 * where statements and metadata requests enter. Statements go to the connection's {@link
 * DpsqlSession}; metadata lists exactly what the policy exposes (private tables with their policy
 * columns, public tables, and the {@code DPSQL} system tables).
 */
final class DpsqlMeta extends MetaImpl {
  private final DpsqlSession session;
  private final Map<Integer, PreparedQuery> prepared = new ConcurrentHashMap<>();

  DpsqlMeta(AvaticaConnection connection, DpsqlSession session) {
    super(connection);
    this.session = session;
  }

  DpsqlSession session() {
    return session;
  }

  // ---------------------------------------------------------------------------------------------
  // Statements

  @Override
  public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    PreparedQuery q = call(() -> session.prepare(sql));
    StatementHandle h = createStatement(ch);
    h.signature = signature(q);
    prepared.put(h.id, q);
    return h;
  }

  @Override
  @SuppressWarnings("deprecation")
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      PrepareCallback callback) throws NoSuchStatementException {
    return prepareAndExecute(h, sql, maxRowCount, -1, callback);
  }

  @Override
  public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    java.util.concurrent.atomic.AtomicBoolean cancel = cancelFlag(h);
    if (cancel != null) {
      cancel.set(false); // a cancel of an earlier statement does not stop this one
    }
    PreparedQuery q = call(() -> session.prepare(sql));
    ResultTable table = call(() -> org.dpsql.backend.Cancellation.watching(cancel,
        () -> session.execute(q, List.of())));
    Signature signature = q.statement() instanceof AnalyzedStatement.Deferred
        ? signature(q, table.columns()) : signature(q);
    Frame frame = frame(table, maxRowCount);
    try {
      synchronized (callback.getMonitor()) {
        callback.clear();
        callback.assign(signature, frame, -1);
      }
      callback.execute();
    } catch (SQLException e) {
      throw toAvatica(e);
    }
    h.signature = signature;
    return new ExecuteResult(List.of(MetaResultSet.create(h.connectionId, h.id, false, signature,
        frame)));
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, long maxRowCount)
      throws NoSuchStatementException {
    return execute(h, parameterValues, (int) Math.min(Integer.MAX_VALUE, maxRowCount));
  }

  @Override
  public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues,
      int maxRowsInFirstFrame) throws NoSuchStatementException {
    PreparedQuery q = prepared.get(h.id);
    if (q == null) {
      throw new NoSuchStatementException(h);
    }
    List<Object> params = new ArrayList<>();
    Calendar calendar = Calendar.getInstance(TimeZone.getDefault(), Locale.ROOT);
    int n = Math.max(q.parameters().size(), parameterValues == null ? 0 : parameterValues.size());
    for (int i = 0; i < n; i++) {
      TypedValue tv = parameterValues == null || i >= parameterValues.size() ? null
          : parameterValues.get(i);
      params.add(tv == null ? ExactMeasurer.UNSET : tv.toJdbc(calendar));
    }
    java.util.concurrent.atomic.AtomicBoolean cancel = cancelFlag(h);
    if (cancel != null) {
      cancel.set(false); // a cancel of an earlier statement does not stop this one
    }
    ResultTable table = call(() -> org.dpsql.backend.Cancellation.watching(cancel,
        () -> session.execute(q, params)));
    // a statement bound at execute was described by validation at prepare; its result says what
    // the bound statement released
    Signature signature = q.statement() instanceof AnalyzedStatement.Deferred
        ? signature(q, table.columns()) : signature(q);
    return new ExecuteResult(List.of(MetaResultSet.create(h.connectionId, h.id, false, signature,
        frame(table, -1))));
  }

  @Override
  public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands) {
    throw toAvatica(SqlStates.notSupported("dpsql runs no write batches: connections are read-only"));
  }

  @Override
  public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValues) {
    // a batch returns update counts, not result sets: a query has none to give
    throw toAvatica(SqlStates.notSupported("batches (addBatch/executeBatch) return update counts "
        + "and dpsql connections are read-only: execute the prepared query once per set of "
        + "values (executeQuery), each execution is a release of its own"));
  }

  @Override
  public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    return Frame.EMPTY; // every result is sent whole in its first frame
  }

  @Override
  public void closeStatement(StatementHandle h) {
    prepared.remove(h.id);
  }

  @Override
  public void closeConnection(ConnectionHandle ch) {
    super.closeConnection(ch);
    try {
      session.close();
    } catch (SQLException e) {
      throw toAvatica(e);
    }
  }

  @Override
  public boolean syncResults(StatementHandle sh, QueryState state, long offset) {
    return false;
  }

  @Override
  public void commit(ConnectionHandle ch) {
    // read-only: nothing to commit
  }

  @Override
  public void rollback(ConnectionHandle ch) {
    // read-only: nothing to roll back
  }

  private static Signature signature(PreparedQuery q) {
    return signature(q, q.columns());
  }

  private static Signature signature(PreparedQuery q, List<ResultColumn> resultColumns) {
    List<ColumnMetaData> columns = new ArrayList<>();
    for (int i = 0; i < resultColumns.size(); i++) {
      columns.add(columnMetaData(i, resultColumns.get(i)));
    }
    List<AvaticaParameter> params = new ArrayList<>();
    for (AnalyzedStatement.ParameterInfo p : q.parameters()) {
      params.add(new AvaticaParameter(true, p.precision(), p.scale(), p.jdbcType(), p.typeName(),
          Object.class.getName(), "?"));
    }
    return Signature.create(columns, q.sql(), params, CursorFactory.ARRAY, StatementType.SELECT);
  }

  private static ColumnMetaData columnMetaData(int ordinal, ResultColumn c) {
    ColumnMetaData.AvaticaType type =
        ColumnMetaData.scalar(c.jdbcType(), c.typeName(), ColumnMetaData.Rep.of(c.javaClass()));
    boolean signed = Number.class.isAssignableFrom(c.javaClass());
    return new ColumnMetaData(ordinal, false, true, true, false,
        c.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls, signed,
        Math.max(1, Math.min(c.precision(), 65536)), c.label(), c.label(), null, c.precision(),
        c.scale(), null, null, type, true, false, false, c.javaClass().getName());
  }

  private static Frame frame(ResultTable table, long maxRowCount) {
    List<Object> rows = new ArrayList<>(table.rows());
    if (maxRowCount > 0 && rows.size() > maxRowCount) {
      rows = rows.subList(0, (int) maxRowCount);
    }
    return Frame.create(0, true, rows);
  }

  // ---------------------------------------------------------------------------------------------
  // Metadata: what the policy exposes

  @Override
  public MetaResultSet getTables(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, List<String> typeList) {
    List<MetaTable> rows = new ArrayList<>();
    boolean tables = typeList == null || typeList.contains("TABLE");
    boolean system = typeList == null || typeList.contains("SYSTEM TABLE");
    for (BackendTable t : session.catalog().tables()) {
      if (tables && matches(schemaPattern, t.schema()) && matches(tableNamePattern, t.name())) {
        rows.add(new MetaTable(null, t.schema(), t.name(), "TABLE"));
      }
    }
    for (SystemTable t : session.systemTables()) {
      if (system && matches(schemaPattern, FrontEnd.SYSTEM_SCHEMA)
          && matches(tableNamePattern, t.name())) {
        rows.add(new MetaTable(null, FrontEnd.SYSTEM_SCHEMA, t.name(), "SYSTEM TABLE"));
      }
    }
    return records(MetaTable.class, rows);
  }

  @Override
  public MetaResultSet getColumns(ConnectionHandle ch, String catalog, Pat schemaPattern,
      Pat tableNamePattern, Pat columnNamePattern) {
    List<MetaColumn> rows = new ArrayList<>();
    for (BackendTable t : session.catalog().tables()) {
      if (!matches(schemaPattern, t.schema()) || !matches(tableNamePattern, t.name())) {
        continue;
      }
      TablePolicy tp = session.policy().table(t.name()).orElseThrow();
      int ordinal = 0;
      for (BackendColumn c : t.exposedColumns(tp)) {
        ordinal++;
        if (matches(columnNamePattern, c.name())) {
          rows.add(new MetaColumn(null, t.schema(), t.name(), c.name(), c.jdbcType(), c.typeName(),
              c.precision(), c.scale(), 10,
              c.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
              c.precision(), ordinal, c.nullable() ? "YES" : "NO",
              remarks(tp, c.name()), null));
        }
      }
    }
    for (SystemTable t : session.systemTables()) {
      if (!matches(schemaPattern, FrontEnd.SYSTEM_SCHEMA) || !matches(tableNamePattern, t.name())) {
        continue;
      }
      int ordinal = 0;
      for (ResultColumn c : t.columns()) {
        ordinal++;
        if (matches(columnNamePattern, c.label())) {
          rows.add(new MetaColumn(null, FrontEnd.SYSTEM_SCHEMA, t.name(), c.label(),
              c.jdbcType(), c.typeName(), c.precision(), c.scale(), 10,
              c.nullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
              c.precision(), ordinal, c.nullable() ? "YES" : "NO", null, null));
        }
      }
    }
    return records(MetaColumn.class, rows);
  }

  private static String remarks(TablePolicy tp, String column) {
    if (tp.isPublic()) {
      return null;
    }
    ColumnPolicy c = tp.column(column).orElseThrow();
    List<String> parts = new ArrayList<>();
    c.categorical().ifPresent(d -> parts.add("values " + d.values()));
    c.ordered().ifPresent(d -> parts.add("ordered " + d.min().toPlainString() + ".."
        + d.max().toPlainString() + " bin " + d.bin().toPlainString()));
    c.clamp().ifPresent(k -> parts.add("clamp [" + k.lo().toPlainString() + ", "
        + k.hi().toPlainString() + "]"));
    return "private (dpsql policy): " + String.join("; ", parts);
  }

  @Override
  public MetaResultSet getSchemas(ConnectionHandle ch, String catalog, Pat schemaPattern) {
    List<String> names = new ArrayList<>();
    for (BackendTable t : session.catalog().tables()) {
      if (t.schema() != null && !names.contains(t.schema())) {
        names.add(t.schema());
      }
    }
    names.add(FrontEnd.SYSTEM_SCHEMA);
    List<MetaSchema> rows = new ArrayList<>();
    for (String n : names) {
      if (matches(schemaPattern, n)) {
        rows.add(new MetaSchema(null, n));
      }
    }
    return records(MetaSchema.class, rows);
  }

  @Override
  public MetaResultSet getTableTypes(ConnectionHandle ch) {
    return records(MetaTableType.class,
        List.of(new MetaTableType("SYSTEM TABLE"), new MetaTableType("TABLE")));
  }

  @Override
  public MetaResultSet getCatalogs(ConnectionHandle ch) {
    return createEmptyResultSet(MetaCatalog.class);
  }

  private <E> MetaResultSet records(Class<E> clazz, List<? extends E> rows) {
    List<ColumnMetaData> columns = fieldMetaData(clazz).columns;
    List<java.lang.reflect.Field> fields = new ArrayList<>();
    for (java.lang.reflect.Field f : clazz.getFields()) {
      if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
        fields.add(f);
      }
    }
    CursorFactory cf = CursorFactory.record(clazz, fields,
        columns.stream().map(c -> c.columnName).toList());
    return createResultSet(Map.of(), columns, cf, Frame.create(0, true, new ArrayList<>(rows)));
  }

  private static boolean matches(Pat pattern, String value) {
    if (pattern == null || pattern.s == null || pattern.s.equals("%")) {
      return true;
    }
    if (value == null) {
      return false;
    }
    StringBuilder regex = new StringBuilder();
    String s = pattern.s;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        regex.append(Pattern.quote(String.valueOf(s.charAt(++i))));
      } else if (c == '%') {
        regex.append(".*");
      } else if (c == '_') {
        regex.append('.');
      } else {
        regex.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(value).matches();
  }

  // ---------------------------------------------------------------------------------------------
  // Errors: SQLExceptions cross Avatica as runtime exceptions that keep message and SQLState

  private interface SqlCall<T> {
    T run() throws SQLException;
  }

  /** The flag {@code Statement.cancel()} sets for {@code h}, or null. */
  private java.util.concurrent.atomic.AtomicBoolean cancelFlag(StatementHandle h) {
    try {
      return connection.getCancelFlag(h);
    } catch (NoSuchStatementException e) {
      return null;
    }
  }

  private static <T> T call(SqlCall<T> body) {
    try {
      return body.run();
    } catch (SQLException e) {
      throw toAvatica(e);
    } catch (AvaticaClientRuntimeException e) {
      throw e; // already carries its state
    } catch (RuntimeException e) {
      // every failure reaches the client with a SQLState; an engine defect is HY000, and its
      // message (which could quote anything) stays out of the answer
      throw toAvatica(new SQLException("internal error (" + e.getClass().getSimpleName()
          + ") while running this statement; please report it", "HY000", e));
    }
  }

  static AvaticaClientRuntimeException toAvatica(SQLException e) {
    String state = e.getSQLState() == null ? "HY000" : e.getSQLState();
    return new AvaticaClientRuntimeException(e.getMessage(), e.getErrorCode(), state,
        AvaticaSeverity.ERROR, List.of(), null);
  }
}
