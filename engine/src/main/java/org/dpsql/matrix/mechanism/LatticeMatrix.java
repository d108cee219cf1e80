package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.Arrays;
import org.dpsql.matrix.Matrices;
import org.dpsql.support.QuietOjAlgo;

/**
 * An integer matrix {@code N} ({@code p × n}, {@code long} entries) stored by rows with its non-zero
 * entries only, representing the real matrix {@code N / 2^bits} that lies on the lattice {@code
 * 2^(−bits)ℤ}. It is one factor of a {@link LatticeStrategy}.
 *
 * <p>Guarantee: {@link #times(long[])} and {@link #times(BigInteger[])} are exact integer products
 * (the {@code long} version throws {@link ArithmeticException} rather than overflow), and the
 * column statistics {@link #maxColumnSumOfSquares()} and {@link #maxColumnAbsSum()} are exact
 * ({@link BigInteger}). The floating-point views ({@link #realTimes}, {@link #realTransposeTimes},
 * {@link #toDoubleArray()}) are exact up to the rounding of each product and sum, i.e. ordinary
 * double precision; they are used only for inference (post-processing). Immutable and thread-safe.
 */
public final class LatticeMatrix {
  private final int rows;
  private final int cols;
  private final int bits;
  /** Row {@code i} holds entries {@code rowStart[i] .. rowStart[i+1]-1}. */
  private final int[] rowStart;
  private final int[] colIndex;
  private final long[] value;
  /** {@code value[k] · 2^(−bits)}, exact in double when {@code |value| < 2^53}. */
  private final double[] realValue;
  /** The all-range Eigen-Design's implicit form, or null for a stored (sparse) matrix. */
  private final SineLattice sine;

  static {
    QuietOjAlgo.ensure(); // realGram may multiply through ojAlgo
  }

  private LatticeMatrix(int rows, int cols, int bits, int[] rowStart, int[] colIndex, long[] value) {
    this.rows = rows;
    this.cols = cols;
    this.bits = bits;
    this.rowStart = rowStart;
    this.colIndex = colIndex;
    this.value = value;
    this.realValue = new double[value.length];
    for (int k = 0; k < value.length; k++) {
      realValue[k] = Math.scalb((double) value[k], -bits);
    }
    this.sine = null;
  }

  private LatticeMatrix(SineLattice sine) {
    this.rows = sine.cells();
    this.cols = sine.cells();
    this.bits = sine.bits();
    this.rowStart = null;
    this.colIndex = null;
    this.value = null;
    this.realValue = null;
    this.sine = sine;
  }

  /**
   * The {@code n × n} lattice matrix {@code N = diag(a) S} of {@link SineLattice}, held implicitly
   * ({@code O(n)} memory): products and the exact column statistics are computed from its sine
   * table; {@link #rowStarts()}, {@link #columnIndices()} and {@link #numerators()} are not
   * available (store {@link SineLattice#scales()} instead).
   */
  public static LatticeMatrix of(SineLattice sine) {
    return new LatticeMatrix(java.util.Objects.requireNonNull(sine, "sine"));
  }

  /** The implicit all-range Eigen-Design form, or null for a stored matrix. */
  public SineLattice sine() {
    return sine;
  }

  private void requireStored() {
    if (sine != null) {
      throw new UnsupportedOperationException(
          "an implicit " + this + " has no compressed rows; store its scales");
    }
  }

  private void requireDenseSize() {
    if (sine != null && (long) rows * cols > (1L << 24)) {
      throw new IllegalStateException(this + " is too large for a dense array");
    }
  }

