package org.dpsql.matrix.hdmm;

import org.dpsql.matrix.Strategy;

/**
 * A strategy with its pure-DP objective {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)} for a given workload:
 * the total squared error summed over the {@code m} workload queries at unit Laplace variance factor
 * (the convention of {@link org.dpsql.matrix.ErrorAnalysis#totalSquaredErrorL1}).
 *
 * <p>Under ε-DP the matrix mechanism adds noise of scale {@code b = ||A||₁/ε} to each strategy
 * answer; Laplace noise has variance {@code 2b²}, so the expected total squared error is {@code 2 ·
 * objective / ε²} ({@link #expectedTotalSquaredError}). The geometric (discrete Laplace) noise of
 * {@code org.dpsql.mechanism} with the same scale has variance {@code 2e^{−1/b}/(1 − e^{−1/b})² <
 * 2b²}, so for it these figures are upper bounds. Immutable.
 *
 * @param strategy the strategy
 * @param objective {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)} ({@code +∞} if the workload is unsupported)
 */
public record ScoredStrategy(Strategy strategy, double objective) {
  /** Validates the objective. */
  public ScoredStrategy {
    if (strategy == null) {
      throw new IllegalArgumentException("strategy is null");
    }
    if (!(objective >= 0)) {
      throw new IllegalArgumentException("objective must be non-negative, got " + objective);
    }
  }

  /** {@code 2 · objective / ε²}: expected squared error summed over the workload under Laplace noise. */
  public double expectedTotalSquaredError(double epsilon) {
    requireEpsilon(epsilon);
    return 2 * objective / (epsilon * epsilon);
  }

  /** {@code sqrt(2 · objective / m) / ε}: root mean squared error per workload query. */
  public double rootMeanSquaredError(double epsilon, long queries) {
    if (queries < 1) {
      throw new IllegalArgumentException("queries must be positive: " + queries);
    }
    return Math.sqrt(expectedTotalSquaredError(epsilon) / queries);
  }

  private static void requireEpsilon(double epsilon) {
    if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite, got " + epsilon);
    }
  }

  @Override
  public String toString() {
    return strategy.name() + ": " + objective;
  }
}
