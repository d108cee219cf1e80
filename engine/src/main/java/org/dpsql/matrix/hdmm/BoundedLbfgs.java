package org.dpsql.matrix.hdmm;

/**
 * A limited-memory BFGS minimiser over the non-negative orthant {@code {x : x ≥ 0}}, optionally
 * capped by a common upper bound {@code x ≤ u} (a projected
 * quasi-Newton method in the spirit of L-BFGS-B; Commons Math and ojAlgo have none).
 *
 * <p><b>Method.</b> At {@code x} with gradient {@code g}, the <em>active set</em> is {@code {i : xᵢ = 0,
 * gᵢ > 0}} together with {@code {i : xᵢ = u, gᵢ < 0}} (variables held at a bound by the gradient). The search direction is {@code d = −H q}
 * restricted to the free variables, where {@code q} is {@code g} with the active entries zeroed and
 * {@code H} the L-BFGS inverse-Hessian approximation (two-loop recursion, initial scaling {@code
 * sᵀy/yᵀy}). Because {@code q} vanishes on the active set, {@code gᵀd = −qᵀHq < 0}: {@code d} is a
 * descent direction whenever the projected gradient is non-zero. The step is a backtracking search
 * along the projection arc {@code x(α) = min(u, max(0, x + α d))} (first steepest-descent step of unit Euclidean length, as in L-BFGS-B) with the Armijo condition {@code f(x(α)) ≤
 * f(x) + c₁ gᵀ(x(α) − x)}; if it fails the memory is discarded and the projected steepest-descent
 * direction is tried. Curvature pairs with {@code sᵀy ≤ 10⁻¹²·|s||y|} are skipped, so {@code H}
 * stays positive definite.
 *
 * <p><b>Stopping</b> (whichever first): the infinity norm of the projected gradient {@code |x −
 * P(x − g)|∞} is at most {@code gradientTolerance}; the relative decrease {@code (f_k −
 * f_{k+1}) / max(|f_k|, |f_{k+1}|, 1)} stayed below {@code relativeTolerance} for {@code patience}
 * consecutive iterations (the {@code ftol} rule of L-BFGS-B); or {@code maxIterations}. The objective
 * may return {@code +∞} (or NaN) outside its domain; such trial points are rejected by the line
 * search. Deterministic; instances are immutable and thread-safe.
 */
public final class BoundedLbfgs {

  /** A smooth objective on {@code x ≥ 0}: returns {@code f(x)} and writes {@code ∇f(x)} into {@code gradient}. */
  @FunctionalInterface
  public interface Objective {
    /** {@code f(x)}; fills {@code gradient} (same length as {@code x}) with {@code ∇f(x)}. */
    double evaluate(double[] x, double[] gradient);
  }

  /**
   * The outcome of a minimisation: the final point (non-negative), its value, the iterations and
   * function evaluations used and whether a tolerance (rather than the iteration cap) stopped it.
   */
  public record Result(double[] point, double value, int iterations, int evaluations, boolean converged) {
    /** Defensive copy of the point. */
    public Result {
      point = point.clone();
    }

    @Override
    public double[] point() {
      return point.clone();
    }
  }

  private static final double ARMIJO = 1e-4;
  private static final int MAX_BACKTRACKS = 50;

  private final int memory;
  private final int maxIterations;
  private final double relativeTolerance;
  private final int patience;
  private final double gradientTolerance;

  /**
   * @param memory number of curvature pairs kept ({@code ≥ 1}; 10 is customary)
   * @param maxIterations iteration cap ({@code ≥ 1})
   * @param relativeTolerance relative-decrease threshold of the {@code ftol} rule ({@code ≥ 0})
   * @param patience consecutive small-decrease iterations needed to stop ({@code ≥ 1})
   * @param gradientTolerance projected-gradient infinity-norm threshold ({@code ≥ 0})
   */
  public BoundedLbfgs(
      int memory, int maxIterations, double relativeTolerance, int patience, double gradientTolerance) {
    if (memory < 1 || maxIterations < 1 || patience < 1) {
      throw new IllegalArgumentException(
          "memory, maxIterations and patience must be positive: "
              + memory + ", " + maxIterations + ", " + patience);
    }
    if (!(relativeTolerance >= 0) || !(gradientTolerance >= 0)) {
      throw new IllegalArgumentException(
          "tolerances must be non-negative: " + relativeTolerance + ", " + gradientTolerance);
    }
    this.memory = memory;
    this.maxIterations = maxIterations;
    this.relativeTolerance = relativeTolerance;
    this.patience = patience;
    this.gradientTolerance = gradientTolerance;
  }

