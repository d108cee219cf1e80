package org.dpsql.session;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.sql.relational.ReleasePlan;

/**
 * Runs the post-processing part of a {@link ReleasePlan} over released rows and public data, in a
 * private in-memory H2 database of the connection that holds nothing else: the released tables
 * ({@code R0, R1, ...}) and public inputs ({@code P0, ...}) are loaded, the post-processing
 * statement runs, and the tables are dropped.
 *
 * <p>Guarantees: the post-processing statement can read nothing but the rows given to it (the
 * database is created empty for this connection and reached by no one else), so its result is
 * post-processing of releases and public data and costs no budget. Result columns carry the
 * statement's validated names.
 */
final class PostProcessor implements AutoCloseable {
  /** The most rows a public input may bring into post-processing. */
  static final int MAX_PUBLIC_ROWS = 1_000_000;

  private Connection scratch;

  /** The result columns of {@code plan}, described without data. */
  synchronized List<ResultColumn> describe(ReleasePlan plan, List<List<ResultColumn>> releases)
      throws SQLException {
    if (plan.empty()) {
      return columnsOf(plan.rowType());
    }
    List<ResultTable> tables = new ArrayList<>();
    for (List<ResultColumn> cols : releases) {
      tables.add(new ResultTable(cols, List.of()));
    }
    List<ResultTable> inputs = new ArrayList<>();
    for (ReleasePlan.PublicInput p : plan.publicInputs()) {
      inputs.add(new ResultTable(columnsOf(p.rowType()), List.of()));
    }
    // described on empty tables, its parameters (HAVING ?, LIMIT ?) unbound: prepared only
    return run(plan, tables, inputs, null).columns();
  }

  /**
   * The statement's result from its released tables and public inputs (in plan order), with
   * {@code values} bound to the post-processing statement's parameters (in the order written);
   * when {@code values} is null, the statement is prepared, not run, and its columns described.
   */
  synchronized ResultTable run(ReleasePlan plan, List<ResultTable> releases,
      List<ResultTable> publicInputs, List<Object> values) throws SQLException {
    if (plan.empty()) {
      return new ResultTable(columnsOf(plan.rowType()), List.of());
    }
    Connection c = connection();
    List<String> created = new ArrayList<>();
    try {
      for (int i = 0; i < releases.size(); i++) {
        load(c, plan.releases().get(i).table(), releases.get(i), created);
      }
      for (int i = 0; i < publicInputs.size(); i++) {
        load(c, plan.publicInputs().get(i).table(), publicInputs.get(i), created);
      }
      try (PreparedStatement st = c.prepareStatement(plan.postSql())) {
        if (values == null) {
          List<ResultColumn> cols = columnsOf(st.getMetaData(), plan.rowType());
          return readable(integral(new ResultTable(cols, List.of()), plan.rowType()));
        }
        for (int i = 0; i < values.size(); i++) {
          st.setObject(i + 1, values.get(i));
        }
        try (ResultSet rs = st.executeQuery()) {
          List<ResultColumn> cols = columnsOf(rs.getMetaData(), plan.rowType());
          return readable(integral(new ResultTable(cols, DpsqlSession.rows(rs, cols.size())),
              plan.rowType()));
        }
      }
    } catch (SQLException e) {
      throw new SQLException("post-processing of the released rows failed: " + e.getMessage()
          + " (nothing more was charged; the releases are kept)", "42000", e);
    } finally {
      try (Statement st = c.createStatement()) {
        for (String t : created) {
          st.execute("DROP TABLE IF EXISTS \"" + t + "\"");
        }
      }
    }
  }

  /**
   * The result with whole-number decimals as BIGINT where the statement's validated type is an
   * integer: H2 sums BIGINT columns (a count summed over released groups, {@code COUNT(*)} of a
   * statement that the planner answers as {@code $SUM0} of released counts) as NUMERIC(…, 0),
   * while the statement asked for a count, an integer. Decided on the column types alone, so that
   * prepare and execute describe it alike.
   */
  private static ResultTable integral(ResultTable t, RelDataType rowType) {
    List<ResultColumn> cols = new ArrayList<>(t.columns());
    boolean[] toLong = new boolean[cols.size()];
    boolean any = false;
    for (int i = 0; i < cols.size() && i < rowType.getFieldCount(); i++) {
      ResultColumn c = cols.get(i);
      SqlTypeName validated = rowType.getFieldList().get(i).getType().getSqlTypeName();
      boolean integer = validated == SqlTypeName.BIGINT || validated == SqlTypeName.INTEGER
          || validated == SqlTypeName.SMALLINT || validated == SqlTypeName.TINYINT;
      if (integer && (c.jdbcType() == Types.DECIMAL || c.jdbcType() == Types.NUMERIC)
          && c.scale() == 0 && !"DECFLOAT".equalsIgnoreCase(c.typeName())) {
        toLong[i] = true;
        any = true;
        cols.set(i, ResultColumn.bigint(c.label(), c.nullable()));
      }
    }
    if (!any) {
      return t;
    }
    // scale 0 and a sum of longs within H2's BIGINT range
    return converted(t, cols, toLong,
        v -> v instanceof java.math.BigDecimal b ? (Object) b.longValueExact() : v);
  }

  /** {@code t}'s rows under {@code cols}, {@code convert} applied to the marked columns' values. */
  private static ResultTable converted(ResultTable t, List<ResultColumn> cols, boolean[] marked,
      java.util.function.UnaryOperator<Object> convert) {
    List<Object[]> rows = new ArrayList<>(t.rows().size());
    for (Object[] r : t.rows()) {
      Object[] row = r.clone();
      for (int i = 0; i < row.length; i++) {
        if (marked[i]) {
          row[i] = convert.apply(row[i]);
        }
      }
      rows.add(row);
    }
    return new ResultTable(cols, rows);
  }

