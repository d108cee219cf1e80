package org.dpsql.spatial;

import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * The policy parameters of HTF (Shaham et al.). Defaults ({@link #paperDefaults}) are the paper's
 * experimental settings (Section 5.2): {@code ε_height = 10⁻⁴}, {@code ε'_prt = 5·10⁻⁴} per level,
 * {@code T = 3}, stop when a node's noisy count is at most 100 or it has at most 5 cells, {@code
 * c₀ = 10}.
 *
 * <p>Guarantee: immutable; validated on construction. The total charged is exactly {@code
 * epsilonTotal}: the data budget is what remains, {@code ε_data = ε_tot − h·ε'_prt − ε_height}
 * ({@link HtfBudget}).
 *
 * @param epsilonTotal ε_tot, the whole budget of one release
 * @param epsilonHeight ε_height, spent on the noisy record count that sets the height
 * @param partitionBudgetPerLevel ε'_prt, spent by every split (parallel across a level)
 * @param rounds T of the split search (at most 2T+1 noisy objective evaluations per split)
 * @param stopCount count threshold: a node whose noisy count is at most this becomes a leaf
 * @param stopArea extent threshold: a node with at most this many cells is not split
 * @param heightConstant c₀ of the height formula
 * @param reclaimPartitionBudget beyond the paper: a node that stops at height {@code i > 0} adds
 *     the {@code i·ε'_prt} of the splits it will never make to its final measurement, so every
 *     root-to-leaf path spends exactly ε_tot
 * @param inference how estimates are derived from the measurements
 */
public record HtfParameters(
    Rational epsilonTotal,
    Rational epsilonHeight,
    Rational partitionBudgetPerLevel,
    int rounds,
    long stopCount,
    long stopArea,
    Rational heightConstant,
    boolean reclaimPartitionBudget,
    Inference inference) {

  /** The paper's ε_height. */
  public static final Rational PAPER_EPSILON_HEIGHT = Rational.of(1, 10_000);
  /** The paper's ε'_prt (its smaller setting; it also reports 10⁻³). */
  public static final Rational PAPER_PARTITION_PER_LEVEL = Rational.of(5, 10_000);

  /** @throws IllegalArgumentException on a non-positive budget, ε_height ≥ ε_tot, T < 0 or c₀ ≤ 0 */
  public HtfParameters {
    Objects.requireNonNull(epsilonTotal, "epsilonTotal");
    Objects.requireNonNull(epsilonHeight, "epsilonHeight");
    Objects.requireNonNull(partitionBudgetPerLevel, "partitionBudgetPerLevel");
    Objects.requireNonNull(heightConstant, "heightConstant");
    Objects.requireNonNull(inference, "inference");
    if (epsilonTotal.signum() <= 0) {
      throw new IllegalArgumentException("epsilonTotal must be positive: " + epsilonTotal);
    }
    if (epsilonHeight.signum() <= 0 || epsilonHeight.compareTo(epsilonTotal) >= 0) {
      throw new IllegalArgumentException(
          "epsilonHeight must be in (0, epsilonTotal): " + epsilonHeight + " vs " + epsilonTotal);
    }
    if (partitionBudgetPerLevel.signum() <= 0) {
      throw new IllegalArgumentException(
          "partition budget per level must be positive: " + partitionBudgetPerLevel);
    }
    if (rounds < 0) {
      throw new IllegalArgumentException("rounds T must be non-negative: " + rounds);
    }
    if (stopArea < 0) {
      throw new IllegalArgumentException("stopArea must be non-negative: " + stopArea);
    }
    if (heightConstant.signum() <= 0) {
      throw new IllegalArgumentException("height constant c0 must be positive: " + heightConstant);
    }
  }

  /**
   * The paper's settings for the given ε_tot, with the paper's estimator ({@link
   * Inference#LEAF_LAST_MEASUREMENT}) and no reclaiming. Measured on the paper's protocol (72
   * settings, {@code docs/htf-results.md}), neither least squares (better in 25 of 72 settings),
   * nor the inverse-variance combination (better in 59 of 72 but up to 1.57x worse on dense data,
   * because a pruned node's first count is selected by the threshold and hence biased), nor
   * reclaiming lowered HTF's error consistently, so none is the default.
   */
  public static HtfParameters paperDefaults(Rational epsilonTotal) {
    return new HtfParameters(epsilonTotal, PAPER_EPSILON_HEIGHT, PAPER_PARTITION_PER_LEVEL, 3, 100,
        5, HeightEstimator.PAPER_CONSTANT, false, Inference.LEAF_LAST_MEASUREMENT);
  }

  /** A copy with another inference rule. */
  public HtfParameters withInference(Inference rule) {
    return new HtfParameters(epsilonTotal, epsilonHeight, partitionBudgetPerLevel, rounds,
        stopCount, stopArea, heightConstant, reclaimPartitionBudget, rule);
  }

  /** A copy with another count threshold. */
  public HtfParameters withStopCount(long count) {
    return new HtfParameters(epsilonTotal, epsilonHeight, partitionBudgetPerLevel, rounds, count,
        stopArea, heightConstant, reclaimPartitionBudget, inference);
  }

  /** A copy with another ε'_prt. */
  public HtfParameters withPartitionBudgetPerLevel(Rational perLevel) {
    return new HtfParameters(epsilonTotal, epsilonHeight, perLevel, rounds, stopCount, stopArea,
        heightConstant, reclaimPartitionBudget, inference);
  }

  /** A copy with budget reclaiming switched on or off. */
  public HtfParameters withReclaimPartitionBudget(boolean reclaim) {
    return new HtfParameters(epsilonTotal, epsilonHeight, partitionBudgetPerLevel, rounds,
        stopCount, stopArea, heightConstant, reclaim, inference);
  }

  /**
   * The largest height the budget allows: {@code h·ε'_prt ≤ (ε_tot − ε_height)/2}, so that at
   * least half of what is left after the height estimate goes to the counts (a cap that never binds
   * at the paper's settings, e.g. ε_tot = 0.1 allows h ≤ 99).
   */
  public int maxHeightForBudget() {
    Rational half = epsilonTotal.subtract(epsilonHeight).divide(2);
    return half.divide(partitionBudgetPerLevel).floor().min(java.math.BigInteger.valueOf(1 << 20))
        .intValueExact();
  }
}