  /** Memory 10, the given cap, relative tolerance {@code 1e-7} for 5 iterations, no gradient test. */
  public static BoundedLbfgs withMaxIterations(int maxIterations) {
    return new BoundedLbfgs(10, maxIterations, 1e-7, 5, 0);
  }

  /**
   * Minimises {@code f} over {@code x ≥ 0} from {@code start} (negative entries are projected to 0).
   *
   * @throws IllegalArgumentException if {@code f} is not finite at the projected start
   */
  public Result minimize(Objective f, double[] start) {
    return minimize(f, start, Double.POSITIVE_INFINITY);
  }

  /**
   * Minimises {@code f} over the box {@code 0 ≤ x ≤ upper} from {@code start} (projected onto the
   * box). At the upper bound a variable is active when its gradient is negative.
   *
   * @throws IllegalArgumentException if {@code upper} is not positive or {@code f} is not finite at
   *     the projected start
   */
  public Result minimize(Objective f, double[] start, double upper) {
    if (!(upper > 0)) {
      throw new IllegalArgumentException("the upper bound must be positive, got " + upper);
    }
    int n = start.length;
    double[] x = new double[n];
    for (int i = 0; i < n; i++) {
      x[i] = clamp(start[i], upper);
    }
    double[] g = new double[n];
    double fx = f.evaluate(x, g);
    int evaluations = 1;
    if (!Double.isFinite(fx)) {
      throw new IllegalArgumentException("objective is not finite at the starting point: " + fx);
    }
    double[][] s = new double[memory][];
    double[][] y = new double[memory][];
    double[] rho = new double[memory];
    int stored = 0;
    int newest = -1;
    double[] d = new double[n];
    double[] xn = new double[n];
    double[] gn = new double[n];
    double[] alphaBuf = new double[memory];
    boolean[] active = new boolean[n];
    int small = 0;
    int iter = 0;
    boolean converged = false;
    while (iter < maxIterations) {
      if (projectedGradientNorm(x, g, upper) <= gradientTolerance) {
        converged = true;
        break;
      }
      iter++;
      for (int i = 0; i < n; i++) {
        active[i] = x[i] <= 0 && g[i] > 0 || x[i] >= upper && g[i] < 0;
      }
      boolean accepted = false;
      double fn = Double.NaN;
      boolean triedSteepest = false;
      for (int attempt = 0; attempt < 2 && !accepted && !(attempt == 1 && triedSteepest); attempt++) {
        boolean steepest = attempt == 1 || stored == 0;
        triedSteepest |= steepest;
        if (steepest) {
          stored = 0;
          newest = -1;
        }
        direction(g, active, s, y, rho, stored, newest, alphaBuf, d);
        double slope = dot(g, d);
        if (!(slope < 0)) {
          if (steepest) {
            break;
          }
          continue;
        }
        // first step of steepest descent: unit Euclidean length, as in L-BFGS-B
        double alpha = 1;
        if (steepest) {
          alpha = 1 / Math.sqrt(dot(d, d));
        }
        for (int bt = 0; bt < MAX_BACKTRACKS; bt++) {
          double decrease = 0;
          for (int i = 0; i < n; i++) {
            xn[i] = clamp(x[i] + alpha * d[i], upper);
            decrease += g[i] * (xn[i] - x[i]);
          }
          if (decrease < 0) {
            fn = f.evaluate(xn, gn);
            evaluations++;
            if (Double.isFinite(fn) && fn <= fx + ARMIJO * decrease) {
              accepted = true;
              break;
            }
          }
          alpha *= 0.5;
        }
      }
      if (!accepted) {
        // no decrease possible at working precision: a (numerical) stationary point
        converged = true;
        break;
      }
      // curvature pair
      double[] sv = new double[n];
      double[] yv = new double[n];
      double sy = 0;
      double ss = 0;
      double yy = 0;
      for (int i = 0; i < n; i++) {
        sv[i] = xn[i] - x[i];
        yv[i] = gn[i] - g[i];
        sy += sv[i] * yv[i];
        ss += sv[i] * sv[i];
        yy += yv[i] * yv[i];
      }
      if (sy > 1e-12 * Math.sqrt(ss * yy)) {
        newest = (newest + 1) % memory;
        s[newest] = sv;
        y[newest] = yv;
        rho[newest] = 1 / sy;
        stored = Math.min(stored + 1, memory);
      }
      double rel = (fx - fn) / Math.max(Math.max(Math.abs(fx), Math.abs(fn)), 1);
      System.arraycopy(xn, 0, x, 0, n);
      System.arraycopy(gn, 0, g, 0, n);
      fx = fn;
      small = rel <= relativeTolerance ? small + 1 : 0;
      if (small >= patience) {
        converged = true;
        break;
      }
    }
    return new Result(x, fx, iter, evaluations, converged);
  }

