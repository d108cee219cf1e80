package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.stream.IntStream;

/**
 * The exact integer product {@code (N₀ ⊗ N₁) x} of two implicit all-range lattice factors ({@link
 * SineLattice}, {@code Nᵢ = diag(aᵢ) Sᵢ}) on a row-major {@code n₀ × n₁} data array {@code X}
 * (factor 0's index slowest), by mode products and without anything {@code n × n}: {@code (N₀ ⊗ N₁)
 * x = vec(N₀ X N₁ᵀ) = (a₀ ⊗ a₁) ∘ vec(S₀ (X S₁ᵀ))}. The first mode product ({@code X S₁ᵀ}, row by
 * row) is exact in {@code long} when every row's {@code Σ|x|} is below {@code 2^(62−L)}; the second
 * ({@code S₀} on each column of the result, values up to {@code 2^62}) accumulates in 128 bits
 * ({@link SineLattice#kernelSumsWide}); the row scales multiply last, in {@link BigInteger}. Every
 * step is integer arithmetic, so the result equals the dense product entry by entry (tested), and
 * the noise added to it by {@link MatrixMechanism} is calibrated to the exact product of the
 * factors' column maxima ({@link LatticeStrategy}). Both mode products run their fibres in
 * parallel; {@code O(n₀ n₁)} memory.
 */
final class SineLatticeProduct {
  private SineLatticeProduct() {}

  /**
   * Exact {@code (N₀ ⊗ N₁) x}, rows in row-major order ({@code k₀ n₁ + k₁}).
   *
   * @throws ArithmeticException if a row's counts are too large for the {@code long} first step
   *     (the caller then computes in {@link BigInteger})
   */
  static BigInteger[] times(SineLattice first, SineLattice second, long[] x) {
    int n0 = first.cells();
    int n1 = second.cells();
    if (x.length != (long) n0 * n1) {
      throw new IllegalArgumentException("data of " + x.length + " cells, expected " + n0 + "x" + n1);
    }
    long[] t = new long[x.length]; // X S₁ᵀ, row-major n₀ × n₁
    boolean fits = IntStream.range(0, n0).parallel().allMatch(j0 -> {
      long[] row = new long[n1];
      System.arraycopy(x, j0 * n1, row, 0, n1);
      long[] sums = second.kernelSums(row);
      if (sums == null) {
        return false;
      }
      System.arraycopy(sums, 0, t, j0 * n1, n1);
      return true;
    });
    if (!fits) {
      throw new ArithmeticException("counts too large for the long mode product");
    }
    long[] a0 = first.scales();
    long[] a1 = second.scales();
    BigInteger[] out = new BigInteger[x.length];
    IntStream.range(0, n1).parallel().forEach(k1 -> {
      long[] column = new long[n0];
      for (int j0 = 0; j0 < n0; j0++) {
        column[j0] = t[j0 * n1 + k1];
      }
      long[][] w = first.kernelSumsWide(column); // |t| < 2^62: the folded sums fit a long
      for (int k0 = 0; k0 < n0; k0++) {
        BigInteger scale = BigInteger.valueOf(a0[k0] * a1[k1]); // < 2^42
        out[k0 * n1 + k1] = scale.multiply(SineLattice.wide(w[0][k0], w[1][k0]));
      }
    });
    return out;
  }
}
