package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.dpsql.matrix.design.SineTransform;

/**
 * The lattice form of the all-range Eigen-Design {@code A = diag(√u) Q} ({@link
 * org.dpsql.matrix.design.TransformStrategy}) held without any {@code n × n} array: the integer
 * strategy {@code N = diag(a) S} with row scales {@code a_k = round(2^R √u_k √(2/(n+1)))} ({@code
 * a_k ≥ 1}) and the integer sine kernel {@code S_kj = s((k+1)(j+1) mod 2(n+1))}, {@code s(t) =
 * round(2^L sin(πt/(n+1)))} ({@code 0 ≤ k, j < n}), so that {@code Â = N / 2^(R+L)} is within
 * {@code 2^(−L−1)} per kernel entry and {@code 2^(−R−1)} per scale of {@code A}. The table {@code
 * s} has {@code 2(n+1)} {@code int} entries and is odd ({@code s(2(n+1) − t) = −s(t)}, computed
 * once from {@link StrictMath#sin} on {@code t ≤ (n+1)/2} and extended by symmetry, so it is the
 * same on every JVM).
 *
 * <p><b>Privacy-relevant guarantees.</b> Exactly as for {@link LatticeMatrix}: {@link
 * #times(long[])} is the exact integer vector {@code N x} (integer arithmetic, overflow-checked,
 * with a {@link BigInteger} fallback), and {@link #maxColumnSumOfSquares()} {@code = max_j Σ_k
 * a_k² s_kj²} and {@link #maxColumnAbsSum()} {@code = max_j Σ_k a_k |s_kj|} are exact integers of
 * the matrix actually applied (128-bit accumulation of exact products), so the discrete Gaussian or
 * Laplace noise of {@link MatrixMechanism} is calibrated to the exact sensitivity of {@code N},
 * whatever the rounding did. These three take {@code O(n²)} integer operations and {@code O(n)}
 * memory (the kernel entry is read from the table by an index that advances by {@code k+1} modulo
 * {@code 2(n+1)}); each reads only a quarter of the entries, by the table's exact mirror
 * identities (see {@code Fold}), and the sensitivities are computed once per strategy. {@code
 * SineLatticeProduct} measures the Kronecker product of two such factors (2-D all ranges) the same
 * way, with a 128-bit second mode product.
 *
 * <p><b>Inference (post-processing).</b> {@code Â} is square and, for every {@code L ≥ 8},
 * invertible: {@code S/2^L = B + E} with {@code B_kj = sin(π(k+1)(j+1)/(n+1))}, {@code B² =
 * ((n+1)/2) I}, and {@code ‖E‖₂ ≤ n/2^(L+1) < √((n+1)/2)} for the sizes accepted here. {@link
 * #solve} returns {@code Â⁻¹y} by iterative refinement preconditioned with the fast DST-I ({@code
 * B⁻¹ = (2/(n+1)) B}, {@link SineTransform#dstI}); each step costs one {@code O(n²)} product and
 * the residual shrinks by {@code ‖(2/(n+1)) B E‖₂}, about {@code 10⁻⁶} per step, so three steps
 * reach round-off. {@link #gramInverseTimes} is {@code (ÃᵀÃ)⁻¹v} for {@code Ã = diag(a/2^R) B}
 * (the rounded scales on the exact sine kernel), two fast transforms: it is what the error
 * formulas use, and it differs from {@code (ÂᵀÂ)⁻¹} by the kernel rounding only ({@code ~2^(−L)}
 * relative, tested). Immutable and thread-safe.
 */
public final class SineLattice {
  /** The kernel's lattice exponent {@code L}: sine values on the grid {@code 2^(−24)}. */
  public static final int KERNEL_BITS = 24;

  /** The most cells: {@code n · 2^(L+R+1)} must stay below {@code 2^63} for the L1 sums. */
  public static final int MAX_CELLS = 1 << 17;

  private final int n;
  private final int scaleBits;
  private final long[] scales;
  private final int[] kernel;
  private volatile BigInteger maxSquares;
  private volatile BigInteger maxAbs;

