package org.dpsql.matrix.design;

import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;

/**
 * Fast trigonometric transforms of any length in {@code O(N log N)} time and {@code O(N)} memory:
 * the discrete Fourier transform by Bluestein's chirp-z algorithm over Commons Math's radix-2 FFT
 * ({@link FastFourierTransformer#transformInPlace}), and from it the DST-I that diagonalises the
 * all-range Gram ({@link EigenBasis#allRanges}) and the cosine sums of its squared eigen-queries
 * ({@link CosineSquaredDesign#sine}). Chirp phases are reduced modulo {@code 2N} in integer
 * arithmetic (and each length's chirp is kept, so a repeated length costs two radix-2 FFTs),
 * so the result agrees with the direct {@code O(N²)} sums to a few units of round-off
 * times {@code log N} (tested against them). Thread-safe.
 */
public final class SineTransform {
  private SineTransform() {}

  /**
   * The DFT {@code X_j = Σ_k a_k e^{−2πi jk/N}} of {@code (re, im)} in place, for any length
   * {@code N ≥ 1}.
   */
  public static void dft(double[] re, double[] im) {
    int n = re.length;
    if (im.length != n) {
      throw new IllegalArgumentException("real and imaginary parts differ in length");
    }
    if (n <= 1) {
      return;
    }
    if (Integer.bitCount(n) == 1) {
      FastFourierTransformer.transformInPlace(new double[][] {re, im}, DftNormalization.STANDARD,
          TransformType.FORWARD);
      return;
    }
    // Bluestein: jk = (j² + k² − (j−k)²)/2, so X_j = c_j Σ_k (a_k c_k) conj(c_{j−k}) with
    // c_m = e^{−πi m²/N}: a convolution, computed by radix-2 FFTs of length L ≥ 2N − 1
    Chirp chirp = chirp(n);
    int l = chirp.l;
    double[] cr = chirp.cr;
    double[] ci = chirp.ci;
    double[] br = chirp.br;
    double[] bi = chirp.bi;
    double[] ar = new double[l];
    double[] ai = new double[l];
    for (int k = 0; k < n; k++) {
      ar[k] = re[k] * cr[k] - im[k] * ci[k];
      ai[k] = re[k] * ci[k] + im[k] * cr[k];
    }
    FastFourierTransformer.transformInPlace(new double[][] {ar, ai}, DftNormalization.STANDARD,
        TransformType.FORWARD);
    for (int t = 0; t < l; t++) {
      double r = ar[t] * br[t] - ai[t] * bi[t];
      double i = ar[t] * bi[t] + ai[t] * br[t];
      ar[t] = r;
      ai[t] = i;
    }
    FastFourierTransformer.transformInPlace(new double[][] {ar, ai}, DftNormalization.STANDARD,
        TransformType.INVERSE);
    for (int j = 0; j < n; j++) {
      re[j] = ar[j] * cr[j] - ai[j] * ci[j];
      im[j] = ar[j] * ci[j] + ai[j] * cr[j];
    }
  }

  /** The chirp of one length and the transform of its conjugate kernel (immutable once built). */
  private record Chirp(int l, double[] cr, double[] ci, double[] br, double[] bi) {}

  private static final java.util.Map<Integer, Chirp> CHIRPS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The chirp of length {@code n}, computed once per length (at most 32 lengths are kept). */
  private static Chirp chirp(int n) {
    Chirp c = CHIRPS.get(n);
    if (c != null) {
      return c;
    }
    int l = Integer.highestOneBit(2 * n - 1) << 1;
    double[] cr = new double[n];
    double[] ci = new double[n];
    long twoN = 2L * n;
    for (int m = 0; m < n; m++) {
      double angle = Math.PI * (((long) m * m) % twoN) / n;
      cr[m] = Math.cos(angle);
      ci[m] = -Math.sin(angle);
    }
    double[] br = new double[l];
    double[] bi = new double[l];
    br[0] = cr[0];
    bi[0] = -ci[0];
    for (int m = 1; m < n; m++) {
      br[m] = cr[m];
      bi[m] = -ci[m];
      br[l - m] = cr[m];
      bi[l - m] = -ci[m];
    }
    FastFourierTransformer.transformInPlace(new double[][] {br, bi}, DftNormalization.STANDARD,
        TransformType.FORWARD);
    c = new Chirp(l, cr, ci, br, bi);
    if (CHIRPS.size() >= 32) {
      CHIRPS.clear();
    }
    CHIRPS.put(n, c);
    return c;
  }

  /**
   * The DST-I {@code y_k = Σ_{j=1..n} x_j sin(π jk/(n+1))}, {@code k = 1..n} (0-based arrays): the
   * odd extension of {@code x} to period {@code 2(n+1)} has DFT {@code −2i y}.
   */
  public static double[] dstI(double[] x) {
    int n = x.length;
    int m = 2 * (n + 1);
    double[] re = new double[m];
    double[] im = new double[m];
    for (int j = 0; j < n; j++) {
      re[j + 1] = x[j];
      re[m - 1 - j] = -x[j];
    }
    dft(re, im);
    double[] y = new double[n];
    for (int k = 0; k < n; k++) {
      y[k] = -im[k + 1] / 2;
    }
    return y;
  }

  /**
   * The cosine sums {@code c_j = Σ_{k=1..n} a_k cos(2π kj/(n+1))} for {@code j = 1..n} (0-based
   * arrays, {@code a[k−1] = a_k}): the real part of the length-{@code (n+1)} DFT of {@code (0, a)}.
   */
  public static double[] cosineSums(double[] a) {
    int n = a.length;
    double[] re = new double[n + 1];
    double[] im = new double[n + 1];
    System.arraycopy(a, 0, re, 1, n);
    dft(re, im);
    double[] c = new double[n];
    System.arraycopy(re, 1, c, 0, n);
    return c;
  }
}
