package org.dpsql.matrix.design;

import java.util.Arrays;

/**
 * Program 1 of seed 001 (Optimal Query Weighting, §2.1) in its elementary form: minimise {@code
 * Σᵢ cᵢ/uᵢ} subject to {@code M u ≤ 1}, {@code u > 0}, where {@code M[j][i] = Q[i][j]²}. By Thm. 1 the
 * strategy {@code diag(√u) Q} then minimises {@code ||A||₂² trace(WᵀW (AᵀA)⁻¹)} over re-weightings of
 * the design queries {@code Q} (exactly when {@code Q} is square and invertible, an upper bound
 * otherwise).
 *
 * <p>The problem is smooth, separable and strictly convex with linear constraints, so no SDP solver
 * is needed. Two methods are implemented, both returning a certified {@link WeightingSolution} whose
 * dual value {@code (Σ √(cᵢ (Mᵀμ)ᵢ))² / Σμ} is a lower bound for any {@code μ ≥ 0} (spec §3):
 *
 * <ul>
 *   <li>{@link Method#INTERIOR_POINT}: a primal–dual interior-point method in which the primal
 *       point is always the Lagrangian minimiser {@code u(μ) = √(c/Mᵀμ)} (so the dual residual is
 *       identically zero, which avoids the slow Newton progress of {@code c/u²} from far below);
 *       Newton steps on feasibility {@code M u(μ) + s = 1} and perturbed complementarity {@code μ∘s
 *       = τ} with Mehrotra's predictor–corrector, warm-started by five multiplicative updates. Each
 *       iteration factors (Cholesky) either the {@code k × k} system {@code Mᵀ diag(μ/s) M +
 *       diag(2c/u³)} or the {@code n × n} system {@code M diag(u³/2c) Mᵀ + diag(s/μ)}, whichever is
 *       smaller, after identical constraint rows are merged. Typically 6–12 iterations to a relative
 *       gap of {@code 1e-8}; if it stalls above {@code 1e-7} it is polished by multiplicative updates.
 *   <li>{@link Method#MULTIPLICATIVE}: the multiplicative dual update {@code μⱼ ← μⱼ (M u(μ))ⱼ} of
 *       optimal-design theory, {@code O(n k)} per iteration, slow but simple; used as a fallback.
 * </ul>
 *
 * <p>Zero costs {@code cᵢ = 0} get weight exactly 0 (their queries are not needed). Every design
 * query must touch some cell.
 */
public final class QueryWeighting {
  private QueryWeighting() {}

  /** Multiplicative updates that warm-start the interior-point method. */
  private static final int WARM_START = 5;
  /** Fraction of the sensitivity budget used by the interior-point starting point. */
  private static final double INTERIOR = 0.9;

  /** The algorithm used for Program 1. */
  public enum Method {
    /** The closed-form {@code A_l} weights {@code uᵢ ∝ √cᵢ}, normalised to sensitivity 1. */
    CLOSED_FORM,
    /** Primal–dual interior point on the perturbed KKT (log-barrier) system. */
    INTERIOR_POINT,
    /** Multiplicative dual updates. */
    MULTIPLICATIVE
  }

  /** Default relative duality gap at which the solvers stop. */
  public static final double DEFAULT_TOLERANCE = 1e-8;

  /** Solves Program 1 by the interior-point method to {@link #DEFAULT_TOLERANCE}. */
  public static WeightingSolution solve(double[] c, SquaredDesign m) {
    return solve(c, m, Method.INTERIOR_POINT, DEFAULT_TOLERANCE, 200);
  }

  /**
   * Solves Program 1 with the given method until the relative gap is below {@code tolerance} or
   * {@code maxIterations} is reached (the interior-point method falls back to multiplicative updates
   * if its linear algebra breaks down). The returned solution always carries its certified gap.
   *
   * @throws IllegalArgumentException if {@code c} has the wrong length, a negative or non-finite
   *     entry, or a query with {@code cᵢ > 0} touches no cell
   */
  public static WeightingSolution solve(
      double[] c, SquaredDesign m, Method method, double tolerance, int maxIterations) {
    if (c.length != m.designs()) {
      throw new IllegalArgumentException("need one cost per design query: " + c.length + " ≠ " + m.designs());
    }
    int[] pos = positive(c);
    if (pos.length == 0) {
      return new WeightingSolution(new double[c.length], 0, 0, 0, 0, method, new double[0]);
    }
    SquaredDesign full = pos.length == c.length ? m : m.selectDesigns(pos);
    double[] cp = new double[pos.length];
    for (int i = 0; i < pos.length; i++) {
      cp[i] = c[pos[i]];
    }
    SquaredDesign reduced = full.distinctCells();
    double[] support = reduced.transposeTimes(ones(reduced.cells()));
    for (int i = 0; i < support.length; i++) {
      if (!(support[i] > 0)) {
        throw new IllegalArgumentException("design query " + pos[i] + " touches no cell");
      }
    }
    State st = new State(cp, reduced);
    switch (method) {
      case CLOSED_FORM -> st.closedForm();
      case MULTIPLICATIVE -> st.multiplicative(null, tolerance, maxIterations);
      case INTERIOR_POINT -> st.interiorPoint(tolerance, maxIterations);
    }
    // exact feasibility on every original cell
    double[] up = st.bestU;
    double scale = Dense.max(full.times(up));
    double[] u = new double[c.length];
    double primal = 0;
    for (int i = 0; i < pos.length; i++) {
      u[pos[i]] = up[i] / scale;
      primal += cp[i] / u[pos[i]];
    }
    double dual = Math.min(st.bestDual, primal);
    double gap = primal > 0 ? (primal - dual) / primal : 0;
    return new WeightingSolution(u, primal, dual, gap, st.iterations, st.method, st.bestMu);
  }

