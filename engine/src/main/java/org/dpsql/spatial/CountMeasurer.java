package org.dpsql.spatial;

import org.dpsql.mechanism.Rational;

/**
 * Releases node counts with the exact geometric mechanism: {@code count + Z}, {@code Z} discrete
 * Laplace with scale {@code 1/ε}; a count has L1 sensitivity 1 under add/remove of one record, so
 * each measurement is ε-DP.
 */
final class CountMeasurer {
  private CountMeasurer() {}

  static Measurement measure(FrequencyMatrix f, GridRectangle region, Rational epsilon, NoiseSource noise) {
    long z = noise.discreteLaplace(epsilon.reciprocal()).longValueExact();
    return new Measurement(Math.addExact(f.count(region), z), epsilon);
  }
}
