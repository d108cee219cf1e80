package org.dpsql.server;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted PBKDF2-HMAC-SHA256 password hash, written {@code pbkdf2-sha256$ITERATIONS$SALT$HASH}
 * (salt and hash in base64).
 *
 * <p>Guarantees: immutable; {@link #matches} recomputes the hash with the stored salt and
 * iterations and compares in constant time; the password itself is never stored. New hashes use a
 * 16-byte random salt, a 32-byte hash and, by default, {@value #DEFAULT_ITERATIONS} iterations
 * (OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256).
 */
public final class PasswordHash {
  /** The algorithm tag of the text form. */
  public static final String TAG = "pbkdf2-sha256";
  /** Iterations of new hashes unless told otherwise. */
  public static final int DEFAULT_ITERATIONS = 600_000;
  /** Fewest iterations accepted (tests may use this many; production should not). */
  public static final int MIN_ITERATIONS = 1_000;
  private static final int SALT_BYTES = 16;
  private static final int HASH_BYTES = 32;

  private final int iterations;
  private final byte[] salt;
  private final byte[] hash;

  private PasswordHash(int iterations, byte[] salt, byte[] hash) {
    this.iterations = iterations;
    this.salt = salt;
    this.hash = hash;
  }

  /**
   * Hashes a new password with a fresh random salt.
   *
   * @throws IllegalArgumentException if the password is empty or iterations is below {@value
   *     #MIN_ITERATIONS}
   */
  public static PasswordHash create(char[] password, int iterations, SecureRandom random) {
    Objects.requireNonNull(password, "password");
    if (password.length == 0) {
      throw new IllegalArgumentException("the password is empty");
    }
    checkIterations(iterations);
    byte[] salt = new byte[SALT_BYTES];
    random.nextBytes(salt);
    return new PasswordHash(iterations, salt, derive(password, salt, iterations, HASH_BYTES));
  }

  /**
   * Parses {@code pbkdf2-sha256$ITERATIONS$SALT$HASH}.
   *
   * @throws IllegalArgumentException with what is wrong, if the text is not such a hash
   */
  public static PasswordHash parse(String text) {
    Objects.requireNonNull(text, "text");
    String[] parts = text.trim().split("\\$", -1);
    if (parts.length != 4 || !parts[0].equals(TAG)) {
      throw new IllegalArgumentException("a password hash reads '" + TAG
          + "$ITERATIONS$SALT$HASH' (make one with: dpsql-server hash-password)");
    }
    int iterations;
    try {
      iterations = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the iterations of a password hash must be an integer, got '"
          + parts[1] + "'");
    }
    checkIterations(iterations);
    byte[] salt;
    byte[] hash;
    try {
      salt = Base64.getDecoder().decode(parts[2]);
      hash = Base64.getDecoder().decode(parts[3]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the salt and hash of a password hash must be base64");
    }
    if (salt.length < 8 || hash.length < 16) {
      throw new IllegalArgumentException("a password hash needs a salt of at least 8 bytes and a "
          + "hash of at least 16 bytes");
    }
    return new PasswordHash(iterations, salt, hash);
  }

  private static void checkIterations(int iterations) {
    if (iterations < MIN_ITERATIONS) {
      throw new IllegalArgumentException("a password hash needs at least " + MIN_ITERATIONS
          + " iterations, got " + iterations);
    }
  }

  /** Whether {@code password} is the hashed password (constant-time comparison). */
  public boolean matches(char[] password) {
    Objects.requireNonNull(password, "password");
    byte[] candidate = derive(password, salt, iterations, hash.length);
    return MessageDigest.isEqual(candidate, hash);
  }

  /** The iteration count. */
  public int iterations() {
    return iterations;
  }

  /** The text form {@code pbkdf2-sha256$ITERATIONS$SALT$HASH}. */
  public String encode() {
    return TAG + "$" + iterations + "$" + Base64.getEncoder().encodeToString(salt) + "$"
        + Base64.getEncoder().encodeToString(hash);
  }

  private static byte[] derive(char[] password, byte[] salt, int iterations, int bytes) {
    KeySpec spec = new PBEKeySpec(password, salt, iterations, bytes * 8);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is not available in this JVM", e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PasswordHash p && p.iterations == iterations
        && Arrays.equals(p.salt, salt) && Arrays.equals(p.hash, hash);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(hash);
  }

  /** Shows the algorithm and iterations only. */
  @Override
  public String toString() {
    return TAG + "(" + iterations + " iterations)";
  }
}
