package org.dpsql.adaptive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

/** Stability truncation, the budget charged with Δ, and the L1 change of one unbounded person. */
class StabilityTest {
  static final List<Integer> AGE23 = AgeBinning.AGE23_LOWER_YEARS;

  @Test
  void truncationKeepsTheFirstDeltaInCodeOrder() {
    assertArrayEquals(
        new int[] {1, 3, 5},
        StabilityTruncation.firstByCodeOrder(new int[] {9, 3, 3, 7, 1, 12, 5}, 3));
    assertArrayEquals(
        new int[] {2, 4}, StabilityTruncation.firstByCodeOrder(new int[] {4, 2, 4}, 8));
    assertEquals(
        List.of("a", "b"),
        StabilityTruncation.firstInOrder(
            List.of("c", "b", "a", "b"), Comparator.naturalOrder(), 2));
    assertEquals(
        List.of("c", "b"),
        StabilityTruncation.firstInOrder(
            List.of("a", "b", "c"), Comparator.<String>reverseOrder(), 2));
    assertThrows(
        IllegalArgumentException.class,
        () -> StabilityTruncation.firstByCodeOrder(new int[] {1}, 0));
    // a person in k = 12 > Δ = 8 groups keeps 8
    int[] twelve = {23, 1, 5, 8, 13, 2, 21, 34, 3, 55, 89, 144};
    assertArrayEquals(
        new int[] {1, 2, 3, 5, 8, 13, 21, 23}, StabilityTruncation.firstByCodeOrder(twelve, 8));
  }

  @Test
  void theChargedBudgetUsesDelta() {
    PopulationLevel level =
        PopulationLevel.of("County", new BigDecimal("2.4"), 8, List.of("c1"), List.of("i1"));
    assertEquals(Rational.of(3, 10), AdaptiveTabulationSpec.groupBudget(level)); // 2.4 / 8
    NoisyCount count =
        new NoisyCount(BaseMechanism.GEOMETRIC, AdaptiveTabulationSpec.groupBudget(level));
    assertEquals(Rational.of(10, 3), count.noiseParameter()); // scale Δ/ε_level
    NoisyCount dg =
        new NoisyCount(BaseMechanism.DISCRETE_GAUSSIAN, AdaptiveTabulationSpec.groupBudget(level));
    assertEquals(Rational.of(5, 3), dg.noiseParameter()); // σ² = Δ/(2ρ_level) = 8/4.8
  }

  /** L1 distance between two aggregations over all groups and cells of a level. */
  static long l1(InMemoryAggregation a, InMemoryAggregation b, int geographies, int iterations) {
    long d = 0;
    for (int g = 0; g < geographies; g++) {
      for (int c = 0; c < iterations; c++) {
        GroupCounts x = a.counts(g, c);
        GroupCounts y = b.counts(g, c);
        for (int k = 0; k < a.cellCount(); k++) {
          d += Math.abs((x == null ? 0 : x.cell(k)) - (y == null ? 0 : y.cell(k)));
        }
      }
    }
    return d;
  }

  @Test
  void oneUnboundedPersonChangesEachLevelByAtMostDeltaInL1() {
    SyntheticCensus census = SyntheticCensus.generate(20_000, 5, 40, 40, 10, 7);
    // A person with 6 race codes in 6 different regions belongs to 12 iterations (6 detailed AOIC
    // + 6 regional AOIC): more than Δ.
    SyntheticCensus neighbour = census.withPerson(17, 1, 33, 0, 4, 8, 12, 16, 20);
    int[] memberships = new int[16];
    assertEquals(12, neighbour.iterationsOf(neighbour.personCount() - 1, memberships));
    int iterations = census.iterations().size();
    for (int level :
        new int[] {SyntheticCensus.NATION, SyntheticCensus.STATE, SyntheticCensus.COUNTY}) {
      int geos = census.geographyCount(level);
      for (int delta : new int[] {1, 3, 8}) {
        long d =
            l1(
                InMemoryAggregation.aggregate(census, level, delta, AGE23, 2),
                InMemoryAggregation.aggregate(neighbour, level, delta, AGE23, 2),
                geos,
                iterations);
        assertEquals(delta, d, "level " + level + ", delta " + delta);
      }
      // Without truncation (Δ ≥ 12) the same person moves the counts by 12 > 8.
      long untruncated =
          l1(
              InMemoryAggregation.aggregate(census, level, 100, AGE23, 2),
              InMemoryAggregation.aggregate(neighbour, level, 100, AGE23, 2),
              geos,
              iterations);
      assertEquals(12, untruncated);
    }
    // Every generated person respects Δ = 8 after truncation; some exceed it before.
    int over = 0;
    for (int p = 0; p < census.personCount(); p++) {
      int n = census.iterationsOf(p, memberships);
      over += n > 8 ? 1 : 0;
      int[] kept = StabilityTruncation.firstByCodeOrder(java.util.Arrays.copyOf(memberships, n), 8);
      assertTrue(kept.length <= 8);
    }
    System.out.printf(
        "synthetic census: %d of %d persons are in more than 8 iterations%n",
        over, census.personCount());
    assertTrue(over > 0);
  }

  @Test
  void membershipsFollowTheIterationDefinitions() {
    SyntheticCensus census = SyntheticCensus.generate(2_000, 3, 10, 16, 4, 3);
    int[] out = new int[16];
    for (int p = 0; p < census.personCount(); p++) {
      int n = census.iterationsOf(p, out);
      int[] codes = census.raceCodesOf(p);
      int k = 0;
      for (int j = 0; j < census.iterations().size(); j++) {
        if (census.iterations().get(j).contains(codes)) {
          assertEquals(j, out[k++], "person " + p);
        }
      }
      assertEquals(k, n);
    }
  }
}
