package org.dpsql.hierarchy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Objects;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The Stability-based Histogram baseline (SH; Korolova et al. 2009, Bun–Nissim–Stemmer 2019, the
 * paper's Theorem 8) on the leaves: discrete Laplace (two-sided geometric) noise on the
 * <em>non-empty</em> leaves only, then every noisy count below a threshold {@code τ} is suppressed.
 * No false positives by construction; biased; inner levels are sums of the released leaves.
 *
 * <p><b>Privacy guarantee: (ε, δ)-DP</b> with respect to the given neighbouring relation, for units
 * contributing at most {@code m} records to distinct leaves. Noise {@code Z} has {@code P[Z = z] ∝
 * exp(−|z|/s)} with {@code s = k/ε}, {@code k} = {@link Contribution#cellsChanged} ({@code 2m}
 * bounded, {@code m} unbounded; {@code s = 2/ε} for the paper's bounded one-record case), released
 * iff {@code count + Z >= τ}. Proof: neighbours differ in at most {@code k} leaves, each by 1. A
 * leaf non-empty in both has noisy counts differing by a shift of 1: {@code (1/s, 0)}-indistinguishable
 * (the threshold is post-processing). A leaf with count 1 in one and 0 in the other is released
 * from the first with probability {@code p = P[1 + Z >= τ]} and never from the second: total
 * variation {@code p}, i.e. {@code (0, p)}-indistinguishable. The leaves are independent, so basic
 * composition over at most {@code k} leaves gives {@code (k/s, k·p) = (ε, k·p)}. The threshold is
 * the smallest integer {@code τ >= 2} with {@code k·p <= δ}, where, with {@code q = e^{−1/s}}, the
 * exact geometric tail is {@code p = P[Z >= τ − 1] = q^{τ−1}/(1 + q)}; i.e. {@code τ − 1 = ⌈s·ln(k/
 * ((1+q)δ))⌉}. The logarithm is evaluated in double precision and {@code τ} is raised by one
 * whenever the real value lies within {@code 1e-9} (relative) of an integer, so rounding can only
 * make it larger (safer). Noise is sampled exactly ({@link ExactSamplers#discreteLaplace}).
 * Non-distinct multiple records ({@code m > 1, !distinct}) are not supported.
 */
public final class StabilityHistogram {
  private final BigDecimal epsilon;
  private final BigDecimal delta;
  private final long cells;
  private final Rational scale;
  private final long threshold;

  /**
   * @throws IllegalArgumentException if {@code ε <= 0}, {@code δ} not in (0, 1), or the
   *     contribution has non-distinct multiple records
   */
  public StabilityHistogram(
      BigDecimal epsilon, BigDecimal delta, Neighbouring neighbouring, Contribution contribution) {
    Objects.requireNonNull(epsilon, "epsilon");
    Objects.requireNonNull(delta, "delta");
    Objects.requireNonNull(neighbouring, "neighbouring");
    Objects.requireNonNull(contribution, "contribution");
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be positive: " + epsilon);
    }
    if (delta.signum() <= 0 || delta.compareTo(BigDecimal.ONE) >= 0) {
      throw new IllegalArgumentException("delta must be in (0, 1): " + delta);
    }
    if (contribution.maxRecords() > 1 && !contribution.distinct()) {
      throw new IllegalArgumentException(
          "the stability histogram supports units with records in distinct leaves only");
    }
    this.epsilon = epsilon;
    this.delta = delta;
    this.cells = contribution.cellsChanged(neighbouring);
    this.scale = Rational.of(cells).divide(Rational.of(epsilon));
    this.threshold = thresholdFor(scale.doubleValue(), cells, delta.doubleValue());
  }

  /** {@code τ = 1 + ⌈s ln(k/((1+q)δ))⌉} (at least 2), rounded up on near-ties. */
  static long thresholdFor(double s, long k, double delta) {
    double q = Math.exp(-1.0 / s);
    double j = s * (Math.log(k / delta) - Math.log1p(q));
    long jj = (long) Math.ceil(j);
    if (Math.abs(j - Math.rint(j)) <= 1e-9 * Math.max(1, Math.abs(j))) {
      jj = (long) Math.rint(j) + 1;
    }
    return Math.max(2, 1 + Math.max(1, jj));
  }

  /** The noise scale {@code s = k/ε}. */
  public Rational scale() {
    return scale;
  }

  /** The threshold {@code τ}: a leaf is released iff its noisy count is {@code >= τ}. */
  public long threshold() {
    return threshold;
  }

  /** The number {@code k} of leaves one unit can change. */
  public long cellsChanged() {
    return cells;
  }

  public BigDecimal epsilon() {
    return epsilon;
  }

  public BigDecimal delta() {
    return delta;
  }

  /** The released thresholded leaves, summed up the tree (non-negative, consistent). */
  public HierarchicalCounts release(HierarchicalCounts data, RandomBits random) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(random, "random");
    if (!data.isNonNegative()) {
      throw new IllegalArgumentException("the data tree has negative counts");
    }
    TreeDomain domain = data.domain();
    SparseLevel leaves = data.level(domain.depth());
    long[] ids = new long[leaves.size()];
    long[] vals = new long[leaves.size()];
    int out = 0;
    for (int i = 0; i < leaves.size(); i++) {
      long v =
          Math.addExact(leaves.value(i), ExactSamplers.discreteLaplace(random, scale).longValueExact());
      if (v >= threshold) {
        ids[out] = leaves.id(i);
        vals[out++] = v;
      }
    }
    return HierarchicalCounts.fromLeafCounts(domain, Arrays.copyOf(ids, out), Arrays.copyOf(vals, out));
  }

  @Override
  public String toString() {
    return "StabilityHistogram[eps=" + epsilon + ", delta=" + delta + ", scale=" + scale
        + ", threshold=" + threshold + "]";
  }
}
