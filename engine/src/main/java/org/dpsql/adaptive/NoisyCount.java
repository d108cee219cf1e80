package org.dpsql.adaptive;

import java.util.Objects;
import org.dpsql.accounting.GeometricRdp;
import org.dpsql.accounting.RenyiCurve;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * SafeTab's NoisyCount (Algorithm 3) at one budget: releases an exact count plus integer noise
 * drawn by the exact samplers of {@link ExactSamplers} — discrete Laplace with scale 1/ε for {@link
 * BaseMechanism#GEOMETRIC}, discrete Gaussian with σ² = 1/(2ρ) for {@link
 * BaseMechanism#DISCRETE_GAUSSIAN} (Algorithms 4, 5). The noise parameter is exact ({@link
 * Rational}).
 *
 * <p>Guarantees: for a count whose value changes by at most 1 between neighbouring datasets, the
 * release is ε-DP (geometric) or ρ-zCDP (discrete Gaussian) with ε = ρ = {@link #budget()}, and it
 * satisfies the Rényi curve {@link #renyiCurve()} (the exact geometric curve, resp. ρα). Outputs
 * are integers and may be negative. {@link #marginOfError95()} is the exact 95% margin of error of
 * the noise: the smallest m with P[|Z| ≤ m] ≥ 0.95. Immutable and thread-safe.
 */
public final class NoisyCount {
  private final BaseMechanism mechanism;
  private final Rational budget;
  private final Rational noiseParameter;
  private final DiscreteLaplaceDistribution laplace;
  private final DiscreteGaussianDistribution gaussian;
  private final long marginOfError95;

  /**
   * NoisyCount with the given mechanism and budget.
   *
   * @param budget ε or ρ, &gt; 0
   * @throws IllegalArgumentException if the budget is not positive
   */
  public NoisyCount(BaseMechanism mechanism, Rational budget) {
    this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(budget, "budget");
    if (budget.signum() <= 0) {
      throw new IllegalArgumentException("NoisyCount budget must be > 0, got " + budget);
    }
    this.budget = budget;
    if (mechanism == BaseMechanism.GEOMETRIC) {
      noiseParameter = budget.reciprocal();
      laplace = new DiscreteLaplaceDistribution(noiseParameter);
      gaussian = null;
      marginOfError95 = laplace.quantileAbs(0.95);
    } else {
      noiseParameter = budget.multiply(2).reciprocal();
      gaussian = new DiscreteGaussianDistribution(noiseParameter);
      laplace = null;
      marginOfError95 = gaussian.quantileAbs(0.95);
    }
  }

  /** The base mechanism. */
  public BaseMechanism mechanism() {
    return mechanism;
  }

  /** The budget, ε or ρ. */
  public Rational budget() {
    return budget;
  }

  /** The exact noise parameter: the scale 1/ε (geometric) or σ² = 1/(2ρ) (discrete Gaussian). */
  public Rational noiseParameter() {
    return noiseParameter;
  }

  /** Returns {@code exact + Z} with fresh exact noise Z. */
  public long release(long exact, RandomBits bits) {
    Objects.requireNonNull(bits, "bits");
    java.math.BigInteger z =
        mechanism == BaseMechanism.GEOMETRIC
            ? ExactSamplers.discreteLaplace(bits, noiseParameter)
            : ExactSamplers.discreteGaussian(bits, noiseParameter);
    return Math.addExact(exact, z.longValueExact());
  }

  /** P[Z = z] of the noise (floating point, for reporting and tests). */
  public double pmf(long z) {
    return laplace != null ? laplace.pmf(z) : gaussian.pmf(z);
  }

  /** P[|Z| &gt; m] of the noise (floating point, for reporting and tests). */
  public double tailAbs(long m) {
    return laplace != null ? laplace.tailAbs(m) : gaussian.tailAbs(m);
  }

  /** P[Z ≤ z] of the noise, from the symmetric tails (floating point). */
  public double cdf(long z) {
    return z >= 0 ? 1 - tailAbs(z) / 2 : tailAbs(-z - 1) / 2;
  }

  /** The exact 95% margin of error: the smallest m ≥ 0 with P[|Z| ≤ m] ≥ 0.95. */
  public long marginOfError95() {
    return marginOfError95;
  }

  /** The variance of the noise. */
  public double variance() {
    return laplace != null ? laplace.variance() : gaussian.variance();
  }

  /** The Rényi curve this release satisfies for a sensitivity-1 count. */
  public RenyiCurve renyiCurve() {
    return mechanism == BaseMechanism.GEOMETRIC
        ? GeometricRdp.ofEpsilon(budget.doubleValue())
        : RenyiCurve.zcdp(budget.doubleValue());
  }

  @Override
  public String toString() {
    return "NoisyCount[" + mechanism + ", budget=" + budget + "]";
  }
}
