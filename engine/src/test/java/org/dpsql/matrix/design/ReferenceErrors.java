package org.dpsql.matrix.design;

import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * Test oracle: {@code ||A||₂² trace(WᵀW (AᵀA)⁺)} by a dense eigen-decomposition of {@code AᵀA}
 * (pseudo-inverse on eigenvalues above {@code 1e-12 λ_max}), checking that the workload lies in the
 * strategy's row space. Independent of the Woodbury evaluation in {@link EigenStrategy}.
 */
final class ReferenceErrors {
  private ReferenceErrors() {}

  static double totalSquaredError(Workload w, Strategy a) {
    return totalSquaredError(w.gram(), a.gram(), a.sensitivityL2());
  }

  static double totalSquaredError(double[][] g, double[][] x, double sensitivity) {
    SymmetricEigen e = SymmetricEigen.of(x);
    double[] lam = e.values();
    double[][] v = e.vectors();
    double tol = 1e-12 * lam[0];
    double t = 0;
    double inRange = 0;
    double trace = 0;
    int n = g.length;
    for (int i = 0; i < n; i++) {
      trace += g[i][i];
    }
    for (int i = 0; i < lam.length; i++) {
      if (lam[i] <= tol) {
        continue;
      }
      double q = quad(g, v[i]);
      t += q / lam[i];
      inRange += q;
    }
    if (Math.abs(trace - inRange) > 1e-7 * trace) {
      return Double.POSITIVE_INFINITY; // workload not in the strategy's row space
    }
    return sensitivity * sensitivity * t;
  }

  static double quad(double[][] g, double[] v) {
    double s = 0;
    for (int a = 0; a < v.length; a++) {
      double r = 0;
      for (int b = 0; b < v.length; b++) {
        r += g[a][b] * v[b];
      }
      s += v[a] * r;
    }
    return s;
  }
}
