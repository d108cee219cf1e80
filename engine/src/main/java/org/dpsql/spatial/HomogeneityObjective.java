package org.dpsql.spatial;

import java.math.BigInteger;
import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * The homogeneity objective of HTF (Shaham et al., eq. 5–6): for a node covering {@code U x V}
 * cells split after {@code k} rows (or columns), {@code o_k = Σ_{part 1} |c_ij − μ₁| + Σ_{part 2}
 * |c_ij − μ₂|}, {@code μ} the mean cell count of each part; {@code k = U} means "no division"
 * (one part, the paper's third option in its 3 x 2 example).
 *
 * <p>Guarantee: values are exact. The objective is a rational with denominator dividing {@code
 * L_k = n₁ n₂} ({@code n₁ = kV}, {@code n₂ = (U−k)V} cells), because {@code n Σ|c − S/n| = Σ|n c −
 * S|} is an integer; {@link #scaled} returns the integer {@code L_k o_k} on which the private split
 * search adds exact discrete Laplace noise. Sensitivity (Theorem 1, re-derived): adding or removing
 * one record changes one cell of one part by 1 and that part's mean by {@code 1/n}; the changed
 * cell's term moves by at most {@code 1 − 1/n} and each of the other {@code n − 1} terms by at most
 * {@code 1/n}, so {@code |o_k(D) − o_k(D')| ≤ 2(n − 1)/n < 2}, and {@code |L_k o_k(D) − L_k
 * o_k(D')| < 2 L_k}. Cost O(UV) per evaluation.
 */
public final class HomogeneityObjective {
  private HomogeneityObjective() {}

  /** {@code L_k o_k} (an integer) together with the data-independent scale {@code L_k}. */
  record Scaled(BigInteger value, BigInteger scale) {
    Rational objective() {
      return Rational.of(value, scale);
    }
  }

  /**
   * The exact objective {@code o_k}.
   *
   * @param k rows (or columns) in the first part, {@code 1 <= k <= extent}; {@code k = extent}
   *     evaluates the undivided node
   * @throws IllegalArgumentException if {@code k} is out of range or the node is outside the matrix
   */
  public static Rational objective(FrequencyMatrix f, GridRectangle node, SplitAxis axis, int k) {
    return scaled(f, node, axis, k).objective();
  }

  /** The scaled objective {@code L_k o_k} and {@code L_k}; see the class comment. */
  static Scaled scaled(FrequencyMatrix f, GridRectangle node, SplitAxis axis, int k) {
    Objects.requireNonNull(f, "f");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(axis, "axis");
    f.checkInside(node);
    int extent = node.extent(axis);
    if (k < 1 || k > extent) {
      throw new IllegalArgumentException(
          "split position " + k + " outside [1, " + extent + "] along " + axis + " of " + node);
    }
    if (k == extent) {
      long n = node.area();
      long a = absoluteDeviationTimesN(f, node.rowFrom(), node.rowTo(), node.colFrom(), node.colTo());
      return new Scaled(BigInteger.valueOf(a), BigInteger.valueOf(n));
    }
    GridRectangle p1 = node.lowerPart(axis, k);
    GridRectangle p2 = node.upperPart(axis, k);
    long n1 = p1.area();
    long n2 = p2.area();
    long a1 = absoluteDeviationTimesN(f, p1.rowFrom(), p1.rowTo(), p1.colFrom(), p1.colTo());
    long a2 = absoluteDeviationTimesN(f, p2.rowFrom(), p2.rowTo(), p2.colFrom(), p2.colTo());
    // o_k = a1/n1 + a2/n2 = (n2 a1 + n1 a2) / (n1 n2)
    BigInteger value =
        BigInteger.valueOf(n2).multiply(BigInteger.valueOf(a1))
            .add(BigInteger.valueOf(n1).multiply(BigInteger.valueOf(a2)));
    return new Scaled(value, BigInteger.valueOf(n1).multiply(BigInteger.valueOf(n2)));
  }

  /**
   * {@code Σ |n c_ij − S|} over the block, {@code n} its cell count and {@code S} its total: {@code
   * n} times the sum of absolute deviations from the mean. Bounded by {@code 2 n S}, which fits a
   * long for any matrix a {@link FrequencyMatrix} accepts with {@code n S < 2^62}.
   */
  static long absoluteDeviationTimesN(FrequencyMatrix f, int r0, int r1, int c0, int c1) {
    long n = (long) (r1 - r0) * (c1 - c0);
    long s = f.countUnchecked(r0, r1, c0, c1);
    if (s == 0) {
      return 0;
    }
    // n * S must not overflow; then every |n c - S| <= n S and the sum <= 2 n S.
    long ns = Math.multiplyExact(n, s);
    Math.multiplyExact(ns, 2L);
    long[] cells = f.cellsUnsafe();
    int cols = f.columns();
    long sum = 0;
    for (int i = r0; i < r1; i++) {
      int base = i * cols;
      for (int j = base + c0, end = base + c1; j < end; j++) {
        long d = n * cells[j] - s;
        sum += d < 0 ? -d : d;
      }
    }
    return sum;
  }
}
