package org.dpsql.spatial;

import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The adaptive grid AG of Qardaji, Yang and Li (ICDE 2013), a baseline of Shaham et al.: a first
 * {@code m₁ x m₁} grid with {@code m₁ = max(10, ⌈sqrt(N ε / c) / 4⌉)} measured with {@code α ε};
 * each first-level cell with noisy count {@code N'} is cut into {@code m₂ x m₂} cells, {@code m₂ =
 * ⌈sqrt(N' (1 − α) ε / c₂)⌉}, measured with {@code (1 − α) ε}; {@code c = 10}, {@code c₂ = c/2},
 * {@code α = 0.5}. The two levels are reconciled by constrained inference (Qardaji et al.'s
 * weighted average and equal redistribution, which is exactly {@link Inference#LEAST_SQUARES} on
 * this two-level tree).
 *
 * <p>Guarantee: ε-DP (pure). A noisy total (budget {@code ε_N}) sets {@code m₁}; a record lies in
 * one cell of each level, so the path budget is {@code ε_N + α ε' + (1 − α) ε' = ε} with {@code ε'
 * = ε − ε_N}. {@code m₂} depends only on a released noisy count. Grid sizes are clamped to the
 * cells available on the discrete grid.
 *
 * @param epsilon the total budget
 * @param epsilonTotalCount ε_N for the noisy total
 * @param c the constant c (10); c₂ = c/2
 * @param alpha the first-level share α (0.5)
 */
public record AdaptiveGrid(Rational epsilon, Rational epsilonTotalCount, double c, Rational alpha)
    implements SpatialMechanism {

  /** @throws IllegalArgumentException unless {@code 0 < ε_N < ε}, {@code c > 0}, {@code 0 < α < 1} */
  public AdaptiveGrid {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(epsilonTotalCount, "epsilonTotalCount");
    Objects.requireNonNull(alpha, "alpha");
    if (epsilonTotalCount.signum() <= 0 || epsilonTotalCount.compareTo(epsilon) >= 0) {
      throw new IllegalArgumentException(
          "need 0 < epsilonTotalCount < epsilon: " + epsilonTotalCount + ", " + epsilon);
    }
    if (!(c > 0)) {
      throw new IllegalArgumentException("c must be positive: " + c);
    }
    if (alpha.signum() <= 0 || alpha.compareTo(Rational.ONE) >= 0) {
      throw new IllegalArgumentException("alpha must be in (0, 1): " + alpha);
    }
  }

  /** AG with Qardaji et al.'s settings (c = 10, c₂ = 5, α = 0.5) for budget {@code epsilon}. */
  public static AdaptiveGrid paperDefaults(Rational epsilon) {
    return new AdaptiveGrid(epsilon, HtfParameters.PAPER_EPSILON_HEIGHT, UniformGrid.PAPER_C,
        Rational.of(1, 2));
  }

  @Override
  public String name() {
    return "AG";
  }

  /** {@code m₁ = max(10, ⌈sqrt(N ε / c) / 4⌉)}, clamped to {@code max}. */
  public int firstLevelGranularity(long n, int max) {
    double x = n * epsilon.doubleValue() / c;
    int m = x > 0 ? (int) Math.ceil(Math.sqrt(x) / 4) : 1;
    return Math.max(1, Math.min(max, Math.max(10, m)));
  }

  /** {@code m₂ = ⌈sqrt(N' (1 − α) ε / c₂)⌉}, clamped to {@code [1, max]}. */
  public int secondLevelGranularity(long noisyCount, int max) {
    double x = noisyCount * (1 - alpha.doubleValue()) * epsilon.doubleValue() / (c / 2);
    return GridHierarchy.ceilSqrt(x, max);
  }

  @Override
  public SpatialSynopsis publish(FrequencyMatrix f, RandomBits bits) {
    return TreeInference.synopsis(releaseTree(f, NoiseSource.exact(bits)), Inference.LEAST_SQUARES);
  }

  MeasuredNode releaseTree(FrequencyMatrix f, NoiseSource noise) {
    long noisyN = CountMeasurer.measure(f, f.domain(), epsilonTotalCount, noise).noisyCount();
    Rational rest = epsilon.subtract(epsilonTotalCount);
    Rational first = rest.multiply(alpha);
    Rational second = rest.subtract(first);
    int[] rb = GridHierarchy.boundaries(0, f.rows(), firstLevelGranularity(noisyN, f.rows()));
    int[] cb = GridHierarchy.boundaries(0, f.columns(), firstLevelGranularity(noisyN, f.columns()));
    return GridHierarchy.balanced(rb, cb, (i, j) -> {
      GridRectangle cell = new GridRectangle(rb[i], rb[i + 1], cb[j], cb[j + 1]);
      Measurement m1 = CountMeasurer.measure(f, cell, first, noise);
      int m2r = secondLevelGranularity(m1.noisyCount(), cell.height());
      int m2c = secondLevelGranularity(m1.noisyCount(), cell.width());
      if (m2r == 1 && m2c == 1) {
        // the second level is the cell itself: a leaf measured twice
        return MeasuredNode.leaf(cell, 1, List.of(m1, CountMeasurer.measure(f, cell, second, noise)));
      }
      int[] sr = GridHierarchy.boundaries(cell.rowFrom(), cell.height(), m2r);
      int[] sc = GridHierarchy.boundaries(cell.colFrom(), cell.width(), m2c);
      MeasuredNode sub = GridHierarchy.balanced(sr, sc, (a, b) -> {
        GridRectangle s = new GridRectangle(sr[a], sr[a + 1], sc[b], sc[b + 1]);
        return MeasuredNode.leaf(s, 0, List.of(CountMeasurer.measure(f, s, second, noise)));
      });
      return new MeasuredNode(cell, sub.level() + 1, List.of(m1), Rational.ZERO, sub.children());
    });
  }
}
