package org.dpsql.mechanism;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A deterministic {@link RandomBits}: a SHA-256 counter-mode generator. <strong>For tests and demos
 * only</strong> — anyone who knows the seed can reproduce, and therefore subtract, every bit of noise
 * drawn from it, so a release made with it has no privacy guarantee against that person.
 *
 * <p>Guarantee: the output is a pure function of the seed, identical on every JVM and platform. Block
 * {@code i} (for {@code i = 0, 1, 2, ...}) is {@code SHA-256(seed || i)} where {@code seed} and
 * {@code i} are each encoded as 8 bytes big-endian; each 32-byte block yields four words, read
 * big-endian in order. Thread-safe (methods are synchronized); with concurrent callers the
 * interleaving, and so the per-caller sequence, is of course not deterministic.
 */
public final class SeededRandomBits implements RandomBits {
  private final long seed;
  private final MessageDigest sha256;
  private final byte[] input = new byte[2 * Long.BYTES];
  private final long[] block = new long[4];
  private long counter;
  private int next = block.length; // index of the next unused word of block; length = exhausted

  /** Creates the generator for {@code seed}. */
  public SeededRandomBits(long seed) {
    this.seed = seed;
    try {
      this.sha256 = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      // Every Java SE platform must provide SHA-256.
      throw new IllegalStateException("SHA-256 is not available", e);
    }
    putLong(input, 0, seed);
  }

  /** The seed this generator was created with. */
  public long seed() {
    return seed;
  }

  @Override
  public synchronized long nextLong() {
    if (next == block.length) {
      refill();
    }
    return block[next++];
  }

  private void refill() {
    putLong(input, Long.BYTES, counter++);
    byte[] digest = sha256.digest(input);
    for (int w = 0; w < block.length; w++) {
      long x = 0;
      for (int b = 0; b < Long.BYTES; b++) {
        x = (x << 8) | (digest[w * Long.BYTES + b] & 0xFF);
      }
      block[w] = x;
    }
    next = 0;
  }

  private static void putLong(byte[] buf, int off, long v) {
    for (int b = Long.BYTES - 1; b >= 0; b--) {
      buf[off + b] = (byte) v;
      v >>>= 8;
    }
  }

  @Override
  public String toString() {
    return "SeededRandomBits[seed=" + seed + "]";
  }
}
