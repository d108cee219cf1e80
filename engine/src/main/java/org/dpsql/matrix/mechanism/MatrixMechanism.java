package org.dpsql.matrix.mechanism;

import java.math.BigInteger;
import java.util.Objects;
import org.dpsql.matrix.Strategy;
import org.dpsql.mechanism.RandomBits;

/**
 * The matrix mechanism (seed 001, Prop. 3) on a lattice strategy {@code Â = N/2^K}: (1) measure
 * {@code y = Âx + noise} with exact integer noise, (2) estimate {@code x̂ = Â⁺y} by least squares
 * ({@link LeastSquares}), (3) answer any query in the row space of {@code Â} as {@code w x̂}. An
 * instance holds the data-independent part (strategy and its cached factorisation), so it can be
 * reused for many measurements ({@link StrategyCache}).
 *
 * <p><b>Privacy guarantee.</b> Neighbouring data vectors (add/remove one tuple) differ in one cell
 * by one: {@code x' = x ± e_j}, {@code x, x' ∈ ℕⁿ}. {@link #measure} releases the integer vector
 * {@code U = Nx + Z} (with the public scale {@code 2^(−K)}), where the {@code Z_i} are independent
 * and drawn by the exact samplers of {@code org.dpsql.mechanism.ExactSamplers}:
 *
 * <ul>
 *   <li>Discrete Gaussian {@code Z_i ~ N_ℤ(0, σ_Z²)}, {@code σ_Z² = S₂/(2ρ)}, {@code S₂ = max_j Σ_i
 *       N_ij²}: {@code Nx' − Nx = ±N_{:,j} ∈ ℤ^p}, so by Canonne–Kamath–Steinke (2020: {@code
 *       D_α(N_ℤ(μ,σ²) ‖ N_ℤ(ν,σ²)) ≤ α(μ−ν)²/(2σ²)} for integers μ, ν; proof sketched in the package
 *       documentation) and additivity of Rényi divergence over independent coordinates, {@code D_α(U ‖ U') ≤ α Σ_i
 *       N_ij²/(2σ_Z²) ≤ α S₂/(2σ_Z²) = αρ}: the release is <b>ρ-zCDP</b>. In real units, {@code σ² =
 *       σ_Z²/4^K = ‖Â‖₂²/(2ρ)} exactly.
 *   <li>Discrete Laplace {@code P[Z_i = z] ∝ e^(−|z|/t_Z)}, {@code t_Z = S₁/ε}, {@code S₁ = max_j Σ_i
 *       |N_ij|}: the density ratio is {@code exp(Σ_i (|u_i − (Nx)_i| − |u_i − (Nx')_i|)/t_Z) ≤
 *       exp(Σ_i |N_ij|/t_Z) ≤ e^ε}: the release is <b>pure ε-DP</b>; {@code t = ‖Â‖₁/ε} in real
 *       units.
 *   <li>(ε, δ)-DP: the discrete Gaussian at the largest ρ for which the tight CKS conversion
 *       ({@link ZcdpToApproxDp}, valid for every ρ-zCDP mechanism) gives (ε, δ). The analytic
 *       (Balle–Wang) and classical calibrations are not used: they are theorems about continuous
 *       Gaussian noise and their hypothesis does not hold here.
 * </ul>
 *
 * Why exact: {@code Nx} is computed in integer arithmetic (overflow-checked {@code long}, else
 * {@link BigInteger}), the sensitivities {@code S₂, S₁} and the noise parameters are exact
 * rationals, and the noise is integer, so the output distribution is exactly the one analysed — no
 * floating-point artefacts (cf. Mironov 2012) and no non-lattice neighbour shift. Estimation and
 * answering are post-processing. The guarantee requires an unpredictable {@link RandomBits} ({@code
 * SecureRandomBits}); {@code SeededRandomBits} is for tests only. The guarantee covers the cell
 * vector {@code x} under add/remove-one neighbours; replace-one neighbours double the sensitivity
 * (seed 001 §5) and are not handled here.
 *
 * <p><b>Answering the measured rows' own queries</b> ({@link #answeringOwnRows}): step 1 is the
 * same release {@code y = Âx + noise} with the same calibration, sensitivity and charge; steps 2
 * and 3 are replaced by answering each query parallel to measured rows from those rows alone
 * ({@link OwnRowAnswers}: the workload's query {@code k} measured as a row of integer weight
 * {@code c_k} is answered by {@code y_k / c_k}, variance {@code σ²/c_k²}), with no solve. That is
 * post-processing of the same release, so the guarantee above is unchanged. Used for the
 * workload's own rows when they are too ill-conditioned for least squares by conjugate gradients.
 * Immutable and thread-safe.
 */
public final class MatrixMechanism {
  private final LatticeStrategy strategy;
  private volatile LeastSquares inference;
  /** The own-row answers (no least squares), else null. */
  private final OwnRowAnswers ownRows;