  /** {@code |x − max(0, x − g)|∞}: zero exactly at a KKT point of {@code min f s.t. x ≥ 0}. */
  static double projectedGradientNorm(double[] x, double[] g) {
    return projectedGradientNorm(x, g, Double.POSITIVE_INFINITY);
  }

  /** {@code |x − P(x − g)|∞} for the box {@code [0, upper]}. */
  static double projectedGradientNorm(double[] x, double[] g, double upper) {
    double m = 0;
    for (int i = 0; i < x.length; i++) {
      double step = g[i] > 0 ? Math.min(g[i], x[i]) : Math.min(-g[i], upper - x[i]);
      m = Math.max(m, step);
    }
    return m;
  }

  private static double clamp(double v, double upper) {
    return Math.min(upper, Math.max(0, v));
  }

  /** {@code d = −H q} on the free variables (two-loop recursion), 0 on the active ones. */
  private static void direction(
      double[] g,
      boolean[] active,
      double[][] s,
      double[][] y,
      double[] rho,
      int stored,
      int newest,
      double[] alphaBuf,
      double[] d) {
    int n = g.length;
    int m = s.length;
    for (int i = 0; i < n; i++) {
      d[i] = active[i] ? 0 : g[i];
    }
    for (int k = 0; k < stored; k++) {
      int j = Math.floorMod(newest - k, m);
      double a = rho[j] * dot(s[j], d);
      alphaBuf[j] = a;
      axpy(-a, y[j], d);
    }
    if (stored > 0) {
      double yy = dot(y[newest], y[newest]);
      double gamma = 1 / (rho[newest] * yy);
      for (int i = 0; i < n; i++) {
        d[i] *= gamma;
      }
    }
    for (int k = stored - 1; k >= 0; k--) {
      int j = Math.floorMod(newest - k, m);
      double b = rho[j] * dot(y[j], d);
      axpy(alphaBuf[j] - b, s[j], d);
    }
    for (int i = 0; i < n; i++) {
      d[i] = active[i] ? 0 : -d[i];
    }
  }

  private static double dot(double[] a, double[] b) {
    double t = 0;
    for (int i = 0; i < a.length; i++) {
      t += a[i] * b[i];
    }
    return t;
  }

  private static void axpy(double a, double[] x, double[] y) {
    for (int i = 0; i < x.length; i++) {
      y[i] += a * x[i];
    }
  }

  @Override
  public String toString() {
    return "BoundedLbfgs(memory=" + memory + ", maxIterations=" + maxIterations + ", ftol="
        + relativeTolerance + "x" + patience + ", pgtol=" + gradientTolerance + ")";
  }
}
