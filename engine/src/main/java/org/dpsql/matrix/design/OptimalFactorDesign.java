package org.dpsql.matrix.design;

import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.Workload;

/**
 * The exact L2-optimal strategy of a small workload (beyond seed 001, which calls this problem
 * {@code OptStrat} and only approximates it): minimise {@code trace(G X⁺)} over Grams {@code X =
 * AᵀA ⪰ 0} with {@code diag(X) ≤ 1}, {@code G = WᵀW}. Its Lagrangian dual is {@code max_{λ > 0}
 * (tr((Λ^{1/2} G Λ^{1/2})^{1/2}))² / Σλ}, which equals svdb at uniform {@code λ} (so svdb is this
 * dual's value at one point), and the optimum is {@code X = Λ^{-1/2} K^{1/2} Λ^{-1/2}} with {@code K =
 * Λ^{1/2} G Λ^{1/2}} and {@code (K^{1/2})ⱼⱼ = λⱼ}. We iterate that fixed point, {@code λⱼ ←
 * (K^{1/2})ⱼⱼ}, one dense {@code n × n} eigen-decomposition per step, until the relative gap between
 * the primal value {@code tr(K^{1/2}) · maxⱼ (K^{1/2})ⱼⱼ/λⱼ} and the dual value is below {@code
 * 1e-9} (typically 30 iterations). The strategy {@code A = K^{1/4} Λ^{-1/2}} (scaled to sensitivity
 * 1) has {@code AᵀA = X}. Intended for Kronecker factors and other workloads of at most {@value
 * #MAX_CELLS} cells.
 */
public final class OptimalFactorDesign {
  private OptimalFactorDesign() {}

  /** Largest number of cells accepted (one dense eigen-decomposition per iteration). */
  public static final int MAX_CELLS = 1024;

  /**
   * Designs the optimal strategy for {@code w}.
   *
   * @throws IllegalArgumentException if {@code w} has more than {@link #MAX_CELLS} cells or a zero
   *     Gram
   */
  public static DesignOutcome design(Workload w) {
    return design(w, 1e-9, 500);
  }

