package org.dpsql.backend;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Locale;
import org.apache.calcite.sql.SqlDialect;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.apache.calcite.sql.dialect.PrestoSqlDialect;

/**
 * The Calcite {@link SqlDialect} in which dpsql writes SQL for a backend, chosen from the JDBC
 * driver's metadata. Calcite's factory knows H2, PostgreSQL and most others by their product
 * names; Trino (whose driver calls itself {@code Trino}) is written in Calcite's Presto dialect,
 * the SQL dialect Trino inherited from Presto (double-quoted identifiers kept in the backend's
 * lower-case spelling, {@code RAND()}, window functions, {@code VALUES}, standard {@code CAST}),
 * with the corrections of {@link TrinoSqlDialect}.
 *
 * <p>Guarantee: every statement dpsql sends to one backend (measurements, public-table SQL, the
 * policy's domain evaluations) is written in the one dialect {@link #of} returns for it.
 */
public final class BackendDialects {
  private BackendDialects() {}

  /** The dialect of the backend behind {@code md}. */
  public static SqlDialect of(DatabaseMetaData md) throws SQLException {
    if (isTrinoProduct(md.getDatabaseProductName())) {
      return TrinoSqlDialect.DEFAULT;
    }
    return SqlDialectFactoryImpl.INSTANCE.create(md);
  }

  /** Whether {@code dialect} writes for Trino (or Presto). */
  public static boolean isTrino(SqlDialect dialect) {
    return dialect instanceof PrestoSqlDialect;
  }

  /**
   * Whether the backend can hold a connection's temporary tables ({@code bounding: snapshot}).
   * Trino cannot: it has no temporary tables, and its memory connector's tables would be visible
   * to every user of the catalog.
   */
  public static boolean supportsTemporaryTables(SqlDialect dialect) {
    return !isTrino(dialect);
  }

  private static boolean isTrinoProduct(String product) {
    String p = product == null ? "" : product.trim().toUpperCase(Locale.ROOT);
    return p.equals("TRINO") || p.equals("PRESTO");
  }
}
