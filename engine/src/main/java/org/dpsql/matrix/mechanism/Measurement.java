package org.dpsql.matrix.mechanism;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;

/**
 * The noisy strategy answers {@code y = Âx + noise} released by {@link MatrixMechanism#measure}:
 * exact lattice values {@code y_i = U_i / 2^K} with integer numerators {@code U = Nx + Z}.
 *
 * <p>Guarantee: the numerators are exactly what the mechanism released (with the privacy guarantee
 * of its {@link #noise()} calibration); {@link #exactValue(int)} is their exact decimal value
 * ({@code 2^(−K)} is a terminating decimal) and {@link #values()} the nearest doubles (each the
 * correctly rounded numerator scaled exactly by {@code 2^(−K)}), which is post-processing.
 * Immutable.
 */
public final class Measurement {
  private final BigInteger[] numerators;
  private final int bits;
  private final NoiseCalibration noise;

  /** A measurement with the given numerators (copied) on the lattice {@code 2^(−bits)}. */
  public Measurement(BigInteger[] numerators, int bits, NoiseCalibration noise) {
    Objects.requireNonNull(noise, "noise");
    if (bits < 0) {
      throw new IllegalArgumentException("bits must be >= 0: " + bits);
    }
    this.numerators = numerators.clone();
    for (BigInteger u : this.numerators) {
      Objects.requireNonNull(u, "numerator");
    }
    this.bits = bits;
    this.noise = noise;
  }

  /** {@code p}: the number of measured strategy queries. */
  public int size() {
    return numerators.length;
  }

  /** The lattice exponent {@code K}. */
  public int bits() {
    return bits;
  }

  /** The noise calibration (and privacy guarantee) of this measurement. */
  public NoiseCalibration noise() {
    return noise;
  }

  /** The integer numerator {@code U_i} of {@code y_i = U_i / 2^K}. */
  public BigInteger numerator(int i) {
    return numerators[i];
  }

  /** The exact value {@code y_i = U_i / 2^K}. */
  public BigDecimal exactValue(int i) {
    // 2^(−K) = 5^K / 10^K exactly
    return new BigDecimal(numerators[i].multiply(BigInteger.valueOf(5).pow(bits)), bits);
  }

  /** All {@code y_i} as doubles. */
  public double[] values() {
    double[] y = new double[numerators.length];
    for (int i = 0; i < y.length; i++) {
      y[i] = Math.scalb(numerators[i].doubleValue(), -bits);
    }
    return y;
  }

  @Override
  public String toString() {
    return "Measurement[" + numerators.length + " values, 2^-" + bits + ", " + noise.kind() + "]";
  }
}
