package org.dpsql.matrix.mechanism;

/**
 * Non-negative least squares {@code argmin_{z ≥ 0} ½‖Âz − y‖₂²} by accelerated projected gradient
 * (FISTA with adaptive restart), using only products with {@code Â} and {@code Âᵀ} (mode-wise for
 * Kronecker strategies). Step {@code 1/L} with {@code L} an upper bound on {@code λ_max(ÂᵀÂ)}:
 * {@code min(‖Â‖₁·‖Â‖_∞, 1.05 × power-iteration estimate)} — the product bound is rigorous, the
 * power estimate is used only when it is smaller, and a monotone restart (halving the step when a
 * plain projected-gradient step fails to descend) guards the objective.
 *
 * <p>This is post-processing of a released measurement: it costs no privacy. Cell counts are
 * non-negative, so projecting onto {@code z ≥ 0} usually lowers the error on sparse data, but the
 * result is biased and the variance formulas of {@link Estimate} no longer apply. Stateless.
 */
public final class NonNegativeLeastSquares {
  /** Default iteration cap. */
  public static final int MAX_ITERATIONS = 5000;
  /** Stop when a step moves {@code z} by less than this, relative to {@code max(1, ‖z‖₂)}. */
  public static final double TOLERANCE = 1e-10;

  private NonNegativeLeastSquares() {}

  /** Solves from {@code start} (clipped at 0) with the default limits. */
  public static double[] solve(LatticeStrategy a, double[] y, double[] start) {
    return solve(a, y, start, MAX_ITERATIONS, TOLERANCE);
  }

  /**
   * Solves from {@code start} (clipped at 0).
   *
   * @throws IllegalArgumentException on length mismatch or non-positive limits
   */
  public static double[] solve(
      LatticeStrategy a, double[] y, double[] start, int maxIterations, double tolerance) {
    int n = a.cells();
    if (y.length != a.rows() || start.length != n) {
      throw new IllegalArgumentException("length mismatch: y " + y.length + ", start " + start.length);
    }
    if (maxIterations <= 0 || !(tolerance > 0)) {
      throw new IllegalArgumentException("limits must be positive");
    }
    double lipschitz = lipschitz(a);
    double step = 1 / lipschitz;
    double[] z = new double[n];
    for (int i = 0; i < n; i++) {
      z[i] = Math.max(0, start[i]);
    }
    double[] momentum = z.clone();
    double t = 1;
    double objective = objective(a, y, z);
    for (int it = 0; it < maxIterations; it++) {
      double[] r = a.realTimes(momentum);
      for (int i = 0; i < r.length; i++) {
        r[i] -= y[i];
      }
      double[] g = a.realTransposeTimes(r);
      double[] next = new double[n];
      for (int i = 0; i < n; i++) {
        next[i] = Math.max(0, momentum[i] - step * g[i]);
      }
      double nextObjective = objective(a, y, next);
      if (nextObjective > objective) { // adaptive restart: drop the momentum
        if (t == 1) {
          step /= 2; // no momentum and still no descent: the step was too long
        }
        t = 1;
        momentum = z.clone();
        continue;
      }
      double move = 0;
      double norm = 0;
      for (int i = 0; i < n; i++) {
        double d = next[i] - z[i];
        move += d * d;
        norm += next[i] * next[i];
      }
      double tNext = (1 + Math.sqrt(1 + 4 * t * t)) / 2;
      double beta = (t - 1) / tNext;
      for (int i = 0; i < n; i++) {
        momentum[i] = next[i] + beta * (next[i] - z[i]);
      }
      z = next;
      t = tNext;
      objective = nextObjective;
      if (Math.sqrt(move) <= tolerance * Math.max(1, Math.sqrt(norm))) {
        break;
      }
    }
    return z;
  }

  /** {@code ½‖Âz − y‖²}. */
  static double objective(LatticeStrategy a, double[] y, double[] z) {
    double[] r = a.realTimes(z);
    double s = 0;
    for (int i = 0; i < r.length; i++) {
      double d = r[i] - y[i];
      s += d * d;
    }
    return 0.5 * s;
  }

  /** An upper bound on {@code λ_max(ÂᵀÂ)}, see the class comment. */
  static double lipschitz(LatticeStrategy a) {
    int n = a.cells();
    // ‖Â‖₂² ≤ ‖Â‖₁ ‖Â‖_∞ (max column abs sum times max row abs sum), both multiplicative over ⊗.
    double rowMax = 1;
    for (LatticeMatrix f : a.factors()) {
      rowMax *= f.maxRowAbsSum();
    }
    double bound = a.sensitivityL1().doubleValue() * rowMax;
    double[] ones = new double[n];
    java.util.Arrays.fill(ones, 1.0);
    // Power iteration for a sharper estimate.
    double[] v = ones;
    double lambda = 0;
    for (int it = 0; it < 60; it++) {
      double[] w = a.realTransposeTimes(a.realTimes(v));
      double norm = 0;
      for (double x : w) {
        norm += x * x;
      }
      norm = Math.sqrt(norm);
      if (norm == 0) {
        break;
      }
      double vnorm = 0;
      for (double x : v) {
        vnorm += x * x;
      }
      lambda = norm / Math.sqrt(vnorm);
      for (int i = 0; i < n; i++) {
        w[i] /= norm;
      }
      v = w;
    }
    return Math.min(bound, 1.05 * lambda) > 0 ? Math.min(bound, 1.05 * lambda) : bound;
  }
}
