package org.dpsql.hierarchy;

import java.util.Arrays;
import java.util.Objects;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * A TopDown release of a hierarchical tree (Boninsegna &amp; Silvestri, Algorithm 1; Algorithm 3
 * under unbounded DP): level by level from the root, add discrete Gaussian noise to <em>every</em>
 * child, in the public domain, of every kept node, project the noisy children onto the non-negative
 * integers summing to their parent's released value, and keep the positive ones (a zero node's
 * whole subtree is zero by consistency, so it is dropped).
 *
 * <ul>
 *   <li>{@link #infTda} — InfTDA: the projection is {@link IntOpt} (Chebyshev-optimal, integer,
 *       ascending false-positive heuristic).
 *   <li>{@link #tdaL2} — the paper's TDA_ℓ2 baseline: {@link SimplexL2Projection}.
 *   <li>{@link #tdaLinf} — the paper's TDA_ℓ∞ baseline: {@link LpChebyshevProjection} (a general
 *       MILP solver).
 * </ul>
 *
 * <p><b>Privacy guarantee.</b> The release is {@code budget.rho()}-zCDP (hence {@code (ρ +
 * 2√(ρ ln(1/δ)), δ)}-DP for every δ) with respect to {@code budget.neighbouring()}, provided every
 * privacy unit contributes as {@code budget.contribution()} declares and the tree's domain is
 * public. Proof: level {@code ℓ} adds {@code N_Z(0, σ_ℓ²)}, {@code σ_ℓ² = Δ_ℓ²/(2ρ_ℓ)}, independently
 * to the true counts of the children of the kept nodes of level {@code ℓ − 1}; which nodes are kept
 * is a function of earlier releases only, and the noisy children form a sub-vector of the level's
 * count vector of L2 sensitivity {@code Δ_ℓ}, so level {@code ℓ} is {@code ρ_ℓ}-zCDP given the past
 * (CKS Theorem 4); the projection is post-processing; adaptive composition gives {@code Σρ_ℓ = ρ}.
 * Under bounded DP the root (the total) is released exactly: it must be public. The noise is
 * sampled exactly ({@link ExactSamplers#discreteGaussian}); use a {@link
 * org.dpsql.mechanism.SecureRandomBits} in production.
 *
 * <p>Output guarantees: integral, non-negative, every parent equals the sum of its children, and
 * under bounded DP the root equals the true total. Immutable and thread-safe (as far as the {@link
 * RandomBits} passed in is).
 */
public final class TopDownMechanism {

  /** Receives every noise draw (package-private hook for the distribution tests). */
  interface NoiseObserver {
    void observe(int level, long noise);
  }

  private final TopDownBudget budget;
  private final ConsistencyProjection projection;
  private final String name;

  /** A TopDown mechanism with an arbitrary consistency projection. */
  public TopDownMechanism(TopDownBudget budget, ConsistencyProjection projection, String name) {
    this.budget = Objects.requireNonNull(budget, "budget");
    this.projection = Objects.requireNonNull(projection, "projection");
    this.name = Objects.requireNonNull(name, "name");
  }

  /** InfTDA with the paper's IntOpt (ascending order). */
  public static TopDownMechanism infTda(TopDownBudget budget) {
    return new TopDownMechanism(budget, IntOpt.paper(), "InfTDA");
  }

  /** InfTDA with IntOpt in the given reduction order. */
  public static TopDownMechanism infTda(TopDownBudget budget, ReductionOrder order) {
    return new TopDownMechanism(
        budget, IntOpt.withOrder(order), order == ReductionOrder.ASCENDING ? "InfTDA" : "InfTDA-" + order);
  }

  /** The TDA_ℓ2 baseline (least squares, rounding and redistribution). */
  public static TopDownMechanism tdaL2(TopDownBudget budget) {
    return new TopDownMechanism(budget, SimplexL2Projection.instance(), "TDA_l2");
  }

  /** The TDA_ℓ∞ baseline (Chebyshev objective through a general MILP solver). */
  public static TopDownMechanism tdaLinf(TopDownBudget budget) {
    return new TopDownMechanism(budget, LpChebyshevProjection.instance(), "TDA_linf");
  }

  public TopDownBudget budget() {
    return budget;
  }

  public ConsistencyProjection projection() {
    return projection;
  }

  public String name() {
    return name;
  }

  /**
   * Releases {@code data} (the true tree, built from the aggregated leaf counts).
   *
   * @throws IllegalArgumentException if the tree's depth differs from the budget's or the data is
   *     not a non-negative tree
   */
  public TopDownRelease release(HierarchicalCounts data, RandomBits random) {
    return release(data, random, null);
  }

  TopDownRelease release(HierarchicalCounts data, RandomBits random, NoiseObserver observer) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(random, "random");
    TreeDomain domain = data.domain();
    int t = domain.depth();
    if (t != budget.depth()) {
      throw new IllegalArgumentException(
          "the budget is for depth " + budget.depth() + " but the tree has depth " + t);
    }
    if (!data.isNonNegative()) {
      throw new IllegalArgumentException("the data tree has negative counts");
    }
    long[] draws = new long[t + 1];
    SparseLevel[] levels = new SparseLevel[t + 1];
    long n = data.total();
    long root;
    if (budget.neighbouring() == Neighbouring.BOUNDED) {
      root = n;
    } else {
      long noise = sample(random, budget.sigmaSquared(0));
      draws[0] = 1;
      if (observer != null) {
        observer.observe(0, noise);
      }
      root = Math.max(0, Math.addExact(n, noise)); // clamping is post-processing
    }
    levels[0] = root > 0 ? SparseLevel.of(new long[] {0}, new long[] {root}) : SparseLevel.empty();
    long[] childIds = new long[16];
    for (int l = 1; l <= t; l++) {
      Rational sigma2 = budget.sigmaSquared(l);
      SparseLevel truth = data.level(l);
      SparseLevel prev = levels[l - 1];
      long[] ids = new long[Math.max(16, prev.size() * 2)];
      long[] vals = new long[ids.length];
      int out = 0;
      boolean sorted = true;
      long lastId = -1;
      for (int p = 0; p < prev.size(); p++) {
        long u = prev.id(p);
        long c = prev.value(p);
        int b = domain.childCount(l - 1, u);
        if (childIds.length < b) {
          childIds = new long[b];
        }
        long[] x = new long[b];
        for (int j = 0; j < b; j++) {
          long id = domain.child(l - 1, u, j);
          childIds[j] = id;
          long noise = sample(random, sigma2);
          if (observer != null) {
            observer.observe(l, noise);
          }
          x[j] = Math.addExact(truth.get(id), noise);
        }
        draws[l] += b;
        long[] y = projection.project(x, c);
        for (int j = 0; j < b; j++) {
          if (y[j] > 0) {
            if (out == ids.length) {
              ids = Arrays.copyOf(ids, ids.length * 2);
              vals = Arrays.copyOf(vals, vals.length * 2);
            }
            long id = childIds[j];
            if (id <= lastId) {
              sorted = false;
            }
            lastId = id;
            ids[out] = id;
            vals[out++] = y[j];
          }
        }
      }
      levels[l] =
          sorted
              ? SparseLevel.of(Arrays.copyOf(ids, out), Arrays.copyOf(vals, out))
              : SparseLevel.sortedFrom(ids, vals, out, false);
    }
    return new TopDownRelease(new HierarchicalCounts(domain, levels), budget, draws, name);
  }

  private static long sample(RandomBits random, Rational sigma2) {
    return ExactSamplers.discreteGaussian(random, sigma2).longValueExact();
  }

  @Override
  public String toString() {
    return name + "[" + budget + ", " + projection.name() + "]";
  }
}
