package org.dpsql.bench;

import java.math.BigDecimal;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.accounting.Accounting;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.mechanism.SecureRandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.release.WorkloadCalibration;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;

/**
 * Issue 33: workloads of more than 2,048 queries over more than 2,048 cells, other than ranges of
 * one column, answered with their own rows as the strategy ({@code DirectStrategy}: sparse integer
 * rows, re-weighted per group, exact sensitivity; least squares by conjugate gradients). Per row,
 * at ρ = 0.02 and one row per unit: the expected RMSE per query of the chosen strategy, of
 * measuring the queries directly ({@code √(‖W‖₂² m/(2ρ m))}, the plain rows' bound) and of the
 * identity (the only candidate before, what EXPLAIN showed); the wall time of the calibration
 * (every candidate scored, as EXPLAIN does), of preparing the mechanism, of one exact measurement
 * plus the estimate and the workload's answers; the peak heap ({@link HeapPeak}, an upper bound);
 * and the largest |answer − truth| at ρ = 10⁶ (noise standard deviation below 0.001 per query),
 * which checks the conjugate-gradient estimate. Rows too ill-conditioned for conjugate gradients
 * (the random long ranges) are answered by their own measurements ({@code OwnAnswers(...)}): for
 * them the row also gives the empirical RMSE per query over 5 seeded releases at ρ = 0.02 beside
 * the stated one.
 *
 * <p>Run: {@code mvn -B -q -DskipTests package -pl bench -am && java -Xmx4g -cp
 * bench/target/benchmarks.jar org.dpsql.bench.DirectStrategyBench [label substring]} (with an
 * argument, only the rows whose label contains it).
 */
public final class DirectStrategyBench {
  private DirectStrategyBench() {}

  private static String only = "";

  public static void main(String[] args) throws Exception {
    only = args.length > 0 ? args[0] : "";
    System.out.println("The workload's own rows as the strategy (rho = 0.02, 1 row per unit; time = "
        + "wall clock, heap = peak); load average " + String.format("%.2f",
            java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage()));
    System.out.printf("%-44s %7s %6s %9s %9s %9s %9s %9s %9s %8s %10s  %s%n", "workload",
        "queries", "cells", "chosen", "direct", "identity", "calib s", "prepare s", "answer s",
        "heap GiB", "max|err|", "strategy");
    row("MARGINALS(pickup_at, kind; 1): 2,880 h x 3", Workloads.marginals(new int[] {2880, 3}, 1));
    row("MARGINALS(hours, state; 1): 8,760 h x 50",
        Workloads.marginals(new int[] {8760, 50}, 1));
    row("2-way marginals of 720 h x 3 x 4", Workloads.marginals(new int[] {720, 3, 4}, 2));
    row("5,000 random predicates (~20 cells) / 20,000", predicates(5000, 20000, 20));
    row("3,000 random ranges over 8,760 hours", ranges(3000, 8760));
    System.out.println("load average at end " + String.format("%.2f",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
  }

  private static Workload predicates(int m, int n, int k) {
    SplittableRandom r = new SplittableRandom(2883);
    int[][] rows = new int[m][];
    for (int i = 0; i < m; i++) {
      rows[i] = r.ints(k, 0, n).distinct().sorted().toArray();
    }
    return new SparseWorkload(n, rows);
  }

  private static Workload ranges(int m, int n) {
    SplittableRandom r = new SplittableRandom(3000);
    int[][] rows = new int[m][];
    for (int i = 0; i < m; i++) {
      int a = r.nextInt(n);
      int b = r.nextInt(n);
      rows[i] = java.util.stream.IntStream.rangeClosed(Math.min(a, b), Math.max(a, b)).toArray();
    }
    return new SparseWorkload(n, rows);
  }

  private static void row(String label, Workload w) throws Exception {
    if (!label.contains(only)) {
      return;
    }
    System.gc();
    HeapPeak.reset();
    BudgetAmount rho = new BudgetAmount(null, null, new BigDecimal("0.02"));
    long t0 = System.nanoTime();
    WorkloadCalibration.VectorPlan vp = WorkloadCalibration.calibrate(Accounting.ZCDP, rho,
        new BigDecimal("1e-9"), DpHint.NONE, List.of(Measurement.countStar()), List.of(w), 1)
        .perMeasurement().get(0);
    long t1 = System.nanoTime();
    double identity = vp.candidates().stream().filter(c -> c.mechanism() == Mechanism.IDENTITY)
        .findFirst().orElseThrow().rmse();
    double s2 = 0;
    for (double v : w.gramDiagonal()) {
      s2 = Math.max(s2, v);
    }
    double direct = Math.sqrt(s2 / (2 * 0.02));
    // the answers, measured at rho = 10^6 (standard deviation far below 0.01)
    BudgetAmount huge = new BudgetAmount(null, null, new BigDecimal("1000000"));
    WorkloadCalibration.VectorPlan exact = WorkloadCalibration.calibrate(Accounting.ZCDP, huge,
        new BigDecimal("1e-9"), DpHint.NONE, List.of(Measurement.countStar()), List.of(w), 1)
        .perMeasurement().get(0);
    long t2 = System.nanoTime();
    MatrixMechanism mm = exact.chosen().prepared().get();
    long t3 = System.nanoTime();
    long[] x = new long[w.cells()];
    SplittableRandom r = new SplittableRandom(7);
    for (int j = 0; j < x.length; j++) {
      x[j] = r.nextInt(6);
    }
    Estimate e = mm.run(x, exact.noise(), new SecureRandomBits());
    double[] got = e.hasCells() ? w.answer(e.cells()) : e.answers(w);
    long t4 = System.nanoTime();
    double gib = HeapPeak.gib();
    double[] truth = w.answer(java.util.Arrays.stream(x).asDoubleStream().toArray());
    double worst = 0;
    for (int i = 0; i < truth.length; i++) {
      worst = Math.max(worst, Math.abs(got[i] - truth[i]));
    }
    String name = vp.chosen().strategyName();
    System.out.printf("%-44s %7d %6d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %8.3f %10.2e  %s%n", label,
        w.queries(), w.cells(), vp.expectedRmse(), direct, identity, (t1 - t0) / 1e9,
        (t3 - t2) / 1e9, (t4 - t3) / 1e9, gib, worst,
        name.length() > 60 ? name.substring(0, 57) + "..." : name);
    if (!vp.chosen().cellEstimates()) {
      // answered by its own measurements: the empirical RMSE of 5 seeded releases at rho = 0.02
      MatrixMechanism noisy = vp.chosen().prepared().get();
      double squared = 0;
      int runs = 5;
      for (int rep = 0; rep < runs; rep++) {
        double[] a = noisy.run(x, vp.noise(), new org.dpsql.mechanism.SeededRandomBits(100 + rep))
            .answers(w);
        for (int i = 0; i < a.length; i++) {
          squared += (a[i] - truth[i]) * (a[i] - truth[i]);
        }
      }
      System.out.printf("%-44s empirical RMSE per query over %d releases at rho 0.02: %.3f "
          + "(stated %.3f)%n", "", runs, Math.sqrt(squared / (runs * (double) truth.length)),
          vp.expectedRmse());
    }
  }
}
