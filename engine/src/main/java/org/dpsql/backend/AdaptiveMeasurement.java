package org.dpsql.backend;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.calcite.sql.SqlDialect;
import org.dpsql.adaptive.GroupCellCounts;
import org.dpsql.adaptive.PopulationLevel;
import org.dpsql.policy.AdaptiveTablePolicy;

/**
 * Runs the {@link AdaptiveAggregateSql} of every level of an adaptive table on the backend and
 * returns the exact counts of each level's groups ({@link LevelCounts}): the noise-free half of
 * {@code DPSQL.ADAPTIVE_TABLE}, separately testable.
 *
 * <p>Guarantees: one pushed-down statement per level, or per set of levels with the same
 * iterations and stability; only (group, sex, finest age) counts cross
 * the JDBC boundary; the counts are exactly those of the statement (stability-truncated, inside the
 * declared domains), indexed by the level's declared geography and iteration positions. Result keys
 * outside the declared domains cannot occur (the statement filters them) and would be ignored.
 */
public final class AdaptiveMeasurement {
  private AdaptiveMeasurement() {}

  /** The exact counts of the groups of one level, and the backend rows they came from. */
  public static final class Counts extends GroupCellCounts {
    private long rows; // set before the instance escapes

    private Counts(PopulationLevel level, int cells) {
      super(level.geographies().size(), level.iterations().size(), cells);
    }

    /** The number of result rows of the backend statement that measured this level. */
    public long backendRows() {
      return rows;
    }

    /** One result row's count, added while the statement is read. */
    private void count(int geography, int iteration, int cell, long n) {
      add(geography, iteration, cell, n);
    }
  }

  /**
   * The exact counts of every level, by level name, in the spec's order. Levels that declare the
   * same iterations and stability are measured by one shared statement.
   */
  public static Map<String, Counts> measure(Connection backend, SqlDialect dialect,
      AdaptiveTablePolicy table) throws SQLException {
    return measure(backend, dialect, table, AdaptiveAggregateSql.Shape.forDialect(dialect));
  }

  /** As {@link #measure(Connection, SqlDialect, AdaptiveTablePolicy)}, in the given shape. */
  public static Map<String, Counts> measure(Connection backend, SqlDialect dialect,
      AdaptiveTablePolicy table, AdaptiveAggregateSql.Shape shape) throws SQLException {
    List<PopulationLevel> levels = table.spec().levels();
    Map<String, List<Integer>> batches = new LinkedHashMap<>();
    for (int l = 0; l < levels.size(); l++) {
      batches.computeIfAbsent(levels.get(l).stability() + "|" + levels.get(l).iterations(),
          k -> new ArrayList<>()).add(l);
    }
    Counts[] byLevel = new Counts[levels.size()];
    for (List<Integer> batch : batches.values()) {
      List<Counts> counts = measureLevels(backend, dialect, table, batch, shape);
      for (int k = 0; k < batch.size(); k++) {
        byLevel[batch.get(k)] = counts.get(k);
      }
    }
    Map<String, Counts> out = new LinkedHashMap<>();
    for (int l = 0; l < levels.size(); l++) {
      out.put(levels.get(l).name(), byLevel[l]);
    }
    return out;
  }

  /** The exact counts of level {@code levelIndex}, measured by its own statement. */
  public static Counts measureLevel(Connection backend, SqlDialect dialect,
      AdaptiveTablePolicy table, int levelIndex) throws SQLException {
    return measureLevels(backend, dialect, table, List.of(levelIndex),
        AdaptiveAggregateSql.Shape.forDialect(dialect)).get(0);
  }

  /**
   * The exact counts of several levels that declare the same iterations and stability, measured
   * by one statement ({@link AdaptiveAggregateSql#of(AdaptiveTablePolicy, List, SqlDialect,
   * AdaptiveAggregateSql.Shape)}), in the order given.
   */
  public static List<Counts> measureLevels(Connection backend, SqlDialect dialect,
      AdaptiveTablePolicy table, List<Integer> levelIndices, AdaptiveAggregateSql.Shape shape)
      throws SQLException {
    Objects.requireNonNull(backend, "backend");
    AdaptiveAggregateSql sql = AdaptiveAggregateSql.of(table, levelIndices, dialect, shape);
    int n = levelIndices.size();
    PopulationLevel first = table.spec().levels().get(levelIndices.get(0));
    Map<String, Integer> its = index(first.iterations());
    Map<String, Integer> sexes = index(table.spec().sexes());
    List<AdaptiveTablePolicy.Column> geoColumns = sql.geographyColumns();
    int[] geoColumnOf = new int[n]; // index in the statement's G columns, or -1
    List<Map<String, Integer>> geo = new ArrayList<>();
    List<Counts> out = new ArrayList<>();
    int cells = table.spec().cellCount();
    for (int k = 0; k < n; k++) {
      int l = levelIndices.get(k);
      PopulationLevel level = table.spec().levels().get(l);
      AdaptiveTablePolicy.Column column = table.geographyColumns().get(l);
      geoColumnOf[k] = column == null ? -1 : geoColumns.indexOf(column);
      geo.add(index(level.geographies()));
      out.add(new Counts(level, cells));
    }
    int ages = table.spec().finestAgeCount();
    int iterations = first.iterations().size();
    long rows = 0;
    String[] geoValues = new String[geoColumns.size()];
    synchronized (backend) {
      try (Statement st = backend.createStatement()) {
        st.setFetchSize(10_000);
        try (ResultSet rs = st.executeQuery(sql.sql())) {
          int g0 = 1;
          int iCol = g0 + geoColumns.size();
          int sCol = iCol + 1;
          int aCol = iCol + 2;
          int nCol = iCol + 3;
          while (rs.next()) {
            rows++;
            for (int c = 0; c < geoValues.length; c++) {
              geoValues[c] = key(rs, g0 + c, geoColumns.get(c));
            }
            int i;
            if (sql.iterationPositions()) {
              i = rs.getInt(iCol);
            } else {
              Integer found = its.get(key(rs, iCol, table.iteration()));
              i = found == null ? -1 : found;
            }
            Integer s = sexes.get(key(rs, sCol, table.sex()));
            int a = rs.getInt(aCol);
            if (i < 0 || i >= iterations || s == null || a < 0 || a >= ages) {
              continue; // cannot happen: the statement keeps the declared domains only
            }
            long count = rs.getLong(nCol);
            for (int k = 0; k < n; k++) {
              Integer g = geoColumnOf[k] < 0 ? Integer.valueOf(0)
                  : geo.get(k).get(geoValues[geoColumnOf[k]]);
              if (g == null) {
                continue; // a unit this level does not declare: not counted
              }
              out.get(k).count(g, i, s * ages + a, count);
            }
          }
        }
      }
    }
    for (Counts c : out) {
      c.rows = rows;
    }
    return out;
  }

  /** A result value as the policy writes it: canonical numbers for numeric columns, else text. */
  private static String key(ResultSet rs, int col, AdaptiveTablePolicy.Column type)
      throws SQLException {
    if (type.numeric()) {
      BigDecimal d = rs.getBigDecimal(col);
      return d == null ? null : d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }
    String v = rs.getString(col);
    boolean padded = type.sqlType() == java.sql.Types.CHAR || type.sqlType() == java.sql.Types.NCHAR;
    return v != null && padded ? v.stripTrailing() : v;
  }

  private static Map<String, Integer> index(List<String> values) {
    Map<String, Integer> m = new HashMap<>(values.size() * 2);
    for (int k = 0; k < values.size(); k++) {
      m.put(values.get(k), k);
    }
    return m;
  }
}