  /**
   * The closed-form weights {@code uᵢ ∝ √cᵢ} scaled to sensitivity 1 (the {@code A_l} strategy of
   * seed 001 §3.4 / P5), certified with uniform multipliers (for an orthonormal eigenbasis that dual
   * value is exactly svdb).
   */
  public static WeightingSolution closedForm(double[] c, SquaredDesign m) {
    return solve(c, m, Method.CLOSED_FORM, 0, 0);
  }

  /**
   * The dual value {@code (Σᵢ √(cᵢ (Mᵀμ)ᵢ))² / Σⱼ μⱼ} for multipliers {@code μ ≥ 0} over the cells
   * of {@code m}: a lower bound on the Program 1 optimum (weak duality).
   */
  public static double dual(double[] c, SquaredDesign m, double[] mu) {
    if (mu.length != m.cells() || c.length != m.designs()) {
      throw new IllegalArgumentException("shape mismatch");
    }
    double total = 0;
    for (double v : mu) {
      if (!(v >= 0)) {
        throw new IllegalArgumentException("multipliers must be non-negative");
      }
      total += v;
    }
    double[] s = m.transposeTimes(mu);
    double a = 0;
    for (int i = 0; i < c.length; i++) {
      a += Math.sqrt(c[i] * Math.max(0, s[i]));
    }
    return total > 0 ? a * a / total : 0;
  }

  private static int[] positive(double[] c) {
    int count = 0;
    for (double v : c) {
      if (!(v >= 0) || !Double.isFinite(v)) {
        throw new IllegalArgumentException("costs must be finite and non-negative: " + v);
      }
      if (v > 0) {
        count++;
      }
    }
    int[] p = new int[count];
    int t = 0;
    for (int i = 0; i < c.length; i++) {
      if (c[i] > 0) {
        p[t++] = i;
      }
    }
    return p;
  }

  private static double[] ones(int n) {
    double[] o = new double[n];
    Arrays.fill(o, 1);
    return o;
  }

  /** Solver state on the reduced problem with all costs positive. */
  private static final class State {
    final double[] c;
    final SquaredDesign m;
    final int k;
    final int n;
    double[] bestU;
    double bestPrimal = Double.POSITIVE_INFINITY;
    double[] bestMu = new double[0];
    double bestDual = 0;
    int iterations;
    Method method;

    State(double[] c, SquaredDesign m) {
      this.c = c;
      this.m = m;
      this.k = c.length;
      this.n = m.cells();
    }

    double gap() {
      return (bestPrimal - bestDual) / bestPrimal;
    }

    /** Records the feasible rescaling of {@code u} (given {@code M u}) as a primal candidate. */
    void offerPrimal(double[] u, double[] mu) {
      double max = Dense.max(mu);
      double p = 0;
      for (int i = 0; i < k; i++) {
        p += c[i] / u[i];
      }
      p *= max;
      if (p < bestPrimal) {
        bestPrimal = p;
        bestU = u.clone();
      }
    }

    /** Records the dual value of {@code mu} given {@code Mᵀμ}. */
    void offerDual(double[] mu, double[] mtmu) {
      double a = 0;
      for (int i = 0; i < k; i++) {
        a += Math.sqrt(c[i] * Math.max(0, mtmu[i]));
      }
      double d = a * a / Dense.sum(mu);
      if (d > bestDual) {
        bestDual = d;
        bestMu = mu.clone();
      }
    }

    void closedForm() {
      method = Method.CLOSED_FORM;
      double[] u = new double[k];
      for (int i = 0; i < k; i++) {
        u[i] = Math.sqrt(c[i]);
      }
      offerPrimal(u, m.times(u));
      double[] mu = ones(n);
      offerDual(mu, m.transposeTimes(mu));
    }

