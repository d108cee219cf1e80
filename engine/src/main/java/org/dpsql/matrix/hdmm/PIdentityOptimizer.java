package org.dpsql.matrix.hdmm;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.Workload;

/**
 * Chooses an HDMM p-Identity strategy (McKenna et al., VLDB 2018, §5) for a workload under pure ε-DP:
 * minimises {@link PIdentityObjective} over {@code Θ ≥ 0} with {@link BoundedLbfgs} from several
 * seeded random starts and returns the best.
 *
 * <p><b>Bounds.</b> {@code Θ ≥ 0} is handled by projection inside the solver (exact zeros are
 * reachable and common at the optimum; see {@link #MAX_THETA} for the upper bound), not by a
 * reparameterisation: {@code Θ = φ²} makes every {@code φᵢⱼ = 0} a stationary point and {@code Θ
 * = exp(φ)} can never reach 0.
 *
 * <p><b>Starts.</b> Each start draws {@code Θᵢⱼ ~ U[0, 1)} i.i.d. from one {@link SplittableRandom}
 * seeded with {@code seed} (as HDMM does), so results are deterministic for a given seed. {@code Θ =
 * 0} (the identity) is always a KKT point — there {@code ∂f/∂Θᵢⱼ = 2Gⱼⱼ ≥ 0} — so it is never a
 * useful start, but it is feasible: {@link Result#best} returns the better of the optimised
 * p-Identity and the identity, hence is never worse than the identity. Immutable and thread-safe.
 */
public final class PIdentityOptimizer {

  /**
   * The best p-Identity found ({@code pIdentity}, with {@code ||A||₁ = 1}) and its objective {@code
   * trace(WᵀW (AᵀA)⁻¹)}, the identity's objective {@code trace(WᵀW)}, the objective each start
   * reached (in start order) and the solver iterations summed over the starts.
   */
  public record Result(
      PIdentityStrategy pIdentity,
      double objective,
      double identityObjective,
      List<Double> startObjectives,
      int iterations) {
    /** Copies the list. */
    public Result {
      startObjectives = List.copyOf(startObjectives);
    }

    /** The better of the p-Identity and the identity (ties go to the identity), scored. */
    public ScoredStrategy best() {
      if (objective < identityObjective) {
        return new ScoredStrategy(pIdentity, objective);
      }
      return new ScoredStrategy(
          org.dpsql.matrix.Strategies.identity(pIdentity.cells()), identityObjective);
    }
  }

  /**
   * Upper bound on every {@code Θᵢⱼ}. Without it, a row concentrated on one cell can drift to
   * infinity on workloads for which the identity is optimal (the objective decreases towards the
   * identity's from above), where the Woodbury formula loses {@code ~log₁₀ sⱼ²} digits to
   * cancellation. With {@code Θᵢⱼ ≤ 10⁴} the identity part of every column keeps at least {@code
   * 1/(1 + 10⁴p)} of the column's unit L1 budget; the cap binds only when the optimum lies at
   * infinity (e.g. a row duplicating an identity row), where the objective is within about {@code
   * 2·10⁻⁴} of its limit.
   */
  public static final double MAX_THETA = 1e4;

  private final int p;
  private final int starts;
  private final long seed;
  private final BoundedLbfgs solver;

  /**
   * @param p rows of {@code Θ}; {@code 0} means {@link #defaultP} of the workload's cells
   * @param starts number of random starts ({@code ≥ 1})
   * @param seed seed of the starts
   * @param solver the bound-constrained quasi-Newton solver
   */
  public PIdentityOptimizer(int p, int starts, long seed, BoundedLbfgs solver) {
    if (p < 0 || starts < 1) {
      throw new IllegalArgumentException("need p >= 0 and starts >= 1, got p=" + p + ", starts=" + starts);
    }
    this.p = p;
    this.starts = starts;
    this.seed = seed;
    this.solver = solver;
  }

  /**
   * Default settings: {@code p = n/16}, 3 starts, each at most 2000 iterations and stopped once the
   * relative decrease stays below {@code 1e-5} for 3 consecutive iterations (HDMM uses scipy's
   * L-BFGS-B with {@code ftol = 1e-4}, i.e. a single iteration below {@code 1e-4}).
   */
  public static PIdentityOptimizer defaults(long seed) {
    return new PIdentityOptimizer(0, 3, seed, defaultSolver());
  }

  /** The default solver of {@link #defaults}: memory 10, 2000 iterations, {@code ftol 1e-5 × 3}. */
  public static BoundedLbfgs defaultSolver() {
    return new BoundedLbfgs(10, 2000, 1e-5, 3, 0);
  }

  /** HDMM's choice for one dimension, {@code p ≈ n/16}, at least 1. */
  public static int defaultP(int n) {
    return Math.max(1, Math.round(n / 16f));
  }

  /** The same settings with another {@code p} (0 for the default). */
  public PIdentityOptimizer withP(int newP) {
    return new PIdentityOptimizer(newP, starts, seed, solver);
  }

  /** The same settings with another number of starts. */
  public PIdentityOptimizer withStarts(int newStarts) {
    return new PIdentityOptimizer(p, newStarts, seed, solver);
  }

  /** The same settings with another seed. */
  public PIdentityOptimizer withSeed(long newSeed) {
    return new PIdentityOptimizer(p, starts, newSeed, solver);
  }

  /** The number of rows of {@code Θ} used for a domain of {@code n} cells. */
  public int pFor(int n) {
    return p == 0 ? defaultP(n) : p;
  }

  /** Optimises from {@code starts} random starts. */
  public Result optimize(Workload workload) {
    return optimize(workload, null);
  }

  /**
   * Optimises from {@code warmStart} ({@code p × n}, non-negative; may be {@code null}) and from the
   * random starts; the warm start counts as the first start.
   */
  public Result optimize(Workload workload, double[][] warmStart) {
    int n = workload.cells();
    int rows = warmStart != null ? warmStart.length : pFor(n);
    PIdentityObjective f = new PIdentityObjective(workload, rows);
    double identity = f.identityValue();
    SplittableRandom random = new SplittableRandom(seed);
    List<Double> reached = new ArrayList<>();
    double bestValue = Double.POSITIVE_INFINITY;
    double[] best = null;
    int iterations = 0;
    for (int s = 0; s < starts; s++) {
      double[] x0;
      if (s == 0 && warmStart != null) {
        x0 = PIdentityObjective.flatten(warmStart);
        if (x0.length != rows * n) {
          throw new IllegalArgumentException("warm start must be " + rows + "x" + n);
        }
      } else {
        x0 = new double[rows * n];
        for (int i = 0; i < x0.length; i++) {
          x0[i] = random.nextDouble();
        }
      }
      BoundedLbfgs.Result r = solver.minimize(f, x0, MAX_THETA);
      iterations += r.iterations();
      // re-evaluate: the solver's running value is the same function, but report it cleanly
      double value = f.evaluate(r.point(), null);
      reached.add(value);
      if (value < bestValue) {
        bestValue = value;
        best = r.point();
      }
    }
    return new Result(
        new PIdentityStrategy(PIdentityObjective.unflatten(best, rows, n)),
        bestValue, identity, reached, iterations);
  }

  @Override
  public String toString() {
    return "PIdentityOptimizer(p=" + (p == 0 ? "n/16" : p) + ", starts=" + starts + ", seed=" + seed
        + ", " + solver + ")";
  }
}
