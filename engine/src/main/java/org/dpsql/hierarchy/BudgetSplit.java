package org.dpsql.hierarchy;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * How a TopDown mechanism splits its total zCDP budget {@code ρ} over the perturbed levels
 * (levels {@code 1..T}, plus the root under unbounded DP). A level {@code ℓ} with squared
 * sensitivity {@code Δ_ℓ²} and budget {@code ρ_ℓ} gets discrete Gaussian noise {@code σ_ℓ² =
 * Δ_ℓ²/(2ρ_ℓ)}.
 *
 * <p>Guarantee: {@link #allocate} returns exact rationals {@code ρ_ℓ > 0} on the perturbed levels
 * and 0 elsewhere with {@code Σ ρ_ℓ = ρ} <em>exactly</em> (so by zCDP composition the mechanism is
 * ρ-zCDP); the split depends only on public quantities.
 *
 * <ul>
 *   <li>{@link #uniform()} — the paper's split (Algorithm 1 and 3 draw {@code N_Z(0, T/ρ)} on every
 *       perturbed level): the same {@code σ²} everywhere, {@code σ² = ΣΔ_ℓ²/(2ρ)}, i.e. {@code ρ_ℓ =
 *       ρ·Δ_ℓ²/ΣΔ²}; with {@code Δ² = 2} on all {@code T} levels (bounded, one record) this is
 *       {@code ρ/T} per level and {@code σ² = T/ρ}.
 *   <li>{@link #weighted(double...)} — minimises the stated objective {@code Σ_ℓ a_ℓ σ_ℓ} subject to
 *       {@code Σ_ℓ Δ_ℓ²/(2σ_ℓ²) = ρ}. Lagrange: {@code a_ℓ = λ Δ_ℓ²/σ_ℓ³}, so {@code σ_ℓ ∝ (Δ_ℓ²/
 *       a_ℓ)^{1/3}} and {@code ρ_ℓ ∝ (a_ℓ Δ_ℓ)^{2/3}}. The proportions are computed in floating point
 *       and rounded to 12 decimal digits before the exact normalisation, so they are optimal to that
 *       precision and the sum is still exactly {@code ρ}.
 *   <li>{@link #zoomIn()} — the weighted split for the objective "sum over levels of the Theorem 4
 *       error bound": by the proof of Theorem 4 the error at level {@code ℓ} is at most {@code |root
 *       noise| + 2 Σ_{k<=ℓ} ||noise_k||_∞}, so summing over {@code ℓ = 1..T} weights the noise of
 *       level {@code k} by {@code a_k = 2(T − k + 1)} and the root (unbounded) by {@code a_0 = T}
 *       (common tail factors cancel). It gives coarse levels more budget.
 * </ul>
 */
public final class BudgetSplit {
  private static final BigInteger SCALE = BigInteger.TEN.pow(12);
  private static final BudgetSplit UNIFORM = new BudgetSplit(Kind.UNIFORM, null);
  private static final BudgetSplit ZOOM_IN = new BudgetSplit(Kind.ZOOM_IN, null);

  private enum Kind {
    UNIFORM,
    WEIGHTED,
    ZOOM_IN
  }

  private final Kind kind;
  private final double[] weights;

  private BudgetSplit(Kind kind, double[] weights) {
    this.kind = kind;
    this.weights = weights;
  }

  /** The paper's split: the same noise variance on every perturbed level. */
  public static BudgetSplit uniform() {
    return UNIFORM;
  }

  /** Minimises {@code Σ a_ℓ σ_ℓ} (sum of Theorem-4 level bounds); see the class comment. */
  public static BudgetSplit zoomIn() {
    return ZOOM_IN;
  }

  /**
   * Minimises {@code Σ_ℓ a_ℓ σ_ℓ} with {@code a = levelWeights} indexed by level {@code 0..T}
   * ({@code a_0}, the root's weight, is used under unbounded DP only).
   *
   * @throws IllegalArgumentException if a weight of a perturbed level is not positive and finite
   *     (checked by {@link #allocate}) or a weight is negative or not finite
   */
  public static BudgetSplit weighted(double... levelWeights) {
    Objects.requireNonNull(levelWeights, "levelWeights");
    for (double w : levelWeights) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weights must be finite and >= 0: " + Arrays.toString(levelWeights));
      }
    }
    return new BudgetSplit(Kind.WEIGHTED, levelWeights.clone());
  }

  /**
   * The error weights {@code a_ℓ} of this split for depth {@code T} (all 1 for the uniform split,
   * whose noise is equal rather than weight-optimal).
   */
  public double[] errorWeights(int depth) {
    double[] a = new double[depth + 1];
    switch (kind) {
      case UNIFORM:
        Arrays.fill(a, 1);
        return a;
      case ZOOM_IN:
        a[0] = depth;
        for (int k = 1; k <= depth; k++) {
          a[k] = 2.0 * (depth - k + 1);
        }
        return a;
      default:
        if (weights.length != depth + 1) {
          throw new IllegalArgumentException(
              "expected " + (depth + 1) + " level weights (levels 0.." + depth + "), got " + weights.length);
        }
        return weights.clone();
    }
  }

  /**
   * Splits {@code rho} over the levels {@code 0..T} with the given squared sensitivities ({@code
   * null} or zero = the level is not perturbed, e.g. the public root under bounded DP).
   *
   * @return {@code ρ_ℓ} per level, exact, summing to {@code rho}
   * @throws IllegalArgumentException if {@code rho <= 0} or no level is perturbed
   */
  public Rational[] allocate(Rational rho, long[] squaredSensitivity) {
    Objects.requireNonNull(rho, "rho");
    if (rho.signum() <= 0) {
      throw new IllegalArgumentException("rho must be positive: " + rho);
    }
    int levels = squaredSensitivity.length;
    int depth = levels - 1;
    Rational[] share = new Rational[levels];
    Rational total = Rational.ZERO;
    double[] a = errorWeights(depth);
    double[] w = new double[levels];
    double maxW = 0;
    for (int l = 0; l < levels; l++) {
      if (squaredSensitivity[l] <= 0) {
        continue;
      }
      if (kind == Kind.UNIFORM) {
        share[l] = Rational.of(squaredSensitivity[l]);
      } else {
        if (!(a[l] > 0) || Double.isInfinite(a[l])) {
          throw new IllegalArgumentException("level " + l + " is perturbed but its weight is " + a[l]);
        }
        w[l] = Math.pow(a[l] * Math.sqrt((double) squaredSensitivity[l]), 2.0 / 3.0);
        maxW = Math.max(maxW, w[l]);
      }
    }
    for (int l = 0; l < levels; l++) {
      if (squaredSensitivity[l] <= 0) {
        continue;
      }
      if (kind != Kind.UNIFORM) {
        long scaled = Math.max(1, Math.round(w[l] / maxW * SCALE.doubleValue()));
        share[l] = Rational.of(BigInteger.valueOf(scaled), SCALE);
      }
      total = total.add(share[l]);
    }
    if (total.signum() == 0) {
      throw new IllegalArgumentException("no level is perturbed");
    }
    Rational[] out = new Rational[levels];
    for (int l = 0; l < levels; l++) {
      out[l] = share[l] == null ? Rational.ZERO : rho.multiply(share[l]).divide(total);
    }
    return out;
  }

  /**
   * The objective {@code Σ a_ℓ σ_ℓ} of a split (floating point, for reports and tests), over the
   * perturbed levels ({@code sigmaSquared[ℓ] != null}).
   */
  public static double objective(double[] errorWeights, Rational[] sigmaSquared) {
    double s = 0;
    for (int l = 0; l < sigmaSquared.length; l++) {
      if (sigmaSquared[l] != null) {
        s += errorWeights[l] * Math.sqrt(sigmaSquared[l].doubleValue());
      }
    }
    return s;
  }

  @Override
  public String toString() {
    switch (kind) {
      case UNIFORM:
        return "uniform";
      case ZOOM_IN:
        return "zoom-in";
      default:
        return "weighted" + Arrays.toString(weights);
    }
  }
}
