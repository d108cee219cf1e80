package org.dpsql.adaptive;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.Rational;

/**
 * Calibration of SafeTab budgets to a target 95% margin of error (MOE) of the step-2 counts (Haney
 * et al., Appendix D.3, E.2, F.1): first the base-mechanism parameter for one count, then the level
 * budget {@code s · base / (1 − γ)} (each group gets budget/s, and step 2 gets the fraction 1 − γ
 * of it).
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>{@link #exactGeometricEpsilon} / {@link #exactDiscreteGaussianRho}: the exact MOE (see
 *       {@link MarginOfError}) of a count at that ε/ρ — or any larger one — is at most the target.
 *   <li>{@link #corollary2Epsilon} = ln 20/(⌊MOE⌋ + 1) and {@link #corollary4Rho} = 1.92/⌊MOE⌋² are
 *       the paper's closed forms, reproduced as printed. Corollary 4 does meet the target exactly;
 *       Corollary 2 does <em>not</em>: at its ε, P[|Z| ≤ MOE] = 1 − 0.1/(1 + q) ≈ 0.94 (q =
 *       e^{−ε}), so the exact MOE is target + 1 (the floor in eq. 36 should be a ceiling).
 *   <li>{@link #levelBudget} rounds the level budget <em>up</em> to the requested significant
 *       digits, so the per-count budget is at least the base parameter and the MOE guarantee of the
 *       base parameter carries over; the rounded value is the exact budget the level spends.
 * </ul>
 */
public final class MoeCalibration {
  private static final double TAIL = 0.05;

  private MoeCalibration() {}

  /** Corollary 2 (eq. 38): ε = ln 20/(⌊MOE⌋ + 1). Exact MOE at this ε is MOE + 1 (see above). */
  public static double corollary2Epsilon(long moe) {
    requireMoe(moe, 0);
    return Math.log(20) / (moe + 1);
  }

  /** Corollary 4 (eq. 37): ρ = 1.92/⌊MOE⌋². */
  public static double corollary4Rho(long moe) {
    requireMoe(moe, 1);
    return 1.92 / ((double) moe * moe);
  }

  /**
   * The smallest ε (to within 10⁻¹² relative, rounded towards larger ε) at which discrete Laplace
   * noise of scale 1/ε has exact 95% MOE ≤ {@code moe}: the solution q of 2q^{moe+1}/(1+q) = 0.05,
   * ε = −ln q (P[|Z| &gt; m] = 2q^{m+1}/(1+q) exactly).
   */
  public static double exactGeometricEpsilon(long moe) {
    requireMoe(moe, 0);
    double lo = 0; // q = 0: tail 0 (fine)
    double hi = 1; // q = 1: tail 1 (too wide)
    for (int i = 0; i < 200; i++) {
      double q = (lo + hi) / 2;
      double tail = 2 * Math.exp((moe + 1) * Math.log(q)) / (1 + q);
      if (tail <= TAIL) {
        lo = q;
      } else {
        hi = q;
      }
    }
    double eps = -Math.log(lo); // lo meets the target; larger ε (smaller q) also does
    return eps * (1 + 1e-12);
  }

  /**
   * The smallest ρ (to within 10⁻⁹ relative, rounded up) at which discrete Gaussian noise with σ² =
   * 1/(2ρ) has exact 95% MOE ≤ {@code moe}, found by bisection on σ² with the exact tail of {@link
   * DiscreteGaussianDistribution}.
   */
  public static double exactDiscreteGaussianRho(long moe) {
    requireMoe(moe, 1);
    double lo = 1e-6; // σ² small: MOE 0 ≤ moe
    double hi = 4.0 * (moe + 1) * (moe + 1); // σ ≥ 2(moe+1): 1.96σ > moe+1, too wide
    for (int i = 0; i < 80 && hi - lo > 1e-10 * hi; i++) {
      double s2 = (lo + hi) / 2;
      if (new DiscreteGaussianDistribution(Rational.ofDouble(s2)).tailAbs(moe) <= TAIL) {
        lo = s2;
      } else {
        hi = s2;
      }
    }
    return 1 / (2 * lo) * (1 + 1e-9);
  }

  /**
   * The level budget whose step-2 counts get {@code basePerCount}: {@code stability · basePerCount
   * / (1 − γ)}, rounded up to {@code significantDigits}.
   *
   * @param basePerCount ε or ρ of one step-2 count, &gt; 0
   * @param stability s ≥ 1
   * @param gamma γ ∈ (0, 1), the step-1 fraction
   * @param significantDigits ≥ 1
   */
  public static BigDecimal levelBudget(
      double basePerCount, int stability, BigDecimal gamma, int significantDigits) {
    if (!(basePerCount > 0) || Double.isInfinite(basePerCount)) {
      throw new IllegalArgumentException("base budget must be finite and > 0, got " + basePerCount);
    }
    if (stability < 1) {
      throw new IllegalArgumentException("stability must be >= 1, got " + stability);
    }
    requireGamma(gamma);
    if (significantDigits < 1) {
      throw new IllegalArgumentException(
          "significant digits must be >= 1, got " + significantDigits);
    }
    BigDecimal exact =
        new BigDecimal(basePerCount)
            .multiply(BigDecimal.valueOf(stability))
            .divide(BigDecimal.ONE.subtract(gamma), MathContext.DECIMAL128);
    return exact.round(new MathContext(significantDigits, RoundingMode.UP)).stripTrailingZeros();
  }

  /** The step-2 part (1 − γ)·budget of a level budget, exactly. */
  public static BigDecimal stepTwoBudget(BigDecimal levelBudget, BigDecimal gamma) {
    Objects.requireNonNull(levelBudget, "levelBudget");
    requireGamma(gamma);
    return levelBudget.multiply(BigDecimal.ONE.subtract(gamma));
  }

  private static void requireGamma(BigDecimal gamma) {
    Objects.requireNonNull(gamma, "gamma");
    if (gamma.signum() <= 0 || gamma.compareTo(BigDecimal.ONE) >= 0) {
      throw new IllegalArgumentException("gamma must be in (0, 1), got " + gamma.toPlainString());
    }
  }

  private static void requireMoe(long moe, long min) {
    if (moe < min) {
      throw new IllegalArgumentException("target MOE must be >= " + min + ", got " + moe);
    }
  }
}
