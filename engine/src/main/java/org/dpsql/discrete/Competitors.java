package org.dpsql.discrete;

import java.util.Objects;
import java.util.TreeSet;

/**
 * The competitor mechanisms of seed paper 000 (§2.8 of the spec), for comparison with the optimal
 * modulo PMFs.
 *
 * <p>Modulo versions ({@link #wrappedGeometric}, {@link #wrappedDiscreteGaussian}, {@link
 * #dataIndependent}) are additive-modulo mechanisms: they return the {@link NoisePmf} that would
 * be sampled, whose exact {@code (eps, delta)} is given by {@link PdpChecker#delta} / {@link
 * PdpChecker#epsilonFor}; the guarantee is exactly what the checker says, nothing more.
 *
 * <p>Clamped versions ({@code q~ = min(max(0, q + Z), n)}, eqs. 55-56) are <em>not</em>
 * additive-modulo mechanisms: their output distribution depends on {@code q}, so they are
 * analysed row by row with {@link #clampedDelta}. That computation is in double precision and
 * serves the comparison curves only (Figs. 6-7): dpsql never releases clamped values through this
 * class, and the numbers carry no privacy guarantee of their own.
 */
public final class Competitors {

  private Competitors() {}

  // ------------------------------------------------------------------ modulo (wrapped) mechanisms

  /**
   * The two-sided geometric noise {@code P(Z = z) = (1-alpha)/(1+alpha) alpha^|z|} folded modulo
   * {@code n+1}: {@code f(eta) = (1-alpha)/(1+alpha) (alpha^eta + alpha^{n+1-eta}) / (1 -
   * alpha^{n+1})}. With {@code alpha = e^-eps0} the unfolded mechanism is {@code eps0}-DP for
   * {@code {+-1}}; folding never increases the ratios, so the wrapped one is too.
   *
   * @param alpha the ratio {@code alpha in (0, 1)} (the spec notes the paper's parameterisation
   *     of alpha is unclear; this is the ratio)
   */
  public static NoisePmf wrappedGeometric(int n, double alpha) {
    return NoisePmf.quantize(wrappedGeometricMasses(n, alpha));
  }

  /** The masses of {@link #wrappedGeometric} in double precision. */
  public static double[] wrappedGeometricMasses(int n, double alpha) {
    Neighbourhood.checkN(n);
    checkAlpha(alpha);
    int len = n + 1;
    double c = (1 - alpha) / (1 + alpha) / -Math.expm1(len * Math.log(alpha));
    double[] f = new double[len];
    for (int eta = 0; eta < len; eta++) {
      f[eta] = c * (Math.pow(alpha, eta) + Math.pow(alpha, len - eta));
    }
    return normalise(f);
  }

  /**
   * The discrete Gaussian {@code P(Z = z) ∝ exp(-z^2 / (2 sigma2))} folded modulo {@code n+1}:
   * {@code f(eta) ∝ sum_j exp(-(eta + j(n+1))^2 / (2 sigma2))}, summed over every {@code j} whose
   * term is not negligible (below {@code e^-745} of the centre).
   */
  public static NoisePmf wrappedDiscreteGaussian(int n, double sigma2) {
    return NoisePmf.quantize(wrappedDiscreteGaussianMasses(n, sigma2));
  }

  /** The masses of {@link #wrappedDiscreteGaussian} in double precision. */
  public static double[] wrappedDiscreteGaussianMasses(int n, double sigma2) {
    Neighbourhood.checkN(n);
    checkSigma2(sigma2);
    int len = n + 1;
    double reach = Math.sqrt(2 * 745 * sigma2) + len; // |z| beyond this contributes nothing
    long jMax = (long) Math.ceil(reach / len) + 1;
    double[] f = new double[len];
    for (int eta = 0; eta < len; eta++) {
      double s = 0;
      for (long j = -jMax; j <= jMax; j++) {
        double z = eta + (double) j * len;
        s += Math.exp(-z * z / (2 * sigma2));
      }
      f[eta] = s;
    }
    return normalise(f);
  }

