package org.dpsql.spatial;

import java.math.BigInteger;
import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * HTF's tree-height heuristic (Shaham et al., eq. 9–10): {@code |D|‾ = |D| + Lap(1/ε_height)} and
 * {@code h = log₂(|D|‾ ε_tot / c₀)} with {@code c₀ = 10}, made an integer by the spec's decision
 * {@code h = clamp(⌊log₂(|D|‾ ε_tot / c₀)⌋, 0, ⌈log₂ N⌉ + ⌈log₂ M⌉)} (the formula may be negative
 * or non-integral; beyond that bound the leaves would be single cells anyway). The noisy count is
 * released by the caller with the exact geometric mechanism; this class is pure post-processing.
 *
 * <p>Guarantee: the height is computed exactly (integer/rational arithmetic), so the same noisy
 * count always gives the same height; on the paper's Los Angeles size (3.5 million points) it gives
 * 15, 16, 17 for ε_tot = 0.1, 0.3, 0.5, the heights the paper reports.
 */
public final class HeightEstimator {
  /** The paper's constant {@code c₀ = 10} (borrowed from Qardaji et al.'s grid sizing). */
  public static final Rational PAPER_CONSTANT = Rational.of(10);

  private HeightEstimator() {}

  /** {@code ⌈log₂ N⌉ + ⌈log₂ M⌉}, the largest height the clamp allows. */
  public static int maxHeight(int rows, int cols) {
    return ceilLog2(rows) + ceilLog2(cols);
  }

  /**
   * The clamped height for a released noisy count.
   *
   * @param noisyTotal the noisy record count {@code |D|‾} (may be negative)
   * @param epsilonTotal ε_tot, positive
   * @param constant {@code c₀}, positive
   * @throws IllegalArgumentException if {@code epsilonTotal} or {@code constant} is not positive
   */
  public static int height(long noisyTotal, Rational epsilonTotal, Rational constant, int rows, int cols) {
    Objects.requireNonNull(epsilonTotal, "epsilonTotal");
    Objects.requireNonNull(constant, "constant");
    if (epsilonTotal.signum() <= 0 || constant.signum() <= 0) {
      throw new IllegalArgumentException(
          "epsilon and c0 must be positive: " + epsilonTotal + ", " + constant);
    }
    Rational x = Rational.of(noisyTotal).multiply(epsilonTotal).divide(constant);
    int h = x.compareTo(Rational.ONE) < 0 ? 0 : floorLog2(x);
    return Math.min(h, maxHeight(rows, cols));
  }

  /** {@code ⌊log₂ x⌋} for {@code x >= 1}, exactly. */
  static int floorLog2(Rational x) {
    if (x.compareTo(Rational.ONE) < 0) {
      throw new IllegalArgumentException("floorLog2 needs x >= 1: " + x);
    }
    BigInteger n = x.num();
    BigInteger d = x.den();
    int j = n.bitLength() - d.bitLength(); // 2^j <= n/d < 2^(j+2) up to one step
    if (d.shiftLeft(j).compareTo(n) > 0) {
      j--;
    }
    return j;
  }

  static int ceilLog2(int n) {
    if (n <= 0) {
      throw new IllegalArgumentException("dimension must be positive: " + n);
    }
    return n == 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
  }
}
