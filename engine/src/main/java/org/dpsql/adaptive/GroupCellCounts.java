package org.dpsql.adaptive;

/**
 * The exact counts of one level's groups by Sex × finest-Age cell, held densely for non-empty
 * groups only (about 8 × cells bytes each), indexed by (geography, iteration) position: the
 * storage both the backend aggregate ({@code AdaptiveMeasurement.Counts}) and its in-JVM stand-in
 * ({@link InMemoryAggregation}) fill.
 *
 * <p>Guarantees: a subclass fills it with {@link #add} before the instance escapes, and it is a
 * pure lookup afterwards; a group nothing was added to is empty ({@link #counts} returns null).
 */
public class GroupCellCounts implements LevelCounts {
  private final int iterations;
  private final int cells;
  private final long[][] byGroup; // index geography · iterations + iteration; null = empty

  /**
   * Empty counts for {@code geographies × iterations} groups of {@code cells} cells each.
   *
   * @throws IllegalArgumentException if there are more groups than an array holds
   */
  protected GroupCellCounts(int geographies, int iterations, int cells) {
    long groups = (long) geographies * iterations;
    if (groups > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many groups: " + groups);
    }
    this.iterations = iterations;
    this.cells = cells;
    this.byGroup = new long[(int) groups][];
  }

  /** Adds {@code n} to cell {@code cell} of group (geography, iteration). */
  protected final void add(int geography, int iteration, int cell, long n) {
    int group = geography * iterations + iteration;
    long[] c = byGroup[group];
    if (c == null) {
      c = new long[cells];
      byGroup[group] = c;
    }
    c[cell] += n;
  }

  @Override
  public final GroupCounts counts(int geography, int iteration) {
    long[] c = byGroup[geography * iterations + iteration];
    return c == null ? null : GroupCounts.ofCells(c);
  }

  /** The number of Sex × finest-Age cells per group. */
  public final int cellCount() {
    return cells;
  }

  /** The number of non-empty groups. */
  public final int nonEmptyGroups() {
    int n = 0;
    for (long[] c : byGroup) {
      n += c == null ? 0 : 1;
    }
    return n;
  }

  /** The total over all groups: Σ over persons of the groups they are counted in. */
  public final long memberships() {
    long s = 0;
    for (long[] c : byGroup) {
      if (c != null) {
        for (long v : c) {
          s += v;
        }
      }
    }
    return s;
  }
}
