package org.dpsql.matrix.mechanism;

import java.util.Objects;
import org.dpsql.matrix.Workload;

/**
 * The least-squares estimate {@code x̂ = Â⁺y} of the data vector from one measurement, and the
 * answers it gives (step 3 of the matrix mechanism): {@code w x̂} for any query {@code w} in the row
 * space of {@code Â}, with its variance and a confidence half-width. Everything here is
 * post-processing of the released measurement: no privacy cost.
 *
 * <p>Guarantees, for queries in the row space (others are refused with {@link
 * IllegalArgumentException}): {@code E[w x̂] = w x}; {@code Var[w x̂] = v · w(ÂᵀÂ)⁺wᵀ} with {@code v}
 * the per-coordinate noise variance ({@link NoiseCalibration#unitVariance()}); {@link
 * #halfWidth(double[], double)} covers {@code w x} with probability at least the requested
 * confidence — by the subgaussian tail bound for discrete Gaussian noise ({@code P[|err| > t] ≤ 2
 * exp(−t²/(2σ² q))}, {@code q = w(ÂᵀÂ)⁺wᵀ}; CKS 2020: {@code N_ℤ(0, σ²)} is σ²-subgaussian) and by
 * Chebyshev's inequality for discrete Laplace noise. Immutable.
 */
public final class Estimate {
  private final LeastSquares inference;
  private final double[] xhat;
  private final NoiseCalibration noise;

  Estimate(LeastSquares inference, double[] xhat, NoiseCalibration noise) {
    this.inference = Objects.requireNonNull(inference, "inference");
    this.xhat = xhat;
    this.noise = Objects.requireNonNull(noise, "noise");
  }

  /**
   * An estimate restored from storage: {@code xhat} must be {@code inference}'s least-squares
   * estimate from a measurement calibrated by {@code noise} (as written when it was released).
   */
  public static Estimate restore(LeastSquares inference, double[] xhat, NoiseCalibration noise) {
    if (xhat.length != inference.strategy().cells()) {
      throw new IllegalArgumentException("the estimate has " + xhat.length + " cells, the "
          + "strategy " + inference.strategy().cells());
    }
    return new Estimate(inference, xhat.clone(), noise);
  }

  /** {@code x̂} (a fresh copy); unbiased for {@code x} on the row space of {@code Â}. */
  public double[] cells() {
    return xhat.clone();
  }

  /** The calibration (and privacy guarantee) of the underlying measurement. */
  public NoiseCalibration noise() {
    return noise;
  }

  /** The inference that produced this estimate. */
  public LeastSquares inference() {
    return inference;
  }

  /**
   * {@code w x̂}.
   *
   * @throws IllegalArgumentException if {@code w} is not in the row space of {@code Â}
   */
  public double answer(double[] w) {
    inference.requireInRowSpace(w);
    double s = 0;
    for (int i = 0; i < w.length; i++) {
      s += w[i] * xhat[i];
    }
    return s;
  }

  /**
   * {@code Var[w x̂] = v · w(ÂᵀÂ)⁺wᵀ}.
   *
   * @throws IllegalArgumentException if {@code w} is not in the row space of {@code Â}
   */
  public double variance(double[] w) {
    inference.requireInRowSpace(w);
    return noise.unitVariance() * inference.quadraticForm(w);
  }

  /**
   * A half-width {@code t} with {@code P[|w x̂ − w x| ≤ t] ≥ confidence}: {@code √(2 σ² q ln(2/α))}
   * (Gaussian, subgaussian bound) or {@code √(Var/α)} (Laplace, Chebyshev), {@code α = 1 −
   * confidence}.
   *
   * @throws IllegalArgumentException if {@code confidence} is not in (0, 1) or {@code w} is not in
   *     the row space
   */
  public double halfWidth(double[] w, double confidence) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1): " + confidence);
    }
    inference.requireInRowSpace(w);
    double q = inference.quadraticForm(w);
    double alpha = 1 - confidence;
    if (noise.kind() == NoiseCalibration.Kind.DISCRETE_GAUSSIAN) {
      return Math.sqrt(2 * noise.subgaussianProxy() * q * Math.log(2 / alpha));
    }
    return Math.sqrt(noise.unitVariance() * q / alpha);
  }

  /**
   * All answers {@code W x̂} of a workload, in the row order of {@link Workload#matrix()} (see
   * {@link Workload#answer}).
   *
   * @throws IllegalArgumentException if some query of {@code W} is outside the row space of {@code
   *     Â}
   */
  public double[] answers(Workload w) {
    inference.requireInRowSpace(w);
    return w.answer(xhat);
  }

  /** {@code E Σᵢ (wᵢx̂ − wᵢx)² = v · trace(W(ÂᵀÂ)⁺Wᵀ)} for a workload in the row space. */
  public double totalVariance(Workload w) {
    inference.requireInRowSpace(w);
    return noise.unitVariance() * inference.traceGramPinv(w);
  }

  /**
   * Non-negative least squares post-processing: {@code argmin_{z ≥ 0} ‖Âz − y‖₂} started from
   * {@code max(x̂, 0)} (see {@link NonNegativeLeastSquares}); no privacy cost, but the result is
   * biased (it trades bias for lower error on sparse data).
   */
  public double[] nonNegative(Measurement y) {
    return NonNegativeLeastSquares.solve(inference.strategy(), y.values(), xhat);
  }
}
