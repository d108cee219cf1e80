package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.policy.CategoricalDomain;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * What a policy's nested hierarchy levels say about cells: a level whose values are declared by
 * the value of the level above ({@code COUNTY: {values: {NY: [Kings, ...], CA: [...]}}} under
 * {@code GEO: [STATE, COUNTY]}) puts each of its values in exactly one value of every coarser
 * level (following the declarations up the hierarchy). So a cell holding a (state, county) pair
 * the declaration rules out never holds a row, and a row of county c has the state c lies in.
 *
 * <p>Both follow from the policy alone; they are the data owner's declaration (a row that
 * contradicts it is still measured with the others, but the pair it would form is not a cell of
 * the tree and is not returned).
 */
final class HierarchyNesting {
  private HierarchyNesting() {}

  /**
   * Per cell of {@code cells}: whether its values of every two levels of a hierarchy of {@code
   * table} are consistent with the declared nesting; null when no two nested levels are among the
   * cell columns (every cell is).
   */
  static boolean[] consistent(TablePolicy table, CellDomain cells) {
    if (table == null) {
      return null;
    }
    List<int[]> pairs = new ArrayList<>(); // {coarse column, fine column} among the cell columns
    List<int[]> maps = new ArrayList<>(); // per pair: fine value -> coarse value index (-1: none)
    for (List<String> levels : table.hierarchies().values()) {
      List<ColumnPolicy> cols = levels.stream().map(n -> table.column(n).orElse(null)).toList();
      for (int j = 1; j < cols.size(); j++) {
        int fine = cells.columns().indexOf(cols.get(j));
        if (fine < 0) {
          continue;
        }
        for (int i = 0; i < j; i++) {
          int coarse = cells.columns().indexOf(cols.get(i));
          int[] map = coarse < 0 ? null : ancestorIndex(cols, j, i);
          if (map != null) {
            pairs.add(new int[] {coarse, fine});
            maps.add(map);
          }
        }
      }
    }
    if (pairs.isEmpty()) {
      return null;
    }
    boolean[] out = new boolean[cells.size()];
    java.util.Arrays.fill(out, true);
    for (int cell = 0; cell < out.length; cell++) {
      int[] positions = cells.positionsOf(cell);
      for (int p = 0; p < pairs.size(); p++) {
        if (maps.get(p)[positions[pairs.get(p)[1]]] != positions[pairs.get(p)[0]]) {
          out[cell] = false;
          break;
        }
      }
    }
    return out;
  }

  /**
   * The coarser levels a filter may name that are not cell columns, each as a column derived from
   * a nested cell column below it (its value per cell of that column), so that {@code WHERE STATE
   * = 'TX' GROUP BY COUNTY} is decided on the counties.
   */
  static List<PublicJoin.Derived> ancestors(TablePolicy table, List<ColumnPolicy> cellColumns) {
    List<PublicJoin.Derived> out = new ArrayList<>();
    if (table == null) {
      return out;
    }
    for (List<String> levels : table.hierarchies().values()) {
      List<ColumnPolicy> cols = levels.stream().map(n -> table.column(n).orElse(null)).toList();
      for (int i = 0; i < cols.size(); i++) {
        if (cols.get(i) == null || cellColumns.contains(cols.get(i))
            || cols.get(i).categorical().isEmpty()) {
          continue;
        }
        for (int j = cols.size() - 1; j > i; j--) { // the finest grouped level below
          if (cellColumns.contains(cols.get(j))) {
            int[] map = ancestorIndex(cols, j, i);
            if (map != null) {
              out.add(new PublicJoin.Derived(cols.get(i), cols.get(j), map));
            }
            break;
          }
        }
      }
    }
    return out;
  }

  /**
   * For each value of level {@code fine}, the index of the value of level {@code coarse} it lies
   * in, following the declared nesting up one level at a time; null when a level between them is
   * not nested, or is not categorical.
   */
  private static int[] ancestorIndex(List<ColumnPolicy> levels, int fine, int coarse) {
    if (levels.get(fine) == null || levels.get(fine).categorical().isEmpty()) {
      return null;
    }
    int[] map = new int[levels.get(fine).domainSize()];
    for (int v = 0; v < map.length; v++) {
      map[v] = v;
    }
    for (int level = fine; level > coarse; level--) {
      ColumnPolicy c = levels.get(level);
      ColumnPolicy up = levels.get(level - 1);
      if (c == null || up == null || c.categorical().isEmpty() || up.categorical().isEmpty()
          || !c.categorical().get().isNested()) {
        return null;
      }
      CategoricalDomain d = c.categorical().get();
      List<Object> upValues = up.categorical().get().values();
      for (int v = 0; v < map.length; v++) {
        if (map[v] >= 0) {
          map[v] = indexOf(upValues, d.within().get(map[v]));
        }
      }
    }
    return map;
  }

  /** The index of a declared parent value among the values of the level above, or -1. */
  private static int indexOf(List<Object> values, Object label) {
    String l = label(label);
    for (int i = 0; i < values.size(); i++) {
      if (label(values.get(i)).equals(l)) {
        return i;
      }
    }
    return -1;
  }

  /** A value as the policy file writes it (numbers without trailing zeros). */
  static String label(Object v) {
    return v instanceof BigDecimal b ? b.stripTrailingZeros().toPlainString() : String.valueOf(v);
  }
}
