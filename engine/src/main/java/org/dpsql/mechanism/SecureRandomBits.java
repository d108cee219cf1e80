package org.dpsql.mechanism;

import java.security.SecureRandom;

/**
 * {@link RandomBits} backed by the platform's default {@link SecureRandom} (non-blocking; on Linux
 * this reads {@code /dev/urandom} or a DRBG seeded from it).
 *
 * <p>Guarantee: the bits are cryptographically strong and unpredictable, so noise drawn from them
 * cannot be reproduced or predicted by an analyst. This is the source every production release
 * must use. Thread-safe: {@link SecureRandom} is safe for concurrent use.
 */
public final class SecureRandomBits implements RandomBits {
  private final SecureRandom random;

  /** Creates a source backed by {@code new SecureRandom()}, self-seeded by the platform. */
  public SecureRandomBits() {
    this.random = new SecureRandom();
  }

  @Override
  public long nextLong() {
    return random.nextLong();
  }

  @Override
  public String toString() {
    return "SecureRandomBits[" + random.getAlgorithm() + "]";
  }
}
