package org.dpsql.release;

import org.dpsql.mechanism.DiscreteGaussianMechanism;
import org.dpsql.mechanism.GeometricMechanism;
import org.dpsql.mechanism.RandomBits;

/**
 * The integer noise added to every cell of one measurement, with what a user needs to read the
 * result: its variance and the half-width of a confidence interval. Implemented by the exact
 * samplers of {@code org.dpsql.mechanism}; the privacy guarantee is theirs.
 */
public interface NoiseMechanism {
  long release(long exact, RandomBits random);

  double variance();

  /** Smallest m with P[|noise| <= m] >= confidence. */
  long marginAbs(double confidence);

  /** E.g. "geometric(ε=0.1, Δ=10)". */
  String describe();

  static NoiseMechanism of(GeometricMechanism m) {
    return new NoiseMechanism() {
      @Override public long release(long exact, RandomBits random) {
        return m.release(exact, random);
      }

      @Override public double variance() {
        return m.noise().variance();
      }

      @Override public long marginAbs(double confidence) {
        return m.noise().quantileAbs(confidence);
      }

      @Override public String describe() {
        return "geometric(ε=" + decimal(m.epsilon()) + ", Δ=" + m.l1Sensitivity() + ")";
      }
    };
  }

  static NoiseMechanism of(DiscreteGaussianMechanism m) {
    return new NoiseMechanism() {
      @Override public long release(long exact, RandomBits random) {
        return m.release(exact, random);
      }

      @Override public double variance() {
        return m.noise().variance();
      }

      @Override public long marginAbs(double confidence) {
        return m.noise().quantileAbs(confidence);
      }

      @Override public String describe() {
        return "discrete_gaussian(ρ=" + decimal(m.rho()) + ", Δ=" + m.l2Sensitivity() + ")";
      }
    };
  }

  /** A rational shown with six significant digits. */
  static String decimal(org.dpsql.mechanism.Rational r) {
    return new java.math.BigDecimal(r.num()).divide(new java.math.BigDecimal(r.den()),
        new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
  }
}
