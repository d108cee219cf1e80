package org.dpsql.spatial;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The Homogeneous Tree Framework (Shaham, Ghinita, Ahuja, Krumm, Shahabi, SIGSpatial 2021): a
 * private binary space partition of a frequency matrix whose splits make node densities
 * homogeneous, released with noisy leaf counts.
 *
 * <p>Steps: (1) height: {@code |D|‾ = |D| + Z}, {@code Z} exact discrete Laplace with scale {@code
 * 1/ε_height}; {@code h} by {@link HeightEstimator}, further capped by {@link
 * HtfParameters#maxHeightForBudget()}. (2) Partitioning and perturbation, top-down in one pass
 * (Algorithms 2 and 3 interleaved; the released distribution is that of the paper's two passes,
 * because the splits of subtrees that Algorithm 3 prunes are never released): a node of height
 * {@code i} that can still be split is measured with {@code ε_i} (eq. 17); if its noisy count is
 * at most the count threshold it becomes a leaf and is re-measured with all the data budget left
 * on its path, {@code ε_data − Σ_{j>i} ε_j − ε_i}; otherwise {@link SplitPointEstimator} picks
 * its split on axis {@code rows if i even else columns} ({@link SplitAxis#splittable}: the other
 * axis for a one-cell-thin sliver) with budget {@code ε'_prt} and both halves are visited at height
 * {@code i − 1}. A node that cannot be split (height 0, at most {@code stopArea} cells, or a single
 * cell; all public facts) is measured once
 * with all the data budget left on its path. Counts use the exact geometric mechanism
 * (sensitivity 1); no floating point touches the noise.
 *
 * <p>Guarantee: {@code ε_tot}-differential privacy (pure) under add/remove of one record. A record
 * lies in exactly one node per level, so its privacy loss is the sum of the budgets of the nodes on
 * its root-to-leaf path (adaptive sequential composition; nodes of one level are disjoint, parallel
 * composition): {@code ε_height} + at most {@code h} splits of {@code ε'_prt} + data measurements
 * summing to exactly {@code ε_data} on every path (plus, with reclaiming, the unused split budget,
 * making every path exactly {@code ε_tot}). Leaves cover the whole domain whatever the data.
 */
public final class HtfMechanism implements SpatialMechanism {
  private final HtfParameters params;
  private final SplitPointEstimator splitter;

  /** HTF with the given parameters. */
  public HtfMechanism(HtfParameters params) {
    this.params = Objects.requireNonNull(params, "params");
    this.splitter = new SplitPointEstimator(params.rounds());
  }

  /** The parameters. */
  public HtfParameters parameters() {
    return params;
  }

  @Override
  public String name() {
    return "HTF";
  }

  @Override
  public Rational epsilon() {
    return params.epsilonTotal();
  }

  /** The synopsis of {@link #release}, under the parameters' inference rule. */
  @Override
  public SpatialSynopsis publish(FrequencyMatrix f, RandomBits bits) {
    return release(f, bits).synopsis();
  }

  /**
   * Releases the HTF tree of {@code f}, spending exactly {@code params.epsilonTotal()}.
   *
   * @param bits the randomness; use {@code SecureRandomBits} for a real release
   */
  public HtfRelease release(FrequencyMatrix f, RandomBits bits) {
    return release(f, NoiseSource.exact(bits));
  }

  HtfRelease release(FrequencyMatrix f, NoiseSource noise) {
    Objects.requireNonNull(f, "f");
    Objects.requireNonNull(noise, "noise");
    long noisyTotal = Math.addExact(f.total(),
        noise.discreteLaplace(params.epsilonHeight().reciprocal()).longValueExact());
    int h = Math.min(
        HeightEstimator.height(noisyTotal, params.epsilonTotal(), params.heightConstant(),
            f.rows(), f.columns()),
        params.maxHeightForBudget());
    HtfBudget budget = HtfBudget.of(params, h);
    MeasuredNode root = new Builder(f, noise, budget).visit(f.domain(), h, Rational.ZERO);
    return new HtfRelease(params, budget, noisyTotal, root);
  }

  private final class Builder {
    private final FrequencyMatrix f;
    private final NoiseSource noise;
    private final HtfBudget budget;

    Builder(FrequencyMatrix f, NoiseSource noise, HtfBudget budget) {
      this.f = f;
      this.noise = noise;
      this.budget = budget;
    }

    /** Visits a node of height {@code i}; {@code used} is the data budget spent above it. */
    MeasuredNode visit(GridRectangle region, int i, Rational used) {
      Rational remaining = budget.data().subtract(used);
      Rational reclaimed = params.reclaimPartitionBudget()
          ? budget.partitionPerLevel().multiply(i)
          : Rational.ZERO;
      SplitAxis axis = SplitAxis.splittable(i, region);
      if (i == 0 || region.area() <= params.stopArea() || axis == null) {
        return MeasuredNode.leaf(region, i, List.of(measure(region, remaining.add(reclaimed))));
      }
      Rational share = budget.levelShare(i);
      Measurement first = measure(region, share);
      if (first.noisyCount() <= params.stopCount()) {
        Measurement again = measure(region, remaining.subtract(share).add(reclaimed));
        return MeasuredNode.leaf(region, i, List.of(first, again));
      }
      int k = splitter.choose(f, region, axis, budget.partitionPerLevel(), noise).position();
      Rational below = used.add(share);
      MeasuredNode lower = visit(region.lowerPart(axis, k), i - 1, below);
      MeasuredNode upper = visit(region.upperPart(axis, k), i - 1, below);
      return new MeasuredNode(region, i, List.of(first), budget.partitionPerLevel(),
          List.of(lower, upper));
    }

    private Measurement measure(GridRectangle region, Rational epsilon) {
      BigInteger z = noise.discreteLaplace(epsilon.reciprocal());
      return new Measurement(Math.addExact(f.count(region), z.longValueExact()), epsilon);
    }
  }
}
