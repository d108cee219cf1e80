package org.dpsql.release;

import java.math.BigDecimal;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.mechanism.DiscreteGaussianMechanism;
import org.dpsql.mechanism.GeometricMechanism;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * Private selection of the groups of a {@code GROUP BY} over keys that no policy lists ({@code
 * keys: private}): a group is released when its number of distinct units, plus integer noise,
 * reaches a threshold τ (the thresholding of Korolova et al. 2009 and Wilson et al. 2020, with
 * exact discrete noise).
 *
 * <p>Input: the number of distinct units of each non-empty group, after each unit was bounded to
 * at most {@code g} groups (g = min(max_groups_per_unit, max_rows_per_unit), see {@code
 * MeasurementSql#partitions}). Adding or removing a unit u then changes at most g groups' counts,
 * each by exactly 1; among them, the groups that only u holds appear or disappear.
 *
 * <p>Guarantees, for neighbouring data D (without u) and D' (with u):
 * <ul>
 *   <li>{@link #geometric} (approx accounting), noise Z ~ DLap(g/ε): on the groups present in
 *       both, the noisy counts form the geometric mechanism with L1 sensitivity g, ε-DP, and
 *       thresholding is post-processing. A group only u holds has count 1 and is released with
 *       probability P[Z ≥ τ−1] = a^(τ−1)/(1+a), a = e^(−ε/g); τ is the smallest integer with g
 *       times that ≤ δ. Since the groups' noises are independent, the release is (ε, δ)-DP (for
 *       any event S: P[M(D) ∈ S] ≤ e^ε P[M(D') ∈ S] + δ, and symmetrically).</li>
 *   <li>{@link #gaussian} (zCDP accounting), noise Z ~ N_Z(0, σ²), σ² = g/(2ρ): on the groups
 *       present in both, the L2 sensitivity is √g, so ρ-zCDP (Canonne, Kamath and Steinke 2020,
 *       Thm. 4). The discrete Gaussian is sub-Gaussian (ibid., P[Z ≥ t] ≤ e^(−t²/(2σ²))), so a
 *       group only u holds is released with probability at most that bound at t = τ − 1, and τ is
 *       the smallest integer with g times it ≤ δ. Conditioned on no such group being released
 *       (probability ≥ 1 − δ) the output is that of the ρ-zCDP part: the release is δ-approximately
 *       ρ-zCDP (Bun and Steinke 2016, Def. 1.8), charged as ρ and δ.</li>
 * </ul>
 * Under pure ε-DP no mechanism can release a group that one unit alone may create, so there is
 * no pure variant.
 */
public final class PartitionSelection {
  private final NoiseMechanism noise;
  private final long threshold;
  private final PrivacyCost charge;
  private final int groupsPerUnit;
  private final double releaseBound;

  private PartitionSelection(NoiseMechanism noise, long threshold, PrivacyCost charge,
      int groupsPerUnit, double releaseBound) {
    this.noise = noise;
    this.threshold = threshold;
    this.charge = charge;
    this.groupsPerUnit = groupsPerUnit;
    this.releaseBound = releaseBound;
  }

  /**
   * The (ε, δ)-DP selection with discrete Laplace noise of scale g/ε.
   *
   * @param groupsPerUnit g, the most groups one unit's bounded rows reach
   */
  public static PartitionSelection geometric(BigDecimal epsilon, BigDecimal delta,
      int groupsPerUnit) {
    GeometricMechanism m = new GeometricMechanism(Rational.of(epsilon), groupsPerUnit);
    double rate = epsilon.doubleValue() / groupsPerUnit; // a = e^(-rate)
    double logA1 = Math.log1p(Math.exp(-rate)); // ln(1 + a)
    double target = Math.log(delta.doubleValue()) - Math.log(groupsPerUnit); // ln(δ/g)
    // smallest t >= 0 with -rate*t - ln(1+a) <= ln(δ/g), then checked again with a margin
    long t = Math.max(0, (long) Math.ceil((-target - logA1) / rate));
    while (-rate * t - logA1 > target - 1e-12 * Math.abs(target)) {
      t++;
    }
    double bound = groupsPerUnit * Math.exp(-rate * t - logA1);
    return new PartitionSelection(NoiseMechanism.of(m), t + 1,
        PrivacyCost.approx(epsilon, delta), groupsPerUnit, bound);
  }

  /**
   * The δ-approximately ρ-zCDP selection with discrete Gaussian noise of variance g/(2ρ).
   *
   * @param groupsPerUnit g, the most groups one unit's bounded rows reach
   */
  public static PartitionSelection gaussian(BigDecimal rho, BigDecimal delta, int groupsPerUnit) {
    // σ² = g/(2ρ): sensitivity 1 at ρ/g is the same noise as sensitivity √g at ρ
    DiscreteGaussianMechanism m =
        new DiscreteGaussianMechanism(Rational.of(rho).divide(groupsPerUnit), 1);
    double sigma2 = m.sigmaSquared().doubleValue();
    double target = Math.log(groupsPerUnit) - Math.log(delta.doubleValue()); // ln(g/δ)
    // smallest t >= 0 with t²/(2σ²) >= ln(g/δ), checked again with a margin
    long t = Math.max(0, (long) Math.ceil(Math.sqrt(2 * sigma2 * Math.max(0, target))));
    while (t * (double) t / (2 * sigma2) < target + 1e-12 * Math.abs(target)) {
      t++;
    }
    double bound = groupsPerUnit * Math.exp(-t * (double) t / (2 * sigma2));
    return new PartitionSelection(NoiseMechanism.of(m), t + 1,
        new PrivacyCost(BigDecimal.ZERO, delta, rho), groupsPerUnit, bound);
  }

  /** Whether a group with {@code units} distinct units is released (draws its noise). */
  public boolean releases(long units, RandomBits random) {
    return noise.release(units, random) >= threshold;
  }

  /** τ: the noisy count a group needs to be released. */
  public long threshold() {
    return threshold;
  }

  /** What the selection costs: (ε, δ) under approx accounting, ρ and δ under zCDP. */
  public PrivacyCost charge() {
    return charge;
  }

  /** g: the most groups one unit reaches. */
  public int groupsPerUnit() {
    return groupsPerUnit;
  }

  /**
   * The bound on the probability that one unit's own groups (at most g, each held by it alone)
   * are released, at most δ.
   */
  public double releaseBound() {
    return releaseBound;
  }

  /** The noise added to each group's unit count. */
  public NoiseMechanism noise() {
    return noise;
  }

  /** E.g. {@code geometric(ε=0.5, Δ=1) ≥ τ=29}. */
  public String describe() {
    return noise.describe() + " ≥ τ=" + threshold;
  }
}
