package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.function.LongToDoubleFunction;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.dpsql.matrix.Strategies;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * The noise actually added by {@link MatrixMechanism#measure}: recovered exactly as {@code U − Nx}
 * for one coordinate over many seeded measurements, and compared with its claimed law by a
 * chi-square goodness-of-fit test at significance 0.001 (a correct sampler fails with probability
 * 0.001 per test; the seeds are fixed, so the outcome is deterministic).
 */
class NoiseDistributionTest {
  private static final int RUNS = 20_000;
  private static final double ALPHA = 0.001;
  private static final long[] X = {5, 0, 12, 3};

  private static long[] noiseOfFirstCoordinate(MatrixMechanism m, long[] x, NoiseSpec spec, long seed) {
    SeededRandomBits r = new SeededRandomBits(seed);
    BigInteger exact = m.strategy().numeratorsTimes(x)[0];
    long[] z = new long[RUNS];
    for (int i = 0; i < RUNS; i++) {
      z[i] = m.measure(x, spec, r).numerator(0).subtract(exact).longValueExact();
    }
    return z;
  }

  /** Chi-square statistic of integer samples over bins (−∞, lo], lo+1, …, hi−1, [hi, ∞). */
  private static double chiSquare(long[] z, int lo, int hi, LongToDoubleFunction pmf, double lowerTail, double upperTail) {
    int bins = hi - lo + 1;
    long[] observed = new long[bins];
    for (long v : z) {
      int b = (int) (Math.max(lo, Math.min(hi, v)) - lo);
      observed[b]++;
    }
    double[] p = new double[bins];
    p[0] = lowerTail;
    p[bins - 1] = upperTail;
    for (int v = lo + 1; v < hi; v++) {
      p[v - lo] = pmf.applyAsDouble(v);
    }
    double stat = 0;
    double total = 0;
    for (int b = 0; b < bins; b++) {
      double e = p[b] * z.length;
      assertTrue(e >= 5, "bin " + b + " expected count " + e);
      stat += (observed[b] - e) * (observed[b] - e) / e;
      total += p[b];
    }
    assertEquals(1.0, total, 1e-9, "bin probabilities sum to one");
    return stat;
  }

  @Test
  void discreteGaussianOnIntegerLatticeFitsItsPmf() {
    // Hierarchical(4): integer entries, 0 extra bits; S₂ = 3; ρ = 3/8 gives σ_Z² = 3/(2·3/8) = 4.
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.hierarchical(4, 2), 0));
    NoiseSpec spec = NoiseSpec.zcdp(Rational.of(3, 8));
    assertEquals(Rational.of(4), m.calibrate(spec).latticeParameter());
    long[] z = noiseOfFirstCoordinate(m, X, spec, 11);
    DiscreteGaussianDistribution d = new DiscreteGaussianDistribution(Rational.of(4));
    double tail = d.tailAbs(5) / 2; // P[Z ≥ 6] = P[Z ≤ −6]
    double stat = chiSquare(z, -6, 6, d::pmf, tail, tail);
    double critical = new ChiSquaredDistribution(12).inverseCumulativeProbability(1 - ALPHA);
    System.out.printf("discrete Gaussian σ_Z²=4: chi2 = %.2f (df 12, critical %.2f at %.3f)%n", stat, critical, ALPHA);
    assertTrue(stat < critical);
  }

  @Test
  void discreteGaussianOnFineLatticeFitsTheNormalLaw() {
    // Fourier(8) rounded with k = 20 (+1 bit for entries below 1/2): σ_Z ≈ 2^21 · σ.
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.fourier(8), 20));
    long[] x = {5, 0, 12, 3, 9, 1, 0, 7};
    NoiseSpec spec = NoiseSpec.zcdp(Rational.of(1, 2));
    double sigmaZ = Math.sqrt(m.calibrate(spec).latticeParameter().doubleValue());
    assertTrue(sigmaZ > 1e6, "fine lattice: σ_Z = " + sigmaZ);
    SeededRandomBits r = new SeededRandomBits(12);
    BigInteger exact = m.strategy().numeratorsTimes(x)[0];
    // 10 equiprobable bins of N(0, σ_Z²); for σ_Z > 10^6 the discrete Gaussian's CDF equals the
    // continuous one to far below the resolution of the test (Poisson summation, error ~e^(−2π²σ_Z²)
    // plus the O(1/σ_Z) half-integer offset).
    NormalDistribution normal = new NormalDistribution(0, sigmaZ);
    double[] edges = new double[9];
    for (int i = 0; i < 9; i++) {
      edges[i] = normal.inverseCumulativeProbability((i + 1) / 10.0);
    }
    long[] observed = new long[10];
    for (int i = 0; i < RUNS; i++) {
      double z = m.measure(x, spec, r).numerator(0).subtract(exact).doubleValue();
      int b = 0;
      while (b < 9 && z > edges[b]) {
        b++;
      }
      observed[b]++;
    }
    double e = RUNS / 10.0;
    double stat = 0;
    for (long o : observed) {
      stat += (o - e) * (o - e) / e;
    }
    double critical = new ChiSquaredDistribution(9).inverseCumulativeProbability(1 - ALPHA);
    System.out.printf("lattice Gaussian σ_Z=%.4g: chi2 = %.2f (df 9, critical %.2f)%n", sigmaZ, stat, critical);
    assertTrue(stat < critical);
  }

  @Test
  void discreteLaplaceFitsItsPmf() {
    // S₁ = 3; ε = 3/2 gives t_Z = 2.
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.hierarchical(4, 2), 0));
    NoiseSpec spec = NoiseSpec.pureDp(Rational.of(3, 2));
    assertEquals(Rational.of(2), m.calibrate(spec).latticeParameter());
    long[] z = noiseOfFirstCoordinate(m, X, spec, 13);
    DiscreteLaplaceDistribution d = new DiscreteLaplaceDistribution(Rational.of(2));
    double tail = d.tailAbs(7) / 2;
    double stat = chiSquare(z, -8, 8, d::pmf, tail, tail);
    double critical = new ChiSquaredDistribution(16).inverseCumulativeProbability(1 - ALPHA);
    System.out.printf("discrete Laplace t_Z=2: chi2 = %.2f (df 16, critical %.2f)%n", stat, critical);
    assertTrue(stat < critical);
  }

  @Test
  void measurementsAreReproducibleExactLatticeValues() {
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.fourier(4), 20));
    NoiseSpec spec = NoiseSpec.approxDp(1, 1e-6);
    Measurement a = m.measure(X, spec, new SeededRandomBits(5));
    Measurement b = m.measure(X, spec, new SeededRandomBits(5));
    assertArrayEquals(a.values(), b.values());
    for (int i = 0; i < a.size(); i++) {
      assertEquals(a.numerator(i), b.numerator(i));
      // the exact decimal value is U / 2^K, and the double is its nearest double
      assertEquals(0, a.exactValue(i).compareTo(new java.math.BigDecimal(a.numerator(i))
          .divide(new java.math.BigDecimal(BigInteger.ONE.shiftLeft(a.bits())))));
      assertEquals(a.exactValue(i).doubleValue(), a.values()[i]);
    }
    assertThrows(IllegalArgumentException.class, () -> m.measure(new long[] {1, -1, 0, 0}, spec, new SeededRandomBits(1)));
    assertThrows(IllegalArgumentException.class, () -> m.measure(new long[] {1, 1, 0}, spec, new SeededRandomBits(1)));
  }
}
