package org.dpsql.session;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.UUID;
import org.dpsql.release.ResultColumn;

/**
 * Answers queries over the {@code DPSQL} system schema with full SQL: the rows of each {@link
 * SystemTable} are copied into a small private in-memory H2 database of the connection just before
 * each system query runs there. That database holds nothing but the connection's own budget state.
 */
final class SystemCatalog implements AutoCloseable {
  private final List<SystemTable> tables = new ArrayList<>();
  private Connection scratch;

  SystemCatalog() {
    for (SystemTable t : ServiceLoader.load(SystemTable.class, SystemCatalog.class.getClassLoader())) {
      tables.add(t);
    }
  }

  List<SystemTable> tables() {
    return tables;
  }

  /** A connection to the scratch database with fresh system rows; call under the session lock. */
  synchronized Connection refreshed(SessionView session) throws SQLException {
    if (tables.isEmpty()) {
      throw new SQLException("the DPSQL system tables are not installed: put dpsql-udf (or the "
          + "dpsql driver jar) on the class path", "42S02");
    }
    if (scratch == null) {
      scratch = new org.h2.Driver().connect("jdbc:h2:mem:dpsql_system_" + UUID.randomUUID(),
          new java.util.Properties());
      try (Statement st = scratch.createStatement()) {
        st.execute("CREATE SCHEMA DPSQL");
        for (SystemTable t : tables) {
          List<String> cols = new ArrayList<>();
          for (ResultColumn c : t.columns()) {
            cols.add("\"" + c.label() + "\" " + sqlType(c));
          }
          st.execute("CREATE TABLE DPSQL.\"" + t.name() + "\" (" + String.join(", ", cols) + ")");
        }
      }
    }
    for (SystemTable t : tables) {
      try (Statement st = scratch.createStatement()) {
        st.execute("DELETE FROM DPSQL.\"" + t.name() + "\"");
      }
      int n = t.columns().size();
      String marks = String.join(", ", java.util.Collections.nCopies(n, "?"));
      try (PreparedStatement ps =
          scratch.prepareStatement("INSERT INTO DPSQL.\"" + t.name() + "\" VALUES (" + marks + ")")) {
        for (Object[] row : t.rows(session)) {
          for (int i = 0; i < n; i++) {
            ps.setObject(i + 1, row[i]);
          }
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    return scratch;
  }

  private static String sqlType(ResultColumn c) {
    return switch (c.jdbcType()) {
      case Types.BIGINT -> "BIGINT";
      case Types.INTEGER -> "INTEGER";
      case Types.DOUBLE -> "DOUBLE PRECISION";
      case Types.DECIMAL, Types.NUMERIC -> "DECIMAL(38, " + c.scale() + ")";
      case Types.BOOLEAN -> "BOOLEAN";
      case Types.TIMESTAMP -> "TIMESTAMP";
      default -> "VARCHAR";
    };
  }

  @Override
  public synchronized void close() throws SQLException {
    if (scratch != null) {
      scratch.close();
      scratch = null;
    }
  }
}
