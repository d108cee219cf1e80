package org.dpsql.matrix.mechanism;

import org.apache.commons.math3.special.Erf;

/**
 * Calibration of the <em>continuous</em> Gaussian mechanism {@code f(x) + N(0, σ²I)} for (ε, δ)-DP,
 * for comparison and reporting: the analytic calibration of Balle and Wang ("Improving the Gaussian
 * Mechanism for Differential Privacy: Analytical Calibration and Optimal Denoising", ICML 2018,
 * Theorem 8) and the classical bound {@code σ = Δ √(2 ln(1.25/δ)) / ε} (Dwork–Roth 2014, Thm. A.1,
 * proven only for {@code ε < 1}).
 *
 * <p>Balle–Wang: with L2 sensitivity Δ the continuous Gaussian mechanism is (ε, δ)-DP if and only
 * if {@code Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ}; {@link #sigma} returns the smallest such
 * σ (the left side decreases in σ), found by bisection to a relative {@code 1e-13} and then rounded
 * <em>up</em> by a relative {@code 1e-9}, far above the error of evaluating {@code Φ} (commons-math
 * {@code erfc}, relative error around {@code 1e-15}) so the returned σ satisfies the inequality.
 *
 * <p><strong>Not used for releases.</strong> Both calibrations assume continuous Gaussian noise.
 * The matrix mechanism adds the multivariate <em>discrete</em> Gaussian on a lattice, whose proven
 * guarantee is ρ-zCDP (Canonne–Kamath–Steinke 2020); its (ε, δ) releases are calibrated through
 * {@link ZcdpToApproxDp} instead (see {@link NoiseSpec#approxDp}). This class exists so the cost
 * of that rigour can be measured. Stateless.
 */
public final class AnalyticGaussian {
  private static final double SQRT2 = Math.sqrt(2);

  private AnalyticGaussian() {}

  /** The standard normal CDF {@code Φ(x) = erfc(−x/√2)/2}. */
  static double phi(double x) {
    return 0.5 * Erf.erfc(-x / SQRT2);
  }

  /**
   * The exact δ of the continuous Gaussian mechanism with noise σ at ε (Balle–Wang Theorem 8):
   * {@code Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ)}.
   */
  public static double delta(double sigma, double epsilon, double sensitivity) {
    check(epsilon, sensitivity);
    if (!(sigma > 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be positive and finite: " + sigma);
    }
    double a = sensitivity / (2 * sigma);
    double b = epsilon * sigma / sensitivity;
    double second = Math.exp(epsilon + Math.log(phi(-a - b)));
    return Math.max(0, phi(a - b) - second);
  }

  /**
   * The smallest σ (rounded up, see the class comment) for which the continuous Gaussian mechanism
   * with L2 sensitivity {@code sensitivity} is (ε, δ)-DP.
   *
   * @throws IllegalArgumentException if ε ≤ 0, δ ∉ (0, 1) or the sensitivity is not positive
   */
  public static double sigma(double epsilon, double delta, double sensitivity) {
    check(epsilon, sensitivity);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1): " + delta);
    }
    double lo = sensitivity;
    while (delta(lo, epsilon, sensitivity) <= delta) {
      lo /= 2;
    }
    double hi = sensitivity;
    while (delta(hi, epsilon, sensitivity) > delta) {
      hi *= 2;
    }
    while (hi - lo > 1e-13 * hi) {
      double mid = 0.5 * (lo + hi);
      if (delta(mid, epsilon, sensitivity) <= delta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi * (1 + 1e-9);
  }

  /**
   * The classical calibration {@code Δ √(2 ln(1.25/δ)) / ε} (Dwork–Roth 2014, Theorem A.1; proven for
   * the continuous Gaussian and {@code ε < 1} only).
   */
  public static double classicalSigma(double epsilon, double delta, double sensitivity) {
    check(epsilon, sensitivity);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1): " + delta);
    }
    return sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon;
  }

  private static void check(double epsilon, double sensitivity) {
    if (!(epsilon > 0) || Double.isInfinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite: " + epsilon);
    }
    if (!(sensitivity > 0) || Double.isInfinite(sensitivity)) {
      throw new IllegalArgumentException("sensitivity must be positive and finite: " + sensitivity);
    }
  }
}
