package org.dpsql.bench;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpsql.hierarchy.HierarchicalCounts;
import org.dpsql.hierarchy.Hierarchy;
import org.dpsql.hierarchy.IntOpt;
import org.dpsql.hierarchy.OdTreeDomain;
import org.dpsql.hierarchy.ReleaseMetrics;
import org.dpsql.hierarchy.SparseLevel;
import org.dpsql.hierarchy.SyntheticOdData;
import org.dpsql.hierarchy.TopDownBudget;
import org.dpsql.hierarchy.TopDownMechanism;
import org.dpsql.hierarchy.TopDownRelease;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SecureRandomBits;
import org.dpsql.mechanism.SeededRandomBits;

/**
 * Performance of the InfTDA release (seed 003) at scale. Prints:
 *
 * <ol>
 *   <li>the exact discrete Gaussian sampler's throughput ({@link ExactSamplers#discreteGaussian})
 *       at the variances of the run, with {@link SecureRandomBits} and {@link SeededRandomBits};
 *   <li>the full InfTDA release of a synthetic O/D data set of 30,000,000 trips over a 3-level
 *       hierarchy of 20 × 10 × 10 areas on each side (2,000 finest areas, 4,000,000 O/D leaf pairs
 *       of which {@code --pairs} (default 400,000) are non-empty, Pareto flows): tree construction
 *       from the aggregated leaf counts + noise + IntOpt at all 6 levels, wall time and peak heap;
 *       then TDA_ℓ2 on the same tree;
 *   <li>IntOpt on one node with 100,000 children.
 * </ol>
 *
 * <p>Run (the heap cap proves the memory bound): {@code java -Xmx4g -cp <engine classes + ojalgo>
 * org.dpsql.bench.TopDownPerformance [--pairs N] [--eps E] [--seeded]}. The release is
 * single-threaded; timings on a shared machine are upper bounds.
 */
public final class TopDownPerformance {
  private TopDownPerformance() {}

  public static void main(String[] args) {
    long pairs = 400_000;
    String eps = "1";
    boolean seeded = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--pairs" -> pairs = Long.parseLong(args[++i]);
        case "--eps" -> eps = args[++i];
        case "--seeded" -> seeded = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    BigDecimal delta = new BigDecimal("1e-8");
    System.out.printf("cores available: %d, max heap %.2f GiB%n",
        Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() / (double) (1L << 30));

    // 1. sampler throughput
    System.out.println("\n== Exact discrete Gaussian sampler throughput ==");
    for (String e : new String[] {"0.1", "1", "10"}) {
      Rational rho = TopDownBudget.rhoForApproxDp(new BigDecimal(e), delta);
      Rational sigma2 = TopDownBudget.paper(rho, 6).sigmaSquared(1);
      for (RandomBits bits : new RandomBits[] {new SecureRandomBits(), new SeededRandomBits(1)}) {
        samplerThroughput(bits, sigma2, 50_000); // warm-up
        double perSecond = samplerThroughput(bits, sigma2, 400_000);
        System.out.printf("eps=%-4s T=6 sigma^2=%10.1f %-40s %,10.0f samples/s%n",
            e, sigma2.doubleValue(), bits, perSecond);
      }
    }

    // 2. the 30M-trip release
    System.out.println("\n== InfTDA on 30,000,000 trips, 20 x 10 x 10 areas per side ==");
    Hierarchy areas = Hierarchy.uniform(20, 10, 10);
    OdTreeDomain domain = OdTreeDomain.destinationTree(areas);
    HierarchicalCounts generated = SyntheticOdData.paretoFlows(domain, pairs, 30_000_000L, 1.5, 77);
    SparseLevel leafLevel = generated.level(domain.depth());
    long[] leafIds = leafLevel.ids(); // the aggregate a GROUP BY would return
    long[] leafCounts = leafLevel.values();
    // scramble the row order, as a database would return it
    SplittableRandom shuffle = new SplittableRandom(5);
    for (int i = leafIds.length - 1; i > 0; i--) {
      int j = shuffle.nextInt(i + 1);
      long t = leafIds[i];
      leafIds[i] = leafIds[j];
      leafIds[j] = t;
      t = leafCounts[i];
      leafCounts[i] = leafCounts[j];
      leafCounts[j] = t;
    }
    generated = null; // only the aggregate is kept
    System.out.printf("O/D leaf domain %,d pairs, %,d non-empty, tree depth %d%n",
        domain.levelSize(domain.depth()), leafIds.length, domain.depth());
    Rational rho = TopDownBudget.rhoForApproxDp(new BigDecimal(eps), delta);
    TopDownBudget budget = TopDownBudget.paper(rho, domain.depth());
    System.out.printf("eps=%s delta=1e-8 -> rho=%s, sigma^2 per level = T/rho = %.1f%n",
        eps, rho, budget.sigmaSquared(1).doubleValue());

    RandomBits bits = seeded ? new SeededRandomBits(2025) : new SecureRandomBits();
    int reps = 3;
    double[] full = new double[reps];
    double[] inf = new double[reps];
    double[] l2 = new double[reps];
    double[] infCpu = new double[reps];
    double[] l2Cpu = new double[reps];
    java.lang.management.ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int rep = 0; rep < reps; rep++) {
      // InfTDA: the full release, tree construction from the aggregate included
      System.gc();
      HeapPeak.reset();
      long c0 = cpu.getCurrentThreadCpuTime();
      long t0 = System.nanoTime();
      HierarchicalCounts tree = HierarchicalCounts.fromLeafCounts(domain, leafIds, leafCounts);
      long t1 = System.nanoTime();
      long c1 = cpu.getCurrentThreadCpuTime();
      TopDownRelease release = TopDownMechanism.infTda(budget).release(tree, bits);
      long t2 = System.nanoTime();
      infCpu[rep] = (cpu.getCurrentThreadCpuTime() - c1) / 1e9;
      full[rep] = (t2 - t0) / 1e9;
      inf[rep] = (t2 - t1) / 1e9;
      System.out.printf("[%d] InfTDA: tree construction %.2f s + release %.2f s = %.2f s total wall (release thread CPU %.2f s, construction CPU %.2f s); peak heap %.2f GiB; %,d noise draws (%s)%n",
          rep, (t1 - t0) / 1e9, inf[rep], full[rep], infCpu[rep], (c1 - c0) / 1e9, HeapPeak.gib(), release.totalNoiseDraws(), bits);
      if (rep == 0) {
        System.out.println("    noise draws per level: " + Arrays.toString(release.noiseDraws()));
        printMetrics(tree, release.tree());
      }
      // TDA_l2 on the same tree
      System.gc();
      HeapPeak.reset();
      long c3 = cpu.getCurrentThreadCpuTime();
      long t3 = System.nanoTime();
      TopDownRelease other = TopDownMechanism.tdaL2(budget).release(tree, bits);
      long t4 = System.nanoTime();
      l2[rep] = (t4 - t3) / 1e9;
      l2Cpu[rep] = (cpu.getCurrentThreadCpuTime() - c3) / 1e9;
      System.out.printf("[%d] TDA_l2: release %.2f s wall (thread CPU %.2f s); peak heap %.2f GiB; %,d noise draws%n",
          rep, l2[rep], l2Cpu[rep], HeapPeak.gib(), other.totalNoiseDraws());
      if (rep == 0) {
        printMetrics(tree, other.tree());
      }
    }
    System.out.printf("median wall: InfTDA full release %.2f s (release only %.2f s), TDA_l2 release %.2f s; TDA_l2 / InfTDA = %.2f%n",
        median(full), median(inf), median(l2), median(l2) / median(inf));
    System.out.printf("median thread CPU: InfTDA release %.2f s, TDA_l2 release %.2f s; TDA_l2 / InfTDA = %.2f%n",
        median(infCpu), median(l2Cpu), median(l2Cpu) / median(infCpu));

