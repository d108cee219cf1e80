package org.dpsql.bench;

import java.util.function.Supplier;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.matrix.design.DesignOutcome;
import org.dpsql.matrix.design.EigenBasis;
import org.dpsql.matrix.design.EigenDesign;
import org.dpsql.matrix.design.EigenStrategy;
import org.dpsql.matrix.design.KroneckerDesign;
import org.dpsql.matrix.design.StrategyDesigner;
import org.dpsql.matrix.design.SymmetricEigen;
import org.dpsql.matrix.design.WeightedUnionDesign;

/**
 * Strategy-design speed and quality for seed 001 (Eigen-Design) and its Kronecker/union extensions:
 * wall time to a strategy, and the RMSE ratio {@code √(error/svdb)} to the singular value bound.
 * Anchors from the issue are printed beside the figures. Timings are wall-clock on whatever machine
 * runs it (upper bounds on a shared one). Run with a 3 GiB heap: {@code java -Xmx3g -cp
 * bench/target/benchmarks.jar org.dpsql.bench.EigenDesignBench [--cdf] [--eigensolvers]}.
 */
public final class EigenDesignBench {
  private EigenDesignBench() {}

  public static void main(String[] args) {
    boolean cdf = java.util.Arrays.asList(args).contains("--cdf");
    boolean solvers = java.util.Arrays.asList(args).contains("--eigensolvers");
    System.out.println("Eigen-Design benchmark (RMSE ratio = sqrt(total squared error / svdb); time = wall clock)");
    System.out.printf("%-58s %9s %11s  %s%n", "workload / method", "time [s]", "RMSE ratio", "notes / anchors");

    for (int n : new int[] {64, 256, 1024}) {
      double m = n * (n + 1) / 2.0;
      double perQuery = Math.sqrt(EigenBasis.allRanges(n).svdb(EigenBasis.DEFAULT_TOLERANCE) / m);
      System.out.printf("%-58s %9s %11s  svdb as RMSE per query sqrt(svdb/m) = %.4f (issue: %s)%n",
          "all 1-D ranges, " + n + " cells: bound", "-", "-", perQuery,
          n == 64 ? "2.2773" : n == 256 ? "2.8764" : "3.4923");
    }
    for (int n : new int[] {1024, 2048}) {
      Timed<EigenStrategy> t = time(() -> EigenDesign.standard().design(new AllRangesWorkload(n)));
      EigenStrategy s = t.value;
      row("all 1-D ranges, " + n + " cells: Eigen-Design", t.seconds, Math.sqrt(s.errorRatio()),
          String.format("P1 gap %.1e in %d it; before completion %.4f; HDMM ref. code %s s; best published L2 %s",
              s.certificate().relativeGap(), s.certificate().iterations(), Math.sqrt(s.programOneObjective() / s.svdb()),
              n == 1024 ? "21" : "138", n == 1024 ? "1.0217" : "1.0125"));
    }
    for (double f : new double[] {0.06, 0.10, 0.15}) {
      int n = 8192;
      Timed<EigenStrategy> t = time(() -> EigenDesign.standard().withPrincipalFraction(f).design(new AllRangesWorkload(n)));
      EigenStrategy s = t.value;
      row(String.format("all 1-D ranges, %d cells: principal vectors %.0f%%", n, 100 * f), t.seconds,
          Math.sqrt(s.errorRatio()),
          String.format("full design >= svdb, so this is at most %.1f%% above it", 100 * (Math.sqrt(s.errorRatio()) - 1)));
    }
    {
      int n = 8192;
      Timed<EigenStrategy> t =
          time(() -> EigenDesign.standard().withSeparation(16).withoutCompletion().design(new AllRangesWorkload(n)));
      row("all 1-D ranges, 8192 cells: separation n_g = 16 (no completion)", t.seconds,
          Math.sqrt(t.value.errorRatio()), "Program-1 objective, an upper bound on the completed design");
    }
    for (KroneckerDesign.FactorMethod method :
        new KroneckerDesign.FactorMethod[] {KroneckerDesign.FactorMethod.EIGEN, KroneckerDesign.FactorMethod.BEST}) {
      Workload w = KroneckerWorkload.of(new AllRangesWorkload(256), new AllRangesWorkload(256));
      System.gc();
      HeapPeak.reset();
      Timed<DesignOutcome> t = time(() -> KroneckerDesign.design(w, method));
      row("all ranges 256 x 256 (Kronecker, " + method + " factors)", t.seconds, t.value.rmseRatio(),
          String.format("target <= 2 s, <= 1.04; peak heap %.0f MiB", HeapPeak.gib() * 1024));
      Workload cube = KroneckerWorkload.of(new AllRangesWorkload(32), new AllRangesWorkload(32), new AllRangesWorkload(32));
      Timed<DesignOutcome> c = time(() -> KroneckerDesign.design(cube, method));
      row("all ranges 32 x 32 x 32 (Kronecker, " + method + " factors)", c.seconds, c.value.rmseRatio(),
          "target <= 1.04");
    }
    {
      Workload w = Workloads.marginals(new int[] {8, 16, 16}, 2);
      Timed<DesignOutcome> t = time(() -> StrategyDesigner.design(w));
      row("2-way marginals 8 x 16 x 16 (" + t.value.path() + ")", t.seconds, t.value.rmseRatio(),
          String.format("error/svdb = %.8f; target < 1 s, <= 1.0001", t.value.errorRatio()));
    }
    for (int k = 1; k <= 2; k++) {
      UnionWorkload w = (UnionWorkload) Workloads.rangeMarginals(new int[] {8, 16, 16}, k);
      Timed<EigenStrategy> e = time(() -> EigenDesign.standard().design(w));
      row(k + "-way range marginals 8 x 16 x 16: Eigen-Design", e.seconds, Math.sqrt(e.value.errorRatio()),
          String.format("LB/Eig %.3f (Table 2: %s)", 1 / Math.sqrt(e.value.errorRatio()), k == 1 ? "0.98" : "0.95"));
      Timed<DesignOutcome> u = time(() -> WeightedUnionDesign.design(w, KroneckerDesign.FactorMethod.BEST));
      row(k + "-way range marginals 8 x 16 x 16: weighted union", u.seconds, u.value.rmseRatio(), u.value.path());
    }
    if (cdf) {
      Timed<EigenStrategy> t = time(() -> EigenDesign.standard().design(new PrefixWorkload(2048)));
      row("CDF (prefixes), 2048 cells: Eigen-Design", t.seconds, Math.sqrt(t.value.errorRatio()),
          String.format("LB/Eig %.3f (Table 2: 0.80)", 1 / Math.sqrt(t.value.errorRatio())));
    }
    if (solvers) {
      for (int n : new int[] {512, 1024, 2048}) {
        double[][] g = new AllRangesWorkload(n).gram();
        Timed<SymmetricEigen> oj = time(() -> SymmetricEigen.of(g));
        Timed<double[]> cm = time(() -> new org.apache.commons.math3.linear.EigenDecomposition(
            new org.apache.commons.math3.linear.Array2DRowRealMatrix(g, false)).getRealEigenvalues());
        System.out.printf("dense symmetric eigensolve n = %4d: ojAlgo %.2f s, Commons Math 3 %.2f s%n", n, oj.seconds, cm.seconds);
      }
    }
  }

  private static void row(String what, double seconds, double ratio, String notes) {
    System.out.printf("%-58s %9.2f %11.5f  %s%n", what, seconds, ratio, notes);
  }

  private record Timed<T>(T value, double seconds) {}

  private static <T> Timed<T> time(Supplier<T> s) {
    long t0 = System.nanoTime();
    T v = s.get();
    return new Timed<>(v, (System.nanoTime() - t0) / 1e9);
  }
}
