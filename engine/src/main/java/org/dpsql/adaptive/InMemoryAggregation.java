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
 * changes them by at most Δ in L1 over all groups. Deterministic.
 */
public final class InMemoryAggregation extends GroupCellCounts {

  private InMemoryAggregation(int geographies, int iterations, int cells) {
    super(geographies, iterations, cells);
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
    InMemoryAggregation out = new InMemoryAggregation(census.geographyCount(geographyLevel),
        iterations, cellCount);
    int[] memberships = new int[2 * 6 + 4];
    for (int p = 0; p < census.personCount(); p++) {
      int n = census.iterationsOf(p, memberships);
      int[] kept = StabilityTruncation.firstByCodeOrder(Arrays.copyOf(memberships, n), stability);
      int geography = census.geographyOf(p, geographyLevel);
      int cell = census.sexOf(p) * ages + finestOfAge[census.ageOf(p)];
      for (int iteration : kept) {
        out.add(geography, iteration, cell, 1);
      }
    }
    return out;
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