    void multiplicative(double[] start, double tol, int maxIter) {
      if (method == null) {
        method = Method.MULTIPLICATIVE;
      }
      double[] mu = start == null ? ones(n) : start.clone();
      double norm = Dense.sum(mu);
      for (int j = 0; j < n; j++) {
        mu[j] = mu[j] / norm + 1e-300;
      }
      double[] u = new double[k];
      for (int it = 0; it < maxIter; it++) {
        iterations++;
        double[] s = m.transposeTimes(mu);
        for (int i = 0; i < k; i++) {
          u[i] = Math.sqrt(c[i] / s[i]);
        }
        double[] r = m.times(u);
        offerPrimal(u, r);
        offerDual(mu, s);
        if (gap() < tol) {
          return;
        }
        reweight(mu, r);
      }
    }

    void interiorPoint(double tol, int maxIter) {
      method = Method.INTERIOR_POINT;
      // warm start: a few multiplicative dual updates give multipliers whose Lagrangian minimiser
      // u(μ) = √(c/Mᵀμ) has the right relative scale in every coordinate (Newton on c/u² is slow
      // from far below); then scale into the interior and choose μ so that the dual residual is 0.
      double[] mu = ones(n);
      for (int j = 0; j < n; j++) {
        mu[j] = 1.0 / n;
      }
      double[] u = new double[k];
      double[] mtmu = m.transposeTimes(mu);
      for (int w = 0; ; w++) {
        for (int i = 0; i < k; i++) {
          u[i] = Math.sqrt(c[i] / mtmu[i]);
        }
        double[] r = m.times(u);
        offerPrimal(u, r);
        offerDual(mu, mtmu);
        if (w == WARM_START || gap() < tol) {
          break;
        }
        double total = 0;
        for (int j = 0; j < n; j++) {
          mu[j] *= r[j];
          total += mu[j];
        }
        for (int j = 0; j < n; j++) {
          mu[j] = mu[j] / total + 1e-300;
        }
        mtmu = m.transposeTimes(mu);
      }
      if (gap() < tol) {
        return;
      }
      double alpha = INTERIOR / Dense.max(m.times(u));
      for (int i = 0; i < k; i++) {
        u[i] *= alpha;
      }
      for (int j = 0; j < n; j++) {
        mu[j] /= alpha * alpha;
      }
      double[] s = m.times(u);
      for (int j = 0; j < n; j++) {
        s[j] = 1 - s[j];
      }
      int stall = 0;
      double lastGap = Double.POSITIVE_INFINITY;
      try {
        for (int it = 0; it < maxIter; it++) {
          // the primal point is always the Lagrangian minimiser u(μ) = √(c / Mᵀμ): the dual
          // residual is identically zero and only feasibility and complementarity are iterated
          mtmu = m.transposeTimes(mu);
          for (int i = 0; i < k; i++) {
            u[i] = Math.sqrt(c[i] / mtmu[i]);
          }
          double[] mu_u = m.times(u);
          offerPrimal(u, mu_u);
          offerDual(mu, mtmu);
          if (gap() < tol) {
            return;
          }
          if (gap() > 0.7 * lastGap) {
            if (++stall >= 8) {
              break;
            }
          } else {
            stall = 0;
          }
          lastGap = Math.min(lastGap, gap());
          iterations++;
          double[] rp = new double[n];
          for (int j = 0; j < n; j++) {
            rp[j] = mu_u[j] + s[j] - 1;
          }
          double[] rd = new double[k]; // ∇f(u(μ)) + Mᵀμ = 0 by construction
          double[] df = new double[k];
          for (int i = 0; i < k; i++) {
            df[i] = 2 * c[i] / (u[i] * u[i] * u[i]);
          }
          Newton newton = new Newton(s, mu, rp, rd, df);
          double[] rc = new double[n];
          for (int j = 0; j < n; j++) {
            rc[j] = mu[j] * s[j];
          }
          double[][] aff = newton.direction(rc);
          double a0 = Math.min(stepToBoundary(s, aff[1]), stepToBoundary(mu, aff[2]));
          double gap0 = 0;
          double gapAff = 0;
          for (int j = 0; j < n; j++) {
            gap0 += mu[j] * s[j];
            gapAff += (s[j] + a0 * aff[1][j]) * (mu[j] + a0 * aff[2][j]);
          }
          double sigma = Math.min(1, Math.pow(Math.max(0, gapAff) / gap0, 3));
          double target = sigma * gap0 / n;
          for (int j = 0; j < n; j++) {
            rc[j] = mu[j] * s[j] + aff[1][j] * aff[2][j] - target;
          }
          double[][] d = newton.direction(rc);
          double a = 0.995 * Math.min(stepToBoundary(s, d[1]), stepToBoundary(mu, d[2]));
          for (int j = 0; j < n; j++) {
            s[j] += a * d[1][j];
            mu[j] += a * d[2][j];
          }
        }
      } catch (ArithmeticException e) {
        // Cholesky broke down at round-off level even with a ridge: keep the best certified point
      }
      if (gap() >= tol) {
        // the Newton iteration broke down or stalled (round-off): polish with a bounded budget
        long budget = 1_000_000_000L / Math.max(1, (long) n * k);
        multiplicative(bestMu.length == n ? bestMu : null, tol, (int) Math.min(20_000, Math.max(100, budget)));
      }
    }

