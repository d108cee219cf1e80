package org.dpsql.matrix.design;

/**
 * A certified solution of Program 1 (seed 001, §2.1): weights {@code u ≥ 0} with {@code M u ≤ 1}
 * (the weighted design has L2 sensitivity at most 1, with equality on some cell), the primal value
 * {@code Σ cᵢ/uᵢ} (over {@code cᵢ > 0}), a dual value {@code (Σ √(cᵢ (Mᵀμ)ᵢ))² / Σ μ ≤} optimum, and
 * the relative gap {@code (primal − dual)/primal} which bounds the suboptimality of {@code u}.
 * Immutable.
 *
 * @param weights {@code u}, one per design query ({@code uᵢ = 0} exactly when {@code cᵢ = 0})
 * @param primal {@code Σ cᵢ/uᵢ} at the returned weights
 * @param dual the best dual lower bound found
 * @param relativeGap {@code (primal − dual)/primal}
 * @param iterations iterations of the method used
 * @param method the algorithm that produced the weights
 * @param multipliers the dual multipliers {@code μ} (one per distinct constraint) certifying {@code
 *     dual}; empty when the dual was not computed from multipliers
 */
public record WeightingSolution(
    double[] weights,
    double primal,
    double dual,
    double relativeGap,
    int iterations,
    QueryWeighting.Method method,
    double[] multipliers) {

  /** Copies the arrays. */
  public WeightingSolution {
    weights = weights.clone();
    multipliers = multipliers.clone();
  }

  @Override
  public double[] weights() {
    return weights.clone();
  }

  @Override
  public double[] multipliers() {
    return multipliers.clone();
  }
}