  /**
   * The data-independent mechanism (Ravi et al. 2022): {@code f(0) = 1 - errorRate}, {@code
   * f(eta) = errorRate / n}. For {@code 0 < errorRate < 1} its exact {@code delta} is determined
   * by the single ratio {@code n (1 - ER) / ER}.
   */
  public static NoisePmf dataIndependent(int n, double errorRate) {
    return NoisePmf.quantize(dataIndependentMasses(n, errorRate));
  }

  /** The masses of {@link #dataIndependent} in double precision. */
  public static double[] dataIndependentMasses(int n, double errorRate) {
    Neighbourhood.checkN(n);
    if (!(errorRate >= 0 && errorRate <= 1)) {
      throw new IllegalArgumentException("error rate must be in [0, 1]: " + errorRate);
    }
    double[] f = new double[n + 1];
    f[0] = 1 - errorRate;
    for (int eta = 1; eta <= n; eta++) {
      f[eta] = errorRate / n;
    }
    return f;
  }

  // ------------------------------------------------------------------ clamped mechanisms

  /**
   * The two-sided geometric PMF on {@code z in [-n, n]} with its tails folded into the end
   * points: entry {@code z + n} is {@code P(Z = z)} for {@code |z| < n}, entry 0 is {@code P(Z <=
   * -n)} and entry {@code 2n} is {@code P(Z >= n)}. This is all that clamping to {@code [0, n]}
   * needs (eq. 56).
   */
  public static double[] foldedTwoSidedGeometric(int n, double alpha) {
    Neighbourhood.checkN(n);
    checkAlpha(alpha);
    double c = (1 - alpha) / (1 + alpha);
    double[] p = new double[2 * n + 1];
    for (int z = -n + 1; z <= n - 1; z++) {
      p[z + n] = c * Math.pow(alpha, Math.abs(z));
    }
    double tail = Math.pow(alpha, n) / (1 + alpha); // P(Z >= n) = alpha^n / (1 + alpha)
    p[0] = tail;
    p[2 * n] = tail;
    return p;
  }

  /**
   * The discrete Gaussian PMF on {@code z in [-n, n]} with its tails folded into the end points
   * (see {@link #foldedTwoSidedGeometric}); the normalising constant sums the series until its
   * terms fall below {@code e^-745} of the centre.
   */
  public static double[] foldedDiscreteGaussian(int n, double sigma2) {
    Neighbourhood.checkN(n);
    checkSigma2(sigma2);
    long zMax = (long) Math.ceil(Math.sqrt(2 * 745 * sigma2)) + n + 1;
    double norm = 0;
    for (long z = zMax; z >= 1; z--) {
      norm += 2 * Math.exp(-(double) z * z / (2 * sigma2));
    }
    norm += 1;
    double[] p = new double[2 * n + 1];
    for (int z = -n + 1; z <= n - 1; z++) {
      p[z + n] = Math.exp(-(double) z * z / (2 * sigma2)) / norm;
    }
    double tail = 0; // P(Z >= n), summed from the small end
    for (long z = zMax; z >= n; z--) {
      tail += Math.exp(-(double) z * z / (2 * sigma2)) / norm;
    }
    p[0] = tail;
    p[2 * n] = tail;
    return p;
  }

  /**
   * The output distributions of the clamped mechanism {@code q~ = min(max(0, q + Z), n)} (eq.
   * 56): row {@code q} is {@code f(k | q)} with {@code f(0|q) = P(Z <= -q)}, {@code f(k|q) = P(Z =
   * k - q)} for {@code 0 < k < n}, {@code f(n|q) = P(Z >= n - q)}.
   *
   * @param folded a PMF as returned by {@link #foldedTwoSidedGeometric} (length {@code 2n+1})
   */
  public static double[][] clampedRows(double[] folded, int n) {
    Objects.requireNonNull(folded, "folded");
    Neighbourhood.checkN(n);
    if (folded.length != 2 * n + 1) {
      throw new IllegalArgumentException("folded PMF needs 2n+1 = " + (2 * n + 1) + " entries");
    }
    double[][] rows = new double[n + 1][n + 1];
    for (int q = 0; q <= n; q++) {
      double low = 0; // P(Z <= -q): indices 0 .. n - q
      for (int i = 0; i <= n - q; i++) {
        low += folded[i];
      }
      double high = 0; // P(Z >= n - q): indices 2n - q .. 2n
      for (int i = 2 * n - q; i <= 2 * n; i++) {
        high += folded[i];
      }
      rows[q][0] = low;
      rows[q][n] = high;
      for (int k = 1; k < n; k++) {
        rows[q][k] = folded[k - q + n];
      }
    }
    return rows;
  }

