package org.dpsql.hierarchy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;
import org.dpsql.accounting.Conversions;
import org.dpsql.mechanism.Rational;

/**
 * The privacy budget of a TopDown release over a tree of depth {@code T}: the total zCDP parameter
 * {@code ρ}, its split over the perturbed levels, and the discrete Gaussian variance of each level.
 *
 * <p>Guarantees (all exact rationals): {@code Σ_ℓ levelRho(ℓ) = ρ} ({@link #totalRho()} equals
 * {@link #rho()}); on every perturbed level {@code σ_ℓ² = Δ_ℓ²/(2ρ_ℓ)} with {@code Δ_ℓ²} from
 * {@link Contribution#squaredL2Sensitivity}, so adding {@code N_Z(0, σ_ℓ²)} independently to every
 * node of level {@code ℓ} in the public domain is {@code ρ_ℓ}-zCDP (Canonne–Kamath–Steinke, Thm. 4;
 * the noise on only the children of kept nodes is a sub-vector chosen by earlier, already private
 * outputs) and the whole release is {@code ρ}-zCDP by composition (Theorem 2 / Theorem B.1).
 * Under {@link Neighbouring#BOUNDED} the root is public and not perturbed; under {@link
 * Neighbouring#UNBOUNDED} it is perturbed with {@code Δ_0² = m²}. With the uniform split, bounded
 * DP and one record per unit, {@code σ² = T/ρ} on every level — the paper's Algorithm 1.
 */
public final class TopDownBudget {
  private final Rational rho;
  private final int depth;
  private final Neighbouring neighbouring;
  private final Contribution contribution;
  private final BudgetSplit split;
  private final long[] squaredSensitivity;
  private final Rational[] levelRho;
  private final Rational[] sigmaSquared;

  private TopDownBudget(
      Rational rho, int depth, Neighbouring neighbouring, Contribution contribution, BudgetSplit split) {
    this.rho = rho;
    this.depth = depth;
    this.neighbouring = neighbouring;
    this.contribution = contribution;
    this.split = split;
    this.squaredSensitivity = new long[depth + 1];
    squaredSensitivity[0] =
        neighbouring == Neighbouring.UNBOUNDED ? contribution.squaredRootSensitivity() : 0;
    for (int l = 1; l <= depth; l++) {
      squaredSensitivity[l] = contribution.squaredL2Sensitivity(neighbouring, l == depth);
    }
    this.levelRho = split.allocate(rho, squaredSensitivity);
    this.sigmaSquared = new Rational[depth + 1];
    for (int l = 0; l <= depth; l++) {
      if (squaredSensitivity[l] > 0) {
        sigmaSquared[l] = Rational.of(squaredSensitivity[l]).divide(levelRho[l].multiply(2));
      }
    }
  }

  /**
   * The budget {@code rho} for a tree of the given depth.
   *
   * @throws IllegalArgumentException if {@code rho <= 0} or {@code depth < 1}
   */
  public static TopDownBudget of(
      Rational rho, int depth, Neighbouring neighbouring, Contribution contribution, BudgetSplit split) {
    Objects.requireNonNull(rho, "rho");
    Objects.requireNonNull(neighbouring, "neighbouring");
    Objects.requireNonNull(contribution, "contribution");
    Objects.requireNonNull(split, "split");
    if (rho.signum() <= 0) {
      throw new IllegalArgumentException("rho must be positive: " + rho);
    }
    if (depth < 1) {
      throw new IllegalArgumentException("depth must be >= 1: " + depth);
    }
    return new TopDownBudget(rho, depth, neighbouring, contribution, split);
  }

  /** The paper's setting: bounded DP, one record per unit, uniform split ({@code σ² = T/ρ}). */
  public static TopDownBudget paper(Rational rho, int depth) {
    return of(rho, depth, Neighbouring.BOUNDED, Contribution.ONE, BudgetSplit.uniform());
  }

