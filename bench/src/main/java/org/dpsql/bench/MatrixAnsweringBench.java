package org.dpsql.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.mechanism.AnalyticGaussian;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.LatticeStrategy;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.matrix.mechanism.Measurement;
import org.dpsql.matrix.mechanism.NoiseSpec;
import org.dpsql.matrix.mechanism.StrategyCache;
import org.dpsql.matrix.mechanism.ZcdpToApproxDp;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.SecureRandomBits;

/**
 * Cost of answering with a cached matrix-mechanism strategy (package {@code
 * org.dpsql.matrix.mechanism}): for 2048-cell strategies, the one-off preparation (lattice rounding
 * and factorisation), a strategy-cache hit, and then the per-release cost of exact noise plus
 * least squares (target below 50 ms), split into measurement and estimation, in wall-clock and
 * thread-CPU time, with {@code SecureRandomBits} (the JDK's DRBG read in 4 KiB blocks); the same
 * for a
 * 65,536-cell Kronecker strategy (never formed densely); and the σ of the (ε, δ) calibrations.
 * Timings are medians of warm repetitions; on a shared machine they are upper bounds.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.MatrixAnsweringBench
 * [repetitions]} (default 15).
 */
public final class MatrixAnsweringBench {
  private MatrixAnsweringBench() {}

  public static void main(String[] args) throws Exception {
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    Path dir = Files.createTempDirectory("dpsql-strategy-cache-bench");
    StrategyCache cache = new StrategyCache(dir, LatticeStrategy.DEFAULT_BITS);
    NoiseSpec spec = NoiseSpec.approxDp(1.0, 1e-9);

    int n = 2048;
    long[] x = data(n, 1);
    System.out.println("Answering a cached strategy on " + n + " cells, (eps, delta) = (1, 1e-9) via zCDP, "
        + "exact lattice noise (k = 20) + least squares; medians of " + reps + " warm runs; wall / thread-CPU ms");
    System.out.printf("%-26s %5s %8s %9s | %-22s %5s %-13s %-13s %-13s %s%n", "strategy", "rows", "prepare",
        "cache hit", "random bits", "words", "measure", "estimate", "total", "1000 ranges");
    Strategy[] strategies = {
      Strategies.hierarchical(n, 2), Strategies.wavelet(n), randomDense(n, n, 7),
    };
    RandomBits[] sources = {new SecureRandomBits()};
    // Global warm-up (JIT) on a small strategy, so the first timed strategy is not penalised.
    MatrixMechanism warm = MatrixMechanism.of(Strategies.hierarchical(256, 2));
    long[] xw = data(256, 3);
    long warmUntil = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < warmUntil) {
      for (RandomBits source : sources) {
        warm.inference().estimate(warm.measure(xw, spec, source));
      }
    }
    for (Strategy s : strategies) {
      String sig = StrategyCache.signature(new AllRangesWorkload(n), s.name());
      long t0 = System.nanoTime();
      MatrixMechanism m = cache.get(sig, () -> s);
      m.inference();
      double prepare = (System.nanoTime() - t0) / 1e6;
      long t1 = System.nanoTime();
      MatrixMechanism hit = cache.get(sig, () -> s);
      double hitMicros = (System.nanoTime() - t1) / 1e3;
      if (hit != m) {
        throw new AssertionError("cache miss");
      }
      for (RandomBits source : sources) {
        CountingBits random = new CountingBits(source);
        double[][] wall = new double[3][reps];
        double[][] cpu = new double[3][reps];
        double[] ranges = new double[reps];
        for (int w = 0; w < 5; w++) {
          m.inference().estimate(m.measure(x, spec, random));
        }
        random.words = 0;
        for (int r = 0; r < reps; r++) {
          long a = System.nanoTime();
          long ac = THREADS.getCurrentThreadCpuTime();
          Measurement y = m.measure(x, spec, random);
          long b = System.nanoTime();
          long bc = THREADS.getCurrentThreadCpuTime();
          Estimate e = m.inference().estimate(y);
          long c = System.nanoTime();
          long cc = THREADS.getCurrentThreadCpuTime();
          double[] cells = e.cells();
          double[] prefix = new double[cells.length + 1];
          for (int i = 0; i < cells.length; i++) {
            prefix[i + 1] = prefix[i] + cells[i];
          }
          double sum = 0;
          for (int q = 0; q < 1000; q++) { // 1000 range answers from prefix sums
            int lo = (q * 7919) % n;
            int hi = Math.min(n - 1, lo + (q * 104729) % 300);
            sum += prefix[hi + 1] - prefix[lo];
          }
          long d = System.nanoTime();
          if (Double.isNaN(sum)) {
            throw new AssertionError();
          }
          wall[0][r] = (b - a) / 1e6;
          wall[1][r] = (c - b) / 1e6;
          wall[2][r] = (c - a) / 1e6;
          cpu[0][r] = (bc - ac) / 1e6;
          cpu[1][r] = (cc - bc) / 1e6;
          cpu[2][r] = (cc - ac) / 1e6;
          ranges[r] = (d - c) / 1e6;
        }
        System.out.printf("%-26s %5d %6.0f ms %7.1f µs | %-22s %5.1f %5.1f / %5.1f %5.1f / %5.1f %5.1f / %5.1f %.2f ms%n",
            s.name(), m.strategy().rows(), prepare, hitMicros, source.getClass().getSimpleName(),
            random.words / (double) reps / m.strategy().rows(),
            median(wall[0]), median(cpu[0]), median(wall[1]), median(cpu[1]), median(wall[2]), median(cpu[2]),
            median(ranges));
      }
    }

