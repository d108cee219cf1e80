package org.dpsql.bench;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpsql.hierarchy.Contribution;
import org.dpsql.hierarchy.HierarchicalCounts;
import org.dpsql.hierarchy.Neighbouring;
import org.dpsql.hierarchy.ReleaseMetrics;
import org.dpsql.hierarchy.StabilityHistogram;
import org.dpsql.hierarchy.SyntheticOdData;
import org.dpsql.hierarchy.TopDownBudget;
import org.dpsql.hierarchy.TopDownMechanism;
import org.dpsql.hierarchy.VanillaGauss;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;

/**
 * The synthetic-data experiment of Boninsegna &amp; Silvestri (Section 5, Figures 4–6) on the six
 * data sets of Table 1 ({@link SyntheticOdData#table1}): InfTDA, TDA_ℓ2, TDA_ℓ∞, VanillaGauss and
 * the Stability Histogram at ε ∈ {0.1, 1, 10}, δ = 10⁻⁸ (ρ from {@code ε = ρ + 2√(ρ ln(1/δ))}, as
 * the paper; SH gets (ε, δ) directly), bounded DP, one trip per user, uniform budget split; per tree
 * level the maximum absolute error (mean and min–max over the runs) and the false discovery rate
 * (mean), and the mean running time per release. Noise from {@link SeededRandomBits} (one seed per
 * data set, ε, method and run) so the tables are reproducible.
 *
 * <p>Run: {@code java -cp <engine classes + ojalgo> org.dpsql.bench.TopDownExperiment [--runs 10]
 * [--linf-runs N] [--datasets "random sparse,binary dense"] [--eps 0.1,1,10] [--methods
 * InfTDA,TDA_l2,TDA_linf,VanillaGauss,SH] [--out file.md]}; {@code --split-ablation} instead runs
 * InfTDA with the uniform against the zoom-in budget split at ε = 1. Single-threaded; timings (thread
 * CPU and wall) on a shared machine are upper bounds. Results: {@code docs/topdown-results.md}.
 */
public final class TopDownExperiment {
  private static final String[] METHODS = {"InfTDA", "TDA_l2", "TDA_linf", "VanillaGauss", "SH"};
  private static final BigDecimal DELTA = new BigDecimal("1e-8");
  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();
  private static java.util.Set<String> selected = java.util.Set.of(METHODS);

  private TopDownExperiment() {}

  /** Per-level statistics of one method over its runs (all zero when it was not run). */
  private static final class Stats {
    final int runs;
    final double[] errMean;
    final long[] errMin;
    final long[] errMax;
    final double[] fdrMean;
    final double[] fpMean;
    double seconds;
    double wallSeconds;

    Stats(int levels, int runs) {
      this.runs = runs;
      errMean = new double[levels];
      errMin = new long[levels];
      errMax = new long[levels];
      fdrMean = new double[levels];
      fpMean = new double[levels];
      java.util.Arrays.fill(errMin, Long.MAX_VALUE);
    }

    void add(ReleaseMetrics[] m, double sec, double wall) {
      wallSeconds += wall / runs;
      for (int l = 0; l < m.length; l++) {
        errMean[l] += m[l].maxAbsoluteError() / (double) runs;
        errMin[l] = Math.min(errMin[l], m[l].maxAbsoluteError());
        errMax[l] = Math.max(errMax[l], m[l].maxAbsoluteError());
        fdrMean[l] += m[l].falseDiscoveryRate() / runs;
        fpMean[l] += m[l].falsePositives() / (double) runs;
      }
      seconds += sec / runs;
    }
  }