  static DesignOutcome design(Workload w, double tol, int maxIter) {
    int n = w.cells();
    if (n > MAX_CELLS) {
      throw new IllegalArgumentException(n + " cells exceed " + MAX_CELLS + " for the exact optimal design");
    }
    double[][] g = w.gram();
    EigenBasis basis = EigenBasis.of(w);
    double svdb = basis.svdb(EigenBasis.DEFAULT_TOLERANCE);
    if (!(svdb > 0)) {
      throw new IllegalArgumentException("the workload has a zero Gram");
    }
    double[] lambda = new double[n];
    java.util.Arrays.fill(lambda, 1);
    double bestPrimal = Double.POSITIVE_INFINITY;
    double bestDual = 0;
    double[] bestLambda = lambda.clone();
    int it = 0;
    for (; it < maxIter; it++) {
      Root root = root(g, lambda);
      double a = root.traceRoot;
      double b = Dense.sum(lambda);
      double dual = a * a / b;
      double maxX = 0;
      for (int j = 0; j < n; j++) {
        maxX = Math.max(maxX, root.diagRoot[j] / lambda[j]);
      }
      double primal = a * maxX;
      bestDual = Math.max(bestDual, dual);
      if (primal < bestPrimal) {
        bestPrimal = primal;
        bestLambda = lambda.clone();
      }
      if ((bestPrimal - bestDual) / bestPrimal < tol) {
        break;
      }
      for (int j = 0; j < n; j++) {
        double next = root.diagRoot[j];
        lambda[j] = next > 0 ? next : lambda[j] * 1e-3;
      }
      double s = Dense.sum(lambda);
      for (int j = 0; j < n; j++) {
        lambda[j] = lambda[j] * n / s;
      }
    }
    // strategy A = K^{1/4} Λ^{-1/2}
    Root root = root(g, bestLambda);
    double[][] v = root.vectors;
    double[] kappa = root.values;
    double maxX = 0;
    for (int j = 0; j < n; j++) {
      maxX = Math.max(maxX, root.diagRoot[j] / bestLambda[j]);
    }
    double scale = 1 / Math.sqrt(maxX);
    double tolK = 1e-12 * Math.max(kappa[0], 0);
    int rank = 0;
    while (rank < kappa.length && kappa[rank] > tolK) {
      rank++;
    }
    // rows: κᵢ^{1/4} vᵢᵀ Λ^{-1/2} (a rank-r factor with the same Gram as K^{1/4}ᵀK^{1/4} conjugated)
    double[][] rows = new double[rank][n];
    for (int i = 0; i < rank; i++) {
      double f = Math.pow(kappa[i], 0.25) * scale;
      for (int j = 0; j < n; j++) {
        rows[i][j] = f * v[i][j] / Math.sqrt(bestLambda[j]);
      }
    }
    double primal = bestPrimal;
    int rankG = basis.rank(EigenBasis.DEFAULT_TOLERANCE);
    if (rankG < n) {
      // rank-deficient workload: the rows lie in the row space of W in exact arithmetic; project out
      // the round-off that Λ^{-1/2} amplifies where λⱼ → 0, then evaluate the error exactly on the
      // row space: trace(G X⁺) = trace(diag(σ) (Q X Qᵀ)⁻¹) with Q the kept eigen-queries of G
      double[][] q = basis.eigenQueries(0, rankG);
      double[][] y = org.dpsql.matrix.Matrices.multiply(rows, Dense.transpose(q)); // rank × rankG
      rows = org.dpsql.matrix.Matrices.multiply(y, q);
      double[][] z = Dense.gramOfRows(Dense.transpose(y)); // rankG × rankG = Q X Qᵀ
      Dense.Spd spd = new Dense.Spd(z);
      double trace = 0;
      for (int i = 0; i < rankG; i++) {
        double[] e = new double[rankG];
        e[i] = basis.eigenvalue(i);
        trace += spd.solve(e)[i];
      }
      double[] col = new double[n];
      for (double[] row : rows) {
        for (int j = 0; j < n; j++) {
          col[j] += row[j] * row[j];
        }
      }
      double sens2 = Dense.max(col);
      primal = sens2 * trace;
      double f = 1 / Math.sqrt(sens2);
      for (double[] row : rows) {
        for (int j = 0; j < n; j++) {
          row[j] *= f;
        }
      }
    }
    ExplicitStrategy strategy = new ExplicitStrategy("Optimal(" + w + ")", rows);
    double gap = (primal - bestDual) / primal;
    return new DesignOutcome(
        strategy, primal, svdb, String.format("optimal L2 (gap %.1e, %d iterations)", gap, it));
  }

  /** Eigen-decomposition of {@code K = Λ^{1/2} G Λ^{1/2}} with {@code tr K^{1/2}} and {@code diag K^{1/2}}. */
  private record Root(double[] values, double[][] vectors, double traceRoot, double[] diagRoot) {}

  private static Root root(double[][] g, double[] lambda) {
    int n = g.length;
    double[] d = new double[n];
    for (int j = 0; j < n; j++) {
      d[j] = Math.sqrt(lambda[j]);
    }
    double[][] k = new double[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        k[a][b] = d[a] * g[a][b] * d[b];
      }
    }
    SymmetricEigen e = SymmetricEigen.of(k);
    double[] kappa = e.valuesUnsafe();
    double[][] v = e.vectorsUnsafe();
    double max = Math.max(kappa[0], 0);
    double tr = 0;
    double[] diag = new double[n];
    for (int i = 0; i < n; i++) {
      if (!(kappa[i] > 1e-12 * max)) {
        continue;
      }
      double r = Math.sqrt(kappa[i]);
      tr += r;
      double[] vi = v[i];
      for (int j = 0; j < n; j++) {
        diag[j] += r * vi[j] * vi[j];
      }
    }
    return new Root(kappa, v, tr, diag);
  }
}
