package org.dpsql.mechanism;

/**
 * A {@link RandomBits} that serves small uniform choices from a pool of its source's bits, for
 * loops that draw one small index per row (reservoir sampling in a streamed measurement draws
 * {@code uniformBelow(i)} for each of a unit's rows after its k-th: a 64-bit word per draw, and a
 * generator call with it, would dominate the pass).
 *
 * <p>Guarantee: {@link #uniformBelow(long)} is exactly uniform on {@code [0, n)}, by the same
 * rejection sampling as {@link RandomBits#uniformBelow(long)}, on the {@code b} bits of the bit
 * length of {@code n - 1} taken from the pool; every bit of the source is used at most once (a
 * word's remaining bits are dropped when a draw needs more than are left), so draws are mutually
 * independent and independent of {@link #nextLong()}, which hands out a whole fresh word of the
 * source. Not thread-safe: one instance per pass (per thread).
 */
public final class PooledRandomBits implements RandomBits {
  private final RandomBits source;
  private long pool;
  private int left;

  /** A pool over {@code source}'s words. */
  public PooledRandomBits(RandomBits source) {
    this.source = source;
  }

  @Override
  public long nextLong() {
    return source.nextLong();
  }

  @Override
  public long uniformBelow(long n) {
    if (n <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + n);
    }
    if (n == 1) {
      return 0;
    }
    int bits = Long.SIZE - Long.numberOfLeadingZeros(n - 1); // in [1, 63]
    while (true) {
      long v = take(bits); // uniform on [0, 2^bits), 2^bits < 2n
      if (v < n) {
        return v;
      }
    }
  }

  /** {@code bits} fresh bits of the source, as a value in {@code [0, 2^bits)}. */
  private long take(int bits) {
    if (left < bits) {
      pool = source.nextLong();
      left = Long.SIZE;
    }
    long v = bits == Long.SIZE ? pool : pool & ((1L << bits) - 1);
    pool = bits == Long.SIZE ? 0 : pool >>> bits;
    left -= bits;
    return v;
  }
}
