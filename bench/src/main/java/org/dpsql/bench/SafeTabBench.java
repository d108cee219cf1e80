package org.dpsql.bench;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.dpsql.accounting.ApproxDpBound;
import org.dpsql.accounting.TightConversion;
import org.dpsql.adaptive.AdaptiveTabulation;
import org.dpsql.adaptive.AdaptiveTabulationSpec;
import org.dpsql.adaptive.AgeBinning;
import org.dpsql.adaptive.BaseMechanism;
import org.dpsql.adaptive.DetailLevel;
import org.dpsql.adaptive.InMemoryAggregation;
import org.dpsql.adaptive.MoeCalibration;
import org.dpsql.adaptive.PopulationLevel;
import org.dpsql.adaptive.SyntheticCensus;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.SecureRandomBits;
import org.dpsql.mechanism.SeededRandomBits;

/**
 * Performance of the SafeTab adaptive tabulation (seed 002) at census-like scale. Generates a
 * synthetic census ({@link SyntheticCensus}) of {@code --persons} persons (default 5,000,000) with
 * 3 geography levels (1 nation / 50 states / 3,000 counties) and 200 characteristic iterations; for
 * each level aggregates it in the JVM into the per-group Sex × Age23 counts with stability
 * truncation Δ = 8 ({@link InMemoryAggregation}, the stand-in for the backend GROUP BY), then runs
 * the full adaptive tabulation ({@link AdaptiveTabulation}) with both base mechanisms. Prints the
 * generation, aggregation and tabulation wall times, rows released per detail level, the privacy
 * cost and peak heap.
 *
 * <p>Policy used (illustrative; the paper does not state its thresholds): level budgets calibrated
 * by Corollary 4 / the exact geometric calibration to Step-2 MOE targets 6 (nation), 6 (state), 11
 * (county), s = Δ = 8, γ = 0.1, thresholds θ = (50, 500, 5000), Age4/Age9/Age23 over the Age23
 * categories (the engine's GROUP BY maps single years to Age23). Run: {@code java -Xmx4g -cp
 * <engine classes> org.dpsql.bench.SafeTabBench [--persons N] [--seeded]}. Single-threaded; timings
 * on a shared machine are upper bounds.
 */
public final class SafeTabBench {
  private SafeTabBench() {}

  public static void main(String[] args) {
    int persons = 5_000_000;
    boolean seeded = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--persons" -> persons = Integer.parseInt(args[++i]);
        case "--seeded" -> seeded = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    int delta = 8;
    BigDecimal gamma = new BigDecimal("0.1");
    System.out.printf(
        "cores available: %d, max heap %.2f GiB%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() / (double) (1L << 30));

    HeapPeak.reset();
    long t0 = System.nanoTime();
    SyntheticCensus census = SyntheticCensus.generate(persons, 50, 3000, 80, 20, 20_200_402L);
    long t1 = System.nanoTime();
    System.out.printf(
        "generated %s in %.2f s; peak heap %.2f GiB%n", census, (t1 - t0) / 1e9, HeapPeak.gib());

    List<Integer> finest = AgeBinning.AGE23_LOWER_YEARS;
    List<AgeBinning> binnings = AgeBinning.census(finest);
    int[] geographyLevels = {SyntheticCensus.NATION, SyntheticCensus.STATE, SyntheticCensus.COUNTY};
    String[] names = {"Nation", "State", "County"};
    long[] moe = {6, 6, 11};

    for (BaseMechanism mechanism : BaseMechanism.values()) {
      List<PopulationLevel> levels = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        double base =
            mechanism == BaseMechanism.GEOMETRIC
                ? MoeCalibration.exactGeometricEpsilon(moe[i])
                : MoeCalibration.corollary4Rho(moe[i]);
        levels.add(
            census.populationLevel(
                names[i],
                geographyLevels[i],
                MoeCalibration.levelBudget(base, delta, gamma, 3),
                delta));
      }
      AdaptiveTabulationSpec spec =
          new AdaptiveTabulationSpec(
              mechanism, levels, gamma, 50, 500, 5000, List.of("Male", "Female"), binnings);
      AdaptiveTabulation tabulation = new AdaptiveTabulation(spec);
      RandomBits bits = seeded ? new SeededRandomBits(7) : new SecureRandomBits();
      System.out.printf("%n== %s, cost %s ==%n", mechanism, spec.totalCost());
      double aggregateTotal = 0;
      double tabulateTotal = 0;
      for (int i = 0; i < 3; i++) {
        PopulationLevel level = levels.get(i);
        HeapPeak.reset();
        long a0 = System.nanoTime();
        InMemoryAggregation counts =
            InMemoryAggregation.aggregate(census, geographyLevels[i], delta, finest, 2);
        long a1 = System.nanoTime();
        long[] negative = new long[1];
        AdaptiveTabulation.LevelSummary summary =
            tabulation.tabulateLevel(
                level.name(), counts, bits, row -> negative[0] += row.noisyCount() < 0 ? 1 : 0);
        long a2 = System.nanoTime();
        aggregateTotal += (a1 - a0) / 1e9;
        tabulateTotal += (a2 - a1) / 1e9;
        Map<DetailLevel, Long> h = new EnumMap<>(summary.groupsByDetail());
        System.out.printf(
            "%-7s budget %-6s groups %,9d (non-empty %,9d): aggregate %.2f s, tabulate %.2f s, %,d"
                + " rows (%.0f rows/s, %,d negative); groups by detail %s; peak heap %.2f GiB%n",
            level.name(),
            level.budget().toPlainString(),
            level.groupCount(),
            counts.nonEmptyGroups(),
            (a1 - a0) / 1e9,
            (a2 - a1) / 1e9,
            summary.rows(),
            summary.rows() / ((a2 - a1) / 1e9),
            negative[0],
            h,
            HeapPeak.gib());
      }
      ApproxDpBound tight =
          TightConversion.tightest(
              1e-10,
              mechanism == BaseMechanism.GEOMETRIC
                  ? spec.totalCost().epsilon().doubleValue()
                  : null,
              spec.renyiCurve(),
              mechanism == BaseMechanism.DISCRETE_GAUSSIAN
                  ? spec.totalCost().rho().doubleValue()
                  : null);
      System.out.printf(
          "total: aggregate %.2f s + tabulate %.2f s; tightest (eps, 1e-10): %.3f via %s%n",
          aggregateTotal, tabulateTotal, tight.epsilon(), tight.method());
    }
  }

}