  private SineLattice(long[] scales, int scaleBits) {
    this.n = scales.length;
    if (n < 1 || n > MAX_CELLS) {
      throw new IllegalArgumentException("a sine lattice takes 1 to " + MAX_CELLS + " cells: " + n);
    }
    if (scaleBits < 0 || scaleBits > 62 - KERNEL_BITS) {
      throw new IllegalArgumentException("scale bits out of range: " + scaleBits);
    }
    for (long a : scales) {
      if (a < 1 || a > (1L << 21)) {
        throw new IllegalArgumentException("row scales must lie in [1, 2^21]: " + a);
      }
    }
    this.scales = scales;
    this.scaleBits = scaleBits;
    this.kernel = table(n);
  }

  /**
   * Rounds {@code diag(√weights) Q} to the lattice: the scales get {@code R = bits + e} bits, where
   * {@code e ≥ 0} is chosen so that the largest scale has {@code bits + 1} significant bits (never
   * more than 20); a scale that would round to 0 becomes 1 (a slightly larger row, still measured
   * with its exact sensitivity).
   *
   * @throws IllegalArgumentException for no cells, more than {@link #MAX_CELLS}, or a weight that
   *     is negative or not finite
   */
  public static SineLattice round(double[] weights, int bits) {
    int n = weights.length;
    double c = Math.sqrt(2.0 / (n + 1));
    double max = 0;
    for (double u : weights) {
      if (!(u >= 0) || !Double.isFinite(u)) {
        throw new IllegalArgumentException("weights must be finite and non-negative: " + u);
      }
      max = Math.max(max, Math.sqrt(u) * c);
    }
    if (max == 0) {
      throw new IllegalArgumentException("all weights are zero");
    }
    int b = Math.min(20, bits);
    int r = Math.max(0, b - Math.getExponent(max));
    r = Math.min(r, 62 - KERNEL_BITS);
    long[] a = new long[n];
    for (int k = 0; k < n; k++) {
      a[k] = Math.max(1, Math.round(Math.scalb(Math.sqrt(weights[k]) * c, r)));
    }
    return new SineLattice(a, r);
  }

  /** The lattice strategy with the given integer row scales on {@code 2^(−scaleBits)} (restore). */
  public static SineLattice of(long[] scales, int scaleBits) {
    return new SineLattice(scales.clone(), scaleBits);
  }

  /**
   * The integer table {@code s(t) = round(2^L sin(πt/(n+1)))}, {@code 0 ≤ t < 2(n+1)} ({@code |s| ≤
   * 2^L}, so an {@code int}). It satisfies exactly the two index identities the folded passes use:
   * {@code s(−t) = −s(t)} and {@code s(p − t) = s(t)} (indices modulo {@code 2p}, {@code p = n+1}).
   */
  static int[] table(int n) {
    int p = n + 1;
    int[] s = new int[2 * p];
    for (int t = 0; t <= p; t++) {
      int r = Math.min(t, p - t); // sin(πt/p) = sin(π(p−t)/p): evaluate on [0, π/2]
      s[t] = (int) Math.round(Math.scalb(StrictMath.sin(StrictMath.PI * r / p), KERNEL_BITS));
    }
    for (int t = p + 1; t < 2 * p; t++) {
      s[t] = -s[2 * p - t];
    }
    return s;
  }

  /** {@code n}: cells and measured queries. */
  public int cells() {
    return n;
  }

  /** {@code R + L}: {@code Â = N / 2^bits}. */
  public int bits() {
    return scaleBits + KERNEL_BITS;
  }

  /** {@code R}: the scales' lattice exponent. */
  public int scaleBits() {
    return scaleBits;
  }

  /** The integer row scales {@code a} (a copy). */
  public long[] scales() {
    return scales.clone();
  }

  /** The integer entry {@code N_kj = a_k s((k+1)(j+1) mod 2(n+1))}. */
  public long entry(int k, int j) {
    return scales[k] * (long) kernel[(int) (((long) (k + 1) * (j + 1)) % kernel.length)];
  }

  /** Exact {@code max_j Σ_k N_kj²} ({@code O(n²)} once, then cached). */
  public BigInteger maxColumnSumOfSquares() {
    BigInteger m = maxSquares;
    if (m == null) {
      m = columnStatistic(true);
      maxSquares = m;
    }
    return m;
  }

  /** Exact {@code max_j Σ_k |N_kj|} ({@code O(n²)} once, then cached). */
  public BigInteger maxColumnAbsSum() {
    BigInteger m = maxAbs;
    if (m == null) {
      m = columnStatistic(false);
      maxAbs = m;
    }
    return m;
  }

