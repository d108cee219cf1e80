package org.dpsql.spatial;

import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The data-dependent private kd-tree of Cormode, Procopiuc, Srivastava, Shen and Yu (ICDE 2012,
 * "kd-standard"), the kd-tree baseline of Shaham et al.: a binary tree of height {@code h}
 * alternating split axes (rows at even heights), each split at a noisy median chosen by the
 * exponential mechanism, every node measured with a geometric share of the count budget
 * (eq. 17), estimates by constrained inference ({@link Inference#LEAST_SQUARES}, the paper's
 * "smoothing and post-processing").
 *
 * <p>Budget: ε_N (noisy total, used when the height is derived from the data) + {@code
 * medianShare · ε'} for the medians, split uniformly over the {@code h} split levels, + the rest
 * for counts, {@code ε' = ε − ε_N}; Shaham et al. allocate 15% to the kd-tree's partitioning.
 * Median: candidates {@code k = 1..U−1} with utility {@code −|2 S(k) − S|} ({@code S(k)} the count
 * before the cut), sensitivity 1. Axes alternate with {@link SplitAxis#splittable} (the other axis for a one-cell-thin sliver);
 * a single cell becomes a leaf and
 * is measured with all the count budget left on its path.
 *
 * <p>Guarantee: ε-DP (pure) by composition along every root-to-leaf path and parallel composition
 * across the disjoint nodes of a level; the exponential mechanism and the counts are sampled
 * exactly ({@link ExponentialMechanism}, exact discrete Laplace).
 *
 * @param epsilon the total budget
 * @param epsilonTotalCount ε_N, spent on a noisy total when {@code height < 0}
 * @param height the tree height, or {@code -1} to use HTF's height rule on the noisy total
 * @param medianShare the share of {@code ε − ε_N} for the medians, in {@code (0, 1)}
 */
public record PrivateKdTree(Rational epsilon, Rational epsilonTotalCount, int height, Rational medianShare)
    implements SpatialMechanism {

  /** The share of the budget Shaham et al. give the kd-tree's partitioning. */
  public static final Rational PAPER_MEDIAN_SHARE = Rational.of(15, 100);

  /** @throws IllegalArgumentException on inconsistent budgets */
  public PrivateKdTree {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(epsilonTotalCount, "epsilonTotalCount");
    Objects.requireNonNull(medianShare, "medianShare");
    if (epsilonTotalCount.signum() <= 0 || epsilonTotalCount.compareTo(epsilon) >= 0) {
      throw new IllegalArgumentException(
          "need 0 < epsilonTotalCount < epsilon: " + epsilonTotalCount + ", " + epsilon);
    }
    if (medianShare.signum() <= 0 || medianShare.compareTo(Rational.ONE) >= 0) {
      throw new IllegalArgumentException("median share must be in (0, 1): " + medianShare);
    }
    if (height < -1) {
      throw new IllegalArgumentException("height must be -1 (derived) or non-negative: " + height);
    }
  }

  /** The paper's kd-tree with the height derived like HTF's. */
  public static PrivateKdTree paperDefaults(Rational epsilon) {
    return new PrivateKdTree(epsilon, HtfParameters.PAPER_EPSILON_HEIGHT, -1, PAPER_MEDIAN_SHARE);
  }

  /** A copy with a fixed height (no noisy total is then needed, but ε_N is still reserved). */
  public PrivateKdTree withHeight(int h) {
    return new PrivateKdTree(epsilon, epsilonTotalCount, h, medianShare);
  }

  @Override
  public String name() {
    return "KD";
  }

  @Override
  public SpatialSynopsis publish(FrequencyMatrix f, RandomBits bits) {
    return TreeInference.synopsis(releaseTree(f, NoiseSource.exact(bits)), Inference.LEAST_SQUARES);
  }

  MeasuredNode releaseTree(FrequencyMatrix f, NoiseSource noise) {
    int h = height;
    if (h < 0) {
      long noisyN = CountMeasurer.measure(f, f.domain(), epsilonTotalCount, noise).noisyCount();
      h = HeightEstimator.height(noisyN, epsilon, HeightEstimator.PAPER_CONSTANT, f.rows(), f.columns());
    }
    Rational rest = epsilon.subtract(epsilonTotalCount);
    Rational medians = h == 0 ? Rational.ZERO : rest.multiply(medianShare);
    Rational counts = rest.subtract(medians);
    Rational perSplit = h == 0 ? Rational.ZERO : medians.divide(h);
    List<Rational> shares = GeometricBudget.allocate(counts, h);
    return visit(f, noise, f.domain(), h, counts, perSplit, shares);
  }

  private static MeasuredNode visit(FrequencyMatrix f, NoiseSource noise, GridRectangle region,
      int i, Rational remaining, Rational perSplit, List<Rational> shares) {
    SplitAxis axis = SplitAxis.splittable(i, region);
    if (i == 0 || axis == null) {
      return MeasuredNode.leaf(region, i, List.of(CountMeasurer.measure(f, region, remaining, noise)));
    }
    Measurement m = CountMeasurer.measure(f, region, shares.get(i), noise);
    int k = 1 + noise.exponentialMechanism(medianUtilities(f, region, axis), perSplit, 1);
    Rational left = remaining.subtract(shares.get(i));
    return new MeasuredNode(region, i, List.of(m), perSplit, List.of(
        visit(f, noise, region.lowerPart(axis, k), i - 1, left, perSplit, shares),
        visit(f, noise, region.upperPart(axis, k), i - 1, left, perSplit, shares)));
  }

  /** {@code u[k−1] = −|2 S(k) − S|} for cuts {@code k = 1..U−1}; sensitivity 1. */
  static long[] medianUtilities(FrequencyMatrix f, GridRectangle region, SplitAxis axis) {
    int u = region.extent(axis);
    long total = f.count(region);
    long[] out = new long[u - 1];
    for (int k = 1; k < u; k++) {
      long below = f.count(region.lowerPart(axis, k));
      out[k - 1] = -Math.abs(2 * below - total);
    }
    return out;
  }
}