  public static void main(String[] args) throws IOException {
    int runs = 10;
    int linfRuns = -1;
    List<String> datasets = null;
    String[] epsilons = {"0.1", "1", "10"};
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--linf-runs" -> linfRuns = Integer.parseInt(args[++i]);
        case "--datasets" -> datasets = List.of(args[++i].split(","));
        case "--eps" -> epsilons = args[++i].split(",");
        case "--out" -> out = Path.of(args[++i]);
        case "--methods" -> selected = java.util.Set.of(args[++i].split(","));
        case "--split-ablation" -> {
          splitAblation(runs);
          return;
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (linfRuns < 0) {
      linfRuns = runs;
    }
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Runs per cell: %d (TDA_linf: %d). Error = maximum absolute error over the level's public domain, "
            + "mean [min-max] over the runs; FDR = false discovery rate in %%, mean over the runs; "
            + "time = thread CPU time and wall time per release, mean over the runs.%n%n",
        runs, linfRuns));
    warmUp();
    List<String[]> summary = new ArrayList<>();
    for (SyntheticOdData.Partition p : SyntheticOdData.Partition.values()) {
      for (SyntheticOdData.Density d : SyntheticOdData.Density.values()) {
        String name = p.name().toLowerCase(Locale.ROOT) + " " + d.name().toLowerCase(Locale.ROOT);
        if (datasets != null && !datasets.contains(name)) {
          continue;
        }
        SyntheticOdData.Dataset ds = SyntheticOdData.table1(p, d);
        for (String e : epsilons) {
          Stats[] stats = runCell(ds, e, runs, linfRuns);
          String table = table(ds, e, stats);
          System.out.println(table);
          System.out.flush();
          md.append(table).append('\n');
          summary.add(summaryRow(ds, e, stats));
        }
      }
    }
    StringBuilder s = new StringBuilder();
    s.append("### Summary: leaf-level FDR and mean time per release\n\n");
    s.append("| data set | eps | leaf FDR % InfTDA / TDA_l2 / TDA_linf / VanillaGauss / SH | lowest-FDR TopDown | CPU s InfTDA / TDA_l2 / TDA_linf / VanillaGauss / SH | fastest TopDown (CPU) |\n");
    s.append("|---|---|---|---|---|---|\n");
    for (String[] r : summary) {
      s.append("| ").append(String.join(" | ", r)).append(" |\n");
    }
    System.out.println(s);
    md.append(s);
    if (out != null) {
      Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
      System.out.println("written to " + out);
    }
  }

  /**
   * InfTDA with the uniform split (the paper's) against the {@link BudgetSplit#zoomIn()} split, per
   * level mean maximum absolute error at ε = 1 on every data set.
   */
  private static void splitAblation(int runs) {
    warmUp();
    System.out.println("#### Budget split ablation: InfTDA, eps = 1, delta = 1e-8, mean max-abs-error over "
        + runs + " runs, uniform / zoom-in\n");
    Rational rho = TopDownBudget.rhoForApproxDp(BigDecimal.ONE, DELTA);
    for (SyntheticOdData.Partition p : SyntheticOdData.Partition.values()) {
      for (SyntheticOdData.Density d : SyntheticOdData.Density.values()) {
        SyntheticOdData.Dataset ds = SyntheticOdData.table1(p, d);
        HierarchicalCounts truth = ds.counts();
        int t = truth.depth();
        StringBuilder row = new StringBuilder("| " + ds.name() + " |");
        double[][] mean = new double[2][t + 1];
        for (int k = 0; k < 2; k++) {
          TopDownBudget budget =
              TopDownBudget.of(rho, t, Neighbouring.BOUNDED, Contribution.ONE,
                  k == 0 ? org.dpsql.hierarchy.BudgetSplit.uniform() : org.dpsql.hierarchy.BudgetSplit.zoomIn());
          for (int run = 0; run < runs; run++) {
            HierarchicalCounts rel =
                TopDownMechanism.infTda(budget).release(truth, new SeededRandomBits(7_000 + run)).tree();
            ReleaseMetrics[] m = ReleaseMetrics.perLevel(truth, rel);
            for (int l = 0; l <= t; l++) {
              mean[k][l] += m[l].maxAbsoluteError() / (double) runs;
            }
          }
        }
        for (int l = 1; l <= t; l++) {
          row.append(String.format(Locale.ROOT, " %.0f / %.0f |", mean[0][l], mean[1][l]));
        }
        System.out.println("levels 1.." + t);
        System.out.println(row);
      }
    }
  }

  private static void warmUp() {
    SyntheticOdData.Dataset ds =
        SyntheticOdData.table1(SyntheticOdData.Partition.RANDOM, SyntheticOdData.Density.SPARSE);
    runCell(ds, "1", 1, 1);
  }

  private static Stats[] runCell(SyntheticOdData.Dataset ds, String eps, int runs, int linfRuns) {
    HierarchicalCounts truth = ds.counts();
    int levels = truth.depth() + 1;
    Rational rho = TopDownBudget.rhoForApproxDp(new BigDecimal(eps), DELTA);
    TopDownBudget budget = TopDownBudget.paper(rho, truth.depth());
    VanillaGauss vanilla = new VanillaGauss(rho, Neighbouring.BOUNDED, Contribution.ONE);
    StabilityHistogram sh =
        new StabilityHistogram(new BigDecimal(eps), DELTA, Neighbouring.BOUNDED, Contribution.ONE);
    Stats[] stats = new Stats[METHODS.length];
    for (int m = 0; m < METHODS.length; m++) {
      int r = !selected.contains(METHODS[m]) ? 0 : m == 2 ? linfRuns : runs;
      stats[m] = new Stats(levels, r);
      for (int run = 0; run < r; run++) {
        long seed = ((long) ds.name().hashCode() * 31 + eps.hashCode()) * 101 + m * 1_000 + run;
        RandomBits bits = new SeededRandomBits(seed);
        long c0 = CPU.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        HierarchicalCounts released =
            switch (m) {
              case 0 -> TopDownMechanism.infTda(budget).release(truth, bits).tree();
              case 1 -> TopDownMechanism.tdaL2(budget).release(truth, bits).tree();
              case 2 -> TopDownMechanism.tdaLinf(budget).release(truth, bits).tree();
              case 3 -> vanilla.release(truth, bits);
              default -> sh.release(truth, bits);
            };
        double wall = (System.nanoTime() - t0) / 1e9;
        double sec = (CPU.getCurrentThreadCpuTime() - c0) / 1e9;
        stats[m].add(ReleaseMetrics.perLevel(truth, released), sec, wall);
      }
      System.err.printf(Locale.ROOT, "%s eps=%s %s: %d runs, %.2f s/run%n", ds.name(), eps, METHODS[m], r, stats[m].seconds);
    }
    return stats;
  }

  private static String table(SyntheticOdData.Dataset ds, String eps, Stats[] stats) {
    StringBuilder sb = new StringBuilder();
    Rational rho = TopDownBudget.rhoForApproxDp(new BigDecimal(eps), DELTA);
    sb.append(String.format(Locale.ROOT,
        "#### %s (%,d users, %,d O/D pairs, T = %d), eps = %s, delta = 1e-8 (rho = %.6g; SH threshold %d)%n%n",
        ds.name(), ds.users(), ds.pairs(), ds.counts().depth(), eps, rho.doubleValue(),
        new StabilityHistogram(new BigDecimal(eps), DELTA, Neighbouring.BOUNDED, Contribution.ONE).threshold()));
    sb.append("| level |");
    for (String m : METHODS) {
      sb.append(" ").append(m).append(" error |");
    }
    for (String m : METHODS) {
      sb.append(" ").append(m).append(" FDR % |");
    }
    sb.append("\n|---|");
    sb.append("---|".repeat(2 * METHODS.length)).append('\n');
    int levels = stats[0].errMean.length;
    for (int l = 0; l < levels; l++) {
      sb.append("| ").append(l).append(" |");
      for (Stats s : stats) {
        sb.append(String.format(Locale.ROOT, " %.1f [%d-%d] |", s.errMean[l], s.errMin[l], s.errMax[l]));
      }
      for (Stats s : stats) {
        sb.append(String.format(Locale.ROOT, " %.1f |", 100 * s.fdrMean[l]));
      }
      sb.append('\n');
    }
    sb.append("| CPU s/release |");
    for (Stats s : stats) {
      sb.append(String.format(Locale.ROOT, " %.3f |", s.seconds));
    }
    sb.append(" |".repeat(METHODS.length)).append('\n');
    sb.append("| wall s/release |");
    for (Stats s : stats) {
      sb.append(String.format(Locale.ROOT, " %.3f |", s.wallSeconds));
    }
    sb.append(" |".repeat(METHODS.length)).append('\n');
    return sb.toString();
  }

  private static String[] summaryRow(SyntheticOdData.Dataset ds, String eps, Stats[] stats) {
    int leaf = stats[0].errMean.length - 1;
    StringBuilder fdr = new StringBuilder();
    StringBuilder time = new StringBuilder();
    int bestFdr = 0;
    int fastest = 0;
    for (int m = 0; m < METHODS.length; m++) {
      fdr.append(m == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.1f", 100 * stats[m].fdrMean[leaf]));
      time.append(m == 0 ? "" : " / ").append(String.format(Locale.ROOT, "%.3f", stats[m].seconds));
      if (m < 3) {
        if (stats[m].fdrMean[leaf] < stats[bestFdr].fdrMean[leaf]) {
          bestFdr = m;
        }
        if (stats[m].seconds < stats[fastest].seconds) {
          fastest = m;
        }
      }
    }
    return new String[] {ds.name(), eps, fdr.toString(), METHODS[bestFdr], time.toString(), METHODS[fastest]};
  }
}