    System.out.println();
    RandomBits fast = new SecureRandomBits();
    Strategy h256 = Strategies.hierarchical(256, 2);
    MatrixMechanism k = MatrixMechanism.of(Strategies.kronecker(h256, h256));
    long[] xk = data(65_536, 2);
    long p0 = System.nanoTime();
    k.inference();
    double prep = (System.nanoTime() - p0) / 1e6;
    double[] km = new double[3];
    double[] ke = new double[3];
    for (int r = 0; r < 3; r++) {
      long a = System.nanoTime();
      Measurement y = k.measure(xk, spec, fast);
      long b = System.nanoTime();
      k.inference().estimate(y);
      long c = System.nanoTime();
      km[r] = (b - a) / 1e6;
      ke[r] = (c - b) / 1e6;
    }
    System.out.printf("Kronecker %s: %d cells, %d rows: prepare %.0f ms, measure %.0f ms, estimate %.0f ms (median of 3)%n",
        k.strategy().name(), k.strategy().cells(), k.strategy().rows(), prep, median(km), median(ke));

    System.out.println();
    System.out.println("sigma at L2 sensitivity 1 for (eps, delta): continuous-only calibrations vs the rigorous "
        + "discrete one (zCDP with the CKS conversion)");
    System.out.printf("%5s %7s | %9s %9s %9s %9s | %s%n", "eps", "delta", "classical", "analytic", "zCDP-BS",
        "zCDP-CKS", "CKS/analytic");
    for (double delta : new double[] {1e-5, 1e-9}) {
      for (double eps : new double[] {0.1, 0.5, 1, 2}) {
        double classical = AnalyticGaussian.classicalSigma(eps, delta, 1);
        double analytic = AnalyticGaussian.sigma(eps, delta, 1);
        double bs = Math.sqrt(1 / (2 * ZcdpToApproxDp.bunSteinkeRho(eps, delta)));
        double cks = Math.sqrt(1 / (2 * ZcdpToApproxDp.largestRho(eps, delta).doubleValue()));
        System.out.printf("%5.1f %7.0e | %9.4f %9.4f %9.4f %9.4f | %.4f%n", eps, delta, classical, analytic, bs, cks,
            cks / analytic);
      }
    }
  }

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  /** Counts the words drawn (words per noise sample = words / rows). */
  private static final class CountingBits implements RandomBits {
    private final RandomBits source;
    private long words;

    CountingBits(RandomBits source) {
      this.source = source;
    }

    @Override
    public long nextLong() {
      words++;
      return source.nextLong();
    }
  }

  private static long[] data(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] x = new long[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextInt(10_000);
    }
    return x;
  }

  /** A dense Gaussian strategy, standing in for a dense (e.g. Eigen-Design) strategy. */
  private static Strategy randomDense(int p, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] a = new double[p][n];
    for (double[] row : a) {
      for (int j = 0; j < n; j++) {
        row[j] = r.nextGaussian();
      }
    }
    return new ExplicitStrategy("DenseGaussian(" + p + "x" + n + ")", a);
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
  }
}
