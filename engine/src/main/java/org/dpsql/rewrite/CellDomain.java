package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpsql.errors.SqlStates;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;

/**
 * The cells of a GROUP BY: the cross product of the public domains of the group columns, in a
 * stable order (first column slowest, each domain in policy order). The cells come from the policy
 * alone, never from the data, so which groups appear reveals nothing.
 */
public final class CellDomain {
  /** The largest number of cells one query may release. */
  public static final int MAX_CELLS = 1_000_000;
  /**
   * The largest number of leaves of a tree released by TopDown (InfTDA, {@code mechanism='inftda'}
   * or a roll-up under {@code auto}): its measurement is sparse and its release integral, so it
   * may be larger than other queries (an origin/destination tree of 2,000 × 2,000 areas has
   * 4,000,000 leaves).
   */
  public static final int MAX_TREE_CELLS = 1 << 24;

  private final List<ColumnPolicy> columns;
  private final int[] sizes;
  private final int cells;
  private final List<Map<Object, Integer>> categoricalIndex = new ArrayList<>();

  /** The cells of {@code columns}, at most {@link #MAX_CELLS} (else XDP03). */
  public CellDomain(List<ColumnPolicy> columns) throws SQLException {
    this(columns, MAX_CELLS);
  }

  /** The cells of {@code columns}, at most {@code maxCells} (else XDP03). */
  public CellDomain(List<ColumnPolicy> columns, int maxCells) throws SQLException {
    this.columns = List.copyOf(columns);
    this.sizes = new int[columns.size()];
    long n = 1;
    for (int i = 0; i < columns.size(); i++) {
      ColumnPolicy c = columns.get(i);
      sizes[i] = c.domainSize();
      n *= sizes[i];
      if (n > maxCells) {
        throw SqlStates.notSupported("GROUP BY " + String.join(", ",
            columns.stream().map(ColumnPolicy::name).toList()) + " has more than " + maxCells
            + " cells in the policy domain; group by fewer or coarser columns"
            + (maxCells < MAX_TREE_CELLS ? " (roll-ups over a declared hierarchy released by "
                + "InfTDA may have up to " + MAX_TREE_CELLS + " leaves)" : ""));
      }
      Map<Object, Integer> index = new HashMap<>();
      if (c.categorical().isPresent()) {
        List<Object> values = c.categorical().get().values();
        for (int v = 0; v < values.size(); v++) {
          index.put(normalise(values.get(v)), v);
        }
      }
      categoricalIndex.add(index);
    }
    this.cells = (int) n;
  }

  public List<ColumnPolicy> columns() {
    return columns;
  }

  /** Number of cells (1 for a query without GROUP BY). */
  public int size() {
    return cells;
  }

  /**
   * The cell of a backend row given the key values the measurement SQL returns (the value of a
   * categorical column, the bin index of an ordered one), or -1 if it lies outside the domain.
   */
  public int cellOf(Object[] keys) {
    int cell = 0;
    for (int i = 0; i < sizes.length; i++) {
      int v;
      if (columns.get(i).categorical().isPresent()) {
        Integer idx = keys[i] == null ? null : categoricalIndex.get(i).get(normalise(keys[i]));
        if (idx == null) {
          return -1;
        }
        v = idx;
      } else {
        if (keys[i] == null) {
          return -1;
        }
        long bin = new BigDecimal(keys[i].toString()).longValue();
        if (bin < 0 || bin >= sizes[i]) {
          return -1;
        }
        v = (int) bin;
      }
      cell = cell * sizes[i] + v;
    }
    return cell;
  }

  /**
   * The position of a cell in each column's domain (a categorical value's index among the
   * declared values, an ordered or time column's bin index): the inverse of {@link #cellOf}.
   */
  public int[] positionsOf(int cell) {
    int[] positions = new int[sizes.length];
    for (int i = sizes.length - 1; i >= 0; i--) {
      positions[i] = cell % sizes[i];
      cell /= sizes[i];
    }
    return positions;
  }

  /** The public key values of a cell, as released: categorical values and bin lower edges. */
  public Object[] keysOf(int cell) {
    int[] positions = positionsOf(cell);
    Object[] keys = new Object[sizes.length];
    for (int i = 0; i < sizes.length; i++) {
      ColumnPolicy c = columns.get(i);
      if (c.categorical().isPresent()) {
        keys[i] = c.categorical().get().values().get(positions[i]);
      } else {
        OrderedDomain d = c.ordered().orElseThrow();
        keys[i] = d.lowerEdge(positions[i]);
      }
    }
    return keys;
  }

  private static Object normalise(Object value) {
    if (value instanceof Number || value instanceof BigDecimal) {
      return new BigDecimal(value.toString()).stripTrailingZeros();
    }
    return value.toString();
  }
}