    private static double stepToBoundary(double[] x, double[] dx) {
      double a = 1;
      for (int i = 0; i < x.length; i++) {
        if (dx[i] < 0) {
          a = Math.min(a, -x[i] / dx[i]);
        }
      }
      return a;
    }

    /** One factored Newton system of the perturbed KKT conditions. */
    private final class Newton {
      final double[] s;
      final double[] mu;
      final double[] rp;
      final double[] rd;
      final double[] df;
      final boolean primalForm;
      final Dense.Spd spd;

      Newton(double[] s, double[] mu, double[] rp, double[] rd, double[] df) {
        this.s = s;
        this.mu = mu;
        this.rp = rp;
        this.rd = rd;
        this.df = df;
        this.primalForm = k <= n;
        if (primalForm) {
          double[] w = new double[n];
          for (int j = 0; j < n; j++) {
            w[j] = mu[j] / s[j];
          }
          double[][] h = m.designGram(w);
          for (int i = 0; i < k; i++) {
            h[i][i] += df[i];
          }
          spd = factor(h);
        } else {
          double[] d = new double[k];
          for (int i = 0; i < k; i++) {
            d[i] = 1 / df[i];
          }
          double[][] h = m.cellGram(d);
          for (int j = 0; j < n; j++) {
            h[j][j] += s[j] / mu[j];
          }
          spd = factor(h);
        }
      }

      /** Cholesky of {@code h}; on round-off breakdown retries once with a {@code 1e-12} ridge. */
      private Dense.Spd factor(double[][] h) {
        double[][] copy = new double[h.length][];
        for (int i = 0; i < h.length; i++) {
          copy[i] = h[i].clone();
        }
        try {
          return new Dense.Spd(h);
        } catch (ArithmeticException e) {
          for (int i = 0; i < copy.length; i++) {
            copy[i][i] *= 1 + 1e-12;
            for (int j = 0; j < i; j++) {
              copy[i][j] *= 1 - 1e-12;
            }
          }
          return new Dense.Spd(copy);
        }
      }

      /**
       * Returns {@code {Δu, Δs, Δμ}} solving {@code ∇²f Δu + MᵀΔμ = −r_d}, {@code MΔu + Δs = −r_p},
       * {@code S Δμ + Z Δs = −r_c}.
       */
      double[][] direction(double[] rc) {
        double[] du;
        double[] dmu;
        if (primalForm) {
          double[] t = new double[n];
          for (int j = 0; j < n; j++) {
            t[j] = (rc[j] - mu[j] * rp[j]) / s[j];
          }
          double[] rhs = m.transposeTimes(t);
          for (int i = 0; i < k; i++) {
            rhs[i] -= rd[i];
          }
          du = spd.solve(rhs);
        } else {
          double[] t = new double[k];
          for (int i = 0; i < k; i++) {
            t[i] = rd[i] / df[i];
          }
          double[] rhs = m.times(t);
          for (int j = 0; j < n; j++) {
            rhs[j] = rp[j] - rhs[j] - rc[j] / mu[j];
          }
          dmu = spd.solve(rhs);
          double[] mt = m.transposeTimes(dmu);
          du = new double[k];
          for (int i = 0; i < k; i++) {
            du[i] = -(rd[i] + mt[i]) / df[i];
          }
        }
        double[] ds = m.times(du);
        for (int j = 0; j < n; j++) {
          ds[j] = -rp[j] - ds[j];
        }
        dmu = new double[n];
        for (int j = 0; j < n; j++) {
          dmu[j] = (-rc[j] - mu[j] * ds[j]) / s[j];
        }
        return new double[][] {du, ds, dmu};
      }
    }
  }

  /**
   * One multiplicative update of the dual weights: {@code mu[j] *= r[j]}, then renormalised to
   * sum to 1 (shared with {@link TransformDesign}).
   */
  static void reweight(double[] mu, double[] r) {
    double total = 0;
    for (int j = 0; j < mu.length; j++) {
      mu[j] *= r[j];
      total += mu[j];
    }
    for (int j = 0; j < mu.length; j++) {
      mu[j] /= total;
    }
  }
}
