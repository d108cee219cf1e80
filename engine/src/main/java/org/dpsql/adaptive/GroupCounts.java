package org.dpsql.adaptive;

import java.util.Arrays;
import java.util.Objects;

/**
 * The exact counts of one population group, as the engine's GROUP BY hands them over: the group's
 * total and its Sex × finest-Age counts, cell {@code sex · finestAgeCount + age}. Never raw rows.
 *
 * <p>Guarantees: immutable (the array is copied in and out); all counts are non-negative and the
 * total equals the sum of the cells (each person has exactly one sex and one age).
 */
public final class GroupCounts {
  private final long total;
  private final long[] cells;

  /**
   * @param total the exact number of persons in the group
   * @param cells the exact Sex × finest-Age counts
   * @throws IllegalArgumentException if a count is negative or the cells do not sum to the total
   */
  public GroupCounts(long total, long[] cells) {
    Objects.requireNonNull(cells, "cells");
    long sum = 0;
    for (long c : cells) {
      if (c < 0) {
        throw new IllegalArgumentException("exact counts must be >= 0, got " + c);
      }
      sum = Math.addExact(sum, c);
    }
    if (sum != total) {
      throw new IllegalArgumentException(
          "group total " + total + " differs from the sum of its Sex x Age cells " + sum);
    }
    this.total = total;
    this.cells = cells.clone();
  }

  /** Counts from the cells alone; the total is their sum. */
  public static GroupCounts ofCells(long[] cells) {
    long sum = 0;
    for (long c : cells) {
      sum = Math.addExact(sum, c);
    }
    return new GroupCounts(sum, cells);
  }

  /** The exact total. */
  public long total() {
    return total;
  }

  /** The number of cells. */
  public int cellCount() {
    return cells.length;
  }

  /** One exact cell count. */
  public long cell(int index) {
    return cells[index];
  }

  /** A copy of the cells. */
  public long[] cells() {
    return cells.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupCounts g && g.total == total && Arrays.equals(g.cells, cells);
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(total) + Arrays.hashCode(cells);
  }

  @Override
  public String toString() {
    return "GroupCounts[total=" + total + ", cells=" + Arrays.toString(cells) + "]";
  }
}
