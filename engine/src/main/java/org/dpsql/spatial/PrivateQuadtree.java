package org.dpsql.spatial;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The data-independent private quadtree of Cormode et al. (ICDE 2012), a baseline of Shaham et
 * al.: every node of depth below {@code d} is cut into four equal quadrants (halves of each side;
 * a side of one cell is not cut), every node is measured with the geometric budget share of its
 * height (eq. 17, leaves getting the most), and estimates come from constrained inference
 * ({@link Inference#LEAST_SQUARES}).
 *
 * <p>Budget: ε_N for a noisy total when the depth is derived ({@code d = ⌊h/2⌋} with {@code h}
 * HTF's height rule: a quadtree of depth {@code k} has the leaf count of a binary tree of height
 * {@code 2k}, the correspondence the paper uses), the rest geometric over levels {@code 0..d}.
 *
 * <p>Guarantee: ε-DP (pure): the structure is data-independent (given the noisy total), a record
 * lies in one node per level, and the shares along every path sum to {@code ε − ε_N} exactly.
 *
 * @param epsilon the total budget
 * @param epsilonTotalCount ε_N for the noisy total
 * @param depth the depth, or {@code -1} to derive it
 */
public record PrivateQuadtree(Rational epsilon, Rational epsilonTotalCount, int depth)
    implements SpatialMechanism {

  /** @throws IllegalArgumentException on inconsistent budgets */
  public PrivateQuadtree {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(epsilonTotalCount, "epsilonTotalCount");
    if (epsilonTotalCount.signum() <= 0 || epsilonTotalCount.compareTo(epsilon) >= 0) {
      throw new IllegalArgumentException(
          "need 0 < epsilonTotalCount < epsilon: " + epsilonTotalCount + ", " + epsilon);
    }
    if (depth < -1) {
      throw new IllegalArgumentException("depth must be -1 (derived) or non-negative: " + depth);
    }
  }

  /** The quadtree with the depth derived from HTF's height rule. */
  public static PrivateQuadtree paperDefaults(Rational epsilon) {
    return new PrivateQuadtree(epsilon, HtfParameters.PAPER_EPSILON_HEIGHT, -1);
  }

  /** A copy with a fixed depth. */
  public PrivateQuadtree withDepth(int d) {
    return new PrivateQuadtree(epsilon, epsilonTotalCount, d);
  }

  @Override
  public String name() {
    return "QT";
  }

  @Override
  public SpatialSynopsis publish(FrequencyMatrix f, RandomBits bits) {
    return TreeInference.synopsis(releaseTree(f, NoiseSource.exact(bits)), Inference.LEAST_SQUARES);
  }

  MeasuredNode releaseTree(FrequencyMatrix f, NoiseSource noise) {
    int d = depth;
    if (d < 0) {
      long noisyN = CountMeasurer.measure(f, f.domain(), epsilonTotalCount, noise).noisyCount();
      d = HeightEstimator.height(noisyN, epsilon, HeightEstimator.PAPER_CONSTANT, f.rows(), f.columns()) / 2;
    }
    List<Rational> shares = GeometricBudget.allocate(epsilon.subtract(epsilonTotalCount), d);
    return visit(f, noise, f.domain(), d, epsilon.subtract(epsilonTotalCount), shares);
  }

  private static MeasuredNode visit(FrequencyMatrix f, NoiseSource noise, GridRectangle r, int i,
      Rational remaining, List<Rational> shares) {
    if (i == 0 || r.area() == 1) {
      return MeasuredNode.leaf(r, i, List.of(CountMeasurer.measure(f, r, remaining, noise)));
    }
    Measurement m = CountMeasurer.measure(f, r, shares.get(i), noise);
    Rational left = remaining.subtract(shares.get(i));
    int rm = r.height() >= 2 ? r.rowFrom() + r.height() / 2 : r.rowTo();
    int cm = r.width() >= 2 ? r.colFrom() + r.width() / 2 : r.colTo();
    List<MeasuredNode> kids = new ArrayList<>(4);
    int[][] rows = rm < r.rowTo() ? new int[][] {{r.rowFrom(), rm}, {rm, r.rowTo()}}
        : new int[][] {{r.rowFrom(), r.rowTo()}};
    int[][] cols = cm < r.colTo() ? new int[][] {{r.colFrom(), cm}, {cm, r.colTo()}}
        : new int[][] {{r.colFrom(), r.colTo()}};
    for (int[] a : rows) {
      for (int[] b : cols) {
        kids.add(visit(f, noise, new GridRectangle(a[0], a[1], b[0], b[1]), i - 1, left, shares));
      }
    }
    return new MeasuredNode(r, i, List.of(m), Rational.ZERO, kids);
  }
}
