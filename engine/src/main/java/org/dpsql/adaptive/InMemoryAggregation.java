package org.dpsql.adaptive;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The in-JVM stand-in for the engine's backend aggregate over a {@link SyntheticCensus}: for one
 * geography level, flat-maps every person to their (truncated) population groups and counts them by
 * group × sex × finest age category — Algorithm 1 line 7 followed by the GROUP BY.
 *
 * <p>Guarantees: each person's iteration list is truncated to the first Δ in code order by {@link
 * StabilityTruncation} before counting, so the resulting counts have stability ≤ Δ: one person
 * changes them by at most Δ in L1 over all groups. Deterministic. The counts are held densely for
 * non-empty groups only (about 8 × cells bytes each).
 */
public final class InMemoryAggregation implements LevelCounts {
  private final int iterations;
  private final int cells;
  private final long[][] countsByGroup; // index geography · iterations + iteration; null = empty

  private InMemoryAggregation(int iterations, int cells, long[][] countsByGroup) {
    this.iterations = iterations;
    this.cells = cells;
    this.countsByGroup = countsByGroup;
  }

  /**
   * Aggregates a census at one geography level.
   *
   * @param census the persons
   * @param geographyLevel {@link SyntheticCensus#NATION}, {@link SyntheticCensus#STATE} or {@link
   *     SyntheticCensus#COUNTY}
   * @param stability Δ ≥ 1: each person is counted in at most Δ groups
   * @param finestLowerYears the lowest age of each finest age category (as in {@link AgeBinning})
   * @param sexes the number of sex categories (2 for the synthetic census)
   */
  public static InMemoryAggregation aggregate(
      SyntheticCensus census,
      int geographyLevel,
      int stability,
      List<Integer> finestLowerYears,
      int sexes) {
    Objects.requireNonNull(census, "census");
    if (stability < 1) {
      throw new IllegalArgumentException("stability must be >= 1, got " + stability);
    }
    if (sexes != 2) {
      throw new IllegalArgumentException("the synthetic census has 2 sex categories, got " + sexes);
    }
    int[] finestOfAge = finestOfAge(finestLowerYears);
    int ages = finestLowerYears.size();
    int cellCount = sexes * ages;
    int iterations = census.iterations().size();
    long groups = (long) census.geographyCount(geographyLevel) * iterations;
    if (groups > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many groups: " + groups);
    }
    long[][] counts = new long[(int) groups][];
    int[] memberships = new int[2 * 6 + 4];
    for (int p = 0; p < census.personCount(); p++) {
      int n = census.iterationsOf(p, memberships);
      int[] kept = StabilityTruncation.firstByCodeOrder(Arrays.copyOf(memberships, n), stability);
      int base = census.geographyOf(p, geographyLevel) * iterations;
      int cell = census.sexOf(p) * ages + finestOfAge[census.ageOf(p)];
      for (int iteration : kept) {
        long[] c = counts[base + iteration];
        if (c == null) {
          c = new long[cellCount];
          counts[base + iteration] = c;
        }
        c[cell]++;
      }
    }
    return new InMemoryAggregation(iterations, cellCount, counts);
  }

  @Override
  public GroupCounts counts(int geography, int iteration) {
    long[] c = countsByGroup[geography * iterations + iteration];
    return c == null ? null : GroupCounts.ofCells(c);
  }

  /** The number of Sex × finest-Age cells per group. */
  public int cellCount() {
    return cells;
  }

  /** The number of non-empty groups. */
  public int nonEmptyGroups() {
    int n = 0;
    for (long[] c : countsByGroup) {
      n += c == null ? 0 : 1;
    }
    return n;
  }

  private static int[] finestOfAge(List<Integer> finestLowerYears) {
    Objects.requireNonNull(finestLowerYears, "finestLowerYears");
    if (finestLowerYears.isEmpty() || finestLowerYears.get(0) != 0) {
      throw new IllegalArgumentException(
          "finest age categories must start at 0, got " + finestLowerYears);
    }
    int[] map = new int[SyntheticCensus.MAX_AGE + 1];
    int f = 0;
    for (int a = 0; a <= SyntheticCensus.MAX_AGE; a++) {
      while (f + 1 < finestLowerYears.size() && finestLowerYears.get(f + 1) <= a) {
        f++;
      }
      map[a] = f;
    }
    return map;
  }
}
