package org.dpsql.hierarchy;

import java.util.Arrays;

/**
 * The non-zero nodes of one level of a hierarchical tree: strictly increasing node ids with their
 * (non-zero) integer values; every other node of the level's public domain has value 0.
 *
 * <p>Guarantees: immutable; ids strictly increasing; no stored value is 0; lookups by binary search.
 */
public final class SparseLevel {
  private static final SparseLevel EMPTY = new SparseLevel(new long[0], new long[0]);

  private final long[] ids;
  private final long[] values;

  private SparseLevel(long[] ids, long[] values) {
    this.ids = ids;
    this.values = values;
  }

  /** The level with no non-zero node. */
  public static SparseLevel empty() {
    return EMPTY;
  }

  /**
   * The level with the given nodes. Zero values are dropped; the arrays are copied.
   *
   * @throws IllegalArgumentException if the lengths differ or the ids are not strictly increasing
   */
  public static SparseLevel of(long[] ids, long[] values) {
    if (ids.length != values.length) {
      throw new IllegalArgumentException(
          "ids and values differ in length: " + ids.length + " vs " + values.length);
    }
    for (int i = 1; i < ids.length; i++) {
      if (ids[i - 1] >= ids[i]) {
        throw new IllegalArgumentException("ids must be strictly increasing at index " + i);
      }
    }
    return compact(ids.clone(), values.clone(), ids.length);
  }

  /**
   * Takes ownership of {@code ids[0..n)}, {@code values[0..n)}: sorts by id, and merges equal ids
   * by summing when {@code mergeDuplicates}, else rejects them; drops zeros.
   */
  static SparseLevel sortedFrom(long[] ids, long[] values, int n, boolean mergeDuplicates) {
    LongPairSort.sort(ids, values, n);
    int w = 0;
    for (int i = 0; i < n; i++) {
      if (w > 0 && ids[w - 1] == ids[i]) {
        if (!mergeDuplicates) {
          throw new IllegalArgumentException("duplicate node id " + ids[i]);
        }
        values[w - 1] = Math.addExact(values[w - 1], values[i]);
      } else {
        ids[w] = ids[i];
        values[w] = values[i];
        w++;
      }
    }
    return compact(ids, values, w);
  }

  private static SparseLevel compact(long[] ids, long[] values, int n) {
    int w = 0;
    for (int i = 0; i < n; i++) {
      if (values[i] != 0) {
        ids[w] = ids[i];
        values[w] = values[i];
        w++;
      }
    }
    if (w == 0) {
      return EMPTY;
    }
    return new SparseLevel(
        w == ids.length ? ids : Arrays.copyOf(ids, w),
        w == values.length ? values : Arrays.copyOf(values, w));
  }

  /** Number of non-zero nodes. */
  public int size() {
    return ids.length;
  }

  /** The id of the {@code i}-th non-zero node (ascending). */
  public long id(int i) {
    return ids[i];
  }

  /** The value of the {@code i}-th non-zero node. */
  public long value(int i) {
    return values[i];
  }

  /** The value of node {@code id} (0 if it is not stored). */
  public long get(long id) {
    int i = Arrays.binarySearch(ids, id);
    return i >= 0 ? values[i] : 0;
  }

  /** The position of {@code id} among the stored nodes, or a negative number if absent. */
  public int indexOf(long id) {
    return Arrays.binarySearch(ids, id);
  }

  /** Sum of all values (exact; throws {@link ArithmeticException} on overflow). */
  public long sum() {
    long s = 0;
    for (long v : values) {
      s = Math.addExact(s, v);
    }
    return s;
  }

  /** Number of stored nodes with a positive value. */
  public int positives() {
    int c = 0;
    for (long v : values) {
      if (v > 0) {
        c++;
      }
    }
    return c;
  }

  /** Smallest stored value, or 0 for an empty level. */
  public long min() {
    long m = 0;
    for (int i = 0; i < values.length; i++) {
      m = i == 0 ? values[0] : Math.min(m, values[i]);
    }
    return m;
  }

  /** A copy of the ids. */
  public long[] ids() {
    return ids.clone();
  }

  /** A copy of the values. */
  public long[] values() {
    return values.clone();
  }

  @Override
  public String toString() {
    return "SparseLevel[" + ids.length + " non-zero nodes]";
  }
}
