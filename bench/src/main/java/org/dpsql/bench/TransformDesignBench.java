package org.dpsql.bench;

import java.util.SplittableRandom;
import org.dpsql.matrix.design.TransformDesign;
import org.dpsql.matrix.design.TransformStrategy;

/**
 * Issue 33: the Eigen-Design of all ranges at the scale of real domains through fast transforms
 * ({@link TransformDesign}): per row, the wall time to design the strategy (Program 1 on the
 * closed-form eigenbasis), to apply it to a data vector ({@code A x}) and to reconstruct ({@code
 * A⁻¹ y}), the peak heap ({@link HeapPeak}, an upper bound), and the error against the singular
 * value bound computed in closed form ({@code svdb = (Σ√σ)²/n}; for the 2-D product the Kronecker
 * bound {@code svdb₁ svdb₂}). HDMM's reference times (McKenna et al. 2018, p-Identity on all 1-D
 * ranges, as in {@code PureDpStrategyBench}) are printed beside them. The noise draw is not timed
 * (it is {@code O(n)}). Timings are wall clock on whatever machine runs it.
 *
 * <p>Run: {@code mvn -B -q -DskipTests package -pl bench -am && java -Xmx4g -cp
 * bench/target/benchmarks.jar org.dpsql.bench.TransformDesignBench} (add {@code lattice} for the
 * privacy-exact rows only: the strategy measured on its implicit integer form, {@code SineLattice},
 * 1-D at 8,192, 8,760 and 65,536 cells and 2-D 1,024 × 1,024 as the Kronecker product of two; each
 * row also prints the JVM's CPU seconds, all threads, which other load inflates less than wall
 * time)
 */