  /** Decimal results with more than this many digits after the point are shown as doubles. */
  private static final int MAX_SCALE = 10;

  /**
   * The result with long decimals (H2 divides exact decimals to dozens of digits: a share of a
   * noisy total would show 60) as doubles, which keep 15 significant digits, more than any noisy
   * answer has.
   */
  private static ResultTable readable(ResultTable t) {
    List<ResultColumn> cols = new ArrayList<>(t.columns());
    boolean[] toDouble = new boolean[cols.size()];
    boolean any = false;
    for (int i = 0; i < cols.size(); i++) {
      ResultColumn c = cols.get(i);
      boolean decimal = c.jdbcType() == Types.DECIMAL || c.jdbcType() == Types.NUMERIC
          || "DECFLOAT".equalsIgnoreCase(c.typeName());
      // decided on the column's type alone, so that prepare and execute describe it alike
      if (decimal && (c.scale() > MAX_SCALE || "DECFLOAT".equalsIgnoreCase(c.typeName()))) {
        toDouble[i] = true;
        any = true;
        cols.set(i, ResultColumn.doubles(c.label(), c.nullable()));
      }
    }
    if (!any) {
      return t;
    }
    return converted(t, cols, toDouble, v -> v instanceof Number n ? (Object) n.doubleValue() : v);
  }

  private Connection connection() throws SQLException {
    if (scratch == null || scratch.isClosed()) {
      // an unnamed in-memory database is private to this connection object
      scratch = DriverManager.getConnection("jdbc:h2:mem:");
    }
    return scratch;
  }

  private static void load(Connection c, String name, ResultTable t, List<String> created)
      throws SQLException {
    if (t.rows().size() > MAX_PUBLIC_ROWS) {
      throw org.dpsql.errors.SqlStates.notSupported("a part of this statement returns "
          + t.rows().size() + " rows, more than the " + MAX_PUBLIC_ROWS + " that post-processing "
          + "takes; filter or aggregate the public table in the statement");
    }
    StringBuilder ddl = new StringBuilder("CREATE TABLE \"" + name + "\" (");
    StringBuilder insert = new StringBuilder("INSERT INTO \"" + name + "\" VALUES (");
    for (int i = 0; i < t.columns().size(); i++) {
      ddl.append(i == 0 ? "" : ", ").append("\"C").append(i).append("\" ")
          .append(h2Type(t.columns().get(i)));
      insert.append(i == 0 ? "?" : ", ?");
    }
    try (Statement st = c.createStatement()) {
      st.execute(ddl.append(")").toString());
    }
    created.add(name);
    if (t.rows().isEmpty()) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(insert.append(")").toString())) {
      for (Object[] row : t.rows()) {
        for (int i = 0; i < row.length; i++) {
          ps.setObject(i + 1, row[i]);
        }
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  /** The H2 column type that holds a released or public column's values. */
  private static String h2Type(ResultColumn c) {
    return switch (c.jdbcType()) {
      case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> "BIGINT";
      case Types.REAL, Types.FLOAT, Types.DOUBLE -> "DOUBLE PRECISION";
      case Types.DECIMAL, Types.NUMERIC -> "DECFLOAT";
      case Types.BOOLEAN, Types.BIT -> "BOOLEAN";
      case Types.DATE -> "DATE";
      case Types.TIME -> "TIME";
      case Types.TIMESTAMP -> "TIMESTAMP";
      case Types.TIMESTAMP_WITH_TIMEZONE -> "TIMESTAMP WITH TIME ZONE";
      default -> "VARCHAR";
    };
  }

  /** The columns of a Calcite row type (a statement described without running anything). */
  static List<ResultColumn> columnsOf(RelDataType rowType) {
    List<ResultColumn> cols = new ArrayList<>();
    for (RelDataTypeField f : rowType.getFieldList()) {
      cols.add(column(f.getName(), f.getType()));
    }
    return cols;
  }

  private static ResultColumn column(String label, RelDataType type) {
    boolean nullable = type.isNullable();
    SqlTypeName name = type.getSqlTypeName();
    return switch (name) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> ResultColumn.bigint(label, nullable);
      case FLOAT, REAL, DOUBLE -> ResultColumn.doubles(label, nullable);
      case DECIMAL -> ResultColumn.decimal(label, Math.max(0, type.getScale()), nullable);
      case BOOLEAN -> ResultColumn.bool(label, nullable);
      case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ResultColumn.timestamp(label, nullable);
      case DATE -> new ResultColumn(label, Types.DATE, "DATE", java.sql.Date.class, 10, 0,
          nullable);
      default -> ResultColumn.varchar(label, nullable);
    };
  }

  /** The columns H2 reports, labelled with the statement's validated names. */
  private static List<ResultColumn> columnsOf(ResultSetMetaData md, RelDataType rowType)
      throws SQLException {
    List<ResultColumn> cols = new ArrayList<>(DpsqlSession.columnsOf(md));
    List<String> names = rowType.getFieldNames();
    for (int i = 0; i < cols.size() && i < names.size(); i++) {
      cols.set(i, cols.get(i).withLabel(names.get(i)));
    }
    return cols;
  }

  @Override
  public synchronized void close() throws SQLException {
    if (scratch != null) {
      scratch.close();
    }
  }
}