  /**
   * The matrix {@code N / 2^bits} from its compressed sparse rows (copied): row {@code i} holds the
   * numerators {@code value[k]} at columns {@code colIndex[k]} for {@code rowStart[i] ≤ k <
   * rowStart[i+1]}, columns increasing. The inverse of {@link #rowStarts()}, {@link
   * #columnIndices()} and {@link #numerators()}, for storing a released strategy.
   *
   * @throws IllegalArgumentException if the arrays do not describe a {@code rows × cols} matrix
   */
  public static LatticeMatrix ofCompressedRows(int rows, int cols, int bits, int[] rowStart,
      int[] colIndex, long[] value) {
    checkBits(bits);
    if (rows <= 0 || cols <= 0 || rowStart.length != rows + 1 || rowStart[0] != 0
        || rowStart[rows] != colIndex.length || colIndex.length != value.length) {
      throw new IllegalArgumentException("inconsistent compressed rows");
    }
    for (int i = 0; i < rows; i++) {
      if (rowStart[i] > rowStart[i + 1]) {
        throw new IllegalArgumentException("row starts must not decrease");
      }
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        if (colIndex[k] < 0 || colIndex[k] >= cols
            || (k > rowStart[i] && colIndex[k] <= colIndex[k - 1])) {
          throw new IllegalArgumentException("column indices out of range or not increasing");
        }
      }
    }
    return new LatticeMatrix(rows, cols, bits, rowStart.clone(), colIndex.clone(), value.clone());
  }

  /** The start of each row in {@link #columnIndices()} / {@link #numerators()}, plus the end. */
  public int[] rowStarts() {
    requireStored();
    return rowStart.clone();
  }

  /** The column of each stored numerator, row by row. */
  public int[] columnIndices() {
    requireStored();
    return colIndex.clone();
  }

  /** The stored (non-zero) integer numerators, row by row. */
  public long[] numerators() {
    requireStored();
    return value.clone();
  }

  /**
   * The matrix {@code N / 2^bits} with integer entries {@code n} (copied).
   *
   * @throws IllegalArgumentException if {@code n} is empty or ragged, or {@code bits} is outside
   *     {@code [0, 62]}
   */
  public static LatticeMatrix ofIntegers(long[][] n, int bits) {
    checkBits(bits);
    if (n.length == 0 || n[0].length == 0) {
      throw new IllegalArgumentException("a lattice matrix needs at least one row and one column");
    }
    int c = n[0].length;
    int nnz = 0;
    for (int i = 0; i < n.length; i++) {
      if (n[i].length != c) {
        throw new IllegalArgumentException("row " + i + " has " + n[i].length + " columns, not " + c);
      }
      for (long v : n[i]) {
        if (v != 0) {
          nnz++;
        }
      }
    }
    int[] start = new int[n.length + 1];
    int[] idx = new int[nnz];
    long[] val = new long[nnz];
    int k = 0;
    for (int i = 0; i < n.length; i++) {
      start[i] = k;
      for (int j = 0; j < c; j++) {
        if (n[i][j] != 0) {
          idx[k] = j;
          val[k] = n[i][j];
          k++;
        }
      }
    }
    start[n.length] = k;
    return new LatticeMatrix(n.length, c, bits, start, idx, val);
  }

  /** The identity {@code I_n} on the lattice {@code 2^(−bits)}: {@code N = 2^bits · I}. */
  public static LatticeMatrix identity(int n, int bits) {
    checkBits(bits);
    Matrices.requireCells(n);
    int[] start = new int[n + 1];
    int[] idx = new int[n];
    long[] val = new long[n];
    for (int i = 0; i < n; i++) {
      start[i] = i;
      idx[i] = i;
      val[i] = 1L << bits;
    }
    start[n] = n;
    return new LatticeMatrix(n, n, bits, start, idx, val);
  }

  /**
   * Rounds every entry of {@code a} to the nearest multiple of {@code 2^(−bits)} (ties to even):
   * {@code N_ij = rint(a_ij · 2^bits)}. Each entry moves by at most {@code 2^(−bits−1)}.
   *
   * @throws IllegalArgumentException if {@code a} is empty, ragged or has a non-finite entry, if
   *     {@code bits} is outside {@code [0, 62]}, or if some {@code |a_ij| · 2^bits} is {@code >=
   *     2^62}
   */
  public static LatticeMatrix round(double[][] a, int bits) {
    checkBits(bits);
    if (a.length == 0 || a[0].length == 0) {
      throw new IllegalArgumentException("a strategy needs at least one row and one cell");
    }
    long[][] n = new long[a.length][];
    for (int i = 0; i < a.length; i++) {
      if (a[i].length != a[0].length) {
        throw new IllegalArgumentException(
            "row " + i + " has " + a[i].length + " cells, not " + a[0].length);
      }
      n[i] = new long[a[i].length];
      for (int j = 0; j < a[i].length; j++) {
        double v = a[i][j];
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("strategy entries must be finite: a[" + i + "][" + j + "]");
        }
        double scaled = Math.rint(Math.scalb(v, bits)); // scalb by a power of two is exact
        if (Math.abs(scaled) >= 0x1p62) {
          throw new IllegalArgumentException(
              "entry a[" + i + "][" + j + "] = " + v + " is too large for " + bits + " lattice bits");
        }
        n[i][j] = (long) scaled;
      }
    }
    return ofIntegers(n, bits);
  }

  private static void checkBits(int bits) {
    if (bits < 0 || bits > 62) {
      throw new IllegalArgumentException("lattice bits must be in [0, 62]: " + bits);
    }
  }

  /** {@code p}: number of rows. */
  public int rows() {
    return rows;
  }

  /** {@code n}: number of columns. */
  public int cols() {
    return cols;
  }

  /** The lattice exponent: real entries are {@code N_ij / 2^bits}. */
  public int bits() {
    return bits;
  }

  /** Number of stored (non-zero) entries. */
  public int nonZeros() {
    return sine != null ? (int) Math.min(Integer.MAX_VALUE, (long) rows * cols) : value.length;
  }

  /** The integer entry {@code N_ij}. */
  public long entry(int i, int j) {
    if (sine != null) {
      return sine.entry(i, j);
    }
    for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
      if (colIndex[k] == j) {
        return value[k];
      }
    }
    return 0;
  }

  /** The integer matrix {@code N} as a dense array (a fresh copy). */
  public long[][] toLongArray() {
    requireDenseSize();
    long[][] out = new long[rows][cols];
    if (sine != null) {
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          out[i][j] = sine.entry(i, j);
        }
      }
      return out;
    }
    for (int i = 0; i < rows; i++) {
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        out[i][colIndex[k]] = value[k];
      }
    }
    return out;
  }

  /** The real matrix {@code N / 2^bits} as a dense array (a fresh copy). */
  public double[][] toDoubleArray() {
    requireDenseSize();
    double[][] out = new double[rows][cols];
    if (sine != null) {
      for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++) {
          out[i][j] = Math.scalb((double) sine.entry(i, j), -bits);
        }
      }
      return out;
    }
    for (int i = 0; i < rows; i++) {
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        out[i][colIndex[k]] = realValue[k];
      }
    }
    return out;
  }

  /** Exact {@code max_j Σ_i N_ij²}, the squared L2 sensitivity of {@code N}. */
  public BigInteger maxColumnSumOfSquares() {
    if (sine != null) {
      return sine.maxColumnSumOfSquares();
    }
    try {
      // exact in long when nothing overflows (checked), else in BigInteger below
      long[] t = new long[cols];
      long max = 0;
      for (int k = 0; k < value.length; k++) {
        int j = colIndex[k];
        t[j] = Math.addExact(t[j], Math.multiplyExact(value[k], value[k]));
        max = Math.max(max, t[j]);
      }
      return BigInteger.valueOf(max);
    } catch (ArithmeticException overflow) {
      // fall through
    }
    BigInteger[] s = new BigInteger[cols];
    Arrays.fill(s, BigInteger.ZERO);
    for (int k = 0; k < value.length; k++) {
      BigInteger v = BigInteger.valueOf(value[k]);
      s[colIndex[k]] = s[colIndex[k]].add(v.multiply(v));
    }
    return Arrays.stream(s).max(BigInteger::compareTo).orElseThrow();
  }

  /** Exact {@code max_j Σ_i |N_ij|}, the L1 sensitivity of {@code N}. */
  public BigInteger maxColumnAbsSum() {
    if (sine != null) {
      return sine.maxColumnAbsSum();
    }
    try {
      long[] t = new long[cols];
      long max = 0;
      for (int k = 0; k < value.length; k++) {
        int j = colIndex[k];
        t[j] = Math.addExact(t[j], Math.absExact(value[k]));
        max = Math.max(max, t[j]);
      }
      return BigInteger.valueOf(max);
    } catch (ArithmeticException overflow) {
      // fall through
    }
    BigInteger[] s = new BigInteger[cols];
    Arrays.fill(s, BigInteger.ZERO);
    for (int k = 0; k < value.length; k++) {
      s[colIndex[k]] = s[colIndex[k]].add(BigInteger.valueOf(value[k]).abs());
    }
    return Arrays.stream(s).max(BigInteger::compareTo).orElseThrow();
  }

  /** {@code max_i Σ_j |N_ij| / 2^bits} in double precision (the ∞-norm of the real matrix). */
  public double maxRowAbsSum() {
    if (sine != null) {
      // an upper bound (|s| ≤ 2^L per entry), as the callers need
      double m = 0;
      for (long v : sine.scales()) {
        m = Math.max(m, Math.scalb((double) v * cols, -sine.scaleBits()));
      }
      return m;
    }
    double m = 0;
    for (int i = 0; i < rows; i++) {
      double s = 0;
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        s += Math.abs(realValue[k]);
      }
      m = Math.max(m, s);
    }
    return m;
  }

  /**
   * Exact {@code N x}.
   *
   * @throws ArithmeticException if an intermediate value overflows a {@code long}
   */
  public long[] times(long[] x) {
    requireLength(x.length, cols);
    if (sine != null) {
      return sine.times(x);
    }
    long[] out = new long[rows];
    for (int i = 0; i < rows; i++) {
      long s = 0;
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        s = Math.addExact(s, Math.multiplyExact(value[k], x[colIndex[k]]));
      }
      out[i] = s;
    }
    return out;
  }

  /** Exact {@code N x} without any range limit. */
  public BigInteger[] times(BigInteger[] x) {
    requireLength(x.length, cols);
    if (sine != null) {
      return sine.times(x);
    }
    BigInteger[] out = new BigInteger[rows];
    for (int i = 0; i < rows; i++) {
      BigInteger s = BigInteger.ZERO;
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        s = s.add(BigInteger.valueOf(value[k]).multiply(x[colIndex[k]]));
      }
      out[i] = s;
    }
    return out;
  }

  /**
   * Exact {@code N v} for a {@code long} vector whose products overflow a {@code long} (the second
   * mode product of a Kronecker strategy): each row accumulated in 128 bits (every product taken
   * exactly with {@link Math#multiplyHigh}), returned as {@link BigInteger}.
   *
   * @throws ArithmeticException if {@code max|N| · max|v| · (entries per row)} could reach {@code
   *     2^126} (the caller then computes in {@link BigInteger})
   */
  public BigInteger[] timesWide(long[] v) {
    requireLength(v.length, cols);
    BigInteger[] out = new BigInteger[rows];
    if (sine != null) {
      long[][] w = sine.kernelSumsWide(v);
      long[] a = sine.scales();
      for (int i = 0; i < rows; i++) {
        out[i] = SineLattice.wide(w[0][i], w[1][i]).multiply(BigInteger.valueOf(a[i]));
      }
      return out;
    }
    long maxV = 0;
    for (long x : v) {
      maxV = Math.max(maxV, x == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(x));
    }
    long maxN = 0;
    int maxRow = 1;
    for (int i = 0; i < rows; i++) {
      maxRow = Math.max(maxRow, rowStart[i + 1] - rowStart[i]);
    }
    for (long x : value) {
      maxN = Math.max(maxN, x == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(x));
    }
    int bits = (64 - Long.numberOfLeadingZeros(maxV)) + (64 - Long.numberOfLeadingZeros(maxN))
        + (32 - Integer.numberOfLeadingZeros(maxRow));
    if (bits >= 126) {
      throw new ArithmeticException("row sums may exceed 128 bits");
    }
    for (int i = 0; i < rows; i++) {
      long hi = 0;
      long lo = 0;
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        long a = value[k];
        long x = v[colIndex[k]];
        long sum = lo + a * x;
        hi += Math.multiplyHigh(a, x) + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0);
        lo = sum;
      }
      out[i] = SineLattice.wide(hi, lo);
    }
    return out;
  }

  /** {@code (N / 2^bits) v} in double precision. */
  public double[] realTimes(double[] v) {
    requireLength(v.length, cols);
    if (sine != null) {
      return sine.realTimes(v);
    }
    double[] out = new double[rows];
    for (int i = 0; i < rows; i++) {
      double s = 0;
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        s += realValue[k] * v[colIndex[k]];
      }
      out[i] = s;
    }
    return out;
  }

  /** {@code (N / 2^bits)ᵀ v} in double precision. */
  public double[] realTransposeTimes(double[] v) {
    requireLength(v.length, rows);
    if (sine != null) {
      return sine.realTransposeTimes(v);
    }
    double[] out = new double[cols];
    for (int i = 0; i < rows; i++) {
      double vi = v[i];
      if (vi == 0) {
        continue;
      }
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        out[colIndex[k]] += realValue[k] * vi;
      }
    }
    return out;
  }

  /**
   * The Gram matrix {@code (N/2^bits)ᵀ (N/2^bits)} ({@code n × n}) in double precision, by sparse
   * rank-one updates when rows are sparse and by an ojAlgo product otherwise.
   */
  double[][] realGram() {
    if (sine != null) {
      double[][] a = toDoubleArray();
      return org.dpsql.matrix.Matrices.multiply(org.dpsql.matrix.Matrices.transpose(a), a);
    }
    boolean dense = value.length > 0.25 * rows * (double) cols;
    if (dense && (double) rows * cols * cols > 1e7) {
      double[][] a = toDoubleArray();
      return org.dpsql.matrix.Matrices.multiply(org.dpsql.matrix.Matrices.transpose(a), a);
    }
    double[][] g = new double[cols][cols];
    for (int i = 0; i < rows; i++) {
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        double a = realValue[k];
        double[] row = g[colIndex[k]];
        for (int l = rowStart[i]; l < rowStart[i + 1]; l++) {
          row[colIndex[l]] += a * realValue[l];
        }
      }
    }
    return g;
  }

  /**
   * {@code (N/2^bits)(N/2^bits)ᵀ} ({@code p × p}) in double precision: the row Gram, cheaper than
   * {@link #realGram()} when the matrix has fewer rows than columns. {@code O(p · nnz)} time,
   * {@code O(p² + n)} memory.
   */
  double[][] realRowGram() {
    if (sine != null) {
      double[][] a = toDoubleArray();
      return org.dpsql.matrix.Matrices.multiply(a, org.dpsql.matrix.Matrices.transpose(a));
    }
    double[][] g = new double[rows][rows];
    double[] dense = new double[cols];
    for (int i = 0; i < rows; i++) {
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        dense[colIndex[k]] = realValue[k];
      }
      for (int l = 0; l <= i; l++) {
        double s = 0;
        for (int k = rowStart[l]; k < rowStart[l + 1]; k++) {
          s += realValue[k] * dense[colIndex[k]];
        }
        g[i][l] = s;
        g[l][i] = s;
      }
      for (int k = rowStart[i]; k < rowStart[i + 1]; k++) {
        dense[colIndex[k]] = 0;
      }
    }
    return g;
  }

  /**
   * Whether every row and every column holds exactly one non-zero (a scaled permutation, e.g. the
   * identity): then {@code ÂᵀÂ} is diagonal.
   */
  boolean isMonomial() {
    if (sine != null) {
      return false;
    }
    if (rows != cols || value.length != rows) {
      return false;
    }
    boolean[] seen = new boolean[cols];
    for (int i = 0; i < rows; i++) {
      if (rowStart[i + 1] - rowStart[i] != 1 || value[rowStart[i]] == 0 || seen[colIndex[rowStart[i]]]) {
        return false;
      }
      seen[colIndex[rowStart[i]]] = true;
    }
    return true;
  }

  /** For a monomial matrix ({@link #isMonomial()}): the diagonal of {@code ÂᵀÂ}. */
  double[] monomialGramDiagonal() {
    double[] d = new double[cols];
    for (int i = 0; i < rows; i++) {
      double v = realValue[rowStart[i]];
      d[colIndex[rowStart[i]]] = v * v;
    }
    return d;
  }

  private static void requireLength(int got, int expected) {
    if (got != expected) {
      throw new IllegalArgumentException("vector of length " + got + ", expected " + expected);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (sine != null || (o instanceof LatticeMatrix l && l.sine != null)) {
      return o instanceof LatticeMatrix m && java.util.Objects.equals(sine, m.sine);
    }
    return o instanceof LatticeMatrix m
        && rows == m.rows
        && cols == m.cols
        && bits == m.bits
        && Arrays.equals(rowStart, m.rowStart)
        && Arrays.equals(colIndex, m.colIndex)
        && Arrays.equals(value, m.value);
  }

  @Override
  public int hashCode() {
    if (sine != null) {
      return sine.hashCode();
    }
    return 31 * (31 * Arrays.hashCode(value) + Arrays.hashCode(colIndex)) + rows * 17 + cols + bits;
  }

  @Override
  public String toString() {
    if (sine != null) {
      return "LatticeMatrix[" + sine + "]";
    }
    return "LatticeMatrix[" + rows + "x" + cols + ", 2^-" + bits + ", nnz=" + value.length + "]";
  }
}
