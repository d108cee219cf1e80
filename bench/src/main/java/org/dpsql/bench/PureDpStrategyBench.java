package org.dpsql.bench;

import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.hdmm.BoundedLbfgs;
import org.dpsql.matrix.hdmm.PIdentityOptimizer;
import org.dpsql.matrix.hdmm.PureDpStrategySelector;
import org.dpsql.matrix.hdmm.ScoredStrategy;
import org.dpsql.matrix.hdmm.WeightedBasisOptimizer;

/**
 * Pure ε-DP strategy optimisation on all 1-D ranges (HDMM, McKenna et al. VLDB 2018, §8): time of
 * the p-Identity optimisation ({@code p = n/16}) and its RMSE ratio to the identity, against HDMM's
 * published 7.89 / 18.49 = 0.427 in 21 s at 1024 cells and 138 s at 2048 cells. RMSE uses HDMM's
 * normalisation {@code sqrt(2/ε² · ||A||₁² · trace(WᵀW(AᵀA)⁻¹) / m)} with {@code ε = √2}; ratios
 * do not depend on ε. For reference it also reports one start with HDMM's own stopping rule
 * (scipy L-BFGS-B {@code ftol = 1e-4}), the paper's ε-DP variant (L1 weighting of the Haar wavelet,
 * seed 001 §3.5: "improves Wavelet by 1.1×" on all ranges) and the best hierarchical branching.
 * Wall-clock times on a shared machine are upper bounds.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.PureDpStrategyBench [n ...]}
 * (default 1024 2048).
 */
public final class PureDpStrategyBench {
  private PureDpStrategyBench() {}

  public static void main(String[] args) {
    int[] sizes = args.length == 0 ? new int[] {1024, 2048} : new int[args.length];
    for (int i = 0; i < args.length; i++) {
      sizes[i] = Integer.parseInt(args[i]);
    }
    System.out.printf("Pure-DP strategies for all 1-D ranges; JVM %s, %d cores, load average %.2f%n",
        System.getProperty("java.vm.version"), Runtime.getRuntime().availableProcessors(),
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    double eps = Math.sqrt(2);
    for (int n : sizes) {
      Workload w = new AllRangesWorkload(n);
      long m = w.queries();
      ScoredStrategy identity = new ScoredStrategy(Strategies.identity(n), w.frobeniusSquared());
      double idRmse = identity.rootMeanSquaredError(eps, m);
      System.out.printf("%nn = %d, m = %d queries, p = %d: identity RMSE %.3f (HDMM normalisation)%n",
          n, m, PIdentityOptimizer.defaultP(n), idRmse);

      report("p-Identity, HDMM stopping rule (ftol 1e-4 once), 1 start", w, idRmse, eps,
          new PIdentityOptimizer(0, 1, 1, new BoundedLbfgs(10, 5000, 1e-4, 1, 0)));
      report("p-Identity, default solver (ftol 1e-5 x3), 1 start", w, idRmse, eps,
          PIdentityOptimizer.defaults(1).withStarts(1));
      report("p-Identity, defaults (3 starts)", w, idRmse, eps, PIdentityOptimizer.defaults(1));

      long t0 = System.nanoTime();
      double wavelet = PureDpStrategySelector.objective(w, Strategies.wavelet(n));
      ScoredStrategy weighted =
          new WeightedBasisOptimizer(new BoundedLbfgs(10, 500, 1e-9, 5, 0), 0, 0)
              .optimize(w, Strategies.wavelet(n));
      System.out.printf("  %-58s RMSE %.3f ratio %.4f; wavelet/weighted error %.4f (RMSE %.4f)  %.1f s%n",
          "L1-weighted wavelet (seed 001 §3.5), no completion",
          weighted.rootMeanSquaredError(eps, m), weighted.rootMeanSquaredError(eps, m) / idRmse,
          wavelet / weighted.objective(), Math.sqrt(wavelet / weighted.objective()),
          (System.nanoTime() - t0) / 1e9);

      t0 = System.nanoTime();
      double bestH = Double.POSITIVE_INFINITY;
      int bestB = 0;
      for (int b = 2; b <= 16; b++) {
        double e = PureDpStrategySelector.objective(w, Strategies.hierarchical(n, b));
        if (e < bestH) {
          bestH = e;
          bestB = b;
        }
      }
      System.out.printf("  %-58s RMSE %.3f ratio %.4f  %.1f s (15 dense evaluations)%n",
          "best hierarchical, b = " + bestB,
          Math.sqrt(2 * bestH / (eps * eps) / m), Math.sqrt(2 * bestH / (eps * eps) / m) / idRmse,
          (System.nanoTime() - t0) / 1e9);
    }
  }

  private static void report(String label, Workload w, double idRmse, double eps, PIdentityOptimizer opt) {
    long t0 = System.nanoTime();
    PIdentityOptimizer.Result r = opt.optimize(w);
    double secs = (System.nanoTime() - t0) / 1e9;
    double rmse = r.best().rootMeanSquaredError(eps, w.queries());
    System.out.printf("  %-58s RMSE %.3f ratio %.4f  %.1f s, %d iterations; starts %s%n",
        label, rmse, rmse / idRmse, secs, r.iterations(), ratios(r));
  }

  private static String ratios(PIdentityOptimizer.Result r) {
    StringBuilder s = new StringBuilder("[");
    for (double v : r.startObjectives()) {
      s.append(s.length() == 1 ? "" : ", ").append(String.format("%.4f", Math.sqrt(v / r.identityObjective())));
    }
    return s.append(']').toString();
  }
}
