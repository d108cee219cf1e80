package org.dpsql.matrix.hdmm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BoundedLbfgsTest {

  /** Separable quadratic: the constrained minimiser is max(c, 0), reached to 1e-8. */
  @Test
  void separableQuadraticProjectsToBound() {
    double[] c = {3, -2, 0.5, -0.1, 7, 0};
    double[] w = {1, 2, 10, 1, 0.5, 3};
    BoundedLbfgs.Objective f = (x, g) -> {
      double v = 0;
      for (int i = 0; i < x.length; i++) {
        v += w[i] * (x[i] - c[i]) * (x[i] - c[i]);
        if (g != null) {
          g[i] = 2 * w[i] * (x[i] - c[i]);
        }
      }
      return v;
    };
    BoundedLbfgs.Result r = new BoundedLbfgs(5, 200, 0, 1, 1e-12).minimize(f, new double[] {1, 1, 1, 1, 1, 1});
    for (int i = 0; i < c.length; i++) {
      assertEquals(Math.max(c[i], 0), r.point()[i], 1e-8);
    }
    assertTrue(r.converged());
  }

  /**
   * Random strictly convex quadratic ½xᵀHx − bᵀx over x ≥ 0: the result satisfies the KKT
   * conditions (x ≥ 0, ∇f ≥ 0, xᵢ·∇fᵢ = 0) to 1e-6 relative to |b|.
   */
  @Test
  void coupledQuadraticSatisfiesKkt() {
    SplittableRandom r = new SplittableRandom(5);
    for (int trial = 0; trial < 10; trial++) {
      int n = 20;
      double[][] m = new double[n][n];
      for (double[] row : m) {
        for (int j = 0; j < n; j++) {
          row[j] = Naive.gaussian(r);
        }
      }
      double[][] h = new double[n][n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          for (int k = 0; k < n; k++) {
            h[i][j] += m[k][i] * m[k][j];
          }
        }
        h[i][i] += 0.5;
      }
      double[] b = new double[n];
      for (int i = 0; i < n; i++) {
        b[i] = 10 * Naive.gaussian(r);
      }
      BoundedLbfgs.Objective f = (x, g) -> {
        double v = 0;
        for (int i = 0; i < n; i++) {
          double hx = 0;
          for (int j = 0; j < n; j++) {
            hx += h[i][j] * x[j];
          }
          v += 0.5 * x[i] * hx - b[i] * x[i];
          if (g != null) {
            g[i] = hx - b[i];
          }
        }
        return v;
      };
      BoundedLbfgs.Result res = new BoundedLbfgs(10, 5000, 0, 1, 1e-9).minimize(f, new double[n]);
      double[] x = res.point();
      double[] g = new double[n];
      f.evaluate(x, g);
      for (int i = 0; i < n; i++) {
        assertTrue(x[i] >= 0);
        assertTrue(g[i] > -1e-6 * 10, "gradient " + g[i]);
        assertTrue(Math.abs(x[i] * g[i]) < 1e-6 * 10, "complementarity " + x[i] * g[i]);
      }
      assertTrue(BoundedLbfgs.projectedGradientNorm(x, g) <= 1e-6);
    }
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new BoundedLbfgs(0, 10, 0, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new BoundedLbfgs(3, 10, -1, 1, 0));
    BoundedLbfgs s = BoundedLbfgs.withMaxIterations(10);
    assertThrows(IllegalArgumentException.class,
        () -> s.minimize((x, g) -> Double.POSITIVE_INFINITY, new double[] {1}));
  }
}
