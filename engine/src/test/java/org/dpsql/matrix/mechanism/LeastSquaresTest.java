package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.PaperExamples;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Least-squares inference: full rank, rank deficient, Kronecker, answers, variances, NNLS. */
class LeastSquaresTest {
  static final double[][] FIG_1B = PaperExamples.figure1b();

  private static double[] exactAnswers(LatticeStrategy s, long[] x) {
    java.math.BigInteger[] u = s.numeratorsTimes(x);
    double[] y = new double[u.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = Math.scalb(u[i].doubleValue(), -s.bits());
    }
    return y;
  }

  private static double[] toDouble(long[] x) {
    double[] d = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      d[i] = x[i];
    }
    return d;
  }

  @Test
  void fullRankRecoversNoiselessDataAndMatchesTheNormalEquations() {
    LatticeStrategy s = LatticeStrategy.round(Strategies.hierarchical(64, 2));
    LeastSquares ls = LeastSquares.of(s);
    assertTrue(ls.fullColumnRank());
    assertEquals(64, ls.rank());
    long[] x = new long[64];
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 64; i++) {
      x[i] = r.nextInt(1000);
    }
    assertArrayEquals(toDouble(x), ls.estimate(exactAnswers(s, x)), 1e-8);
    // with an arbitrary y: the normal equations ÂᵀÂ x̂ = Âᵀy hold
    double[] y = new double[s.rows()];
    for (int i = 0; i < y.length; i++) {
      y[i] = r.nextGaussian() * 10;
    }
    double[] xhat = ls.estimate(y);
    double[] lhs = s.realTransposeTimes(s.realTimes(xhat));
    assertArrayEquals(s.realTransposeTimes(y), lhs, 1e-8);
  }

  @Test
  void rankDeficientStrategyAnswersItsRowSpaceAndRefusesTheRest() {
    // W itself as the strategy (seed 001 §4.2: least-squares error 20 = ‖W‖² · trace, ‖W‖² = 5)
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("W", FIG_1B));
    LeastSquares ls = LeastSquares.of(s);
    assertFalse(ls.fullColumnRank());
    assertEquals(4, ls.rank());
    Workload w = new ExplicitWorkload(FIG_1B);
    assertEquals(20.0 / 5, ls.traceGramPinv(w), 1e-9);
    ls.requireInRowSpace(w);
    for (double[] q : FIG_1B) {
      assertTrue(ls.inRowSpace(q));
    }
    // a single cell is not in the row space (cells 1 and 2 are never separated)
    double[] cell0 = {1, 0, 0, 0, 0, 0, 0, 0};
    assertFalse(ls.inRowSpace(cell0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ls.requireInRowSpace(cell0));
    assertTrue(e.getMessage().contains("row space"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ls.requireInRowSpace(new IdentityWorkload(8)));
    // cells 0+1 together are fine
    assertTrue(ls.inRowSpace(new double[] {1, 1, 0, 0, 0, 0, 0, 0}));

    // noiseless: every row-space answer is exact (unbiasedness of a linear estimator)
    long[] x = {3, 9, 4, 0, 7, 2, 5, 1};
    double[] xhat = ls.estimate(exactAnswers(s, x));
    double[] truth = w.answer(toDouble(x));
    assertArrayEquals(truth, w.answer(xhat), 1e-9);

    // through the mechanism: answers for W work, a cell query is refused
    MatrixMechanism m = new MatrixMechanism(s, ls);
    Estimate est = m.run(x, NoiseSpec.zcdp(Rational.ONE), new SeededRandomBits(3));
    assertEquals(8, est.answers(w).length);
    assertThrows(IllegalArgumentException.class, () -> est.answer(cell0));
    assertThrows(IllegalArgumentException.class, () -> est.variance(cell0));
    assertThrows(IllegalArgumentException.class, () -> est.answers(new IdentityWorkload(8)));
    // per-query variance agrees with ErrorAnalysis (unit factor ‖Â‖² · w G⁺ wᵀ)
    double[] perQuery = ErrorAnalysis.perQueryVariances(w, s.asStrategy());
    for (int i = 0; i < FIG_1B.length; i++) {
      assertEquals(perQuery[i] / 5, ls.quadraticForm(FIG_1B[i]), 1e-9);
    }
  }

  @Test
  void kroneckerPathAgreesWithTheDensePath() {
    Strategy a1 = Strategies.hierarchical(4, 2);
    Strategy a2 = Strategies.fourier(5); // irrational entries
    Strategy product = Strategies.kronecker(a1, a2);
    LatticeStrategy kron = LatticeStrategy.round(product);
    // the same lattice matrix, dense: N₁ ⊗ N₂ on 2^-(k₁+k₂)
    long[][] n1 = kron.factors().get(0).toLongArray();
    long[][] n2 = kron.factors().get(1).toLongArray();
    long[][] dense = new long[n1.length * n2.length][20];
    for (int i1 = 0; i1 < n1.length; i1++) {
      for (int j1 = 0; j1 < 4; j1++) {
        for (int i2 = 0; i2 < n2.length; i2++) {
          for (int j2 = 0; j2 < 5; j2++) {
            dense[i1 * n2.length + i2][j1 * 5 + j2] = Math.multiplyExact(n1[i1][j1], n2[i2][j2]);
          }
        }
      }
    }
    LatticeStrategy flat = LatticeStrategy.of("dense", List.of(LatticeMatrix.ofIntegers(dense, kron.bits())));
    assertEquals(kron.sensitivityL2Squared(), flat.sensitivityL2Squared());
    assertEquals(kron.sensitivityL1(), flat.sensitivityL1());
    long[] x = new long[20];
    for (int i = 0; i < 20; i++) {
      x[i] = 7L * i + 3;
    }
    assertArrayEquals(flat.numeratorsTimes(x), kron.numeratorsTimes(x));
    LeastSquares lk = LeastSquares.of(kron);
    LeastSquares lf = LeastSquares.of(flat);
    SplittableRandom r = new SplittableRandom(2);
    double[] y = new double[kron.rows()];
    for (int i = 0; i < y.length; i++) {
      y[i] = r.nextGaussian();
    }
    assertArrayEquals(lf.estimate(y), lk.estimate(y), 1e-9);
    double[] w = new double[20];
    for (int i = 0; i < 20; i++) {
      w[i] = r.nextGaussian();
    }
    assertEquals(lf.quadraticForm(w), lk.quadraticForm(w), 1e-9 * lf.quadraticForm(w));
    Workload wk = KroneckerWorkload.of(new AllRangesWorkload(4), new PrefixWorkload(5));
    assertEquals(lf.traceGramPinv(wk), lk.traceGramPinv(wk), 1e-9 * lf.traceGramPinv(wk));
    assertEquals(
        ErrorAnalysis.totalSquaredError(wk, kron.asStrategy()) / kron.sensitivityL2Squared().doubleValue(),
        lk.traceGramPinv(wk), 1e-8 * lk.traceGramPinv(wk));
  }

  @Test
  void rankDeficientKroneckerFactor() {
    // [1 1] (total of 2 cells, rank 1) ⊗ hierarchical(3)
    Strategy a = Strategies.kronecker(new ExplicitStrategy("total2", new double[][] {{1, 1}}), Strategies.hierarchical(3, 2));
    LeastSquares ls = LeastSquares.of(LatticeStrategy.round(a));
    assertEquals(3, ls.rank());
    ls.requireInRowSpace(KroneckerWorkload.of(new TotalWorkload(2), new AllRangesWorkload(3)));
    assertThrows(IllegalArgumentException.class,
        () -> ls.requireInRowSpace(KroneckerWorkload.of(new IdentityWorkload(2), new TotalWorkload(3))));
    assertTrue(ls.inRowSpace(new double[] {1, 0, 0, 1, 0, 0}));
    assertFalse(ls.inRowSpace(new double[] {1, 0, 0, 0, 0, 0}));
  }

  @Test
  @Tag("slow")
  void kroneckerOver65536CellsWithoutFormingTheProduct() {
    // [I; 1ᵀ] per attribute (257 x 256, full rank): 66,049 measured rows over 65,536 cells
    double[][] f = new double[257][256];
    for (int i = 0; i < 256; i++) {
      f[i][i] = 1;
      f[256][i] = 1;
    }
    Strategy factor = new ExplicitStrategy("I+total", f);
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.kronecker(factor, factor)));
    assertEquals(65_536, m.strategy().cells());
    assertEquals(66_049, m.strategy().rows());
    assertEquals(Rational.of(4), m.strategy().sensitivityL2Squared());
    long[] x = new long[65_536];
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < x.length; i++) {
      x[i] = r.nextInt(100);
    }
    long start = System.nanoTime();
    Estimate est = m.run(x, NoiseSpec.zcdp(Rational.of(2)), new SeededRandomBits(4)); // σ² = 1
    double seconds = (System.nanoTime() - start) / 1e9;
    double[] xhat = est.cells();
    double sq = 0;
    for (int i = 0; i < x.length; i++) {
      sq += (xhat[i] - x[i]) * (xhat[i] - x[i]);
    }
    double mse = sq / x.length;
    // per-cell variance σ² e_jᵀ(⊗ (I + J)⁻¹) e_j = (1 − 1/257)², the same for every cell
    double expected = Math.pow(1 - 1.0 / 257, 2);
    System.out.printf("65,536-cell Kronecker: measure+estimate %.2f s, mean squared cell error %.4f (theory %.4f)%n",
        seconds, mse, expected);
    assertEquals(expected, est.variance(unit(65_536, 12345)), 1e-9);
    // 65,536 nearly independent cells: the mean of squared errors is within 5% (≫ 4 sd ≈ 2.2%)
    assertEquals(expected, mse, 0.05 * expected);
  }

  private static double[] unit(int n, int j) {
    double[] e = new double[n];
    e[j] = 1;
    return e;
  }

  @Test
  void implicitWorkloadAnswersMatchExplicitRows() {
    SplittableRandom r = new SplittableRandom(4);
    double[] v = new double[12];
    for (int i = 0; i < 12; i++) {
      v[i] = r.nextGaussian();
    }
    List<Workload> ws = List.of(
        new AllRangesWorkload(12), new PrefixWorkload(12), new IdentityWorkload(12), new TotalWorkload(12),
        KroneckerWorkload.of(new AllRangesWorkload(3), new TotalWorkload(4)),
        Workloads.marginals(new int[] {3, 4}, 1),
        new SparseWorkload(12, new int[][] {{0, 5, 11}, {2}, {3, 4}}));
    for (Workload w : ws) {
      double[][] rows = w.matrix();
      double[] expected = new double[rows.length];
      for (int i = 0; i < rows.length; i++) {
        for (int j = 0; j < 12; j++) {
          expected[i] += rows[i][j] * v[j];
        }
      }
      assertArrayEquals(expected, w.answer(v), 1e-12, w.toString());
    }
  }

  @Test
  void confidenceHalfWidthsCoverAtTheirLevel() {
    // subgaussian (Gaussian) half-widths at 90%: empirical coverage of a range query ≥ 90%
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.hierarchical(16, 2)));
    long[] x = new long[16];
    for (int i = 0; i < 16; i++) {
      x[i] = 10 * i;
    }
    double[] q = new double[16];
    java.util.Arrays.fill(q, 3, 12, 1); // the range [3, 11]
    double truth = 0;
    for (int i = 3; i <= 11; i++) {
      truth += x[i];
    }
    SeededRandomBits r = new SeededRandomBits(8);
    int covered = 0;
    int runs = 2000;
    double width = 0;
    for (int run = 0; run < runs; run++) {
      Estimate e = m.run(x, NoiseSpec.zcdp(Rational.ONE), r);
      width = e.halfWidth(q, 0.9);
      if (Math.abs(e.answer(q) - truth) <= width) {
        covered++;
      }
    }
    double sd = Math.sqrt(m.calibrate(NoiseSpec.zcdp(Rational.ONE)).unitVariance() * m.inference().quadraticForm(q));
    System.out.printf("90%% subgaussian half-width %.2f (= %.2f sd): coverage %.4f%n", width, width / sd, covered / (double) runs);
    assertTrue(covered >= 0.9 * runs);
  }

  @Test
  void nonNegativeLeastSquaresIsFeasibleOptimalAndHelpsOnSparseData() {
    MatrixMechanism m = new MatrixMechanism(LatticeStrategy.round(Strategies.hierarchical(64, 2)));
    long[] x = new long[64];
    x[5] = 40;
    x[6] = 3;
    x[50] = 20;
    NoiseSpec spec = NoiseSpec.zcdp(Rational.of(1, 10));
    SeededRandomBits r = new SeededRandomBits(9);
    double lsError = 0;
    double nnlsError = 0;
    for (int run = 0; run < 20; run++) {
      Measurement y = m.measure(x, spec, r);
      Estimate est = m.inference().estimate(y);
      double[] z = est.nonNegative(y);
      double[] xhat = est.cells();
      // KKT: z ≥ 0, gradient g = Âᵀ(Âz − y) ≥ −tol, and g ≈ 0 where z > 0
      double[] res = m.strategy().realTimes(z);
      double[] yv = y.values();
      for (int i = 0; i < res.length; i++) {
        res[i] -= yv[i];
      }
      double[] g = m.strategy().realTransposeTimes(res);
      for (int j = 0; j < 64; j++) {
        assertTrue(z[j] >= 0);
        assertTrue(g[j] >= -1e-4, "gradient " + g[j]);
        if (z[j] > 1e-6) {
          assertEquals(0, g[j], 1e-4);
        }
        lsError += (xhat[j] - x[j]) * (xhat[j] - x[j]);
        nnlsError += (z[j] - x[j]) * (z[j] - x[j]);
      }
    }
    System.out.printf("sparse data, 20 runs: squared cell error LS %.1f, NNLS %.1f%n", lsError, nnlsError);
    assertTrue(nnlsError < lsError);
  }

  @Test
  void traceMatchesErrorAnalysisOnDenseStrategies() {
    double[][] a = LatticeStrategyTest.randomMatrix(30, 20, 6);
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("R", a));
    LeastSquares ls = LeastSquares.of(s);
    for (Workload w : List.of(new AllRangesWorkload(20), new PrefixWorkload(20),
        new UnionWorkload(List.of(new IdentityWorkload(20), new TotalWorkload(20))))) {
      double expected = ErrorAnalysis.traceGramTimesPseudoInverse(w, s.asStrategy());
      assertEquals(expected, ls.traceGramPinv(w), 1e-9 * expected, w.toString());
    }
    // G⁺ is the inverse of ÂᵀÂ for a full-rank strategy
    double[][] g = Matrices.multiply(Matrices.transpose(s.asStrategy().matrix()), s.asStrategy().matrix());
    double[] v = new double[20];
    v[3] = 1;
    double[] x = ls.gramPinvTimes(v);
    double[] back = new double[20];
    for (int i = 0; i < 20; i++) {
      for (int j = 0; j < 20; j++) {
        back[i] += g[i][j] * x[j];
      }
    }
    assertArrayEquals(v, back, 1e-9);
  }
}
