package org.dpsql.spatial;

import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * The budget decomposition of one HTF release of height {@code h} (Shaham et al., eq. 4 and
 * Section 4): {@code ε_tot = ε_prt + ε_data + ε_height} with {@code ε_prt = h·ε'_prt}, split
 * searches spending {@code ε'' = ε'_prt/(2T+1)} per noisy evaluation, and the data budget spread
 * over the levels {@code 0..h} by {@link GeometricBudget} (eq. 17).
 *
 * <p>Guarantee: all values are exact rationals with {@code partition + data + height = total} and
 * {@code Σ levelShares = data}, checked on construction. Sequential composition applies along a
 * root-to-leaf path (at most one split per level and data measurements summing to at most {@code
 * ε_data}); parallel composition across the disjoint nodes of one level.
 *
 * @param total ε_tot
 * @param height ε_height
 * @param treeHeight h
 * @param partitionPerLevel ε'_prt
 * @param perEvaluation ε''
 * @param partition ε_prt = h·ε'_prt
 * @param data ε_data
 * @param levelShares ε_i for node heights i = 0..h
 */
public record HtfBudget(
    Rational total,
    Rational height,
    int treeHeight,
    Rational partitionPerLevel,
    Rational perEvaluation,
    Rational partition,
    Rational data,
    List<Rational> levelShares) {

  /** @throws IllegalArgumentException if the decomposition is not exact or ε_data ≤ 0 */
  public HtfBudget {
    levelShares = List.copyOf(levelShares);
    if (!partition.add(data).add(height).equals(total)) {
      throw new IllegalArgumentException("budget split does not add up: " + partition + " + "
          + data + " + " + height + " != " + total);
    }
    if (data.signum() <= 0) {
      throw new IllegalArgumentException("no data budget left: " + data);
    }
    if (levelShares.size() != treeHeight + 1) {
      throw new IllegalArgumentException("need " + (treeHeight + 1) + " level shares");
    }
    Rational s = Rational.ZERO;
    for (Rational r : levelShares) {
      s = s.add(r);
    }
    if (!s.equals(data)) {
      throw new IllegalArgumentException("level shares sum to " + s + ", not " + data);
    }
  }

  /** The decomposition for parameters {@code p} and tree height {@code h}. */
  public static HtfBudget of(HtfParameters p, int h) {
    Objects.requireNonNull(p, "p");
    if (h < 0) {
      throw new IllegalArgumentException("height must be non-negative: " + h);
    }
    Rational partition = p.partitionBudgetPerLevel().multiply(h);
    Rational data = p.epsilonTotal().subtract(partition).subtract(p.epsilonHeight());
    if (data.signum() <= 0) {
      throw new IllegalArgumentException("height " + h + " leaves no data budget: " + data);
    }
    return new HtfBudget(p.epsilonTotal(), p.epsilonHeight(), h, p.partitionBudgetPerLevel(),
        p.partitionBudgetPerLevel().divide(2 * p.rounds() + 1), partition, data,
        GeometricBudget.allocate(data, h));
  }

  /** {@code ε_i}, the data budget of one measurement at a node of height {@code i}. */
  public Rational levelShare(int i) {
    return levelShares.get(i);
  }

  /** {@code Σ_{j ≤ i} ε_j}: what is left of ε_data on a path when reaching height {@code i}. */
  public Rational remainingAt(int i) {
    Rational s = Rational.ZERO;
    for (int j = 0; j <= i; j++) {
      s = s.add(levelShares.get(j));
    }
    return s;
  }
}
