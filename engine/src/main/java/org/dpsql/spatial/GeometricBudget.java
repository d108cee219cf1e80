package org.dpsql.spatial;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * The geometric per-level budget allocation of Cormode et al. (ICDE 2012) used by HTF's perturber
 * (Shaham et al., eq. 17): level {@code i} (node height, leaves at 0, root at {@code h}) gets
 * {@code ε_i = 2^((h−i)/3) ε (2^(1/3) − 1) / (2^((h+1)/3) − 1)}, the minimiser of {@code Σ_i
 * 2^(h−i)/ε_i²} subject to {@code Σ_i ε_i = ε}. (The stationarity condition is {@code ε_i =
 * (2^(h−i+1)/λ)^(1/3)}; the printed eq. 16 misplaces the cube root, eq. 17 is right.)
 *
 * <p>Guarantee: the shares are exact rationals that sum to {@code ε} <em>exactly</em>, so budget
 * accounting is exact: the irrational weights {@code 2^(j/3)} are replaced by {@code ⌊2^(j/3) ·
 * 2^40⌋} (exact integer cube roots) and normalised exactly, so each share is within a relative
 * {@code 2^-39} of eq. 17 and shares strictly increase towards the leaves.
 */
public final class GeometricBudget {
  private static final int PRECISION_BITS = 40;

  private GeometricBudget() {}

  /**
   * The shares {@code ε_0, …, ε_h} (index = node height).
   *
   * @throws IllegalArgumentException if {@code total <= 0} or {@code h < 0}
   */
  public static List<Rational> allocate(Rational total, int h) {
    Objects.requireNonNull(total, "total");
    if (total.signum() <= 0) {
      throw new IllegalArgumentException("budget must be positive: " + total);
    }
    if (h < 0) {
      throw new IllegalArgumentException("height must be non-negative: " + h);
    }
    BigInteger[] w = new BigInteger[h + 1];
    BigInteger sum = BigInteger.ZERO;
    for (int j = 0; j <= h; j++) {
      w[j] = cubeRootFloor(BigInteger.ONE.shiftLeft(j + 3 * PRECISION_BITS));
      sum = sum.add(w[j]);
    }
    List<Rational> shares = new ArrayList<>(h + 1);
    for (int i = 0; i <= h; i++) {
      shares.add(total.multiply(Rational.of(w[h - i], sum)));
    }
    return List.copyOf(shares);
  }

  /** {@code ⌊x^(1/3)⌋} for {@code x >= 0}, exactly (Newton from above). */
  static BigInteger cubeRootFloor(BigInteger x) {
    if (x.signum() < 0) {
      throw new IllegalArgumentException("negative: " + x);
    }
    if (x.signum() == 0) {
      return BigInteger.ZERO;
    }
    BigInteger three = BigInteger.valueOf(3);
    BigInteger y = BigInteger.ONE.shiftLeft(x.bitLength() / 3 + 1); // > cbrt(x)
    while (true) {
      // y' = (2y + x / y^2) / 3, decreasing while y > floor(cbrt x)
      BigInteger next = y.shiftLeft(1).add(x.divide(y.multiply(y))).divide(three);
      if (next.compareTo(y) >= 0) {
        break;
      }
      y = next;
    }
    while (y.pow(3).compareTo(x) > 0) {
      y = y.subtract(BigInteger.ONE);
    }
    while (y.add(BigInteger.ONE).pow(3).compareTo(x) <= 0) {
      y = y.add(BigInteger.ONE);
    }
    return y;
  }
}
