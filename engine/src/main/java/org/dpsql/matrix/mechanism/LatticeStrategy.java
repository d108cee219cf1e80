package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.IdentityStrategy;
import org.dpsql.matrix.KroneckerStrategy;
import org.dpsql.matrix.Strategy;
import org.dpsql.mechanism.Rational;

/**
 * A strategy whose entries lie on the lattice {@code 2^(−K)ℤ}: {@code Â = N / 2^K} with an integer
 * matrix {@code N}, obtained by rounding every entry of a real strategy {@code A} to the grid {@code
 * 2^(−k)} (per Kronecker factor, refined for small-valued factors, see {@link #round(Strategy,
 * int)}; {@code K} is the sum of the factors' exponents). A Kronecker
 * strategy {@code A₁ ⊗ … ⊗ A_d} keeps its structure: {@code N = N₁ ⊗ … ⊗ N_d} is never formed.
 *
 * <p>Why a lattice: the data vector {@code x} is an integer vector, so {@code Âx = (Nx)/2^K} is
 * computed <em>exactly</em> in integer arithmetic and lies on {@code 2^(−K)ℤ^p}; a neighbour {@code x
 * ± e_j} moves it by exactly {@code ±N_{:,j} / 2^K}, again on the lattice. Integer noise added to the
 * numerators {@code Nx} is then the textbook discrete Gaussian/Laplace mechanism on an integer
 * vector query with integer sensitivity vectors (see {@link MatrixMechanism}), which has no
 * floating-point or non-lattice shift that could break privacy.
 *
 * <p>The all-range Eigen-Design in closed form ({@link
 * org.dpsql.matrix.design.TransformStrategy}) is rounded to an implicit factor ({@link
 * SineLattice}, {@code O(n)} memory) whose products and column statistics are exact in the same
 * sense.
 *
 * <p>Guarantee: {@link #sensitivityL2Squared()} {@code = max_j Σ_i N_ij² / 4^K} and {@link
 * #sensitivityL1()} {@code = max_j Σ_i |N_ij| / 2^K} are exact rationals (for a Kronecker product,
 * the column norms multiply, so the maxima are the products of the factors' maxima); {@link
 * #numeratorsTimes(long[])} is the exact integer vector {@code N x}. Rounding moves each entry of
 * each factor by at most {@code 2^(−k−1)} (at most {@code 2^(−k)} of its largest entry); the error
 * formula of {@code Â} therefore differs from
 * that of {@code A} only negligibly for {@code k ≈ 20} (tested). Immutable and thread-safe.
 */
public final class LatticeStrategy {
  /** The default lattice exponent per factor, {@code k = 20}. */
  public static final int DEFAULT_BITS = 20;

  private final List<LatticeMatrix> factors;
  private final String name;
  private final int cells;
  private final long rows;
  private final int bits;
  private final BigInteger maxColumnSumOfSquares;
  private volatile BigInteger maxColumnAbsSum;

