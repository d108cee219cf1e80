package org.dpsql.hierarchy;

import java.util.Objects;

/**
 * The output of a {@link TopDownMechanism}: the released tree and what it cost.
 *
 * @param tree the released non-negative hierarchical tree (integral; every parent equals the sum of
 *     its children; under bounded DP the root equals the public total)
 * @param budget the budget charged ({@code budget.rho()} zCDP)
 * @param noiseDraws number of discrete Gaussian draws per level (index 0 = root): for every level
 *     {@code ℓ >= 1} the total number of public-domain children of the kept nodes of level {@code ℓ −
 *     1}
 * @param mechanism the name of the mechanism (e.g. {@code "InfTDA"})
 */
public record TopDownRelease(
    HierarchicalCounts tree, TopDownBudget budget, long[] noiseDraws, String mechanism) {

  public TopDownRelease {
    Objects.requireNonNull(tree, "tree");
    Objects.requireNonNull(budget, "budget");
    noiseDraws = noiseDraws.clone();
  }

  @Override
  public long[] noiseDraws() {
    return noiseDraws.clone();
  }

  /** Total number of noise draws. */
  public long totalNoiseDraws() {
    long s = 0;
    for (long d : noiseDraws) {
      s += d;
    }
    return s;
  }
}
