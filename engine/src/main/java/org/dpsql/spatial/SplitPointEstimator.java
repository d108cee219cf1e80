package org.dpsql.spatial;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * HTF's near-optimal split point estimator (Shaham et al., Algorithm 1): a ternary-style search
 * for a split position {@code k} (rows or columns in the first part, {@code 1 <= k < extent}) of
 * small noisy homogeneity objective, with at most {@code 2T + 1} noisy evaluations.
 *
 * <p>Search (with the spec's corrections): the interval is bounded by the sentinels {@code l = 0},
 * {@code r = extent} (no split), the first candidate is {@code k = l + ⌊(r − l)/2⌋}; each of the
 * {@code T} rounds proposes {@code k₁ = l + ⌊(k − l)/2⌋} and {@code k₂ = k + ⌊(r − k)/2⌋} (the
 * printed lines 8–9 give half-widths, not positions), evaluates those strictly inside {@code (l,
 * k)} and {@code (k, r)}, and keeps the noisy minimum (ties prefer {@code k}, then {@code k₁}):
 * middle → {@code l, r ← k₁, k₂}; {@code k₁} → {@code r ← k, k ← k₁}; {@code k₂} → {@code l ← k, k
 * ← k₂}. The search stops early when neither side has an interior candidate. A node with a single
 * candidate ({@code extent = 2}) returns it without evaluating anything.
 *
 * <p>Guarantee (privacy): every evaluation releases {@code o_k + Z/L_k} where {@code L_k o_k} is
 * the integer of {@link HomogeneityObjective} with sensitivity {@code < 2 L_k} and {@code Z} is
 * exact discrete Laplace with scale {@code 2 L_k / ε''}, so each evaluation is {@code ε''}-DP
 * (pure, exact: the geometric mechanism applies to any integer-valued query with a real
 * sensitivity bound). This is the paper's {@code Lap(2/ε'')} on {@code o_k}, restricted to the
 * lattice {@code ℤ / L_k}. With {@code ε'' = ε'_prt / (2T + 1)} and at most {@code 2T + 1}
 * evaluations, one call is {@code ε'_prt}-DP by sequential composition; the returned position is
 * post-processing of the noisy values. Positions proposed depend only on earlier noisy outputs.
 */
public final class SplitPointEstimator {
  private final int rounds;

  /**
   * An estimator with {@code T = rounds} narrowing rounds (the paper uses {@code T = 3}).
   *
   * @throws IllegalArgumentException if {@code rounds < 0}
   */
  public SplitPointEstimator(int rounds) {
    if (rounds < 0) {
      throw new IllegalArgumentException("the number of rounds T must be non-negative: " + rounds);
    }
    this.rounds = rounds;
  }

  /** {@code T}. */
  public int rounds() {
    return rounds;
  }

  /** The maximal number of noisy evaluations, {@code 2T + 1}. */
  public int maxEvaluations() {
    return 2 * rounds + 1;
  }

  /** {@code ε'' = ε'_prt / (2T + 1)}, the budget of one noisy evaluation. */
  public Rational perEvaluationBudget(Rational perLevelBudget) {
    return perLevelBudget.divide(maxEvaluations());
  }

  /** The chosen split and the candidates evaluated, in evaluation order. */
  public record SplitChoice(int position, List<Integer> evaluated) {
    /** Copies {@code evaluated}. */
    public SplitChoice {
      evaluated = List.copyOf(evaluated);
    }
  }

  /**
   * Chooses a split of {@code node} along {@code axis}, spending at most {@code perLevelBudget}.
   *
   * @throws IllegalArgumentException if the node has fewer than 2 cells along {@code axis} or the
   *     budget is not positive
   */
  public SplitChoice choose(
      FrequencyMatrix f, GridRectangle node, SplitAxis axis, Rational perLevelBudget,
      RandomBits bits) {
    return choose(f, node, axis, perLevelBudget, NoiseSource.exact(bits));
  }

  SplitChoice choose(
      FrequencyMatrix f, GridRectangle node, SplitAxis axis, Rational perLevelBudget,
      NoiseSource noise) {
    Objects.requireNonNull(f, "f");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(perLevelBudget, "perLevelBudget");
    if (perLevelBudget.signum() <= 0) {
      throw new IllegalArgumentException("partition budget must be positive: " + perLevelBudget);
    }
    int extent = node.extent(axis);
    if (extent < 2) {
      throw new IllegalArgumentException("node " + node + " cannot be split along " + axis);
    }
    Rational perEvaluation = perEvaluationBudget(perLevelBudget);
    List<Integer> evaluated = new ArrayList<>();
    int l = 0;
    int r = extent;
    int k = l + (r - l) / 2;
    Rational ok = null; // evaluated lazily: only needed once there is something to compare with
    for (int t = 0; t < rounds; t++) {
      int k1 = l + (k - l) / 2;
      int k2 = k + (r - k) / 2;
      boolean has1 = l < k1 && k1 < k;
      boolean has2 = k < k2 && k2 < r;
      if (!has1 && !has2) {
        break;
      }
      if (ok == null) {
        ok = noisy(f, node, axis, k, perEvaluation, noise, evaluated);
      }
      Rational o1 = has1 ? noisy(f, node, axis, k1, perEvaluation, noise, evaluated) : null;
      Rational o2 = has2 ? noisy(f, node, axis, k2, perEvaluation, noise, evaluated) : null;
      Rational min = ok;
      if (o1 != null && o1.compareTo(min) < 0) {
        min = o1;
      }
      if (o2 != null && o2.compareTo(min) < 0) {
        min = o2;
      }
      if (min == ok) {
        if (has1) {
          l = k1;
        }
        if (has2) {
          r = k2;
        }
      } else if (min == o1) {
        r = k;
        k = k1;
        ok = o1;
      } else {
        l = k;
        k = k2;
        ok = o2;
      }
    }
    return new SplitChoice(k, evaluated);
  }

  private static Rational noisy(
      FrequencyMatrix f, GridRectangle node, SplitAxis axis, int k, Rational perEvaluation,
      NoiseSource noise, List<Integer> evaluated) {
    evaluated.add(k);
    return noisyObjective(f, node, axis, k, perEvaluation, noise);
  }

  /**
   * One noisy evaluation {@code (L_k o_k + Z) / L_k}, {@code Z} discrete Laplace with scale {@code
   * 2 L_k / ε''}: ε''-DP since {@code L_k o_k} is an integer with sensitivity below {@code 2 L_k}.
   */
  static Rational noisyObjective(
      FrequencyMatrix f, GridRectangle node, SplitAxis axis, int k, Rational perEvaluation,
      NoiseSource noise) {
    HomogeneityObjective.Scaled s = HomogeneityObjective.scaled(f, node, axis, k);
    Rational scale = Rational.of(s.scale().shiftLeft(1), BigInteger.ONE).divide(perEvaluation);
    return Rational.of(s.value().add(noise.discreteLaplace(scale)), s.scale());
  }
}