  /**
   * {@code delta(eps) = max} over neighbouring answers {@code (q, q')} of {@code sum_k f(k|q)
   * 1[f(k|q) > e^eps f(k|q')]} for the clamped mechanism (spec §2.8, Def. 2). Neighbouring
   * answers are {@code q, q' in [0, n]} with {@code q - q'} an integer difference of {@code m}:
   * each modular difference {@code mu} is read as the integer difference of least magnitude,
   * {@code +-min(mu, n+1-mu)} (so {@link Neighbourhood#addRemoveOne} means {@code q' = q +- 1};
   * clamped answers do not wrap). Double precision, for comparison curves only.
   */
  public static double clampedDelta(double[] folded, int n, double eps, Neighbourhood m) {
    Objects.requireNonNull(m, "m");
    if (m.n() != n) {
      throw new IllegalArgumentException("neighbourhood has n=" + m.n() + ", expected " + n);
    }
    TreeSet<Integer> diffs = new TreeSet<>();
    for (int mu : m.differences()) {
      int d = Math.min(mu, n + 1 - mu);
      diffs.add(d);
      diffs.add(-d);
    }
    return clampedDelta(folded, n, eps, diffs.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * As {@link #clampedDelta(double[], int, double, Neighbourhood)} with explicit integer
   * differences: the pairs are {@code (q, q - d)} for {@code d in integerDifferences}, both in
   * {@code [0, n]}.
   */
  public static double clampedDelta(
      double[] folded, int n, double eps, int[] integerDifferences) {
    ClosedForms.checkEps(eps);
    Objects.requireNonNull(integerDifferences, "integerDifferences");
    double[][] rows = clampedRows(folded, n);
    double e = Math.exp(eps);
    double best = 0;
    for (int q = 0; q <= n; q++) {
      for (int d : integerDifferences) {
        int q2 = q - d;
        if (d == 0 || q2 < 0 || q2 > n) {
          continue;
        }
        double s = 0;
        for (int k = 0; k <= n; k++) {
          if (rows[q][k] > e * rows[q2][k]) {
            s += rows[q][k];
          }
        }
        best = Math.max(best, s);
      }
    }
    return best;
  }

  /** {@link #clampedDelta} of the clamped two-sided geometric with ratio {@code alpha}. */
  public static double clampedGeometricDelta(int n, double alpha, double eps, Neighbourhood m) {
    return clampedDelta(foldedTwoSidedGeometric(n, alpha), n, eps, m);
  }

  /** {@link #clampedDelta} of the clamped discrete Gaussian with parameter {@code sigma2}. */
  public static double clampedDiscreteGaussianDelta(
      int n, double sigma2, double eps, Neighbourhood m) {
    return clampedDelta(foldedDiscreteGaussian(n, sigma2), n, eps, m);
  }

  /** The mean squared error {@code sum_k (k - q)^2 f(k|q)} of the clamped mechanism at answer {@code q}. */
  public static double clampedMse(double[] folded, int n, int q) {
    double[][] rows = clampedRows(folded, n);
    if (q < 0 || q > n) {
      throw new IllegalArgumentException("q outside [0, n]");
    }
    double s = 0;
    for (int k = 0; k <= n; k++) {
      s += (double) (k - q) * (k - q) * rows[q][k];
    }
    return s;
  }

  // ------------------------------------------------------------------ helpers

  private static double[] normalise(double[] f) {
    double s = 0;
    for (double v : f) {
      s += v;
    }
    for (int i = 0; i < f.length; i++) {
      f[i] /= s;
    }
    return f;
  }

  private static void checkAlpha(double alpha) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be in (0, 1): " + alpha);
    }
  }

  private static void checkSigma2(double sigma2) {
    if (!(sigma2 > 0) || Double.isInfinite(sigma2)) {
      throw new IllegalArgumentException("sigma^2 must be finite and > 0: " + sigma2);
    }
  }
}