  private LatticeStrategy(String name, List<LatticeMatrix> factors) {
    this.factors = List.copyOf(factors);
    this.name = name;
    long n = 1;
    long p = 1;
    int k = 0;
    BigInteger s2 = BigInteger.ONE;
    for (LatticeMatrix f : factors) {
      n = Math.multiplyExact(n, f.cols());
      p = Math.multiplyExact(p, f.rows());
      k = Math.addExact(k, f.bits());
      s2 = s2.multiply(f.maxColumnSumOfSquares());
    }
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("domain too large: " + n + " cells");
    }
    if (p > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many strategy rows to measure: " + p);
    }
    if (s2.signum() == 0) {
      throw new IllegalArgumentException(
          "strategy " + name + " rounds to the zero matrix on the lattice; use more bits");
    }
    this.cells = (int) n;
    this.rows = p;
    this.bits = k;
    this.maxColumnSumOfSquares = s2;
  }

  /**
   * Rounds {@code a} to the lattice, factor by factor ({@link Strategy#kroneckerFactors()}; a
   * non-product strategy is one factor): a factor whose largest entry is {@code m} is rounded to the
   * grid {@code 2^(−k_f)} with {@code k_f = bitsPerFactor + max(0, −⌊log₂ m⌋)}, i.e. never coarser
   * than {@code 2^(−bitsPerFactor)} and with at least {@code bitsPerFactor + 1} significant bits on
   * the largest entry (small-valued strategies such as normalised Fourier bases keep their relative
   * precision). Each entry moves by at most {@code 2^(−k_f−1)}. The workload's own integer rows
   * ({@link org.dpsql.matrix.DirectStrategy}) are already on the lattice: they are taken as they
   * are ({@code k_f = 0}, nothing moves) from their sparse rows.
   *
   * @throws IllegalArgumentException if {@code bitsPerFactor} is outside {@code [0, 62]}, an entry
   *     is too large for it, or the rounded strategy is zero
   */
  public static LatticeStrategy round(Strategy a, int bitsPerFactor) {
    List<LatticeMatrix> fs = new ArrayList<>();
    if (bitsPerFactor < 0 || bitsPerFactor > 62) {
      throw new IllegalArgumentException("lattice bits must be in [0, 62]: " + bitsPerFactor);
    }
    for (Strategy f : a.kroneckerFactors()) {
      if (f instanceof IdentityStrategy) {
        fs.add(LatticeMatrix.identity(f.cells(), bitsPerFactor)); // without materialising n × n
        continue;
      }
      if (f instanceof org.dpsql.matrix.DirectStrategy d) {
        // the workload's own integer rows: on the lattice as they are (2^0), stored sparsely
        org.dpsql.matrix.SparseRows r = d.sparseRows();
        fs.add(LatticeMatrix.ofCompressedRows(r.rows(), r.cols(), 0, r.rowStarts(),
            r.columnIndices(), r.entries()));
        continue;
      }
      if (f instanceof org.dpsql.matrix.design.TransformStrategy t) {
        // the all-range Eigen-Design in closed form: an implicit integer strategy, O(n) memory
        fs.add(LatticeMatrix.of(SineLattice.round(t.weights(), bitsPerFactor)));
        continue;
      }
      double[][] m = f.matrix();
      double maxAbs = 0;
      for (double[] row : m) {
        for (double v : row) {
          maxAbs = Math.max(maxAbs, Math.abs(v));
        }
      }
      // Small entries get extra bits so that the largest |N_ij| is at least 2^k (k + 1 significant
      // bits); the grid is never coarser than 2^(−k).
      int extra = maxAbs > 0 && Double.isFinite(maxAbs) ? Math.max(0, -Math.getExponent(maxAbs)) : 0;
      fs.add(LatticeMatrix.round(m, Math.min(62, bitsPerFactor + extra)));
    }
    return new LatticeStrategy(a.name(), fs);
  }

  /** {@link #round(Strategy, int)} with {@link #DEFAULT_BITS}. */
  public static LatticeStrategy round(Strategy a) {
    return round(a, DEFAULT_BITS);
  }

  /** The Kronecker product of the given lattice factors (a single factor is a plain strategy). */
  public static LatticeStrategy of(String name, List<LatticeMatrix> factors) {
    if (factors.isEmpty()) {
      throw new IllegalArgumentException("a lattice strategy needs at least one factor");
    }
    return new LatticeStrategy(name, factors);
  }

  /** The Kronecker factors {@code N₁, …, N_d} (one for a non-product strategy). */
  public List<LatticeMatrix> factors() {
    return factors;
  }

  /** {@code n}: cells of the data vector. */
  public int cells() {
    return cells;
  }

  /** {@code p}: number of measured queries. */
  public int rows() {
    return (int) rows;
  }

  /** {@code K}: the lattice exponent, {@code Â = N / 2^K}. */
  public int bits() {
    return bits;
  }

  /** The strategy's name (that of the rounded strategy). */
  public String name() {
    return name;
  }

  /** Exact {@code max_j Σ_i N_ij²} (an integer; the squared L2 sensitivity of {@code N}). */
  public BigInteger maxColumnSumOfSquares() {
    return maxColumnSumOfSquares;
  }

  /** Exact {@code max_j Σ_i |N_ij|} (an integer; the L1 sensitivity of {@code N}). */
  public BigInteger maxColumnAbsSum() {
    BigInteger s1 = maxColumnAbsSum;
    if (s1 == null) {
      s1 = BigInteger.ONE;
      for (LatticeMatrix f : factors) { // computed on first use (O(n²) for an implicit factor)
        s1 = s1.multiply(f.maxColumnAbsSum());
      }
      maxColumnAbsSum = s1;
    }
    return s1;
  }

  /** Exact {@code ‖Â‖₂² = max_j Σ_i N_ij² / 4^K}: the squared L2 sensitivity of {@code Â}. */
  public Rational sensitivityL2Squared() {
    return Rational.of(maxColumnSumOfSquares, BigInteger.ONE.shiftLeft(2 * bits));
  }

  /** Exact {@code ‖Â‖₁ = max_j Σ_i |N_ij| / 2^K}: the L1 sensitivity of {@code Â}. */
  public Rational sensitivityL1() {
    return Rational.of(maxColumnAbsSum(), BigInteger.ONE.shiftLeft(bits));
  }

  /** The factor dimensions {@code n₁, …, n_d}. */
  int[] cellDims() {
    return factors.stream().mapToInt(LatticeMatrix::cols).toArray();
  }

  /** The factor row counts {@code p₁, …, p_d}. */
  int[] rowDims() {
    return factors.stream().mapToInt(LatticeMatrix::rows).toArray();
  }

  /**
   * The exact integer vector {@code N x} (so {@code Âx = Nx / 2^K}); rows in row-major order of the
   * factors' rows. Uses {@code long} arithmetic; on overflow, a product of two factors takes its
   * second mode product in 128 bits ({@link LatticeMatrix#timesWide}; two all-range factors always
   * do, {@code SineLatticeProduct}), and anything larger falls back to {@link BigInteger}. Every path
   * is exact integer arithmetic, so all give the same vector.
   *
   * @throws IllegalArgumentException if {@code x} does not have {@link #cells()} entries
   */
  public BigInteger[] numeratorsTimes(long[] x) {
    if (x.length != cells) {
      throw new IllegalArgumentException("data vector has " + x.length + " cells, expected " + cells);
    }
    try {
      if (factors.size() == 2 && factors.get(0).sine() != null && factors.get(1).sine() != null) {
        // two all-range factors (2-D all ranges): long, then 128-bit mode products
        return SineLatticeProduct.times(factors.get(0).sine(), factors.get(1).sine(), x);
      }
      long[] t = x.clone();
      int[] dims = cellDims();
      for (int f = 0; f < factors.size(); f++) {
        t = ModeProduct.applyExact(t, dims, f, factors.get(f));
        dims[f] = factors.get(f).rows();
      }
      BigInteger[] out = new BigInteger[t.length];
      for (int i = 0; i < t.length; i++) {
        out[i] = BigInteger.valueOf(t[i]);
      }
      return out;
    } catch (ArithmeticException overflow) {
      if (factors.size() == 2) {
        try {
          // two factors (a 2-D product): the last mode in long, the first in 128 bits
          int[] dims = cellDims();
          long[] t = ModeProduct.applyExact(x, dims, 1, factors.get(1));
          dims[1] = factors.get(1).rows();
          return ModeProduct.applyWide(t, dims, 0, factors.get(0));
        } catch (ArithmeticException beyond) {
          // counts beyond 128-bit sums: BigInteger below
        }
      }
      BigInteger[] t = new BigInteger[x.length];
      for (int i = 0; i < x.length; i++) {
        t[i] = BigInteger.valueOf(x[i]);
      }
      int[] dims = cellDims();
      for (int f = 0; f < factors.size(); f++) {
        t = ModeProduct.applyExact(t, dims, f, factors.get(f));
        dims[f] = factors.get(f).rows();
      }
      return t;
    }
  }

  /** {@code Â v} in double precision (mode-wise for a product). */
  public double[] realTimes(double[] v) {
    if (v.length != cells) {
      throw new IllegalArgumentException("vector has " + v.length + " entries, expected " + cells);
    }
    double[] t = v;
    int[] dims = cellDims();
    for (int f = 0; f < factors.size(); f++) {
      LatticeMatrix m = factors.get(f);
      t = ModeProduct.apply(t, dims, f, m.rows(), m::realTimes);
      dims[f] = m.rows();
    }
    return t;
  }

  /** {@code Âᵀ u} in double precision (mode-wise for a product). */
  public double[] realTransposeTimes(double[] u) {
    if (u.length != rows) {
      throw new IllegalArgumentException("vector has " + u.length + " entries, expected " + rows);
    }
    double[] t = u;
    int[] dims = rowDims();
    for (int f = 0; f < factors.size(); f++) {
      LatticeMatrix m = factors.get(f);
      t = ModeProduct.apply(t, dims, f, m.cols(), m::realTransposeTimes);
      dims[f] = m.cols();
    }
    return t;
  }

  /**
   * {@code Â} as an ordinary {@link Strategy} (double entries, exact since every entry is a dyadic
   * rational of at most 53 significant bits), for error analysis: an {@link ExplicitStrategy} for
   * one factor, a {@link KroneckerStrategy} of explicit factors otherwise.
   */
  public Strategy asStrategy() {
    String n = "Lattice(" + name + ")";
    if (factors.size() == 1) {
      return new ExplicitStrategy(n, factors.get(0).toDoubleArray());
    }
    List<Strategy> fs = new ArrayList<>();
    for (int i = 0; i < factors.size(); i++) {
      fs.add(new ExplicitStrategy(n + "[" + i + "]", factors.get(i).toDoubleArray()));
    }
    return new KroneckerStrategy(n, fs);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LatticeStrategy s && name.equals(s.name) && factors.equals(s.factors);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + factors.hashCode();
  }

  @Override
  public String toString() {
    return "LatticeStrategy[" + name + ", " + rows + "x" + cells + ", 2^-" + bits + "]";
  }
}
