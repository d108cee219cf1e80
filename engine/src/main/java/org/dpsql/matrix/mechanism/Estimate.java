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
 * Chebyshev's inequality for discrete Laplace noise.
 *
 * <p>A second kind, {@linkplain #ofOwnRows answers of the measured rows' own queries} ({@link
 * OwnRowAnswers}, for the workload's own rows too ill-conditioned for least squares), keeps the
 * measurement {@code y} instead of {@code x̂}: it answers exactly the queries parallel to measured
 * rows ({@link #covers}), each unbiased with the variance {@link OwnRowAnswers} states (the same
 * formulas and half-widths with {@code q} its variance per unit of noise variance), and has no cell
 * estimates ({@link #hasCells()} false, {@link #cells()} refused). Still post-processing of the
 * same release: no privacy cost. Immutable.
 */
public final class Estimate {
  private final LeastSquares inference;
  private final double[] xhat;
  private final NoiseCalibration noise;
  /** The own-row answers (then {@link #xhat} and {@link #inference} are null), else null. */
  private final OwnRowAnswers own;
  /** The measured values {@code y} of an own-row estimate, else null. */
  private final double[] measured;

  Estimate(LeastSquares inference, double[] xhat, NoiseCalibration noise) {
    this.inference = Objects.requireNonNull(inference, "inference");
    this.xhat = xhat;
    this.noise = Objects.requireNonNull(noise, "noise");
    this.own = null;
    this.measured = null;
  }

  private Estimate(OwnRowAnswers own, double[] measured, NoiseCalibration noise) {
    this.inference = null;
    this.xhat = null;
    this.noise = Objects.requireNonNull(noise, "noise");
    this.own = Objects.requireNonNull(own, "own");
    if (measured.length != own.strategy().rows()) {
      throw new IllegalArgumentException(measured.length + " measured values for "
          + own.strategy().rows() + " strategy rows");
    }
    this.measured = measured.clone();
  }

  /** The answers of the measured rows' own queries from the measurement {@code y}. */
  static Estimate ofOwnRows(OwnRowAnswers own, Measurement y) {
    if (y.size() != own.strategy().rows() || y.bits() != own.strategy().bits()) {
      throw new IllegalArgumentException("measurement of " + y.size() + " values on 2^-"
          + y.bits() + " does not belong to " + own.strategy());
    }
    return new Estimate(own, y.values(), y.noise());
  }

  /**
   * An own-row estimate restored from storage: {@code measured} must be the values of a
   * measurement of {@code own}'s strategy calibrated by {@code noise} (as written when released).
   */
  public static Estimate restoreOwnRows(OwnRowAnswers own, double[] measured,
      NoiseCalibration noise) {
    return new Estimate(own, measured, noise);
  }

  /** Whether this estimate has cell estimates {@code x̂} (a least-squares estimate). */
  public boolean hasCells() {
    return xhat != null;
  }

  /** The own-row answers of an estimate that has no cells, else null. */
  public OwnRowAnswers ownRows() {
    return own;
  }

  /** The measured values {@code y} of an own-row estimate (a copy). */
  public double[] measuredValues() {
    if (measured == null) {
      throw new IllegalStateException("a least-squares estimate keeps x̂, not the measurement");
    }
    return measured.clone();
  }

  /** The measured lattice strategy. */
  public LatticeStrategy strategy() {
    return own != null ? own.strategy() : inference.strategy();
  }

  /**
   * Whether {@code w} is answered by this estimate: in the row space of the strategy (least
   * squares), or parallel to a measured row (own-row answers).
   */
  public boolean covers(double[] w) {
    if (own != null) {
      return own.covers(w);
    }
    return inference.fullColumnRank() || inference.inRowSpace(w);
  }

  /** Whether every query of {@code w} is answered by this estimate ({@link #covers(double[])}). */
  public boolean covers(Workload w) {
    if (own != null) {
      return own.covers(w);
    }
    if (inference.fullColumnRank()) {
      return w.cells() == inference.strategy().cells();
    }
    try {
      inference.requireInRowSpace(w);
      return true;
    } catch (IllegalArgumentException outside) {
      return false;
    }
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

  /**
   * {@code x̂} (a fresh copy); unbiased for {@code x} on the row space of {@code Â}.
   *
   * @throws IllegalStateException for own-row answers, which have no cell estimates
   */
  public double[] cells() {
    if (xhat == null) {
      throw new IllegalStateException("the release of " + own.strategy().name() + " answers its "
          + "measured queries by their own measurements: it has no cell estimates");
    }
    return xhat.clone();
  }

  /** The calibration (and privacy guarantee) of the underlying measurement. */
  public NoiseCalibration noise() {
    return noise;
  }

  /**
   * The inference that produced this estimate.
   *
   * @throws IllegalStateException for own-row answers (no least squares)
   */
  public LeastSquares inference() {
    if (inference == null) {
      throw new IllegalStateException("own-row answers of " + own.strategy().name()
          + " use no least-squares inference");
    }
    return inference;
  }

  /**
   * {@code w x̂}.
   *
   * @throws IllegalArgumentException if {@code w} is not in the row space of {@code Â}
   */
  public double answer(double[] w) {
    if (own != null) {
      return own.answer(w, measured);
    }
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
    if (own != null) {
      return noise.unitVariance() * own.unitVariance(w);
    }
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
    double q;
    if (own != null) {
      q = own.unitVariance(w);
    } else {
      inference.requireInRowSpace(w);
      q = inference.quadraticForm(w);
    }
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
    if (own != null) {
      return own.answers(w, measured);
    }
    inference.requireInRowSpace(w);
    return w.answer(xhat);
  }

  /** {@code E Σᵢ (wᵢx̂ − wᵢx)² = v · trace(W(ÂᵀÂ)⁺Wᵀ)} for a workload in the row space. */
  public double totalVariance(Workload w) {
    if (own != null) {
      return noise.unitVariance() * own.totalUnitVariance(w);
    }
    inference.requireInRowSpace(w);
    return noise.unitVariance() * inference.traceGramPinv(w);
  }

  /**
   * Non-negative least squares post-processing: {@code argmin_{z ≥ 0} ‖Âz − y‖₂} started from
   * {@code max(x̂, 0)} (see {@link NonNegativeLeastSquares}); no privacy cost, but the result is
   * biased (it trades bias for lower error on sparse data).
   */
  public double[] nonNegative(Measurement y) {
    if (own != null) {
      throw new IllegalStateException("own-row answers have no cell estimates to make "
          + "non-negative");
    }
    return NonNegativeLeastSquares.solve(inference.strategy(), y.values(), xhat);
  }
}