  /**
   * The largest column statistic, exact: per column {@code j}, {@code Σ_k a_k² s_kj²} accumulated in
   * 128 bits (each product taken exactly with {@link Math#multiplyHigh}), or {@code Σ_k a_k |s_kj|}
   * ({@code < n 2^46}, within a {@code long}). Both mirrors are used, so a quarter of the entries is
   * read: rows {@code k} and {@code n−1−k} hold the same {@code |entries|} column by column ({@code
   * s((p−a)t) = ±s(at)}, {@code p = n+1}), so their weights are added first ({@code < 2^43}); and
   * column {@code n−1−j} has column {@code j}'s statistic ({@code s(a(p−t)) = ±s(at)}), so only the
   * first {@code ⌈n/2⌉} columns are scanned. Tested against the dense integer matrix.
   */
  private BigInteger columnStatistic(boolean squares) {
    int m = kernel.length;
    long[] sq = new long[m];
    for (int t = 0; t < m; t++) {
      long v = kernel[t];
      sq[t] = squares ? v * v : Math.abs(v);
    }
    int half = (n + 1) / 2; // rows 0 .. half−1 stand for their mirrors n−1−k too
    long[] w = new long[half];
    for (int k = 0; k < half; k++) {
      long own = squares ? scales[k] * scales[k] : scales[k];
      int mirror = n - 1 - k;
      long other = mirror == k ? 0 : squares ? scales[mirror] * scales[mirror] : scales[mirror];
      w[k] = own + other;
    }
    return IntStream.range(0, half).parallel().mapToObj(j -> {
      int step = j + 1;
      int t = step;
      long hi = 0;
      long lo = 0;
      for (int k = 0; k < half; k++) {
        long x = w[k];
        long y = sq[t];
        long pl = x * y;
        long ph = squares ? Math.multiplyHigh(x, y) : 0;
        long sum = lo + pl;
        if (Long.compareUnsigned(sum, lo) < 0) {
          ph++;
        }
        lo = sum;
        hi += ph;
        t += step; // the entry of row k+1 in column j: index (k+2)(j+1)
        if (t >= m) {
          t -= m;
        }
      }
      return BigInteger.valueOf(hi).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(lo)));
    }).max(BigInteger::compareTo).orElseThrow();
  }

  /** Below this total count the kernel sums {@code (Sx)_k} are exact in {@code long}. */
  private static final long LONG_TOTAL = 1L << (62 - KERNEL_BITS);

  /**
   * Exact {@code N x}: {@code (Sx)_k} in {@code long}, then {@code a_k (Sx)_k}.
   *
   * @throws ArithmeticException if a value overflows a {@code long}
   */
  public long[] times(long[] x) {
    requireLength(x.length);
    long[] out = kernelSums(x);
    if (out == null) {
      BigInteger[] big = times(Arrays.stream(x).mapToObj(BigInteger::valueOf)
          .toArray(BigInteger[]::new));
      out = new long[n];
      for (int k = 0; k < n; k++) {
        out[k] = big[k].longValueExact();
      }
      return out;
    }
    for (int k = 0; k < n; k++) {
      out[k] = Math.multiplyExact(scales[k], out[k]);
    }
    return out;
  }

  /**
   * Exact {@code (Sx)_k} when {@code Σ|x_j| < 2^(62−L)} (every partial sum is then below {@code
   * 2^62}), else null. Folded: see {@code Fold}.
   */
  long[] kernelSums(long[] x) {
    long total = 0;
    for (long v : x) {
      if (v == Long.MIN_VALUE) {
        return null;
      }
      total += Math.abs(v);
      if (total >= LONG_TOTAL) {
        return null;
      }
    }
    Fold f = new Fold(n);
    long[][] parts = f.parts(x);
    long[] out = new long[n];
    int m = kernel.length;
    rows(f.rows, k -> {
      int a = k + 1;
      long[] v = parts[a & 1]; // δ = +1 for odd a, −1 for even a
      int t = a;
      long odd = 0;
      long even = 0;
      for (int j = 0; j < f.cols; j++) {
        long u = kernel[t];
        odd += u * v[2 * j];
        even += u * v[2 * j + 1];
        t += a;
        if (t >= m) {
          t -= m;
        }
      }
      // |odd|, |even| ≤ 2^L Σ|x| < 2^62 (disjoint parts of x), so neither line overflows
      out[n - 1 - k] = odd - even;
      out[k] = odd + even; // written last: the middle row of an odd n is its own mirror
    });
    return out;
  }

  /**
   * Exact {@code (Sv)_k} for any {@code long} vector, as 128-bit two's complement integers: {@code
   * hi[k]·2^64 + lo[k]} (lo unsigned) of the returned {@code {hi, lo}}. Folded as {@code Fold}; each
   * product {@code s·v} ({@code < 2^87}) is taken exactly with {@link Math#multiplyHigh} and the sums
   * ({@code < 2^24 · 2^17 · 2^64 = 2^105}) cannot overflow 128 bits.
   *
   * @throws ArithmeticException if a folded value {@code v_j ± v_{n−1−j}} overflows a {@code long}
   */
  long[][] kernelSumsWide(long[] v) {
    requireLength(v.length);
    Fold f = new Fold(n);
    long[][] parts = f.partsExact(v);
    long[] hi = new long[n];
    long[] lo = new long[n];
    int m = kernel.length;
    rows(f.rows, k -> {
      int a = k + 1;
      long[] p = parts[a & 1];
      int t = a;
      long oddHi = 0;
      long oddLo = 0;
      long evenHi = 0;
      long evenLo = 0;
      for (int j = 0; j < f.cols; j++) {
        long u = kernel[t];
        long x = p[2 * j];
        long pl = u * x;
        long sum = oddLo + pl;
        oddHi += Math.multiplyHigh(u, x) + (Long.compareUnsigned(sum, oddLo) < 0 ? 1 : 0);
        oddLo = sum;
        x = p[2 * j + 1];
        pl = u * x;
        sum = evenLo + pl;
        evenHi += Math.multiplyHigh(u, x) + (Long.compareUnsigned(sum, evenLo) < 0 ? 1 : 0);
        evenLo = sum;
        t += a;
        if (t >= m) {
          t -= m;
        }
      }
      // row n−1−k: odd − even (two's complement: odd + ~even + 1)
      long dLo = oddLo - evenLo;
      hi[n - 1 - k] = oddHi - evenHi - (Long.compareUnsigned(oddLo, evenLo) < 0 ? 1 : 0);
      lo[n - 1 - k] = dLo;
      long sLo = oddLo + evenLo;
      hi[k] = oddHi + evenHi + (Long.compareUnsigned(sLo, oddLo) < 0 ? 1 : 0);
      lo[k] = sLo; // written last: the middle row of an odd n is its own mirror
    });
    return new long[][] {hi, lo};
  }

  /** The 128-bit integer {@code hi·2^64 + lo} ({@code lo} unsigned). */
  static BigInteger wide(long hi, long lo) {
    BigInteger low = BigInteger.valueOf(lo & Long.MAX_VALUE);
    if (lo < 0) {
      low = low.setBit(63);
    }
    return BigInteger.valueOf(hi).shiftLeft(64).or(low);
  }

  /**
   * The two mirror identities of the kernel, which let every product read a quarter of the
   * entries. With {@code p = n+1}, {@code a = k+1}, {@code t = j+1}: row {@code n−1−k} is {@code
   * s((p−a)t) = (−1)^(t+1) s(at)} (so it is row {@code k} with the even columns negated), and column
   * {@code n−1−j} is {@code s(a(p−t)) = (−1)^(a+1) s(at)}. So for {@code k < ⌈n/2⌉}, with the
   * odd-{@code t} and even-{@code t} parts {@code O, E} of {@code Σ_j s(at) x_j}, {@code (Sx)_k = O
   * + E} and {@code (Sx)_{n−1−k} = O − E}, and {@code O, E} are sums over {@code j < ⌈n/2⌉} of
   * {@code s(at)} times the folded data {@code x_j ± x_{n−1−j}} restricted to one parity (sign
   * {@code (−1)^(a+1)}; the middle column of an odd {@code n} once). Exact identities of the integer
   * table ({@link #table}), not approximations.
   */
  private static final class Fold {
    /** Rows computed ({@code ⌈n/2⌉}) and folded columns read ({@code ⌈n/2⌉}). */
    final int rows;
    final int cols;
    private final int n;

    Fold(int n) {
      this.n = n;
      this.rows = (n + 1) / 2;
      this.cols = (n + 1) / 2;
    }

    /**
     * {@code parts[δ]} ({@code δ = 1}: sign +, for odd {@code a}; {@code δ = 0}: sign −) holds, per
     * folded column {@code j}, the odd-{@code t} part at {@code 2j} and the even-{@code t} part at
     * {@code 2j+1} of {@code x_j + sign · x_{n−1−j}} (for the middle column only {@code x_j}).
     */
    long[][] parts(long[] x) {
      long[][] parts = new long[2][2 * cols];
      for (int j = 0; j < cols; j++) {
        int mirror = n - 1 - j;
        for (int d = 0; d < 2; d++) {
          long sign = d == 1 ? 1 : -1;
          add(parts[d], j, j, x[j]);
          if (mirror != j) {
            add(parts[d], j, mirror, sign * x[mirror]);
          }
        }
      }
      return parts;
    }

    /** {@link #parts(long[])} with every sum checked ({@link Math#addExact}). */
    long[][] partsExact(long[] x) {
      long[][] parts = new long[2][2 * cols];
      for (int j = 0; j < cols; j++) {
        int mirror = n - 1 - j;
        for (int d = 0; d < 2; d++) {
          addExact(parts[d], j, j, x[j]);
          if (mirror != j) {
            addExact(parts[d], j, mirror, d == 1 ? x[mirror] : Math.negateExact(x[mirror]));
          }
        }
      }
      return parts;
    }

    private static void addExact(long[] part, int j, int c, long v) {
      int i = 2 * j + ((c + 1) & 1 ^ 1);
      part[i] = Math.addExact(part[i], v);
    }

    double[][] parts(double[] x) {
      double[][] parts = new double[2][2 * cols];
      for (int j = 0; j < cols; j++) {
        int mirror = n - 1 - j;
        for (int d = 0; d < 2; d++) {
          double sign = d == 1 ? 1 : -1;
          parts[d][2 * j + ((j + 1) & 1 ^ 1)] += x[j];
          if (mirror != j) {
            parts[d][2 * j + ((mirror + 1) & 1 ^ 1)] += sign * x[mirror];
          }
        }
      }
      return parts;
    }

    /** Adds {@code v} (the value of column {@code c}) to the part of its parity at slot {@code j}. */
    private static void add(long[] part, int j, int c, long v) {
      part[2 * j + ((c + 1) & 1 ^ 1)] += v; // t = c+1 odd: slot 2j, even: 2j+1
    }
  }

  /** Runs {@code body} for rows {@code 0 ≤ k < count}, on both cores when the work is large. */
  private void rows(int count, java.util.function.IntConsumer body) {
    if ((long) count * n >= PARALLEL_WORK) {
      IntStream.range(0, count).parallel().forEach(body);
    } else {
      for (int k = 0; k < count; k++) {
        body.accept(k);
      }
    }
  }

  /** Below this many entries a pass runs on the calling thread (mode products run fibres in parallel). */
  private static final long PARALLEL_WORK = 1L << 22;

  /**
   * Exact {@code N x} without any range limit: the {@code long} kernel sums times {@code a_k} in
   * {@link BigInteger} when the counts allow it (the usual case: only the scaling overflows), else
   * entirely in {@link BigInteger}.
   */
  public BigInteger[] times(BigInteger[] x) {
    requireLength(x.length);
    BigInteger[] out = new BigInteger[n];
    long[] small = new long[n];
    boolean fits = true;
    for (int j = 0; j < n && fits; j++) {
      fits = x[j].bitLength() < 63;
      small[j] = fits ? x[j].longValue() : 0;
    }
    long[] sums = fits ? kernelSums(small) : null;
    if (sums != null) {
      for (int k = 0; k < n; k++) {
        out[k] = BigInteger.valueOf(sums[k]).multiply(BigInteger.valueOf(scales[k]));
      }
      return out;
    }
    int m = kernel.length;
    IntStream.range(0, n).parallel().forEach(k -> {
      int step = k + 1;
      int t = step;
      BigInteger s = BigInteger.ZERO;
      for (int j = 0; j < n; j++) {
        if (kernel[t] != 0 && x[j].signum() != 0) {
          s = s.add(x[j].multiply(BigInteger.valueOf(kernel[t])));
        }
        t += step;
        if (t >= m) {
          t -= m;
        }
      }
      out[k] = s.multiply(BigInteger.valueOf(scales[k]));
    });
    return out;
  }

  /** {@code (S / 2^L) v} in double precision ({@code S} is symmetric), folded as {@code Fold}. */
  private double[] kernelTimes(double[] v) {
    int m = kernel.length;
    double[] real = new double[m];
    for (int t = 0; t < m; t++) {
      real[t] = Math.scalb((double) kernel[t], -KERNEL_BITS);
    }
    Fold f = new Fold(n);
    double[][] parts = f.parts(v);
    double[] out = new double[n];
    rows(f.rows, k -> {
      int a = k + 1;
      double[] p = parts[a & 1];
      int t = a;
      double odd = 0;
      double even = 0;
      for (int j = 0; j < f.cols; j++) {
        double u = real[t];
        odd += u * p[2 * j];
        even += u * p[2 * j + 1];
        t += a;
        if (t >= m) {
          t -= m;
        }
      }
      out[n - 1 - k] = odd - even;
      out[k] = odd + even; // the middle row of an odd n is its own mirror
    });
    return out;
  }

  /** {@code Â v} in double precision. */
  public double[] realTimes(double[] v) {
    requireLength(v.length);
    double[] y = kernelTimes(v);
    for (int k = 0; k < n; k++) {
      y[k] *= Math.scalb((double) scales[k], -scaleBits);
    }
    return y;
  }

  /** {@code Âᵀ v = (S/2^L)(a/2^R ∘ v)} in double precision. */
  public double[] realTransposeTimes(double[] v) {
    requireLength(v.length);
    double[] z = new double[n];
    for (int k = 0; k < n; k++) {
      z[k] = v[k] * Math.scalb((double) scales[k], -scaleBits);
    }
    return kernelTimes(z);
  }

  /**
   * {@code Â⁻¹ y} by preconditioned iterative refinement (see the class comment): stops when the
   * residual of {@code (S/2^L) z = 2^R y / a} is below {@code 1e-14} of its right-hand side, or
   * after 6 steps.
   */
  public double[] solve(double[] y) {
    requireLength(y.length);
    double[] r = new double[n];
    double norm = 0;
    for (int k = 0; k < n; k++) {
      r[k] = y[k] / Math.scalb((double) scales[k], -scaleBits);
      norm += r[k] * r[k];
    }
    double[] z = new double[n];
    double[] res = r.clone();
    double c = 2.0 / (n + 1);
    for (int it = 0; it < 6; it++) {
      double[] step = SineTransform.dstI(res);
      for (int j = 0; j < n; j++) {
        z[j] += c * step[j];
      }
      double[] sz = kernelTimes(z);
      double rn = 0;
      for (int k = 0; k < n; k++) {
        res[k] = r[k] - sz[k];
        rn += res[k] * res[k];
      }
      if (rn <= 1e-28 * norm) {
        break;
      }
    }
    return z;
  }

  /**
   * {@code (ÃᵀÃ)⁻¹ v = Qᵀ diag(1/w²) Q v} for {@code Ã = diag(w) Q}, {@code w_k = (a_k/2^R)
   * √((n+1)/2)}: the rounded scales on the exact orthonormal DST-I {@code Q}, two fast transforms.
   */
  public double[] gramInverseTimes(double[] v) {
    requireLength(v.length);
    double[] q = SineTransform.dstI(v);
    double[] d = inverseSquaredWeights();
    double c = 2.0 / (n + 1); // Q = √(2/(n+1)) B, twice
    for (int k = 0; k < n; k++) {
      q[k] *= d[k];
    }
    double[] out = SineTransform.dstI(q);
    for (int j = 0; j < n; j++) {
      out[j] *= c;
    }
    return out;
  }

  /** {@code 1/w_k²} with {@code w_k = (a_k/2^R) √((n+1)/2)} (see {@link #gramInverseTimes}). */
  public double[] inverseSquaredWeights() {
    double[] d = new double[n];
    for (int k = 0; k < n; k++) {
      double w = Math.scalb((double) scales[k], -scaleBits);
      d[k] = 2.0 / ((n + 1) * w * w);
    }
    return d;
  }

  private void requireLength(int len) {
    if (len != n) {
      throw new IllegalArgumentException("vector of length " + len + ", expected " + n);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SineLattice s && scaleBits == s.scaleBits && Arrays.equals(scales, s.scales);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(scales) + scaleBits;
  }

  @Override
  public String toString() {
    return "SineLattice[" + n + "x" + n + ", 2^-" + bits() + "]";
  }
}
