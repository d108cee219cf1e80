package org.dpsql.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The declared configuration is validated with clear messages; inputs are checked. */
class SpecValidationTest {
  static final List<Integer> YEARS = AgeBinning.singleYears(115);
  static final List<AgeBinning> BINS =
      List.of(
          AgeBinning.censusAge4(YEARS),
          AgeBinning.censusAge9(YEARS),
          AgeBinning.censusAge23(YEARS));
  static final PopulationLevel LEVEL =
      PopulationLevel.of("L", BigDecimal.ONE, 2, List.of("g"), List.of("c"));

  static void assertMessage(String fragment, Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(fragment), x.getMessage());
  }

  @Test
  void invalidSpecsAreRejected() {
    BigDecimal g = new BigDecimal("0.1");
    List<String> sx = List.of("M", "F");
    assertMessage(
        "gamma",
        () ->
            new AdaptiveTabulationSpec(
                BaseMechanism.GEOMETRIC, List.of(LEVEL), BigDecimal.ONE, 1, 2, 3, sx, BINS));
    assertMessage(
        "theta1 < theta2 < theta3",
        () ->
            new AdaptiveTabulationSpec(
                BaseMechanism.GEOMETRIC, List.of(LEVEL), g, 5, 5, 9, sx, BINS));
    assertMessage(
        "three age binnings",
        () ->
            new AdaptiveTabulationSpec(
                BaseMechanism.GEOMETRIC, List.of(LEVEL), g, 1, 2, 3, sx, BINS.subList(0, 2)));
    assertMessage(
        "declared twice",
        () ->
            new AdaptiveTabulationSpec(
                BaseMechanism.GEOMETRIC, List.of(LEVEL, LEVEL), g, 1, 2, 3, sx, BINS));
    assertMessage(
        "at least one population level",
        () -> new AdaptiveTabulationSpec(BaseMechanism.GEOMETRIC, List.of(), g, 1, 2, 3, sx, BINS));
    assertMessage(
        "distinct",
        () ->
            new AdaptiveTabulationSpec(
                BaseMechanism.GEOMETRIC, List.of(LEVEL), g, 1, 2, 3, List.of("M", "M"), BINS));
    List<AgeBinning> mixed =
        List.of(BINS.get(0), BINS.get(1), AgeBinning.censusAge23(AgeBinning.AGE23_LOWER_YEARS));
    assertMessage(
        "same finest age categories",
        () ->
            new AdaptiveTabulationSpec(
                BaseMechanism.GEOMETRIC, List.of(LEVEL), g, 1, 2, 3, sx, mixed));
    assertMessage(
        "must be > 0",
        () -> PopulationLevel.of("L", BigDecimal.ZERO, 1, List.of("g"), List.of("c")));
    assertMessage(
        "stability of level L must be >= 1",
        () -> PopulationLevel.of("L", BigDecimal.ONE, 0, List.of("g"), List.of("c")));
    assertMessage(
        "lists geographies g twice",
        () -> PopulationLevel.of("L", BigDecimal.ONE, 1, List.of("g", "g"), List.of("c")));
    assertMessage(
        "is not one of its iterations",
        () -> new PopulationLevel("L", BigDecimal.ONE, 1, List.of("g"), List.of("c"), Set.of("x")));
    assertMessage(
        "finest age category boundary",
        () -> AgeBinning.ofYears("Age9", AgeBinning.AGE4_LOWER_YEARS, AgeBinning.AGE9_LOWER_YEARS));
    assertMessage("differs from the sum", () -> new GroupCounts(5, new long[] {1, 2}));
    assertMessage(">= 0", () -> new GroupCounts(-1, new long[] {-1}));
  }

  @Test
  void censusBinningsNestAndCoverAllAges() {
    AgeBinning a23 = AgeBinning.censusAge23(YEARS);
    assertEquals(23, a23.binCount());
    assertEquals("85+", a23.labels().get(22));
    assertEquals("22-24", a23.labels().get(7));
    assertEquals(List.of("0-17", "18-44", "45-64", "65+"), AgeBinning.censusAge4(YEARS).labels());
    // Age4 and Age9 are coarsenings of Age23, so they can be defined over the 23 categories too.
    AgeBinning a9over23 = AgeBinning.censusAge9(AgeBinning.AGE23_LOWER_YEARS);
    AgeBinning a9 = AgeBinning.censusAge9(YEARS);
    for (int year = 0; year <= 115; year++) {
      assertEquals(a9.binOf(year), a9over23.binOf(a23.binOf(year)));
    }
  }

  @Test
  void tabulationInputsAreChecked() {
    AdaptiveTabulationSpec spec =
        new AdaptiveTabulationSpec(
            BaseMechanism.GEOMETRIC,
            List.of(LEVEL),
            new BigDecimal("0.1"),
            1,
            2,
            3,
            List.of("M", "F"),
            BINS);
    AdaptiveTabulation t = new AdaptiveTabulation(spec);
    assertMessage(
        "Sex x Age cells",
        () ->
            t.tabulateLevel(
                "L", (g, c) -> GroupCounts.ofCells(new long[] {1, 2}), new SeededRandomBits(1)));
    assertMessage(
        "no population level named X",
        () -> t.tabulateLevel("X", (g, c) -> null, new SeededRandomBits(1)));
    assertMessage("no exact counts given", () -> t.tabulate(Map.of(), new SeededRandomBits(1)));
    // Empty (null) groups are tabulated as zeros; undeclared groups in a map are ignored.
    LevelCounts fromMap =
        LevelCounts.fromMap(
            LEVEL,
            Map.of(
                new PopulationGroup("L", "undeclared", "c"), GroupCounts.ofCells(new long[232])));
    assertEquals(null, fromMap.counts(0, 0));
    List<TabulatedCount> rows = t.tabulateLevel("L", fromMap, new SeededRandomBits(1));
    assertTrue(!rows.isEmpty());
    assertEquals(new PopulationGroup("L", "g", "c"), rows.get(0).group());
    assertMessage(
        "is not of level L",
        () ->
            LevelCounts.fromMap(
                LEVEL,
                Map.of(new PopulationGroup("M", "g", "c"), GroupCounts.ofCells(new long[232]))));
  }
}
