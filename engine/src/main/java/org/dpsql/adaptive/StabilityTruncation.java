package org.dpsql.adaptive;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Enforces the stability Δ of a group mapping g_i (Haney et al., Section 2): each person keeps at
 * most Δ of the groups of a level they belong to — the first Δ in a fixed order declared in advance
 * (by default ascending group code) — before the counts are aggregated.
 *
 * <p>Guarantees: the truncated membership of a person is a function of that person's own record and
 * the declared order only (never of other records or of the data as a whole), has no duplicates and
 * at most Δ elements, and keeps the person's groups that come first in the order. Hence the
 * truncated mapping has stability ≤ Δ for every possible record, and adding or removing one person
 * changes a level's Sex × Age counts by at most Δ in L1 over all groups (one cell per kept group).
 * The cost: a person in more than Δ groups is not counted in the groups after the first Δ, a
 * data-independent bias. Stateless.
 */
public final class StabilityTruncation {
  private StabilityTruncation() {}

  /**
   * The first {@code stability} distinct codes in ascending order.
   *
   * @param groupCodes the person's group codes at a level (any order, duplicates allowed)
   * @param stability Δ ≥ 1
   * @return a new sorted array of at most Δ distinct codes
   */
  public static int[] firstByCodeOrder(int[] groupCodes, int stability) {
    Objects.requireNonNull(groupCodes, "groupCodes");
    requireStability(stability);
    int[] sorted = groupCodes.clone();
    Arrays.sort(sorted);
    int[] kept = new int[Math.min(stability, sorted.length)];
    int n = 0;
    for (int i = 0; i < sorted.length && n < kept.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        kept[n++] = sorted[i];
      }
    }
    return n == kept.length ? kept : Arrays.copyOf(kept, n);
  }

  /**
   * The first {@code stability} distinct groups in the given data-independent order.
   *
   * @param groups the person's groups at a level
   * @param order a fixed order declared in advance (e.g. by priority of the iteration); it must not
   *     depend on the data
   * @param stability Δ ≥ 1
   */
  public static <T> List<T> firstInOrder(
      Collection<T> groups, Comparator<? super T> order, int stability) {
    Objects.requireNonNull(groups, "groups");
    Objects.requireNonNull(order, "order");
    requireStability(stability);
    TreeSet<T> sorted = new TreeSet<>(order);
    sorted.addAll(groups);
    List<T> kept = new ArrayList<>(Math.min(stability, sorted.size()));
    for (T g : sorted) {
      if (kept.size() == stability) {
        break;
      }
      kept.add(g);
    }
    return List.copyOf(kept);
  }

  private static void requireStability(int stability) {
    if (stability < 1) {
      throw new IllegalArgumentException("stability must be >= 1, got " + stability);
    }
  }
}