    // 3. IntOpt on 100,000 children
    System.out.println("\n== IntOpt on one node with 100,000 children ==");
    SplittableRandom r = new SplittableRandom(3);
    long[] x = new long[100_000];
    long sum = 0;
    for (int i = 0; i < x.length; i++) {
      x[i] = (i % 50 == 0 ? 400 : 0) + r.nextInt(121) - 60; // sparse counts + noise of sd ~35
      sum += Math.max(0, x[i]);
    }
    long c = sum * 9 / 10;
    for (int w = 0; w < 5; w++) {
      IntOpt.solve(x, c);
    }
    long best = Long.MAX_VALUE;
    long total = 0;
    int runs = 20;
    for (int k = 0; k < runs; k++) {
      long s = System.nanoTime();
      long[] y = IntOpt.solve(x, c);
      long e = System.nanoTime() - s;
      best = Math.min(best, e);
      total += e;
      if (k == 0) {
        System.out.printf("distance %d (optimum %d)%n", IntOpt.chebyshevDistance(x, y), IntOpt.minimumDistance(x, c));
      }
    }
    long coldStart = System.nanoTime();
    IntOpt.projectAppendixC(x, c);
    System.out.printf("IntOpt (Algorithm 2 output, O(b log b)): mean %.2f ms, best %.2f ms over %d runs; Algorithm 4 literal: %.2f ms%n",
        total / 1e6 / runs, best / 1e6, runs, (System.nanoTime() - coldStart) / 1e6);
  }

  private static double median(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    return c[c.length / 2];
  }

  private static void printMetrics(HierarchicalCounts truth, HierarchicalCounts released) {
    StringBuilder sb = new StringBuilder("  per level max-abs-error / false discovery rate:");
    for (ReleaseMetrics m : ReleaseMetrics.perLevel(truth, released)) {
      sb.append(String.format(" L%d %d/%.3f", m.level(), m.maxAbsoluteError(), m.falseDiscoveryRate()));
    }
    System.out.println(sb);
  }

  private static double samplerThroughput(RandomBits bits, Rational sigma2, int n) {
    long acc = 0;
    long s = System.nanoTime();
    for (int i = 0; i < n; i++) {
      acc += ExactSamplers.discreteGaussian(bits, sigma2).longValue();
    }
    double sec = (System.nanoTime() - s) / 1e9;
    if (acc == Long.MIN_VALUE) {
      System.out.println(); // keep acc alive
    }
    return n / sec;
  }

}
