package org.dpsql.matrix.design;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A closed-form Program-1 constraint matrix for trigonometric eigenbases: {@code M[j][i] = aᵢ (1 +
 * sᵢ cos(2π pᵢ rⱼ / P))} with integer frequencies {@code pᵢ}, cell residues {@code rⱼ}, amplitudes
 * {@code aᵢ > 0} and signs {@code sᵢ = ±1}. The squared sine vectors of the all-range Gram and the
 * squared cosine vectors of the prefix Gram have this form. Products cost {@code O(n k)} and both
 * Gram products {@code O((n + k) P)} (they are Toeplitz-plus-Hankel), so Program 1 never needs an
 * {@code O(n k²)} product. Cells with equal {@code ±rⱼ mod P} have identical rows and are merged by
 * {@link #distinctCells()}.
 */
public final class CosineSquaredDesign implements SquaredDesign {
  private final int period;
  private final int[] freq;
  private final double[] amp;
  private final int[] sign;
  private final int[] residue;
  private final double[] cosTable;

  /**
   * The design {@code M[j][i] = amp[i] (1 + sign[i] cos(2π freq[i] residue[j] / period))}.
   *
   * @throws IllegalArgumentException on inconsistent lengths, non-positive amplitudes or signs other
   *     than ±1
   */
  public CosineSquaredDesign(int period, int[] freq, double[] amp, int[] sign, int[] residue) {
    if (period < 1) {
      throw new IllegalArgumentException("period must be positive: " + period);
    }
    if (freq.length != amp.length || freq.length != sign.length || freq.length == 0) {
      throw new IllegalArgumentException("frequencies, amplitudes and signs must have one equal, positive length");
    }
    if (residue.length == 0) {
      throw new IllegalArgumentException("a design needs at least one cell");
    }
    for (int i = 0; i < freq.length; i++) {
      if (!(amp[i] > 0) || (sign[i] != 1 && sign[i] != -1)) {
        throw new IllegalArgumentException("amplitudes must be positive and signs ±1 (design " + i + ")");
      }
    }
    this.period = period;
    this.freq = freq.clone();
    this.amp = amp.clone();
    this.sign = sign.clone();
    this.residue = residue.clone();
    this.cosTable = new double[period];
    for (int r = 0; r < period; r++) {
      cosTable[r] = Math.cos(2 * Math.PI * r / period);
    }
  }

  /**
   * Squares of the sine eigen-queries {@code √(2/(n+1)) sin(π i j/(n+1))} of the all-range Gram, for
   * the frequencies {@code i ∈ designs} (1-based) on all cells {@code j = 1..n}.
   */
  public static CosineSquaredDesign sine(int n, int[] designs) {
    int k = designs.length;
    double[] a = new double[k];
    int[] s = new int[k];
    Arrays.fill(a, 1.0 / (n + 1));
    Arrays.fill(s, -1);
    int[] r = new int[n];
    for (int j = 0; j < n; j++) {
      r[j] = j + 1;
    }
    return new CosineSquaredDesign(n + 1, designs, a, s, r);
  }

  /**
   * Squares of the cosine eigen-queries {@code √(4/(2n+1)) cos((2i−1)(2j−1)π / (2(2n+1)))} of the
   * prefix Gram, for the indices {@code i ∈ designs} (1-based) on all cells {@code j = 1..n}.
   */
  public static CosineSquaredDesign prefix(int n, int[] designs) {
    int k = designs.length;
    double[] a = new double[k];
    int[] s = new int[k];
    int[] p = new int[k];
    for (int i = 0; i < k; i++) {
      a[i] = 2.0 / (2 * n + 1);
      s[i] = 1;
      p[i] = 2 * designs[i] - 1;
    }
    int[] r = new int[n];
    for (int j = 0; j < n; j++) {
      r[j] = 2 * j + 1;
    }
    return new CosineSquaredDesign(2 * (2 * n + 1), p, a, s, r);
  }

  private double cos(long m) {
    int idx = (int) Math.floorMod(m, (long) period);
    return cosTable[idx];
  }

  @Override
  public int cells() {
    return residue.length;
  }

  @Override
  public int designs() {
    return freq.length;
  }

  @Override
  public double[] times(double[] u) {
    int n = residue.length;
    int k = freq.length;
    double base = 0;
    double[] au = new double[k];
    for (int i = 0; i < k; i++) {
      au[i] = amp[i] * u[i] * sign[i];
      base += amp[i] * u[i];
    }
    double[] out = new double[n];
    final double b = base;
    IntStream js = IntStream.range(0, n);
    if ((long) n * k > 1_000_000) {
      js = js.parallel();
    }
    js.forEach(
        j -> {
          long r = residue[j];
          double acc = 0;
          for (int i = 0; i < k; i++) {
            acc += au[i] * cosTable[(int) ((freq[i] * r) % period)];
          }
          out[j] = b + acc;
        });
    return out;
  }

  @Override
  public double[] transposeTimes(double[] mu) {
    int n = residue.length;
    int k = freq.length;
    double total = Dense.sum(mu);
    double[] out = new double[k];
    IntStream is = IntStream.range(0, k);
    if ((long) n * k > 1_000_000) {
      is = is.parallel();
    }
    is.forEach(
        i -> {
          long p = freq[i];
          double acc = 0;
          for (int j = 0; j < n; j++) {
            acc += mu[j] * cosTable[(int) ((p * residue[j]) % period)];
          }
          out[i] = amp[i] * (total + sign[i] * acc);
        });
    return out;
  }

  /** The explicit squares {@code k × n} (for few designs, where direct products are cheaper). */
  private double[][] explicitSquares() {
    int n = residue.length;
    double[][] sq = new double[freq.length][n];
    for (int i = 0; i < freq.length; i++) {
      long p = freq[i];
      for (int j = 0; j < n; j++) {
        sq[i][j] = amp[i] * (1 + sign[i] * cosTable[(int) ((p * residue[j]) % period)]);
      }
    }
    return sq;
  }

  @Override
  public double[][] designGram(double[] w) {
    int n = residue.length;
    int k = freq.length;
    if ((long) k * k < 2L * period) {
      return DenseSquaredDesign.wrap(explicitSquares()).designGram(w);
    }
    // F(m) = Σ_j w_j cos(2π m r_j / P) for every residue m
    double[] f = new double[period];
    IntStream ms = IntStream.range(0, period);
    if ((long) period * n > 1_000_000) {
      ms = ms.parallel();
    }
    ms.forEach(
        m -> {
          double acc = 0;
          long mm = m;
          for (int j = 0; j < n; j++) {
            acc += w[j] * cosTable[(int) ((mm * residue[j]) % period)];
          }
          f[m] = acc;
        });
    double w0 = Dense.sum(w);
    double[][] g = new double[k][k];
    IntStream rows = IntStream.range(0, k);
    if ((long) k * k > 1_000_000) {
      rows = rows.parallel();
    }
    rows.forEach(
        a -> {
          double fa = f[Math.floorMod(freq[a], period)];
          for (int b = 0; b <= a; b++) {
            double fb = f[Math.floorMod(freq[b], period)];
            double cross =
                0.5 * (f[Math.floorMod(freq[a] - freq[b], period)] + f[Math.floorMod(freq[a] + freq[b], period)]);
            double v = amp[a] * amp[b] * (w0 + sign[a] * fa + sign[b] * fb + sign[a] * sign[b] * cross);
            g[a][b] = v;
          }
        });
    for (int a = 0; a < k; a++) {
      for (int b = 0; b < a; b++) {
        g[b][a] = g[a][b];
      }
    }
    return g;
  }

  @Override
  public double[][] cellGram(double[] d) {
    int n = residue.length;
    int k = freq.length;
    if ((long) k * n < 2L * period) {
      return DenseSquaredDesign.wrap(explicitSquares()).cellGram(d);
    }
    double[] e1 = new double[period];
    double[] e2 = new double[period];
    double[] da = new double[k];
    double e0 = 0;
    for (int i = 0; i < k; i++) {
      da[i] = d[i] * amp[i] * amp[i];
      e0 += da[i];
    }
    IntStream ms = IntStream.range(0, period);
    if ((long) period * k > 1_000_000) {
      ms = ms.parallel();
    }
    ms.forEach(
        m -> {
          double a1 = 0;
          double a2 = 0;
          long mm = m;
          for (int i = 0; i < k; i++) {
            double c = cosTable[(int) ((freq[i] * mm) % period)];
            a2 += da[i] * c;
            a1 += da[i] * sign[i] * c;
          }
          e1[m] = a1;
          e2[m] = a2;
        });
    double[][] g = new double[n][n];
    final double base = e0;
    IntStream rows = IntStream.range(0, n);
    if ((long) n * n > 1_000_000) {
      rows = rows.parallel();
    }
    rows.forEach(
        a -> {
          int ra = residue[a];
          double ea = e1[Math.floorMod(ra, period)];
          for (int b = 0; b <= a; b++) {
            int rb = residue[b];
            double v =
                base
                    + ea
                    + e1[Math.floorMod(rb, period)]
                    + 0.5 * (e2[Math.floorMod(ra - rb, period)] + e2[Math.floorMod(ra + rb, period)]);
            g[a][b] = v;
          }
        });
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < a; b++) {
        g[b][a] = g[a][b];
      }
    }
    return g;
  }

  @Override
  public double[] column(int i) {
    int n = residue.length;
    double[] c = new double[n];
    for (int j = 0; j < n; j++) {
      c[j] = amp[i] * (1 + sign[i] * cos((long) freq[i] * residue[j]));
    }
    return c;
  }

  @Override
  public SquaredDesign selectDesigns(int[] designs) {
    int k = designs.length;
    int[] p = new int[k];
    double[] a = new double[k];
    int[] s = new int[k];
    for (int i = 0; i < k; i++) {
      p[i] = freq[designs[i]];
      a[i] = amp[designs[i]];
      s[i] = sign[designs[i]];
    }
    return new CosineSquaredDesign(period, p, a, s, residue);
  }

  /** Keeps one cell per class {@code ±r mod P} (cosine is even, so those rows are identical). */
  @Override
  public SquaredDesign distinctCells() {
    int[] idx = distinctCellIndices();
    if (idx.length == residue.length) {
      return this;
    }
    int[] keep = new int[idx.length];
    for (int t = 0; t < idx.length; t++) {
      keep[t] = residue[idx[t]];
    }
    return new CosineSquaredDesign(period, freq, amp, sign, keep);
  }

  @Override
  public int[] distinctCellIndices() {
    boolean[] seen = new boolean[period];
    int[] keep = new int[residue.length];
    int count = 0;
    for (int j = 0; j < residue.length; j++) {
      int m = Math.floorMod(residue[j], period);
      int canon = Math.min(m, period - m == period ? 0 : period - m);
      if (!seen[canon]) {
        seen[canon] = true;
        keep[count++] = j;
      }
    }
    return Arrays.copyOf(keep, count);
  }
}
