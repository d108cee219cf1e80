package org.dpsql.spatial;

import java.util.Objects;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The uniform grid UG of Qardaji, Yang and Li (ICDE 2013), the grid baseline of Shaham et al.: an
 * {@code m x m} grid with {@code m = round(sqrt(N ε / c))}, {@code c = 10}, each cell released with
 * a noisy count.
 *
 * <p>Guarantee: ε-DP (pure). {@code N} is not public, so a noisy total {@code N + Z} (exact
 * discrete Laplace, budget {@code ε_N}) sets {@code m}; the cells, disjoint, are then measured in
 * parallel with {@code ε − ε_N} each (a record is in one cell). On a discrete {@code rows x cols}
 * grid the cell boundaries are {@code ⌊i·rows/m⌋} (and likewise for columns), {@code m} clamped to
 * the grid size. Answers use the uniformity assumption inside cells.
 *
 * @param epsilon the total budget
 * @param epsilonTotalCount ε_N, the budget of the noisy total (the same 10⁻⁴ as HTF's ε_height by
 *     default)
 * @param c the constant of the granularity rule (10 in Qardaji et al.)
 */
public record UniformGrid(Rational epsilon, Rational epsilonTotalCount, double c)
    implements SpatialMechanism {

  /** Qardaji et al.'s constant. */
  public static final double PAPER_C = 10;

  /** @throws IllegalArgumentException unless {@code 0 < ε_N < ε} and {@code c > 0} */
  public UniformGrid {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(epsilonTotalCount, "epsilonTotalCount");
    if (epsilonTotalCount.signum() <= 0 || epsilonTotalCount.compareTo(epsilon) >= 0) {
      throw new IllegalArgumentException(
          "need 0 < epsilonTotalCount < epsilon: " + epsilonTotalCount + ", " + epsilon);
    }
    if (!(c > 0)) {
      throw new IllegalArgumentException("c must be positive: " + c);
    }
  }

  /** UG with the paper's settings for budget {@code epsilon}. */
  public static UniformGrid paperDefaults(Rational epsilon) {
    return new UniformGrid(epsilon, HtfParameters.PAPER_EPSILON_HEIGHT, PAPER_C);
  }

  @Override
  public String name() {
    return "UG";
  }

  /** The granularity {@code round(sqrt(N ε / c))} for a (noisy) total {@code n}, clamped to {@code max}. */
  public int granularity(long n, int max) {
    return GridHierarchy.roundedSqrt(n * epsilon.doubleValue() / c, max);
  }

  @Override
  public SpatialSynopsis publish(FrequencyMatrix f, RandomBits bits) {
    return TreeInference.synopsis(releaseTree(f, NoiseSource.exact(bits)),
        Inference.LEAF_LAST_MEASUREMENT);
  }

  MeasuredNode releaseTree(FrequencyMatrix f, NoiseSource noise) {
    long noisyN = CountMeasurer.measure(f, f.domain(), epsilonTotalCount, noise).noisyCount();
    int mr = granularity(noisyN, f.rows());
    int mc = granularity(noisyN, f.columns());
    Rational cellBudget = epsilon.subtract(epsilonTotalCount);
    int[] rb = GridHierarchy.boundaries(0, f.rows(), mr);
    int[] cb = GridHierarchy.boundaries(0, f.columns(), mc);
    return GridHierarchy.balanced(rb, cb, (i, j) -> {
      GridRectangle cell = new GridRectangle(rb[i], rb[i + 1], cb[j], cb[j + 1]);
      return MeasuredNode.leaf(cell, 0,
          java.util.List.of(CountMeasurer.measure(f, cell, cellBudget, noise)));
    });
  }
}
