package org.dpsql.matrix.mechanism;

import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * The privacy target of one measurement of the matrix mechanism; {@link NoiseCalibration#of}
 * turns it into exact lattice noise for a given {@link LatticeStrategy}.
 *
 * <ul>
 *   <li>{@link Zcdp}: ρ-zCDP with the discrete Gaussian, {@code σ² = ‖Â‖₂² / (2ρ)}.
 *   <li>{@link PureDp}: pure ε-DP with the discrete Laplace (two-sided geometric), scale {@code
 *       ‖Â‖₁ / ε}.
 *   <li>{@link ApproxDp}: (ε, δ)-DP with the discrete Gaussian, calibrated as ρ-zCDP with the
 *       largest ρ that the tight CKS conversion ({@link ZcdpToApproxDp}) maps into (ε, δ). The
 *       analytic (Balle–Wang) and classical Gaussian calibrations are <em>not</em> offered: they are
 *       proven for continuous Gaussian noise only, and the noise here is discrete (see {@link
 *       AnalyticGaussian}).
 * </ul>
 */
public sealed interface NoiseSpec {

  /** ρ-zCDP (discrete Gaussian). */
  static NoiseSpec zcdp(Rational rho) {
    return new Zcdp(rho);
  }

  /** Pure ε-DP (discrete Laplace). */
  static NoiseSpec pureDp(Rational epsilon) {
    return new PureDp(epsilon);
  }

  /** (ε, δ)-DP (discrete Gaussian through the tight zCDP conversion). */
  static NoiseSpec approxDp(double epsilon, double delta) {
    return new ApproxDp(epsilon, delta);
  }

  /**
   * ρ-zero-concentrated DP with discrete Gaussian noise.
   *
   * @param rho ρ > 0
   */
  record Zcdp(Rational rho) implements NoiseSpec {
    /** Validates ρ > 0. */
    public Zcdp {
      Objects.requireNonNull(rho, "rho");
      if (rho.signum() <= 0) {
        throw new IllegalArgumentException("rho must be positive: " + rho);
      }
    }
  }

  /**
   * Pure ε-DP with discrete Laplace noise.
   *
   * @param epsilon ε > 0
   */
  record PureDp(Rational epsilon) implements NoiseSpec {
    /** Validates ε > 0. */
    public PureDp {
      Objects.requireNonNull(epsilon, "epsilon");
      if (epsilon.signum() <= 0) {
        throw new IllegalArgumentException("epsilon must be positive: " + epsilon);
      }
    }
  }

  /**
   * (ε, δ)-DP with discrete Gaussian noise at the zCDP parameter {@link #rho()}: the largest ρ
   * (rounded down) whose zCDP guarantee implies (ε, δ)-DP by {@link ZcdpToApproxDp}, computed once.
   */
  final class ApproxDp implements NoiseSpec {
    private final double epsilon;
    private final double delta;
    private final Rational rho;

    /**
     * Validates ε > 0 finite and δ in (0, 1), and computes ρ.
     *
     * @throws IllegalArgumentException if a parameter is out of range or admits no positive ρ
     */
    public ApproxDp(double epsilon, double delta) {
      this.rho = ZcdpToApproxDp.largestRho(epsilon, delta);
      this.epsilon = epsilon;
      this.delta = delta;
    }

    /** ε. */
    public double epsilon() {
      return epsilon;
    }

    /** δ. */
    public double delta() {
      return delta;
    }

    /** The ρ used. */
    public Rational rho() {
      return rho;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ApproxDp a
          && Double.compare(epsilon, a.epsilon) == 0
          && Double.compare(delta, a.delta) == 0;
    }

    @Override
    public int hashCode() {
      return Double.hashCode(epsilon) * 31 + Double.hashCode(delta);
    }

    @Override
    public String toString() {
      return "ApproxDp[epsilon=" + epsilon + ", delta=" + delta + ", rho=" + rho + "]";
    }
  }
}
