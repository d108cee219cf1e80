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
import org.dpsql.backend.BackendCatalog;
import org.dpsql.release.ResultColumn;

/**
 * Answers queries over the {@code DPSQL} system schema and {@code INFORMATION_SCHEMA} with full
 * SQL: the rows of each {@link SystemTable} are copied into a small private in-memory H2 database of
 * the connection just before each system query runs there. That database holds nothing but the
 * connection's own budget state and the empty {@link CatalogMirror} of the tables the policy
 * exposes, so its INFORMATION_SCHEMA lists exactly what DatabaseMetaData lists. Such queries read
 * no backend data and are never charged.
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

  /**
   * A connection to the scratch database with fresh system rows; call under the session lock. The
   * first call also creates there the empty mirror of the policy's view of the backend ({@link
   * CatalogMirror}), which H2's INFORMATION_SCHEMA describes.
   */
  synchronized Connection refreshed(SessionView session, BackendCatalog catalog)
      throws SQLException {
    if (scratch == null) {
      Connection fresh = new org.h2.Driver().connect("jdbc:h2:mem:dpsql_system_"
          + UUID.randomUUID(), new java.util.Properties());
      try (Statement st = fresh.createStatement()) {
        st.execute("CREATE SCHEMA DPSQL");
        for (SystemTable t : tables) {
          List<String> cols = new ArrayList<>();
          for (ResultColumn c : t.columns()) {
            cols.add("\"" + c.label() + "\" " + sqlType(c));
          }
          st.execute("CREATE TABLE DPSQL.\"" + t.name() + "\" (" + String.join(", ", cols) + ")");
        }
        CatalogMirror.create(fresh, session.policy(), catalog);
      } catch (SQLException | RuntimeException e) {
        fresh.close();
        throw e;
      }
      scratch = fresh;
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
