package org.dpsql.matrix.design;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.junit.jupiter.api.Test;

/**
 * The fast transforms agree with the direct {@code O(n²)} sums, and the transform Eigen-Design's
 * closed-form error and svdb agree with the dense computation ({@link ErrorAnalysis}) to {@code
 * 1e-9} relative at up to 2,048 cells.
 */
class TransformDesignTest {

  private static double[] random(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = r.nextDouble() - 0.5;
    }
    return x;
  }

  private static double maxAbs(double[] v) {
    double m = 0;
    for (double x : v) {
      m = Math.max(m, Math.abs(x));
    }
    return m;
  }

  @Test
  void dftOfAnyLengthMatchesTheDirectSum() {
    for (int n : new int[] {1, 2, 3, 5, 8, 17, 100, 257, 1000}) {
      double[] re = random(n, n);
      double[] im = random(n, n + 1);
      double[] fr = re.clone();
      double[] fi = im.clone();
      SineTransform.dft(fr, fi);
      for (int j = 0; j < n; j++) {
        double sr = 0;
        double si = 0;
        for (int k = 0; k < n; k++) {
          double a = -2 * Math.PI * (((long) j * k) % n) / n;
          sr += re[k] * Math.cos(a) - im[k] * Math.sin(a);
          si += re[k] * Math.sin(a) + im[k] * Math.cos(a);
        }
        assertEquals(sr, fr[j], 1e-11 * n, "re n=" + n + " j=" + j);
        assertEquals(si, fi[j], 1e-11 * n, "im n=" + n + " j=" + j);
      }
    }
  }

  @Test
  void dstAndCosineSumsMatchTheDirectSums() {
    for (int n : new int[] {1, 2, 7, 63, 100, 1000}) {
      double[] x = random(n, 3 * n);
      double[] y = SineTransform.dstI(x);
      double[] c = SineTransform.cosineSums(x);
      for (int k = 1; k <= n; k++) {
        double s = 0;
        double t = 0;
        for (int j = 1; j <= n; j++) {
          s += x[j - 1] * Math.sin(Math.PI * (((long) j * k) % (2L * (n + 1))) / (n + 1));
          t += x[j - 1] * Math.cos(2 * Math.PI * (((long) j * k) % (n + 1)) / (n + 1));
        }
        assertEquals(s, y[k - 1], 1e-11 * n, "dst n=" + n + " k=" + k);
        assertEquals(t, c[k - 1], 1e-11 * n, "cos n=" + n + " k=" + k);
      }
    }
  }

  @Test
  void closedFormErrorEqualsTheDenseComputation() {
    // the dense computation at 2,048 cells costs seconds: under -Plong only (1,024 otherwise)
    for (int n : new int[] {16, 255, org.dpsql.TestScale.pick(1024, 2048)}) {
      TransformStrategy a = TransformDesign.allRanges(n);
      AllRangesWorkload w = new AllRangesWorkload(n);
      double dense = ErrorAnalysis.totalSquaredError(w, a);
      assertEquals(dense, a.totalSquaredError(), 1e-9 * dense, "error n=" + n);
      double svdb = ErrorAnalysis.svdb(w);
      assertEquals(svdb, a.svdb(), 1e-9 * svdb, "svdb n=" + n);
      assertTrue(a.errorRatio() >= 1, "ratio " + a.errorRatio());
      double[][] m = a.matrix();
      double[] expected = new double[n];
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (double[] row : m) {
          s += row[j] * row[j];
        }
        expected[j] = s;
      }
      double[] norms = a.columnNormsSquared();
      for (int j = 0; j < n; j++) {
        assertEquals(expected[j], norms[j], 1e-9, "column " + j);
      }
    }
  }

  @Test
  void measuringAndReconstructingMatchTheDenseProducts() {
    int n = 500;
    TransformStrategy a = TransformDesign.allRanges(n);
    double[][] m = a.matrix();
    double[] x = random(n, 11);
    double[] y = a.times(x);
    for (int k = 0; k < n; k++) {
      double s = 0;
      for (int j = 0; j < n; j++) {
        s += m[k][j] * x[j];
      }
      assertEquals(s, y[k], 1e-9 * maxAbs(y), "row " + k);
    }
    double[] back = a.reconstruct(y);
    for (int j = 0; j < n; j++) {
      assertEquals(x[j], back[j], 1e-10, "cell " + j);
    }
  }

  @Test
  void designIsCloseToTheSingularValueBound() {
    // Program 1 without column completion: measured 1.061 at 2,048 cells and 1.052 at 8,192
    // (the optimum of re-weighted eigen-queries; a completion would lower it further)
    TransformStrategy a = TransformDesign.allRanges(2048);
    assertTrue(a.errorRatio() < 1.07, "ratio " + a.errorRatio());
    assertEquals(1, maxAbs(a.columnNormsSquared()), 1e-12); // sensitivity 1
  }

  /**
   * Issue 33's "error within 1.03× of the SVD lower bound", in seed 001's units: Thm. 2 bounds the
   * RMSE, {@code OptError(W) ≥ √(P · svdb(W))}, and the paper's ratios (Fig. 2: lower bound 29.18,
   * Eigen-Design 29.79, ratio 1.0209) are RMSE ratios, so the ratio asserted is {@code √(error /
   * svdb)}. The bound is recomputed here in closed form from the eigenvalues of all ranges, {@code
   * σ_k = (n+1) / (2 (1 − cos(πk/(n+1))))}, {@code svdb = (Σ √σ_k)² / n}; the error is that of the
   * integer strategy actually measured ({@code SineLattice}: its exact sensitivity times the
   * closed-form {@code tr(WᵀW (ÂᵀÂ)⁻¹)}), and the design's own. Measured RMSE ratios: 1.0280 at
   * 4,096 cells, 1.0261 at 8,192, 1.0216 at 65,536 (squared: 1.057, 1.053, 1.044). Below 4,096
   * cells this design is above 1.03 (1.0326 at 1,024, 1.0302 at 2,048): up to
   * {@code WorkloadCalibration.MAX_DENSE_CELLS} the engine designs with the dense Eigen-Design and
   * its column completion instead.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {4096, 8192, 65536})
  void rmseIsWithinThreePercentOfTheClosedFormBound(int n) {
    org.junit.jupiter.api.Assumptions.assumeTrue(n <= 8192 || org.dpsql.TestScale.isLong(),
        "65,536 cells under -Plong only");
    TransformStrategy a = TransformDesign.allRanges(n);
    double roots = 0;
    for (int k = 1; k <= n; k++) {
      // √σ_k, with 1 − cos x = 2 sin²(x/2) (no cancellation for the largest σ at small k)
      roots += Math.sqrt(n + 1.0) / (2 * Math.sin(Math.PI * k / (2.0 * (n + 1))));
    }
    double svdb = roots * roots / n;
    assertEquals(svdb, a.svdb(), 1e-12 * svdb);
    assertTrue(Math.sqrt(a.errorRatio()) <= 1.03, "design RMSE ratio " + Math.sqrt(a.errorRatio()));
    org.dpsql.matrix.mechanism.MatrixMechanism m =
        org.dpsql.matrix.mechanism.MatrixMechanism.of(a);
    double measured = m.strategy().sensitivityL2Squared().doubleValue()
        * m.inference().traceGramPinv(new AllRangesWorkload(n));
    assertEquals(a.totalSquaredError(), measured, 1e-5 * measured); // rounding: ~2^(-20) relative
    assertTrue(Math.sqrt(measured / svdb) <= 1.03, "lattice RMSE ratio " + Math.sqrt(measured / svdb));
  }
}
