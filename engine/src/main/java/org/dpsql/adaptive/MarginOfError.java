package org.dpsql.adaptive;

import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;

/**
 * 95% margins of error (MOE) of SafeTab's noise: the paper's closed forms and the exact values.
 *
 * <p>Guarantees: {@link #geometric} and {@link #discreteGaussian} are exact — the smallest integer
 * m with P[|Z| ≤ m] ≥ 0.95 under the exact noise distribution — and these are what {@link
 * TabulatedCount#marginOfError95()} reports. The paper's forms are provided to compare with:
 *
 * <ul>
 *   <li>{@link #paperGeometric} = ⌊b ln(40/(1 + e^{1/b}))⌋ (eq. 36). Its derivation (eqs. 34–35)
 *       needs m ≥ b ln(40/(1 + e^{1/b})), i.e. the <em>ceiling</em>; the floor is one too small
 *       whenever the argument is not an integer, so its coverage can fall below 95% (at b = 7/ln
 *       20, the scale of Corollary 2 for MOE 6, P[|Z| ≤ 6] = 0.9395). The exact MOE equals the
 *       ceiling.
 *   <li>{@link #paperDiscreteGaussian} = ⌊1.96σ⌋ (Appendix E.2). Not guaranteed in general (the
 *       tail bound of CKS Prop. 25 gives ⌈1.96σ⌉); it agrees with the exact value at the σ of
 *       Corollary 4 but can be one below it elsewhere.
 * </ul>
 */
public final class MarginOfError {
  private MarginOfError() {}

  /** The exact 95% MOE of discrete Laplace noise with the given scale b. */
  public static long geometric(Rational scale) {
    return new DiscreteLaplaceDistribution(scale).quantileAbs(0.95);
  }

  /** The exact 95% MOE of discrete Gaussian noise with parameter σ². */
  public static long discreteGaussian(Rational sigmaSquared) {
    return new DiscreteGaussianDistribution(sigmaSquared).quantileAbs(0.95);
  }

  /** The paper's eq. 36, ⌊b ln(40/(1 + e^{1/b}))⌋ (not a guaranteed MOE: see class comment). */
  public static long paperGeometric(double scale) {
    requirePositive(scale, "scale");
    return (long) Math.floor(scale * Math.log(40 / (1 + Math.exp(1 / scale))));
  }

  /** The paper's ⌊1.96σ⌋ (not a guaranteed MOE: see class comment). */
  public static long paperDiscreteGaussian(double sigmaSquared) {
    requirePositive(sigmaSquared, "sigma^2");
    return (long) Math.floor(1.96 * Math.sqrt(sigmaSquared));
  }

  private static void requirePositive(double v, String name) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be finite and > 0, got " + v);
    }
  }
}