  /** The mechanism on {@code strategy}; its factorisation is computed on first use. */
  public MatrixMechanism(LatticeStrategy strategy) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    this.ownRows = null;
  }

  private MatrixMechanism(OwnRowAnswers ownRows) {
    this.strategy = ownRows.strategy();
    this.ownRows = ownRows;
  }

  /**
   * The mechanism on {@code strategy} (one stored factor: the workload's own rows) whose estimates
   * answer the queries parallel to measured rows by their own measurements, without least squares
   * ({@link OwnRowAnswers}); {@code O(nnz)} to prepare.
   */
  public static MatrixMechanism answeringOwnRows(LatticeStrategy strategy) {
    return new MatrixMechanism(OwnRowAnswers.of(strategy));
  }

  /** Whether estimates answer only the measured rows' own queries (no least squares, no cells). */
  public boolean answersOwnRows() {
    return ownRows != null;
  }

  /** The mechanism on {@code strategy} with an already computed factorisation of it. */
  public MatrixMechanism(LatticeStrategy strategy, LeastSquares inference) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    this.ownRows = null;
    if (inference.strategy() != strategy && !inference.strategy().equals(strategy)) {
      throw new IllegalArgumentException("the inference belongs to another strategy");
    }
    this.inference = inference;
  }

  /** The mechanism on {@code a} rounded to {@link LatticeStrategy#DEFAULT_BITS} bits per factor. */
  public static MatrixMechanism of(Strategy a) {
    return new MatrixMechanism(LatticeStrategy.round(a));
  }

  /** The lattice strategy measured. */
  public LatticeStrategy strategy() {
    return strategy;
  }

  /**
   * The least-squares inference (factorised on first call, O(n³) per Kronecker factor).
   *
   * @throws IllegalStateException for a mechanism {@linkplain #answeringOwnRows answering its own
   *     rows}
   */
  public LeastSquares inference() {
    if (ownRows != null) {
      throw new IllegalStateException(strategy.name() + " is answered by its own measurements, "
          + "without least squares");
    }
    LeastSquares ls = inference;
    if (ls == null) {
      synchronized (this) {
        ls = inference;
        if (ls == null) {
          ls = LeastSquares.of(strategy);
          inference = ls;
        }
      }
    }
    return ls;
  }

  /** The exact noise that {@code spec} requires on this strategy. */
  public NoiseCalibration calibrate(NoiseSpec spec) {
    return NoiseCalibration.of(strategy, spec);
  }

  /**
   * Step 1: releases {@code y = Âx + noise} with the guarantee of {@code spec} (see the class
   * comment).
   *
   * @param x the cell counts, non-negative, {@link LatticeStrategy#cells()} of them
   * @throws IllegalArgumentException if {@code x} has the wrong length or a negative count
   */
  public Measurement measure(long[] x, NoiseSpec spec, RandomBits random) {
    Objects.requireNonNull(random, "random");
    NoiseCalibration noise = calibrate(spec);
    requireCounts(x);
    BigInteger[] u = strategy.numeratorsTimes(x);
    for (int i = 0; i < u.length; i++) {
      u[i] = u[i].add(noise.sample(random));
    }
    return new Measurement(u, strategy.bits(), noise);
  }

  /**
   * Steps 1 and 2: measures and returns the least-squares estimate, or (answering own rows) the
   * estimate that answers the measured queries by their own measurements. The factorisation is
   * prepared before anything is measured (a strategy it refuses draws no noise). Should the
   * least-squares solve of this measurement fail (conjugate gradients on a single stored factor
   * that passed its probe but not this right-hand side), the same measurement is answered by its
   * own rows instead ({@link OwnRowAnswers}): post-processing of the same release, whose error for
   * the workload's own rows is at most the bound the direct strategy was scored by.
   */
  public Estimate run(long[] x, NoiseSpec spec, RandomBits random) {
    if (ownRows != null) {
      return Estimate.ofOwnRows(ownRows, measure(x, spec, random));
    }
    LeastSquares ls = inference();
    Measurement y = measure(x, spec, random);
    try {
      return ls.estimate(y);
    } catch (IllegalStateException unsolved) {
      if (strategy.factors().size() != 1 || strategy.factors().get(0).sine() != null) {
        throw unsolved;
      }
      return Estimate.ofOwnRows(OwnRowAnswers.of(strategy), y);
    }
  }

  private void requireCounts(long[] x) {
    if (x.length != strategy.cells()) {
      throw new IllegalArgumentException(
          "data vector has " + x.length + " cells, strategy " + strategy.name() + " has " + strategy.cells());
    }
    for (int i = 0; i < x.length; i++) {
      if (x[i] < 0) {
        throw new IllegalArgumentException("cell counts must be non-negative: x[" + i + "] = " + x[i]);
      }
    }
  }

  @Override
  public String toString() {
    return "MatrixMechanism[" + strategy + "]";
  }
}
