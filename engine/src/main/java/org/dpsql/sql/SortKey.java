package org.dpsql.sql;

import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;

/** An ORDER BY key over the released result: the index of an output column and its direction. */
public record SortKey(int outputIndex, boolean descending) {

  /**
   * The order of released rows by {@code keys}, output {@code i} read at column {@code
   * position(i)} of a row; values compare naturally, NULL first (last when descending).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static Comparator<Object[]> rowOrder(List<SortKey> keys, IntUnaryOperator position) {
    Comparator<Object[]> order = null;
    for (SortKey k : keys) {
      int pos = position.applyAsInt(k.outputIndex());
      Comparator<Object[]> one = Comparator.comparing((Object[] r) -> (Comparable) r[pos],
          Comparator.nullsFirst(Comparator.<Comparable>naturalOrder()));
      if (k.descending()) {
        one = one.reversed();
      }
      order = order == null ? one : order.thenComparing(one);
    }
    return order;
  }
}
