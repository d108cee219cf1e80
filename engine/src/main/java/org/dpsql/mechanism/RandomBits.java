package org.dpsql.mechanism;

import java.math.BigInteger;

/**
 * A source of uniformly random bits, the only randomness the samplers of this package use.
 *
 * <p>Guarantee: if {@link #nextLong()} returns independent, uniformly distributed 64-bit words,
 * then {@link #uniformBelow(long)} and {@link #uniformBelow(BigInteger)} return independent values
 * that are <em>exactly</em> uniform on {@code [0, n)}. They use rejection sampling on the smallest
 * power of two that covers {@code n}, so there is no modulo bias and each call consumes fewer than
 * two rounds of words on average.
 */
public interface RandomBits {

  /** Returns 64 uniformly random bits. */
  long nextLong();

  /**
   * Returns a value uniformly distributed on {@code [0, n)}.
   *
   * @param n exclusive upper bound, {@code n > 0}
   * @throws IllegalArgumentException if {@code n <= 0}
   */
  default long uniformBelow(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + n);
    }
    if (n == 1) {
      return 0;
    }
    // Mask of the bit length of n-1; n-1 >= 1, so the shift is in [1, 63] and mask >= 1.
    long mask = -1L >>> Long.numberOfLeadingZeros(n - 1);
    while (true) {
      long v = nextLong() & mask; // uniform on [0, mask], mask < 2n
      if (v < n) {
        return v;
      }
    }
  }

  /**
   * Returns a value uniformly distributed on {@code [0, n)}.
   *
   * @param n exclusive upper bound, {@code n > 0}
   * @throws IllegalArgumentException if {@code n <= 0}
   */
  default BigInteger uniformBelow(BigInteger n) {
    if (n.signum() <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + n);
    }
    if (n.bitLength() < Long.SIZE) { // n <= Long.MAX_VALUE
      return BigInteger.valueOf(uniformBelow(n.longValue()));
    }
    int bits = n.subtract(BigInteger.ONE).bitLength(); // >= 63
    int words = (bits + Long.SIZE - 1) / Long.SIZE;
    int excess = words * Long.SIZE - bits;
    byte[] buf = new byte[words * Long.BYTES + 1]; // leading zero byte keeps the value non-negative
    while (true) {
      for (int w = 0; w < words; w++) {
        long x = nextLong();
        int off = 1 + w * Long.BYTES;
        for (int b = Long.BYTES - 1; b >= 0; b--) {
          buf[off + b] = (byte) x;
          x >>>= 8;
        }
      }
      BigInteger v = new BigInteger(buf).shiftRight(excess); // uniform on [0, 2^bits)
      if (v.compareTo(n) < 0) {
        return v;
      }
    }
  }
}
