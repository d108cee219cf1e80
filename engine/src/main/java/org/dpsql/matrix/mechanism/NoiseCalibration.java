package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.Objects;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * The exact noise of one matrix-mechanism measurement for a given {@link LatticeStrategy} {@code Â =
 * N / 2^K}: independent integer noise {@code Z_i} is added to each numerator {@code (Nx)_i}, so the
 * released value {@code (Nx + Z) / 2^K} carries real-scale noise {@code Z_i / 2^K}.
 *
 * <p>Guarantee (the calibration, all exact rational arithmetic):
 *
 * <ul>
 *   <li>{@link Kind#DISCRETE_GAUSSIAN}: {@code Z ~ N_ℤ(0, σ_Z²)} with {@code σ_Z² = max_j Σ_i N_ij²
 *       / (2ρ)}, i.e. real-scale {@code σ² = σ_Z² / 4^K = ‖Â‖₂² / (2ρ)}; the release is ρ-zCDP.
 *   <li>{@link Kind#DISCRETE_LAPLACE}: {@code P[Z = z] ∝ exp(−|z|/t_Z)} with {@code t_Z = max_j Σ_i
 *       |N_ij| / ε}, i.e. real-scale {@code t = t_Z / 2^K = ‖Â‖₁ / ε}; the release is ε-DP.
 * </ul>
 *
 * See {@link MatrixMechanism} for the proof. {@link #unitVariance()} (the real-scale variance of
 * each noise coordinate, used for error bars) is computed in floating point for reporting only.
 * Immutable.
 *
 * @param kind the noise family
 * @param latticeParameter {@code σ_Z²} (Gaussian) or {@code t_Z} (Laplace), exactly
 * @param bits the lattice exponent {@code K}
 * @param budget ρ (Gaussian) or ε (Laplace), exactly
 * @param guarantee a one-line statement of the privacy guarantee
 */
public record NoiseCalibration(
    Kind kind, Rational latticeParameter, int bits, Rational budget, String guarantee) {

  /** The noise family. */
  public enum Kind {
    /** The discrete Gaussian; ρ-zCDP. */
    DISCRETE_GAUSSIAN,
    /** The discrete Laplace (two-sided geometric); pure ε-DP. */
    DISCRETE_LAPLACE
  }

  /** Validates the components. */
  public NoiseCalibration {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(latticeParameter, "latticeParameter");
    Objects.requireNonNull(budget, "budget");
    if (latticeParameter.signum() <= 0 || budget.signum() <= 0 || bits < 0) {
      throw new IllegalArgumentException("invalid noise calibration");
    }
  }

  /** The exact calibration of {@code spec} for the strategy {@code s}. */
  public static NoiseCalibration of(LatticeStrategy s, NoiseSpec spec) {
    Objects.requireNonNull(s, "s");
    Objects.requireNonNull(spec, "spec");
    if (spec instanceof NoiseSpec.PureDp p) {
      Rational t = Rational.of(s.maxColumnAbsSum(), BigInteger.ONE).divide(p.epsilon());
      return new NoiseCalibration(
          Kind.DISCRETE_LAPLACE, t, s.bits(), p.epsilon(),
          "pure " + p.epsilon() + "-DP (discrete Laplace, L1 sensitivity " + s.sensitivityL1() + ")");
    }
    Rational rho;
    String claim;
    if (spec instanceof NoiseSpec.Zcdp z) {
      rho = z.rho();
      claim = rho + "-zCDP";
    } else {
      NoiseSpec.ApproxDp a = (NoiseSpec.ApproxDp) spec;
      rho = a.rho();
      claim = rho + "-zCDP, hence (" + a.epsilon() + ", " + a.delta() + ")-DP (CKS 2020 conversion)";
    }
    Rational sigmaZ2 = Rational.of(s.maxColumnSumOfSquares(), BigInteger.ONE).divide(rho.multiply(2));
    return new NoiseCalibration(
        Kind.DISCRETE_GAUSSIAN, sigmaZ2, s.bits(), rho,
        claim + " (discrete Gaussian, squared L2 sensitivity " + s.sensitivityL2Squared() + ")");
  }

  /** Draws one integer noise numerator {@code Z} exactly. */
  public BigInteger sample(RandomBits r) {
    return kind == Kind.DISCRETE_GAUSSIAN
        ? ExactSamplers.discreteGaussian(r, latticeParameter)
        : ExactSamplers.discreteLaplace(r, latticeParameter);
  }

  /**
   * The real-scale parameter: {@code σ² = σ_Z² / 4^K} (Gaussian) or the scale {@code t = t_Z / 2^K}
   * (Laplace), exactly.
   */
  public Rational realScaleParameter() {
    int shift = kind == Kind.DISCRETE_GAUSSIAN ? 2 * bits : bits;
    return latticeParameter.divide(Rational.of(BigInteger.ONE.shiftLeft(shift), BigInteger.ONE));
  }

  /**
   * The variance of one real-scale noise coordinate {@code Z / 2^K} (for the discrete Gaussian at
   * most, and for these scales equal to double precision to, {@code σ²}; for the discrete Laplace
   * {@code 2q/(1−q)²/4^K}, {@code q = e^(−1/t_Z)}). Floating point, for error reporting.
   */
  public double unitVariance() {
    double v = kind == Kind.DISCRETE_GAUSSIAN
        ? new DiscreteGaussianDistribution(latticeParameter).variance()
        : new DiscreteLaplaceDistribution(latticeParameter).variance();
    return Math.scalb(v, -2 * bits);
  }

  /**
   * A proxy {@code s²} such that every real-scale noise coordinate is {@code s²}-subgaussian
   * ({@code E e^{λZ} ≤ e^{λ²s²/2}}): {@code σ²} for the discrete Gaussian (CKS 2020), {@code
   * NaN} for the Laplace (not subgaussian).
   */
  public double subgaussianProxy() {
    return kind == Kind.DISCRETE_GAUSSIAN ? realScaleParameter().doubleValue() : Double.NaN;
  }
}
