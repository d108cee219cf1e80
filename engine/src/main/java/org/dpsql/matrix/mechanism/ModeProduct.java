package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.function.UnaryOperator;

/**
 * Mode-wise products on a vector laid out as a row-major tensor {@code d₀ × … × d_{D−1}} (the last
 * mode varying fastest, matching {@code Matrices.kronecker}): applying {@code F} along mode {@code f}
 * computes {@code (I ⊗ … ⊗ F ⊗ … ⊗ I) v}, so applying {@code Fᵢ} along every mode computes {@code
 * (F₀ ⊗ … ⊗ F_{D−1}) v} without forming the product. Factors may be rectangular.
 */
final class ModeProduct {
  private ModeProduct() {}

  /** Elements strictly before mode {@code f}. */
  static int left(int[] dims, int f) {
    int l = 1;
    for (int g = 0; g < f; g++) {
      l = Math.multiplyExact(l, dims[g]);
    }
    return l;
  }

  /** Elements strictly after mode {@code f}. */
  static int right(int[] dims, int f) {
    int r = 1;
    for (int g = f + 1; g < dims.length; g++) {
      r = Math.multiplyExact(r, dims[g]);
    }
    return r;
  }

  /**
   * Applies {@code op} (mapping fibres of length {@code dims[f]} to length {@code outDim}) along
   * mode {@code f}; {@code dims} is not modified.
   */
  static double[] apply(double[] t, int[] dims, int f, int outDim, UnaryOperator<double[]> op) {
    int left = left(dims, f);
    int right = right(dims, f);
    int d = dims[f];
    double[] out = new double[Math.multiplyExact(Math.multiplyExact(left, outDim), right)];
    fibres(left, right, d, i -> {
      int l = i / right;
      int r = i % right;
      double[] fibre = new double[d];
      for (int a = 0; a < d; a++) {
        fibre[a] = t[(l * d + a) * right + r];
      }
      double[] y = op.apply(fibre);
      for (int b = 0; b < outDim; b++) {
        out[(l * outDim + b) * right + r] = y[b];
      }
    });
    return out;
  }

  /** Above this many entries the fibres of a mode product run in parallel. */
  private static final long PARALLEL_ENTRIES = 1L << 16;

  /**
   * Runs {@code body} for each fibre index {@code 0 ≤ i < left · right}, in parallel when there
   * are several and the tensor is large (the operators passed are pure functions of the fibre).
   */
  private static void fibres(int left, int right, int d, java.util.function.IntConsumer body) {
    int count = Math.multiplyExact(left, right);
    if (count > 1 && (long) count * d >= PARALLEL_ENTRIES) {
      java.util.stream.IntStream.range(0, count).parallel().forEach(body);
    } else {
      for (int i = 0; i < count; i++) {
        body.accept(i);
      }
    }
  }

  /** The fibre {@code (l, ·, r)} of a tensor held as {@code [left][d][right]}. */
  private static long[] fibre(long[] t, int l, int r, int d, int right) {
    long[] fibre = new long[d];
    for (int a = 0; a < d; a++) {
      fibre[a] = t[(l * d + a) * right + r];
    }
    return fibre;
  }

  /**
   * Exact {@code N} along mode {@code f}.
   *
   * @throws ArithmeticException on {@code long} overflow
   */
  static long[] applyExact(long[] t, int[] dims, int f, LatticeMatrix n) {
    int left = left(dims, f);
    int right = right(dims, f);
    int d = dims[f];
    int outDim = n.rows();
    long[] out = new long[Math.multiplyExact(Math.multiplyExact(left, outDim), right)];
    fibres(left, right, d, i -> {
      int l = i / right;
      int r = i % right;
      long[] fibre = fibre(t, l, r, d, right);
      long[] y = n.times(fibre);
      for (int b = 0; b < outDim; b++) {
        out[(l * outDim + b) * right + r] = y[b];
      }
    });
    return out;
  }

  /**
   * Exact {@code N} along mode {@code f} on {@code long} values whose products need more than 64
   * bits ({@link LatticeMatrix#timesWide}), fibres in parallel.
   *
   * @throws ArithmeticException if a row sum could exceed 128 bits
   */
  static BigInteger[] applyWide(long[] t, int[] dims, int f, LatticeMatrix n) {
    int left = left(dims, f);
    int right = right(dims, f);
    int d = dims[f];
    int outDim = n.rows();
    BigInteger[] out = new BigInteger[Math.multiplyExact(Math.multiplyExact(left, outDim), right)];
    fibres(left, right, d, i -> {
      int l = i / right;
      int r = i % right;
      long[] fibre = fibre(t, l, r, d, right);
      BigInteger[] y = n.timesWide(fibre);
      for (int b = 0; b < outDim; b++) {
        out[(l * outDim + b) * right + r] = y[b];
      }
    });
    return out;
  }

  /** Exact {@code N} along mode {@code f}, without range limit. */
  static BigInteger[] applyExact(BigInteger[] t, int[] dims, int f, LatticeMatrix n) {
    int left = left(dims, f);
    int right = right(dims, f);
    int d = dims[f];
    int outDim = n.rows();
    BigInteger[] out = new BigInteger[Math.multiplyExact(Math.multiplyExact(left, outDim), right)];
    BigInteger[] fibre = new BigInteger[d];
    for (int l = 0; l < left; l++) {
      for (int r = 0; r < right; r++) {
        for (int a = 0; a < d; a++) {
          fibre[a] = t[(l * d + a) * right + r];
        }
        BigInteger[] y = n.times(fibre);
        for (int b = 0; b < outDim; b++) {
          out[(l * outDim + b) * right + r] = y[b];
        }
      }
    }
    return out;
  }
}
