package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.design.EigenBasis;
import org.dpsql.matrix.design.TransformDesign;
import org.dpsql.matrix.design.TransformStrategy;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The implicit lattice form of the all-range Eigen-Design ({@link SineLattice}) against the same
 * integer matrix held densely: exact products and exact sensitivities (the privacy-relevant
 * parts), the noise it is measured with, and its fast inverse and error formulas.
 */
class SineLatticeTest {

  private static SineLattice lattice(int n) {
    return SineLattice.round(TransformDesign.allRanges(n).weights(), LatticeStrategy.DEFAULT_BITS);
  }

  private static long[][] dense(SineLattice s) {
    int n = s.cells();
    long[][] a = new long[n][n];
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < n; j++) {
        a[k][j] = s.entry(k, j);
      }
    }
    return a;
  }

  /** The sensitivities are those of the integer matrix actually applied, exactly. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 6, 7, 100, 257, 600})
  void sensitivitiesAreExactColumnMaximaOfTheAppliedMatrix(int n) {
    SineLattice s = lattice(n);
    long[][] a = dense(s);
    BigInteger s2 = BigInteger.ZERO;
    BigInteger s1 = BigInteger.ZERO;
    BigInteger[] col2 = new BigInteger[n];
    BigInteger[] col1 = new BigInteger[n];
    for (int j = 0; j < n; j++) {
      BigInteger c2 = BigInteger.ZERO;
      BigInteger c1 = BigInteger.ZERO;
      for (int k = 0; k < n; k++) {
        BigInteger v = BigInteger.valueOf(a[k][j]);
        c2 = c2.add(v.multiply(v));
        c1 = c1.add(v.abs());
      }
      col2[j] = c2;
      col1[j] = c1;
      s2 = s2.max(c2);
      s1 = s1.max(c1);
    }
    for (int j = 0; j < n; j++) {
      // the mirror symmetry that lets SineLattice scan half of the columns
      assertEquals(col2[j], col2[n - 1 - j], "column " + j);
      assertEquals(col1[j], col1[n - 1 - j], "column " + j);
    }
    assertEquals(s2, s.maxColumnSumOfSquares());
    assertEquals(s1, s.maxColumnAbsSum());
    LatticeStrategy l = LatticeStrategy.of("t", List.of(LatticeMatrix.of(s)));
    assertEquals(Rational.of(s2, BigInteger.ONE.shiftLeft(2 * s.bits())), l.sensitivityL2Squared());
    // the dense copy of the same integers (a stored LatticeMatrix) agrees
    LatticeStrategy stored = LatticeStrategy.of("t", List.of(LatticeMatrix.ofIntegers(a, s.bits())));
    assertEquals(stored.maxColumnSumOfSquares(), l.maxColumnSumOfSquares());
    assertEquals(stored.maxColumnAbsSum(), l.maxColumnAbsSum());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5, 6, 64, 333})
  void productsAreExactIntegers(int n) {
    SineLattice s = lattice(n);
    long[][] a = dense(s);
    long[] x = new long[n];
    java.util.SplittableRandom r = new java.util.SplittableRandom(n);
    for (int j = 0; j < n; j++) {
      x[j] = r.nextInt(50);
    }
    long[] expected = new long[n];
    for (int k = 0; k < n; k++) {
      BigInteger t = BigInteger.ZERO;
      for (int j = 0; j < n; j++) {
        t = t.add(BigInteger.valueOf(a[k][j]).multiply(BigInteger.valueOf(x[j])));
      }
      expected[k] = t.longValueExact();
    }
    assertArrayEquals(expected, s.times(x));
    // counts whose scaled products overflow a long (the kernel sums do not): the strategy's
    // exact product falls back to BigInteger scaling of the long kernel sums
    long[] large = new long[n];
    for (int j = 0; j < n; j++) {
      large[j] = (1L << 25) + x[j];
    }
    BigInteger[] viaStrategy = LatticeStrategy.of("t", List.of(LatticeMatrix.of(s)))
        .numeratorsTimes(large);
    for (int k = 0; k < n; k++) {
      BigInteger t = BigInteger.ZERO;
      for (int j = 0; j < n; j++) {
        t = t.add(BigInteger.valueOf(a[k][j]).multiply(BigInteger.valueOf(large[j])));
      }
      assertEquals(t, viaStrategy[k], "row " + k);
    }
    // beyond the long path's range: the BigInteger product, exact
    BigInteger big = BigInteger.ONE.shiftLeft(70);
    BigInteger[] xb = new BigInteger[n];
    for (int j = 0; j < n; j++) {
      xb[j] = big.add(BigInteger.valueOf(x[j]));
    }
    BigInteger[] yb = s.times(xb);
    for (int k = 0; k < n; k++) {
      BigInteger t = BigInteger.ZERO;
      for (int j = 0; j < n; j++) {
        t = t.add(BigInteger.valueOf(a[k][j]).multiply(xb[j]));
      }
      assertEquals(t, yb[k], "row " + k);
    }
  }

  /** The folded floating-point products equal the dense ones (odd and even sizes, both mirrors). */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 8, 65, 130})
  void realProductsEqualTheDenseProducts(int n) {
    SineLattice s = lattice(n);
    long[][] a = dense(s);
    double[] v = new double[n];
    for (int j = 0; j < n; j++) {
      v[j] = Math.cos(3.0 * j) * (j + 1);
    }
    double[] got = s.realTimes(v);
    double[] gotT = s.realTransposeTimes(v);
    for (int k = 0; k < n; k++) {
      double e = 0;
      double et = 0;
      for (int j = 0; j < n; j++) {
        e += Math.scalb((double) a[k][j], -s.bits()) * v[j];
        et += Math.scalb((double) a[j][k], -s.bits()) * v[j];
      }
      assertEquals(e, got[k], 1e-9 * Math.max(1, Math.abs(e)), "row " + k);
      assertEquals(et, gotT[k], 1e-9 * Math.max(1, Math.abs(et)), "column " + k);
    }
  }

  /** The 128-bit kernel sums are exact for any long vector, up to values near 2^62. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 6, 7, 64, 101})
  void wideKernelSumsAreExact(int n) {
    SineLattice s = lattice(n);
    java.util.SplittableRandom r = new java.util.SplittableRandom(7 * n);
    long[] v = new long[n];
    for (int j = 0; j < n; j++) {
      v[j] = r.nextLong(-(1L << 61), 1L << 61);
    }
    long[][] w = s.kernelSumsWide(v);
    for (int k = 0; k < n; k++) {
      BigInteger e = BigInteger.ZERO;
      for (int j = 0; j < n; j++) {
        long kern = s.entry(k, j) / s.scales()[k];
        e = e.add(BigInteger.valueOf(kern).multiply(BigInteger.valueOf(v[j])));
      }
      assertEquals(e, SineLattice.wide(w[0][k], w[1][k]), "row " + k);
    }
  }

  /**
   * Two all-range factors (2-D all ranges): the mode-product path equals the dense Kronecker
   * integer product exactly, for small counts, counts whose second mode product needs 128 bits, and
   * counts beyond the long first step (the BigInteger fallback); the sensitivity is the exact
   * column maximum of the dense Kronecker matrix.
   */
  @ParameterizedTest
  @ValueSource(strings = {"1x1", "1x3", "4x5", "7x6", "33x16"})
  void kroneckerProductOfTwoFactorsIsExact(String shape) {
    int n0 = Integer.parseInt(shape.substring(0, shape.indexOf('x')));
    int n1 = Integer.parseInt(shape.substring(shape.indexOf('x') + 1));
    SineLattice f0 = lattice(n0);
    SineLattice f1 = lattice(n1);
    LatticeStrategy l = LatticeStrategy.of("k", List.of(LatticeMatrix.of(f0), LatticeMatrix.of(f1)));
    long[][] a0 = dense(f0);
    long[][] a1 = dense(f1);
    BigInteger[][] kron = kronecker(a0, a1);
    BigInteger s2 = BigInteger.ZERO;
    for (int c = 0; c < kron.length; c++) {
      BigInteger col = BigInteger.ZERO;
      for (BigInteger[] row : kron) {
        col = col.add(row[c].pow(2));
      }
      s2 = s2.max(col);
    }
    assertEquals(s2, l.maxColumnSumOfSquares());
    assertTimesEqualsDense(l, kron, new long[] {0, 1L << 30, 1L << 40}, shape);
  }

  /** The dense Kronecker product {@code a0 ⊗ a1} of two integer matrices, exactly. */
  private static BigInteger[][] kronecker(long[][] a0, long[][] a1) {
    int n1 = a1.length;
    int m1 = a1[0].length;
    BigInteger[][] kron = new BigInteger[a0.length * n1][a0[0].length * m1];
    for (int row = 0; row < kron.length; row++) {
      for (int c = 0; c < kron[row].length; c++) {
        kron[row][c] = BigInteger.valueOf(a0[row / n1][c / m1])
            .multiply(BigInteger.valueOf(a1[row % n1][c % m1]));
      }
    }
    return kron;
  }

  /**
   * {@code l}'s exact product equals the dense integer product with {@code dense} on random counts
   * (0 to 999) above each of {@code bases}.
   */
  private static void assertTimesEqualsDense(LatticeStrategy l, BigInteger[][] dense, long[] bases,
      String what) {
    int n = dense[0].length;
    java.util.SplittableRandom r = new java.util.SplittableRandom(n);
    for (long base : bases) {
      long[] x = new long[n];
      for (int j = 0; j < n; j++) {
        x[j] = base + r.nextInt(1000);
      }
      BigInteger[] got = l.numeratorsTimes(x);
      for (int row = 0; row < dense.length; row++) {
        BigInteger e = BigInteger.ZERO;
        for (int c = 0; c < n; c++) {
          e = e.add(dense[row][c].multiply(BigInteger.valueOf(x[c])));
        }
        assertEquals(e, got[row], what + " base " + base + " row " + row);
      }
    }
  }

  /**
   * A two-factor product with a stored (dense) factor, e.g. the engine's per-factor dense design or
   * hour × state: equal to the dense Kronecker integer product whichever exact path computes it
   * (dense factors on 2^-20 with small counts: long; on 2^-40: the 128-bit second mode product;
   * counts near 2^50: the BigInteger fallback).
   */
  @ParameterizedTest
  @ValueSource(strings = {"dense-dense", "sine-dense", "dense-sine"})
  void kroneckerProductWithAStoredFactorIsExact(String kinds) {
    int n0 = 9;
    int n1 = 7;
    for (int bits : new int[] {20, 40}) {
      LatticeMatrix d0 = LatticeMatrix.round(TransformDesign.allRanges(n0).matrix(), bits);
      LatticeMatrix d1 = LatticeMatrix.round(TransformDesign.allRanges(n1).matrix(), bits);
      LatticeMatrix f0 = kinds.startsWith("sine") ? LatticeMatrix.of(lattice(n0)) : d0;
      LatticeMatrix f1 = kinds.endsWith("sine") ? LatticeMatrix.of(lattice(n1)) : d1;
      LatticeStrategy l = LatticeStrategy.of("k", List.of(f0, f1));
      assertTimesEqualsDense(l, kronecker(f0.toLongArray(), f1.toLongArray()),
          new long[] {0, 1L << 50}, kinds + " bits " + bits);
    }
  }

  /** The lattice strategy is the design rounded: within 2^(−20) of its largest entry. */
  @Test
  void roundedEntriesAreCloseToTheDesign() {
    int n = 300;
    TransformStrategy t = TransformDesign.allRanges(n);
    double[][] real = t.matrix();
    SineLattice s = SineLattice.round(t.weights(), LatticeStrategy.DEFAULT_BITS);
    double max = 0;
    double dev = 0;
    for (int k = 0; k < n; k++) {
      for (int j = 0; j < n; j++) {
        max = Math.max(max, Math.abs(real[k][j]));
        dev = Math.max(dev, Math.abs(real[k][j] - Math.scalb((double) s.entry(k, j), -s.bits())));
      }
    }
    assertTrue(dev <= Math.scalb(max, -20), dev + " vs " + max);
  }

  /** Â⁻¹ by refinement equals the dense inverse; Â x is recovered to round-off. */
  @Test
  void solveInvertsTheRoundedStrategyExactly() {
    int n = 513;
    SineLattice s = lattice(n);
    double[] x = new double[n];
    for (int j = 0; j < n; j++) {
      x[j] = (j * 37) % 11;
    }
    double[] y = s.realTimes(x);
    double[] back = s.solve(y);
    for (int j = 0; j < n; j++) {
      assertEquals(x[j], back[j], 1e-9, "cell " + j);
    }
    // the transpose product agrees with the dense transpose
    long[][] a = dense(s);
    double[] v = new double[n];
    for (int k = 0; k < n; k++) {
      v[k] = Math.sin(k);
    }
    double[] t = s.realTransposeTimes(v);
    for (int j = 0; j < n; j++) {
      double e = 0;
      for (int k = 0; k < n; k++) {
        e += Math.scalb((double) a[k][j], -s.bits()) * v[k];
      }
      assertEquals(e, t[j], 1e-9 * Math.max(1, Math.abs(e)));
    }
  }

  /**
   * The closed-form traces (cells, ranges, prefixes, total, a union) equal the dense trace of the
   * same integer strategy's {@code (ÂᵀÂ)⁻¹} to 1e-6 relative (what the kernel's 2^(−24) rounding
   * allows); the DST-I Gram diagonals equal the dense ones to 1e-9.
   */
  @Test
  void closedFormTracesMatchTheDenseStrategy() {
    int n = 200;
    SineLattice s = lattice(n);
    LeastSquares fast = LeastSquares.of(LatticeStrategy.of("t", List.of(LatticeMatrix.of(s))));
    LeastSquares slow = LeastSquares.of(
        LatticeStrategy.of("t", List.of(LatticeMatrix.ofIntegers(dense(s), s.bits()))));
    EigenBasis q = EigenBasis.allRanges(n);
    for (Workload w : List.of(new IdentityWorkload(n), new AllRangesWorkload(n),
        new PrefixWorkload(n), new TotalWorkload(n),
        new UnionWorkload(List.of(new AllRangesWorkload(n), new PrefixWorkload(n))))) {
      double a = fast.traceGramPinv(w);
      double b = slow.traceGramPinv(w);
      assertEquals(b, a, 1e-6 * b, w.toString());
      double[] g = TransformDesign.sineGramDiagonal(w);
      double[][] gram = w.gram();
      for (int k = 0; k < n; k += 17) {
        double[] qk = q.eigenQuery(k);
        double e = 0;
        for (int i = 0; i < n; i++) {
          double row = 0;
          for (int j = 0; j < n; j++) {
            row += gram[i][j] * qk[j];
          }
          e += qk[i] * row;
        }
        assertEquals(e, g[k], 1e-9 * Math.max(1, e), w + " k=" + k);
      }
    }
    double[] v = new double[n];
    v[3] = 1;
    v[150] = 1;
    assertEquals(slow.quadraticForm(v), fast.quadraticForm(v), 1e-6 * slow.quadraticForm(v));
  }

  /**
   * The noise of a measurement on the implicit strategy: calibrated exactly to its sensitivity
   * ({@code σ_Z² = S₂/(2ρ)}), and {@code U − Nx} over every coordinate of 24 seeded measurements
   * fits the normal law of that variance (a discrete Gaussian of this scale differs from it by
   * far less than the test resolves) by a chi-square test over 20 equiprobable bins at
   * significance 0.001; the seeds are fixed, so the outcome is deterministic.
   */
  @Test
  void noiseIsTheExactDiscreteGaussianOfTheExactSensitivity() {
    int n = 1000;
    SineLattice s = lattice(n);
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.of("t", List.of(LatticeMatrix.of(s))));
    Rational rho = Rational.of(1, 50);
    NoiseSpec spec = NoiseSpec.zcdp(rho);
    NoiseCalibration c = m.calibrate(spec);
    assertEquals(Rational.of(s.maxColumnSumOfSquares(), BigInteger.ONE).divide(rho.multiply(Rational.of(2))),
        c.latticeParameter());
    long[] x = new long[n];
    for (int j = 0; j < n; j++) {
      x[j] = j % 5;
    }
    BigInteger[] exact = m.strategy().numeratorsTimes(x);
    double sd = Math.sqrt(c.latticeParameter().doubleValue());
    NormalDistribution normal = new NormalDistribution(0, 1);
    int bins = 20;
    long[] observed = new long[bins];
    int total = 0;
    SeededRandomBits random = new SeededRandomBits(33);
    for (int run = 0; run < 24; run++) {
      Measurement y = m.measure(x, spec, random);
      for (int k = 0; k < n; k++) {
        double z = y.numerator(k).subtract(exact[k]).doubleValue() / sd;
        int b = (int) Math.min(bins - 1, Math.floor(normal.cumulativeProbability(z) * bins));
        observed[b]++;
        total++;
      }
    }
    double expected = total / (double) bins;
    double stat = 0;
    for (long o : observed) {
      stat += (o - expected) * (o - expected) / expected;
    }
    double critical = new ChiSquaredDistribution(bins - 1).inverseCumulativeProbability(0.999);
    assertTrue(stat < critical, "chi2 " + stat + " critical " + critical);
  }
}
