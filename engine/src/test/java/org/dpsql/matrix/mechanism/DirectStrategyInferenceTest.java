package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.dpsql.matrix.DirectStrategy;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * Least squares on the workload's own rows by conjugate gradients ({@link FactorInverse}'s
 * iterative representation, used above 2,048 rows over more than 2,048 cells) against the dense
 * representations at small sizes, and the exact discrete Gaussian noise of a measurement of those
 * rows (chi-square at significance 0.001, as {@link NoiseDistributionTest}).
 */
class DirectStrategyInferenceTest {

  private static LatticeStrategy direct(Workload w) {
    return LatticeStrategy.round(DirectStrategy.forWorkload(w, false, Long.MAX_VALUE));
  }

  private static void assertClose(double[] want, double[] got, String what) {
    double scale = 1;
    for (double v : want) {
      scale = Math.max(scale, Math.abs(v));
    }
    assertArrayEquals(want, got, 1e-8 * scale, what);
  }

  @Test
  void conjugateGradientsAgreeWithTheDenseInference() {
    SplittableRandom r = new SplittableRandom(7);
    int[][] pred = new int[30][];
    for (int i = 0; i < pred.length; i++) {
      pred[i] = java.util.stream.IntStream.range(0, 90).filter(j -> r.nextInt(6) == 0).toArray();
      if (pred[i].length == 0) {
        pred[i] = new int[] {i};
      }
    }
    for (Workload w : new Workload[] {Workloads.marginals(new int[] {40, 3}, 1),
        Workloads.marginals(new int[] {8, 5, 3}, 1), new SparseWorkload(90, pred)}) {
      LatticeStrategy s = direct(w);
      LeastSquares dense = LeastSquares.of(s);
      LeastSquares cg = LeastSquares.iterative(s);
      int n = s.cells();
      double[] y = new double[s.rows()];
      for (int i = 0; i < y.length; i++) {
        y[i] = r.nextDouble() * 100 - 10;
      }
      assertClose(dense.estimate(y), cg.estimate(y), w + ": Â⁺y");
      double[] v = new double[n];
      for (int j = 0; j < n; j++) {
        v[j] = r.nextGaussian();
      }
      assertClose(dense.projectOntoRowSpace(v), cg.projectOntoRowSpace(v), w + ": projection");
      assertClose(dense.gramPinvTimes(v), cg.gramPinvTimes(v), w + ": (ÂᵀÂ)⁺v");
      double[][] rows = w.matrix();
      double[] sum = new double[n];
      for (int i = 0; i < rows.length; i += 2) {
        for (int j = 0; j < n; j++) {
          sum[j] += rows[i][j] * (i % 3 + 1);
        }
      }
      assertEquals(dense.quadraticForm(sum), cg.quadraticForm(sum),
          1e-8 * dense.quadraticForm(sum));
      for (double[] q : new double[][] {rows[0], rows[rows.length - 1], sum, v}) {
        assertEquals(dense.inRowSpace(q), cg.inRowSpace(q), w.toString());
      }
      assertTrue(cg.inRowSpace(sum));
      double[] cell = new double[n];
      cell[1] = 1;
      assertFalse(cg.inRowSpace(cell), w.toString());
      assertEquals(dense.inRowSpace(cell), cg.inRowSpace(cell));
      cg.requireInRowSpace(w);
    }
  }

  @Test
  void measuringTheWorkloadsOwnRowsAddsExactDiscreteGaussianNoise() {
    // 1-way marginals of 4 × 3: S₂ = max_j Σ_k A_kj² = c_hour² + c_kind² exactly; ρ = S₂/8 gives
    // σ_Z² = S₂/(2ρ) = 4 on the integer rows (no lattice bits)
    LatticeStrategy s = direct(Workloads.marginals(new int[] {4, 3}, 1));
    assertEquals(0, s.bits());
    MatrixMechanism m = new MatrixMechanism(s);
    Rational rho = Rational.of(s.maxColumnSumOfSquares(), BigInteger.valueOf(8));
    NoiseSpec spec = NoiseSpec.zcdp(rho);
    assertEquals(Rational.of(4), m.calibrate(spec).latticeParameter());
    long[] x = {5, 0, 12, 3, 9, 1, 0, 7, 2, 2, 4, 8};
    BigInteger exact = s.numeratorsTimes(x)[0];
    SeededRandomBits bits = new SeededRandomBits(21);
    int runs = 20_000;
    int lo = -6;
    int hi = 6;
    long[] observed = new long[hi - lo + 1];
    for (int i = 0; i < runs; i++) {
      long z = m.measure(x, spec, bits).numerator(0).subtract(exact).longValueExact();
      observed[(int) (Math.max(lo, Math.min(hi, z)) - lo)]++;
    }
    DiscreteGaussianDistribution d = new DiscreteGaussianDistribution(Rational.of(4));
    double tail = d.tailAbs(5) / 2;
    double stat = 0;
    for (int b = 0; b < observed.length; b++) {
      double p = b == 0 || b == observed.length - 1 ? tail : d.pmf(lo + b);
      double e = p * runs;
      stat += (observed[b] - e) * (observed[b] - e) / e;
    }
    double critical = new ChiSquaredDistribution(observed.length - 1)
        .inverseCumulativeProbability(1 - 0.001);
    assertTrue(stat < critical, "chi2 " + stat + " ≥ " + critical);
  }
}
