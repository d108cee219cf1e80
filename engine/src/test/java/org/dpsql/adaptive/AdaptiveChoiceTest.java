package org.dpsql.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * The adaptive detail-level choice of Algorithm 2 and the per-row margins of error, by seeded
 * simulation against the exact noise distributions.
 *
 * <p>Setup: one level of 4,000 identical groups (exact total 100; 2 sexes × 4 finest age
 * categories), stability 2, γ = 0.5, thresholds θ = (97, 101, 104); binnings of 1, 2 and 4 age
 * bins. The probability of each detail level is P[θ_{k} ≤ 100 + Z < θ_{k+1}] for the step-1 noise
 * Z, computed from the exact pmf. Significance: chi-square over the 4 levels (df 3) at 0.001;
 * coverage within 4 binomial standard deviations (two-sided significance 6e-5).
 */
class AdaptiveChoiceTest {
  static final long[] CELLS = {10, 20, 15, 5, 12, 18, 14, 6}; // sex-major, 4 finest ages
  static final List<Integer> FINEST = List.of(0, 18, 45, 65);
  static final int GROUPS = 4000;

  static AdaptiveTabulationSpec spec(
      BaseMechanism m, String budget, long t1, long t2, long t3, Set<String> totalOnly) {
    List<String> geos = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      geos.add("g" + g);
    }
    PopulationLevel level =
        new PopulationLevel("L", new BigDecimal(budget), 2, geos, List.of("c", "t"), totalOnly);
    return new AdaptiveTabulationSpec(
        m,
        List.of(level),
        new BigDecimal("0.5"),
        t1,
        t2,
        t3,
        List.of("M", "F"),
        List.of(
            AgeBinning.ofYears("A1", FINEST, List.of(0)),
            AgeBinning.ofYears("A2", FINEST, List.of(0, 45)),
            AgeBinning.ofYears("A4", FINEST, FINEST)));
  }

  /** Counts: iteration "c" has CELLS in every geography; iteration "t" likewise. */
  static LevelCounts counts() {
    GroupCounts gc = GroupCounts.ofCells(CELLS);
    return (g, c) -> gc;
  }

  /** Exact pmf of the step-1 noise. */
  static double stepOnePmf(BaseMechanism m, double stepOneBudget, long z) {
    return m == BaseMechanism.GEOMETRIC
        ? Stats.laplacePmf(1 / stepOneBudget, z)
        : Stats.gaussianPmf(1 / (2 * stepOneBudget), z);
  }

  static double cdf(BaseMechanism m, double budget, long z) {
    double p = 0;
    for (long y = z; y > -100_000 && (y > z - 50 || stepOnePmf(m, budget, y) > 1e-18); y--) {
      p += stepOnePmf(m, budget, y);
    }
    return p;
  }

  void checkChoice(BaseMechanism m, String budget) {
    AdaptiveTabulationSpec spec = spec(m, budget, 97, 101, 104, Set.of("t"));
    PopulationLevel level = spec.level("L");
    double b1 = spec.stepOneBudget(level).doubleValue();
    double[] p = new double[4];
    double c1 = cdf(m, b1, 97 - 100 - 1);
    double c2 = cdf(m, b1, 101 - 100 - 1);
    double c3 = cdf(m, b1, 104 - 100 - 1);
    p[0] = c1;
    p[1] = c2 - c1;
    p[2] = c3 - c2;
    p[3] = 1 - c3;
    List<TabulatedCount> rows = new ArrayList<>();
    AdaptiveTabulation.LevelSummary summary =
        new AdaptiveTabulation(spec)
            .tabulateLevel("L", counts(), new SeededRandomBits(2024 + m.ordinal()), rows::add);
    Map<DetailLevel, Long> h = summary.groupsByDetail();
    long[] observed = {
      h.getOrDefault(DetailLevel.TOTAL, 0L), h.getOrDefault(DetailLevel.SEX_BY_AGE_COARSE, 0L),
      h.getOrDefault(DetailLevel.SEX_BY_AGE_MEDIUM, 0L),
          h.getOrDefault(DetailLevel.SEX_BY_AGE_FINE, 0L)
    };
    double[] expected = new double[4];
    for (int i = 0; i < 4; i++) {
      expected[i] = GROUPS * p[i];
    }
    double pValue = Stats.chiSquarePValue(observed, expected);
    System.out.printf(
        "%s detail choice: expected %s observed %s, chi-square p = %.3f%n",
        m, java.util.Arrays.toString(expected), java.util.Arrays.toString(observed), pValue);
    assertTrue(pValue > 0.001, "detail-level frequencies deviate from the exact probabilities");
    // TotalOnly iteration: one TOTAL_ONLY row per geography
    assertEquals(GROUPS, h.get(DetailLevel.TOTAL_ONLY));
    // rows per group match the detail level: 1, 2, 4, 8 (+1 TotalOnly)
    long expectedRows = GROUPS + observed[0] + 2 * observed[1] + 4 * observed[2] + 8 * observed[3];
    assertEquals(expectedRows, rows.size());
    assertEquals(expectedRows, summary.rows());
    // Same seed, same output.
    List<TabulatedCount> again =
        new AdaptiveTabulation(spec)
            .tabulateLevel("L", counts(), new SeededRandomBits(2024 + m.ordinal()));
    assertEquals(rows, again);
    checkCoverage(spec, rows);
  }

  /** Empirical coverage of each row's MOE against the exact coverage P[|Z| ≤ moe]. */
  void checkCoverage(AdaptiveTabulationSpec spec, List<TabulatedCount> rows) {
    PopulationLevel level = spec.level("L");
    Map<DetailLevel, long[]> exactByDetail = new EnumMap<>(DetailLevel.class);
    exactByDetail.put(DetailLevel.TOTAL, new long[] {100});
    exactByDetail.put(DetailLevel.TOTAL_ONLY, new long[] {100});
    exactByDetail.put(DetailLevel.SEX_BY_AGE_COARSE, new long[] {50, 50});
    exactByDetail.put(DetailLevel.SEX_BY_AGE_MEDIUM, new long[] {30, 20, 30, 20});
    exactByDetail.put(DetailLevel.SEX_BY_AGE_FINE, CELLS);
    for (boolean totalOnly : new boolean[] {false, true}) {
      double budget =
          (totalOnly ? AdaptiveTabulationSpec.groupBudget(level) : spec.stepTwoBudget(level))
              .doubleValue();
      long covered = 0;
      long n = 0;
      long moe = -1;
      int index = 0;
      String lastGroup = null;
      for (TabulatedCount r : rows) {
        if ((r.detail() == DetailLevel.TOTAL_ONLY) != totalOnly) {
          continue;
        }
        String key = r.group().geography() + "/" + r.group().iteration();
        index = key.equals(lastGroup) ? index + 1 : 0;
        lastGroup = key;
        long exact = exactByDetail.get(r.detail())[index];
        moe = r.marginOfError95();
        n++;
        covered += Math.abs(r.noisyCount() - exact) <= moe ? 1 : 0;
      }
      // exact coverage and the smallest m with coverage ≥ 0.95, from the pmf
      double coverage = 0;
      long smallest = -1;
      double acc = stepOnePmf(spec.mechanism(), budget, 0);
      for (long m = 0; m < 10_000; m++) {
        if (m > 0) {
          acc += 2 * stepOnePmf(spec.mechanism(), budget, m);
        }
        if (smallest < 0 && acc >= 0.95) {
          smallest = m;
        }
        if (m == moe) {
          coverage = acc;
        }
        if (smallest >= 0 && m >= moe) {
          break;
        }
      }
      double empirical = (double) covered / n;
      double sd = Math.sqrt(coverage * (1 - coverage) / n);
      System.out.printf(
          "%s %s rows: MOE %d, exact coverage %.4f, empirical %.4f over %d rows%n",
          spec.mechanism(), totalOnly ? "TotalOnly" : "step-2", moe, coverage, empirical, n);
      assertEquals(smallest, moe, "reported MOE is the exact 95% quantile");
      assertTrue(coverage >= 0.95);
      assertEquals(coverage, empirical, 4 * sd);
    }
  }

  @Test
  void geometricChoiceFollowsTheExactNoiseDistribution() {
    checkChoice(BaseMechanism.GEOMETRIC, "1.2");
  }

  @Test
  void discreteGaussianChoiceFollowsTheExactNoiseDistribution() {
    checkChoice(BaseMechanism.DISCRETE_GAUSSIAN, "0.3");
  }

  @Test
  void thresholdsAreStrictLowerBounds() {
    assertEquals(DetailLevel.TOTAL, DetailLevel.forNoisyTotal(96, 97, 101, 104));
    assertEquals(DetailLevel.SEX_BY_AGE_COARSE, DetailLevel.forNoisyTotal(97, 97, 101, 104));
    assertEquals(DetailLevel.SEX_BY_AGE_MEDIUM, DetailLevel.forNoisyTotal(101, 97, 101, 104));
    assertEquals(DetailLevel.SEX_BY_AGE_MEDIUM, DetailLevel.forNoisyTotal(103, 97, 101, 104));
    assertEquals(DetailLevel.SEX_BY_AGE_FINE, DetailLevel.forNoisyTotal(104, 97, 101, 104));
  }
}