  /**
   * The largest {@code ρ} whose zCDP guarantee implies {@code (ε, δ)}-DP, inverting {@code ε = ρ +
   * 2√(ρ ln(1/δ))} (Bun–Steinke Prop. 1.3, the paper's Lemma 3) — how the paper converts its (ε, δ)
   * to ρ — rounded <em>down</em> to {@value #RHO_SIGNIFICANT_DIGITS} significant digits. Rounding
   * down keeps the (ε, δ) guarantee and costs less than 0.1% of the budget; it keeps {@code σ²} a
   * fraction with small numerator and denominator, which the exact sampler draws faster than the
   * 12-digit value of {@link Conversions#epsilonToZcdpRho}.
   *
   * @throws IllegalArgumentException if {@code ε <= 0} or {@code δ} is not in (0, 1)
   */
  public static Rational rhoForApproxDp(BigDecimal epsilon, BigDecimal delta) {
    Objects.requireNonNull(epsilon, "epsilon");
    if (epsilon.signum() <= 0) {
      throw new IllegalArgumentException("epsilon must be positive: " + epsilon);
    }
    BigDecimal r =
        Conversions.epsilonToZcdpRho(epsilon, delta)
            .round(new MathContext(RHO_SIGNIFICANT_DIGITS, RoundingMode.DOWN));
    if (r.signum() <= 0) {
      throw new IllegalArgumentException("epsilon too small for a positive rho: " + epsilon);
    }
    return Rational.of(r);
  }

  /** Significant digits kept by {@link #rhoForApproxDp}. */
  public static final int RHO_SIGNIFICANT_DIGITS = 4;

  /** The total zCDP parameter charged. */
  public Rational rho() {
    return rho;
  }

  /** The tree depth {@code T}. */
  public int depth() {
    return depth;
  }

  public Neighbouring neighbouring() {
    return neighbouring;
  }

  public Contribution contribution() {
    return contribution;
  }

  public BudgetSplit split() {
    return split;
  }

  /** Whether level {@code ℓ} is perturbed (all levels {@code >= 1}; the root only if unbounded). */
  public boolean isPerturbed(int level) {
    checkLevel(level);
    return squaredSensitivity[level] > 0;
  }

  /** The squared L2 sensitivity {@code Δ_ℓ²} of level {@code ℓ} (0 for the public root). */
  public long squaredSensitivity(int level) {
    checkLevel(level);
    return squaredSensitivity[level];
  }

  /** The zCDP budget {@code ρ_ℓ} of level {@code ℓ} (0 if not perturbed). */
  public Rational levelRho(int level) {
    checkLevel(level);
    return levelRho[level];
  }

  /**
   * The discrete Gaussian variance parameter {@code σ_ℓ² = Δ_ℓ²/(2ρ_ℓ)} of level {@code ℓ}.
   *
   * @throws IllegalArgumentException if the level is not perturbed
   */
  public Rational sigmaSquared(int level) {
    checkLevel(level);
    if (sigmaSquared[level] == null) {
      throw new IllegalArgumentException("level " + level + " is not perturbed (public root)");
    }
    return sigmaSquared[level];
  }

  /** {@code Σ_ℓ ρ_ℓ}, exactly; equals {@link #rho()}. */
  public Rational totalRho() {
    Rational s = Rational.ZERO;
    for (Rational r : levelRho) {
      s = s.add(r);
    }
    return s;
  }

  /** The {@code σ_ℓ²} of all levels, {@code null} where not perturbed (for reports). */
  public Rational[] sigmaSquaredPerLevel() {
    return sigmaSquared.clone();
  }

  private void checkLevel(int level) {
    if (level < 0 || level > depth) {
      throw new IllegalArgumentException("level " + level + " out of range [0, " + depth + "]");
    }
  }

  @Override
  public String toString() {
    return "TopDownBudget[rho=" + rho + ", T=" + depth + ", " + neighbouring + ", " + contribution
        + ", split=" + split + "]";
  }
}
