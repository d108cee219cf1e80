package org.dpsql.matrix.hdmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Workload;
import org.junit.jupiter.api.Test;

class PIdentityObjectiveTest {

  private static Workload workload(int kind, int n, SplittableRandom r) {
    return switch (kind) {
      case 0 -> new AllRangesWorkload(n);
      case 1 -> new PrefixWorkload(n);
      case 2 -> Naive.randomWorkload(n + 3, n, false, r);
      default -> Naive.randomWorkload(2 * n, n, true, r);
    };
  }

  private static double[][] randomTheta(int p, int n, double lo, SplittableRandom r) {
    double[][] t = new double[p][n];
    for (double[] row : t) {
      for (int j = 0; j < n; j++) {
        row[j] = lo + r.nextDouble();
      }
    }
    return t;
  }

  /**
   * Analytic gradient vs central differences with step h = 1e-5·max(1, θ). The truncation error is
   * O(h²·f''') and the rounding error O(1e-16·f/h) ≈ 1e-11·f, so with gradients of order f the
   * difference stays far below the stated tolerance 1e-6·max|∇f| (entries kept ≥ 0.1 so the
   * stencil stays feasible).
   */
  @Test
  void gradientMatchesCentralDifferences() {
    SplittableRandom r = new SplittableRandom(11);
    double worst = 0;
    for (int trial = 0; trial < 24; trial++) {
      int n = 5 + r.nextInt(8);
      int p = 1 + r.nextInt(4);
      Workload w = workload(trial % 4, n, r);
      PIdentityObjective f = new PIdentityObjective(w, p);
      double[] x = PIdentityObjective.flatten(randomTheta(p, n, 0.1, r));
      double[] g = new double[x.length];
      f.evaluate(x, g);
      double scale = 0;
      for (double v : g) {
        scale = Math.max(scale, Math.abs(v));
      }
      for (int i = 0; i < x.length; i++) {
        double h = 1e-5 * Math.max(1, x[i]);
        double[] xp = x.clone();
        double[] xm = x.clone();
        xp[i] += h;
        xm[i] -= h;
        double fd = (f.evaluate(xp, null) - f.evaluate(xm, null)) / (2 * h);
        double err = Math.abs(fd - g[i]) / scale;
        worst = Math.max(worst, err);
        assertTrue(err < 1e-6, "trial " + trial + " entry " + i + ": fd " + fd + " vs " + g[i]);
      }
    }
    System.out.printf("p-Identity gradient vs central differences: worst relative error %.2e%n", worst);
  }

  /** The Woodbury value equals ||A||₁²·trace(G (AᵀA)⁻¹) from the explicit matrix (1e-9 relative). */
  @Test
  void valueMatchesDenseFormula() {
    SplittableRandom r = new SplittableRandom(12);
    for (int trial = 0; trial < 20; trial++) {
      int n = 4 + r.nextInt(20);
      int p = 1 + r.nextInt(5);
      Workload w = workload(trial % 4, n, r);
      double[][] theta = randomTheta(p, n, 0, r);
      if (trial % 3 == 0) {
        theta[0][0] = 0; // exact zeros are allowed
        theta[p - 1][n - 1] = 0;
      }
      PIdentityStrategy a = new PIdentityStrategy(theta);
      double fast = new PIdentityObjective(w, p).value(theta);
      double naive = Naive.objective(w, a);
      double viaErrorAnalysis = ErrorAnalysis.totalSquaredErrorL1(w, a);
      assertEquals(naive, fast, 1e-9 * naive, "trial " + trial);
      assertEquals(naive, viaErrorAnalysis, 1e-9 * naive, "trial " + trial);
    }
  }

  /** Θ = 0 is the identity: f = trace(WᵀW). */
  @Test
  void zeroThetaIsIdentity() {
    Workload w = new AllRangesWorkload(9);
    double[][] zero = new double[2][9];
    assertEquals(w.frobeniusSquared(), new PIdentityObjective(w, 2).value(zero), 1e-9);
  }

  @Test
  void rejectsNegativeParameters() {
    PIdentityObjective f = new PIdentityObjective(new AllRangesWorkload(3), 1);
    assertThrows(IllegalArgumentException.class, () -> f.evaluate(new double[] {0, -1, 0}, null));
    assertThrows(IllegalArgumentException.class, () -> new PIdentityObjective(new AllRangesWorkload(3), 0));
    assertThrows(IllegalArgumentException.class, () -> new PIdentityStrategy(new double[][] {{1, -0.5}}));
  }

  /** Every column of the strategy has L1 norm 1 (1e-12), so the L1 sensitivity is exactly 1. */
  @Test
  void columnsHaveUnitL1Norm() {
    SplittableRandom r = new SplittableRandom(13);
    PIdentityStrategy a = new PIdentityStrategy(randomTheta(6, 40, 0, r));
    double[][] m = a.matrix();
    for (int j = 0; j < 40; j++) {
      double s = 0;
      double s2 = 0;
      for (double[] row : m) {
        s += Math.abs(row[j]);
        s2 += row[j] * row[j];
      }
      assertEquals(1, s, 1e-12);
      assertEquals(s, a.columnNormsL1()[j], 1e-15);
      assertEquals(s2, a.columnNormsSquared()[j], 1e-15);
    }
    assertEquals(Naive.l1(m), a.sensitivityL1(), 1e-15);
    assertEquals(1, a.sensitivityL1(), 1e-12);
    double[][] g = a.gram();
    double[][] ng = Naive.gramOf(m);
    for (int i = 0; i < 40; i++) {
      for (int j = 0; j < 40; j++) {
        assertEquals(ng[i][j], g[i][j], 1e-14);
      }
    }
  }
}