public final class TransformDesignBench {
  private TransformDesignBench() {}

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("lattice")) {
      latticeRows(); // only the privacy-exact rows
      return;
    }
    System.out.println("All-range Eigen-Design through fast transforms (time = wall clock, heap = peak)");
    System.out.printf("%-34s %9s %9s %9s %9s %12s %12s  %s%n", "workload", "design s",
        "apply s", "invert s", "heap GiB", "err/svdb", "RMSE ratio", "HDMM reference");
    for (int n : new int[] {1024, 2048, 8192, 65536}) {
      oneDimension(n, n == 1024 ? "p-Identity 21 s" : n == 2048 ? "p-Identity 138 s" : "-");
    }
    twoDimensions(1024);
    engineTwoDimensions(1024);
    latticeRows();
  }

  private static void latticeRows() {
    System.out.println();
    System.out.println("The same strategies measured privacy-exactly (SineLattice: integer strategy, exact "
        + "sensitivity, exact discrete Gaussian noise at rho = 1); load average "
        + String.format("%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
            .getSystemLoadAverage()));
    System.out.println("err/svdb = total squared error of the lattice strategy actually measured over the "
        + "closed-form svdb; RMSE ratio = its square root (seed 001 Thm. 3's units)");
    System.out.printf("%-34s %8s %9s %9s %10s %8s %8s %9s %9s %10s  %s%n", "workload", "design s",
        "lattice s", "measure s", "estimate s", "total s", "cpu s", "heap GiB", "err/svdb",
        "RMSE ratio", "HDMM reference");
    for (int n : new int[] {8192, 8760, 65536}) {
      lattice(n);
    }
    latticeTwoDimensions(1024);
    hoursByStates(8760, 50);
  }

  /**
   * Hours of a year × states ({@code AllRanges(hours) ⊗ Identity(states)}), the engine's own path:
   * {@code StrategyDesigner} (the hour factor through fast transforms, the state factor dense), the
   * exact two-factor product (long, then 128 bits), exact discrete Gaussian noise at ρ = 1 and the
   * factor-wise estimate.
   */
  private static void hoursByStates(int hours, int states) {
    System.gc();
    HeapPeak.reset();
    long c0 = cpu();
    long t0 = System.nanoTime();
    org.dpsql.matrix.Workload w = org.dpsql.matrix.KroneckerWorkload.of(
        new org.dpsql.matrix.AllRangesWorkload(hours), new org.dpsql.matrix.IdentityWorkload(states));
    org.dpsql.matrix.design.DesignOutcome o = org.dpsql.matrix.design.StrategyDesigner.design(w);
    long t1 = System.nanoTime();
    org.dpsql.matrix.mechanism.MatrixMechanism mm =
        org.dpsql.matrix.mechanism.MatrixMechanism.of(o.strategy());
    mm.strategy().sensitivityL2Squared();
    mm.inference();
    long t2 = System.nanoTime();
    long[] times = measureAndEstimate(mm, hours * states);
    long t3 = times[0];
    long t4 = times[1];
    long c4 = cpu();
    double gib = HeapPeak.gib();
    double ratio = mm.strategy().sensitivityL2Squared().doubleValue()
        * mm.inference().traceGramPinv(w) / o.svdb();
    System.out.printf("%-34s %8.3f %9.3f %9.3f %10.3f %8.2f %8.2f %9.3f %9.5f %10.5f  %s%n",
        hours + " hours x " + states + " states", sec(t0, t1), sec(t1, t2), sec(t2, t3),
        sec(t3, t4), sec(t0, t4), (c4 - c0) / 1e9, gib, ratio, Math.sqrt(ratio),
        "- (" + o.path() + ")");
  }

  /**
   * The engine's path for one all-range synopsis over {@code n} cells without anything {@code n ×
   * n}: design, rounding to the implicit lattice strategy with its exact sensitivity ({@code
   * O(n²)} integer operations, {@code O(n)} memory), one measurement (exact {@code Nx} plus
   * discrete Gaussian noise) and the least-squares estimate (fast refinement).
   */
  private static void lattice(int n) {
    System.gc();
    HeapPeak.reset();
    long c0 = cpu();
    long t0 = System.nanoTime();
    TransformStrategy a = TransformDesign.allRanges(n);
    long t1 = System.nanoTime();
    org.dpsql.matrix.mechanism.MatrixMechanism mm =
        org.dpsql.matrix.mechanism.MatrixMechanism.of(a);
    mm.strategy().sensitivityL2Squared();
    mm.inference();
    long t2 = System.nanoTime();
    long[] times = measureAndEstimate(mm, n);
    long t3 = times[0];
    long t4 = times[1];
    long c4 = cpu();
    double gib = HeapPeak.gib();
    // the lattice strategy's own error: ‖Â‖₂² tr(WᵀW (ÂᵀÂ)⁻¹) (closed form), over svdb
    double ratio = mm.strategy().sensitivityL2Squared().doubleValue()
        * mm.inference().traceGramPinv(new org.dpsql.matrix.AllRangesWorkload(n)) / a.svdb();
    System.out.printf("%-34s %8.3f %9.3f %9.3f %10.3f %8.2f %8.2f %9.3f %9.5f %10.5f  %s%n",
        "1-D all ranges, " + n + " cells", sec(t0, t1), sec(t1, t2), sec(t2, t3), sec(t3, t4),
        sec(t0, t4), (c4 - c0) / 1e9, gib, ratio, Math.sqrt(ratio),
        "- (none published beyond 2,048 cells)");
  }

  /**
   * 2-D all ranges over {@code n × n} through the privacy-exact path: the transform Eigen-Design of
   * one factor (both are equal), the Kronecker product of the two implicit lattice factors (exact
   * sensitivity = product of the factors' exact column maxima), the exact product by mode products
   * in long/128-bit arithmetic ({@code SineLatticeProduct}), exact discrete Gaussian noise on all
   * {@code n²} values and the factor-wise least-squares estimate. Error against the Kronecker svdb
   * {@code svdb₁ · svdb₂} (computed after the timed part: the dense per-factor trace).
   */
  private static void latticeTwoDimensions(int n) {
    System.gc();
    HeapPeak.reset();
    long c0 = cpu();
    long t0 = System.nanoTime();
    TransformStrategy a = TransformDesign.allRanges(n); // both factors: same domain, same design
    long t1 = System.nanoTime();
    org.dpsql.matrix.mechanism.MatrixMechanism mm = org.dpsql.matrix.mechanism.MatrixMechanism.of(
        new org.dpsql.matrix.KroneckerStrategy("Kron", java.util.List.of(a, a)));
    mm.strategy().sensitivityL2Squared();
    mm.inference();
    long t2 = System.nanoTime();
    long[] times = measureAndEstimate(mm, n * n);
    long t3 = times[0];
    long t4 = times[1];
    long c4 = cpu();
    double gib = HeapPeak.gib();
    org.dpsql.matrix.Workload w = org.dpsql.matrix.KroneckerWorkload.of(
        new org.dpsql.matrix.AllRangesWorkload(n), new org.dpsql.matrix.AllRangesWorkload(n));
    double ratio = mm.strategy().sensitivityL2Squared().doubleValue()
        * mm.inference().traceGramPinv(w) / (a.svdb() * a.svdb());
    System.out.printf("%-34s %8.3f %9.3f %9.3f %10.3f %8.2f %8.2f %9.3f %9.5f %10.5f  %s%n",
        "2-D all ranges, " + n + " x " + n, sec(t0, t1), sec(t1, t2), sec(t2, t3), sec(t3, t4),
        sec(t0, t4), (c4 - c0) / 1e9, gib, ratio, Math.sqrt(ratio),
        "- (ratios vs Kronecker svdb = svdb1 * svdb2)");
  }

  /**
   * The engine's own path for the same 2-D workload: {@link StrategyDesigner} (per-factor
   * Eigen-Design with column completion, a Kronecker strategy), the lattice strategy and its
   * factor-wise least squares, one measurement with exact discrete Gaussian noise at ρ = 1 and the
   * estimate of all 1,048,576 cells.
   */
  private static void engineTwoDimensions(int n) {
    System.gc();
    HeapPeak.reset();
    org.dpsql.matrix.Workload w = org.dpsql.matrix.KroneckerWorkload.of(
        new org.dpsql.matrix.AllRangesWorkload(n), new org.dpsql.matrix.AllRangesWorkload(n));
    long t0 = System.nanoTime();
    org.dpsql.matrix.design.DesignOutcome o = org.dpsql.matrix.design.StrategyDesigner.design(w);
    long t1 = System.nanoTime();
    org.dpsql.matrix.mechanism.MatrixMechanism mm =
        org.dpsql.matrix.mechanism.MatrixMechanism.of(o.strategy());
    mm.inference();
    long t2 = System.nanoTime();
    org.dpsql.matrix.mechanism.Estimate e = mm.run(counts(n * n),
        org.dpsql.matrix.mechanism.NoiseSpec.zcdp(org.dpsql.mechanism.Rational.ONE),
        new org.dpsql.mechanism.SecureRandomBits());
    long t3 = System.nanoTime();
    if (e.cells().length != n * n) {
      throw new IllegalStateException("estimate has " + e.cells().length + " cells");
    }
    double ratio = o.totalSquaredError() / o.svdb();
    System.out.printf("%-34s %9.3f %9.3f %9.3f %9.3f %12.5f %12.5f  %s%n",
        "2-D 1024x1024, engine (lattice)", sec(t0, t1), sec(t1, t2), sec(t2, t3), HeapPeak.gib(),
        ratio, Math.sqrt(ratio), "apply = round+factorise, invert = measure+estimate");
  }

  /** The bench's counts of {@code cells} cells ({@link #data} rounded down). */
  private static long[] counts(int cells) {
    double[] xd = data(cells, 7);
    long[] x = new long[xd.length];
    for (int i = 0; i < x.length; i++) {
      x[i] = (long) xd[i];
    }
    return x;
  }

  /**
   * Measures the bench's counts of {@code cells} cells with {@code mm} (exact discrete Gaussian
   * noise at ρ = 1) and estimates them; the {@link System#nanoTime} after the measurement and
   * after the estimate.
   */
  private static long[] measureAndEstimate(org.dpsql.matrix.mechanism.MatrixMechanism mm,
      int cells) {
    org.dpsql.matrix.mechanism.Measurement y = mm.measure(counts(cells),
        org.dpsql.matrix.mechanism.NoiseSpec.zcdp(org.dpsql.mechanism.Rational.ONE),
        new org.dpsql.mechanism.SecureRandomBits());
    long measured = System.nanoTime();
    org.dpsql.matrix.mechanism.Estimate e = mm.inference().estimate(y);
    long estimated = System.nanoTime();
    if (e.cells().length != cells) {
      throw new IllegalStateException("estimate has " + e.cells().length + " cells");
    }
    return new long[] {measured, estimated};
  }

  private static void oneDimension(int n, String hdmm) {
    System.gc();
    HeapPeak.reset();
    long t0 = System.nanoTime();
    TransformStrategy a = TransformDesign.allRanges(n);
    long t1 = System.nanoTime();
    double[] x = data(n, n);
    double[] y = a.times(x);
    long t2 = System.nanoTime();
    double[] back = a.reconstruct(y);
    long t3 = System.nanoTime();
    check(x, back);
    System.out.printf("%-34s %9.3f %9.3f %9.3f %9.3f %12.5f %12.5f  %s%n",
        "1-D all ranges, " + n + " cells", sec(t0, t1), sec(t1, t2), sec(t2, t3), HeapPeak.gib(),
        a.errorRatio(), Math.sqrt(a.errorRatio()), hdmm);
  }

  /** {@code A₁ ⊗ A₂} with equal factors: mode products of the 1-D transforms. */
  private static void twoDimensions(int n) {
    System.gc();
    HeapPeak.reset();
    long t0 = System.nanoTime();
    TransformStrategy a = TransformDesign.allRanges(n); // both factors: same domain, same design
    long t1 = System.nanoTime();
    double[] x = data(n * n, 7);
    double[] y = modes(x, n, a, true);
    long t2 = System.nanoTime();
    double[] back = modes(y, n, a, false);
    long t3 = System.nanoTime();
    check(x, back);
    // error and svdb of a Kronecker product are the products of the factors'
    double ratio = a.errorRatio() * a.errorRatio();
    System.out.printf("%-34s %9.3f %9.3f %9.3f %9.3f %12.5f %12.5f  %s%n",
        "2-D all ranges, " + n + " x " + n, sec(t0, t1), sec(t1, t2), sec(t2, t3), HeapPeak.gib(),
        ratio, Math.sqrt(ratio), "- (Kronecker svdb = svdb1 * svdb2)");
  }

  private static double[] modes(double[] v, int n, TransformStrategy a, boolean forward) {
    double[] out = new double[v.length];
    double[] row = new double[n];
    // mode 2 (rows of the n x n array), then mode 1 (columns)
    for (int i = 0; i < n; i++) {
      System.arraycopy(v, i * n, row, 0, n);
      double[] t = forward ? a.times(row) : a.reconstruct(row);
      System.arraycopy(t, 0, out, i * n, n);
    }
    for (int j = 0; j < n; j++) {
      for (int i = 0; i < n; i++) {
        row[i] = out[i * n + j];
      }
      double[] t = forward ? a.times(row) : a.reconstruct(row);
      for (int i = 0; i < n; i++) {
        out[i * n + j] = t[i];
      }
    }
    return out;
  }

  private static double[] data(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextInt(100);
    }
    return x;
  }

  private static void check(double[] x, double[] back) {
    for (int i = 0; i < x.length; i++) {
      if (Math.abs(x[i] - back[i]) > 1e-6) {
        throw new IllegalStateException("reconstruction differs at " + i + ": " + back[i]);
      }
    }
  }

  /** The JVM's CPU time (all threads, ns): less inflated than wall time by other load. */
  private static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static double sec(long a, long b) {
    return (b - a) / 1e9;
  }
}
