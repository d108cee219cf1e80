package org.dpsql.session;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.backend.BackendColumn;
import org.dpsql.backend.BackendTable;
import org.dpsql.policy.Policy;
import org.dpsql.policy.TablePolicy;

/**
 * Creates, in a connection's private scratch H2 database, an empty table for every table the policy
 * exposes, with exactly the columns an analyst may see ({@link BackendTable#exposedColumns}), so
 * that H2's own {@code INFORMATION_SCHEMA} (SCHEMATA, TABLES, COLUMNS, TABLE_CONSTRAINTS,
 * KEY_COLUMN_USAGE, VIEWS, ...) describes the policy's view of the backend and nothing else.
 *
 * <p>Guarantees: the mirror tables hold no rows, ever; a private table's undeclared columns, and
 * the tables the policy does not name, do not exist in the scratch database, so no query there can
 * name them. It carries no keys or constraints, as {@code DatabaseMetaData} reports none.
 */
final class CatalogMirror {
  private CatalogMirror() {}

  /** Creates the mirror tables in {@code scratch}, whose DPSQL schema already exists. */
  static void create(Connection scratch, Policy policy, BackendCatalog catalog) throws SQLException {
    Set<String> schemas = new LinkedHashSet<>();
    try (Statement st = scratch.createStatement()) {
      for (BackendTable t : catalog.tables()) {
        TablePolicy tp = policy.table(t.name()).orElse(null);
        if (tp == null) {
          continue;
        }
        String schema = t.schema() == null ? "PUBLIC" : t.schema();
        if (schemas.add(schema) && !schema.equals("PUBLIC")) {
          st.execute("CREATE SCHEMA IF NOT EXISTS " + quote(schema));
        }
        List<String> cols = new ArrayList<>();
        for (BackendColumn c : t.exposedColumns(tp)) {
          cols.add(quote(c.name()) + " " + h2Type(c) + (c.nullable() ? "" : " NOT NULL"));
        }
        st.execute("CREATE TABLE " + quote(schema) + "." + quote(t.name()) + " ("
            + String.join(", ", cols) + ")");
      }
    }
  }

  private static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  /** The H2 type closest to the backend column's JDBC type (lengths kept within H2's limits). */
  static String h2Type(BackendColumn c) {
    int p = c.precision();
    return switch (c.jdbcType()) {
      case Types.BIT, Types.BOOLEAN -> "BOOLEAN";
      case Types.TINYINT -> "TINYINT";
      case Types.SMALLINT -> "SMALLINT";
      case Types.INTEGER -> "INTEGER";
      case Types.BIGINT -> "BIGINT";
      case Types.REAL -> "REAL";
      case Types.FLOAT, Types.DOUBLE -> "DOUBLE PRECISION";
      case Types.DECIMAL, Types.NUMERIC -> p > 0 && p <= 100_000
          ? "NUMERIC(" + p + ", " + Math.max(0, Math.min(c.scale(), p)) + ")" : "NUMERIC";
      case Types.CHAR, Types.NCHAR -> p > 0 && p <= 1_000_000 ? "CHARACTER(" + p + ")" : "CHARACTER";
      case Types.DATE -> "DATE";
      case Types.TIME -> "TIME";
      case Types.TIME_WITH_TIMEZONE -> "TIME WITH TIME ZONE";
      case Types.TIMESTAMP -> "TIMESTAMP";
      case Types.TIMESTAMP_WITH_TIMEZONE -> "TIMESTAMP WITH TIME ZONE";
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> "VARBINARY";
      default -> p > 0 && p <= 1_000_000 ? "VARCHAR(" + p + ")" : "VARCHAR";
    };
  }
}
