package org.dpsql.hierarchy;

import java.util.Arrays;
import java.util.Objects;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The VanillaGauss baseline: discrete Gaussian noise on <em>every</em> leaf of the full public
 * domain (zeros included), inner levels obtained by summing the noisy leaves (Proposition 1 of the
 * paper: error {@code O(b^{(T−ℓ)/2} √(ℓ/ρ log(b/β)))} at level ℓ, worst at the top).
 *
 * <p><b>Privacy guarantee.</b> {@code ρ}-zCDP with respect to the given neighbouring relation,
 * provided units contribute as declared: the leaf vector has squared L2 sensitivity {@code Δ² =}
 * {@link Contribution#squaredL2Sensitivity}{@code (neighbouring, true)} and gets {@code N_Z(0, σ²)},
 * {@code σ² = Δ²/(2ρ)}, on every coordinate (CKS Theorem 4); the sums are post-processing. The total
 * is not released separately (under bounded DP it is public anyway).
 *
 * <p>Output: a hierarchical (consistent) integer tree whose values may be negative; cost {@code
 * O(|leaves|)} noise draws — infeasible for huge domains, as the paper notes.
 */
public final class VanillaGauss {
  private final Rational rho;
  private final Rational sigmaSquared;

  /**
   * @throws IllegalArgumentException if {@code rho <= 0}
   */
  public VanillaGauss(Rational rho, Neighbouring neighbouring, Contribution contribution) {
    Objects.requireNonNull(rho, "rho");
    Objects.requireNonNull(neighbouring, "neighbouring");
    Objects.requireNonNull(contribution, "contribution");
    if (rho.signum() <= 0) {
      throw new IllegalArgumentException("rho must be positive: " + rho);
    }
    this.rho = rho;
    this.sigmaSquared =
        Rational.of(contribution.squaredL2Sensitivity(neighbouring, true)).divide(rho.multiply(2));
  }

  /** The zCDP parameter charged. */
  public Rational rho() {
    return rho;
  }

  /** The leaf noise variance {@code σ² = Δ²/(2ρ)}. */
  public Rational sigmaSquared() {
    return sigmaSquared;
  }

  /**
   * Noisy leaves over the full public domain, summed up the tree.
   *
   * @throws IllegalArgumentException if the leaf domain exceeds {@code Integer.MAX_VALUE - 8}
   */
  public HierarchicalCounts release(HierarchicalCounts data, RandomBits random) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(random, "random");
    TreeDomain domain = data.domain();
    long leaves = domain.levelSize(domain.depth());
    if (leaves > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("leaf domain too large for VanillaGauss: " + leaves);
    }
    SparseLevel truth = data.level(domain.depth());
    long[] ids = new long[(int) Math.min(leaves, 1 << 16)];
    long[] vals = new long[ids.length];
    int out = 0;
    int next = 0; // position in truth (ids ascending)
    for (long leaf = 0; leaf < leaves; leaf++) {
      long count = 0;
      if (next < truth.size() && truth.id(next) == leaf) {
        count = truth.value(next++);
      }
      long v = Math.addExact(count, ExactSamplers.discreteGaussian(random, sigmaSquared).longValueExact());
      if (v != 0) {
        if (out == ids.length) {
          ids = Arrays.copyOf(ids, ids.length * 2);
          vals = Arrays.copyOf(vals, vals.length * 2);
        }
        ids[out] = leaf;
        vals[out++] = v;
      }
    }
    return HierarchicalCounts.fromSignedLeafValues(
        domain, Arrays.copyOf(ids, out), Arrays.copyOf(vals, out));
  }

  @Override
  public String toString() {
    return "VanillaGauss[rho=" + rho + ", sigma^2=" + sigmaSquared + "]";
  }
}
