package org.dpsql.matrix.hdmm;

import java.util.Optional;
import java.util.SplittableRandom;
import org.dpsql.matrix.Workload;

/**
 * Chooses a weighted set of marginals ({@link MarginalsStrategy}) for a workload that is a union of
 * Kronecker products of identity/total-type factors (every factor Gram {@code αI + βJ}: marginals,
 * their unions and weighted versions), under pure ε-DP (HDMM §7).
 *
 * <p>In the {@link MarginalsAlgebra} eigenbasis the objective is closed-form in the {@code 2^d}
 * weights {@code θ ≥ 0}:
 *
 * <pre>
 *   f(θ) = ||A||₁² · trace(WᵀW (AᵀA)⁺) = σ² Σ_T w_T / λ_T,   σ = Σ_S θ_S,
 *   λ_T = Σ_{S ⊇ T} θ_S² c_S,   w_T = rank(E_T) γ_T,
 *   ∂f/∂θ_S = 2σ Σ_T w_T/λ_T − 2 σ² θ_S c_S Σ_{T ⊆ S} w_T / λ_T²,
 * </pre>
 *
 * each evaluation {@code O(d 2^d)} (a superset and a subset sum) instead of {@code O(n³)}. {@code f}
 * is scale-invariant ({@code f(cθ) = f(θ)}); it is minimised with {@link BoundedLbfgs} from seeded
 * uniform random starts and the best weights are normalised to {@code Σθ = 1} ({@code ||A||₁ =
 * 1}). Trial points that leave some needed {@code λ_T} at 0 evaluate to {@code +∞} and are rejected
 * by the line search. Deterministic for a given seed. Immutable and thread-safe.
 */
public final class MarginalsOptimizer {
  private final int starts;
  private final long seed;
  private final BoundedLbfgs solver;

  /** {@code starts ≥ 1} seeded random starts, each minimised by {@code solver}. */
  public MarginalsOptimizer(int starts, long seed, BoundedLbfgs solver) {
    if (starts < 1) {
      throw new IllegalArgumentException("starts must be positive: " + starts);
    }
    this.starts = starts;
    this.seed = seed;
    this.solver = solver;
  }

  /** 5 starts, at most 1000 iterations each. */
  public static MarginalsOptimizer defaults(long seed) {
    return new MarginalsOptimizer(5, seed, new BoundedLbfgs(10, 1000, 1e-10, 5, 0));
  }

  /** Whether {@code w} has the union-of-{@code αI + βJ}-products form this optimiser needs. */
  public static boolean applies(Workload w) {
    return MarginalsAlgebra.spectrum(w).isPresent();
  }

  /**
   * The optimised marginals strategy with its objective, or empty if {@code w} does not have the
   * marginal form (see {@link #applies}).
   */
  public Optional<ScoredStrategy> optimize(Workload w) {
    Optional<MarginalsAlgebra.Spectrum> sp = MarginalsAlgebra.spectrum(w);
    if (sp.isEmpty()) {
      return Optional.empty();
    }
    int[] dims = sp.get().dims();
    BoundedLbfgs.Objective f = objective(sp.get());
    SplittableRandom random = new SplittableRandom(seed);
    double bestValue = Double.POSITIVE_INFINITY;
    double[] best = null;
    for (int s = 0; s < starts; s++) {
      double[] x0 = new double[1 << dims.length];
      for (int i = 0; i < x0.length; i++) {
        x0[i] = random.nextDouble();
      }
      BoundedLbfgs.Result r = solver.minimize(f, x0);
      if (r.value() < bestValue) {
        bestValue = r.value();
        best = r.point();
      }
    }
    double sum = 0;
    for (double v : best) {
      sum += v;
    }
    for (int i = 0; i < best.length; i++) {
      best[i] /= sum;
    }
    MarginalsStrategy a = new MarginalsStrategy(dims, best);
    return Optional.of(new ScoredStrategy(a, objective(sp.get(), best)));
  }

  /**
   * {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)} of a marginals strategy on a marginal-type workload, in
   * {@code O(d 2^d)}; empty if the workload is not of that form or has different attribute sizes.
   */
  public static Optional<Double> objective(Workload w, MarginalsStrategy a) {
    Optional<MarginalsAlgebra.Spectrum> sp = MarginalsAlgebra.spectrum(w);
    if (sp.isEmpty() || !java.util.Arrays.equals(sp.get().dims(), a.dims())) {
      return Optional.empty();
    }
    return Optional.of(objective(sp.get(), a.weights()));
  }

  private static double objective(MarginalsAlgebra.Spectrum sp, double[] theta) {
    double sigma = 0;
    for (double t : theta) {
      sigma += t;
    }
    return sigma * sigma * sp.trace(MarginalsAlgebra.strategyEigenvalues(theta, sp.dims()));
  }

  static BoundedLbfgs.Objective objective(MarginalsAlgebra.Spectrum sp) {
    int[] dims = sp.dims();
    int d = dims.length;
    double[] c = MarginalsAlgebra.complementSizes(dims);
    double[] rank = MarginalsAlgebra.ranks(dims);
    double[] w = new double[1 << d];
    for (int t = 0; t < w.length; t++) {
      w[t] = rank[t] * sp.gamma()[t];
    }
    return (theta, grad) -> {
      double sigma = 0;
      for (double t : theta) {
        sigma += t;
      }
      double[] lambda = MarginalsAlgebra.strategyEigenvalues(theta, dims);
      double trace = 0;
      double[] v = new double[w.length];
      for (int t = 0; t < w.length; t++) {
        if (w[t] > 0) {
          if (!(lambda[t] > 0)) {
            return Double.POSITIVE_INFINITY;
          }
          trace += w[t] / lambda[t];
          v[t] = w[t] / (lambda[t] * lambda[t]);
        }
      }
      if (grad != null) {
        MarginalsAlgebra.subsetSums(v, d);
        for (int s = 0; s < theta.length; s++) {
          grad[s] = 2 * sigma * trace - 2 * sigma * sigma * theta[s] * c[s] * v[s];
        }
      }
      return sigma * sigma * trace;
    };
  }

  @Override
  public String toString() {
    return "MarginalsOptimizer(starts=" + starts + ", seed=" + seed + ", " + solver + ")";
  }
}
