package org.dpsql.backend;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpsql.policy.TablePolicy;

/**
 * Whether the backend itself guarantees one row per privacy unit of a private table, read from
 * {@link DatabaseMetaData} once per table and connection.
 *
 * <p>Guarantee: {@link #oneRowPerUnit} answers {@code true} only if the backend declares the
 * privacy-unit column, alone, the table's primary key, or the only column of a unique index that
 * has no filter condition (not a partial index) on a column declared {@code NOT NULL}. The backend
 * enforces such a constraint on every row, so each unit has at most one row and at most one row of
 * it can reach any aggregate: contribution bounding to {@code max_rows_per_unit >= 1} rows would
 * keep every row, and the measurement may skip it. (A unique index on a nullable column admits any
 * number of NULL units, which bounding treats as one unit: such a column is not trusted.) Anything
 * else, including metadata the driver cannot read, answers {@code false}, and the table is bounded
 * as the policy says. The answers are read once per connection and table: the data owner must not
 * drop such a constraint (or make the column nullable) while connections are open, or must
 * reconnect them.
 */
public final class UniqueUnits {
  private final Connection backend;
  private final Map<String, Boolean> cache = new ConcurrentHashMap<>();

  public UniqueUnits(Connection backend) {
    this.backend = backend;
  }

  /**
   * True if the backend declares the table's privacy-unit column unique and not null; for a join
   * of tables on their shared unit, if it declares so for every joined table (a person then has
   * at most one row in each, so at most one row of the join).
   */
  public boolean oneRowPerUnit(TablePolicy table) {
    if (table.join() != null) {
      return table.join().members().stream().allMatch(this::oneRowPerUnit);
    }
    if (table.isPublic() || table.unitIsRow()) {
      return false;
    }
    return cache.computeIfAbsent(table.qualifiedName() + "\u0000" + table.privacyUnit(),
        k -> declaredUnique(table));
  }

  private boolean declaredUnique(TablePolicy t) {
    String unit = t.privacyUnit();
    try {
      DatabaseMetaData md = backend.getMetaData();
      String catalog = backend.getCatalog();
      if (catalog != null && catalog.isEmpty()) {
        catalog = null;
      }
      List<String> key = new ArrayList<>();
      try (ResultSet rs = md.getPrimaryKeys(catalog, t.schema(), t.name())) {
        while (rs.next()) {
          key.add(rs.getString("COLUMN_NAME"));
        }
      }
      if (key.size() == 1 && unit.equals(key.get(0))) {
        return true; // a primary key is unique and not null
      }
      if (!notNull(md, catalog, t, unit)) {
        return false;
      }
      Map<String, List<String>> indexes = new LinkedHashMap<>();
      // approximate: the index's statistics (CARDINALITY, PAGES), which are not read here, may be
      // estimates; exact ones cost H2 a count of the table's rows per index (about 20 ms per
      // 1,000,000 rows, on the first private statement of every connection)
      try (ResultSet rs = md.getIndexInfo(catalog, t.schema(), t.name(), true, true)) {
        while (rs.next()) {
          if (rs.getShort("TYPE") == DatabaseMetaData.tableIndexStatistic) {
            continue;
          }
          String name = String.valueOf(rs.getString("INDEX_NAME"));
          if (rs.getBoolean("NON_UNIQUE") || rs.getString("FILTER_CONDITION") != null) {
            indexes.put(name, null); // not unique, or partial: never trusted
            continue;
          }
          if (indexes.containsKey(name) && indexes.get(name) == null) {
            continue;
          }
          indexes.computeIfAbsent(name, n -> new ArrayList<>()).add(rs.getString("COLUMN_NAME"));
        }
      }
      for (List<String> cols : indexes.values()) {
        if (cols != null && cols.size() == 1 && unit.equals(cols.get(0))) {
          return true;
        }
      }
      return false;
    } catch (SQLException | RuntimeException | AbstractMethodError e) {
      return false; // unknown: bound as the policy says
    }
  }

  private static boolean notNull(DatabaseMetaData md, String catalog, TablePolicy t, String unit)
      throws SQLException {
    try (ResultSet rs = md.getColumns(catalog, t.schema(), t.name(), null)) {
      while (rs.next()) {
        if (unit.equals(rs.getString("COLUMN_NAME")) && t.name().equals(rs.getString("TABLE_NAME"))
            && (t.schema() == null || t.schema().equals(rs.getString("TABLE_SCHEM")))) {
          return rs.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls;
        }
      }
    }
    return false;
  }
}
