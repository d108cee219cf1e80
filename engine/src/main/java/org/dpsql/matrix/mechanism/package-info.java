/**
 * Measurement and inference of the matrix mechanism (seed 001, Prop. 3): exact lattice noise on a
 * strategy, least-squares estimation, answering, calibration and a strategy cache.
 *
 * <h2>Privacy design</h2>
 *
 * <p><b>Lattice strategy.</b> A real strategy {@code A} is rounded to {@code Â = N/2^K} with an
 * integer matrix {@code N} ({@link org.dpsql.matrix.mechanism.LatticeStrategy}). For an integer data
 * vector {@code x} the strategy answers {@code Nx} are exact integers, and a neighbour {@code x ±
 * e_j} moves them by the integer column {@code ±N_{:,j}}. Integer noise on an integer vector with
 * integer sensitivity vectors is exactly the setting of the discrete Gaussian and discrete Laplace
 * mechanisms, so no floating-point value and no non-lattice shift ever enters the privacy analysis.
 * Adding integer noise to the real values {@code Ax} directly would not be private (neighbours
 * would differ by non-integers, which the integer noise cannot hide). Inference uses {@code Â}
 * itself, so estimation is consistent with what was measured; the rounding changes the strategy's
 * error formula by less than {@code 1e-6} relative at {@code k = 20} (tested).
 *
 * <p><b>Calibrations</b> ({@link org.dpsql.matrix.mechanism.NoiseSpec}, {@link
 * org.dpsql.matrix.mechanism.NoiseCalibration}):
 *
 * <ul>
 *   <li>ρ-zCDP: discrete Gaussian with {@code σ_Z² = max_j Σ_i N_ij² / (2ρ)} (real scale {@code σ²
 *       = ‖Â‖₂²/(2ρ)}), an exact rational. Proof: for integers μ, ν, completing the square gives
 *       {@code Σ_z P(z)^α Q(z)^{1−α} = C(m)/C · exp(−α(1−α)(μ−ν)²/(2σ²))} with {@code m = αμ +
 *       (1−α)ν} and {@code C(m) = Σ_z exp(−(z−m)²/(2σ²)) ≤ C(0) = C} (Poisson summation), so {@code
 *       D_α ≤ α(μ−ν)²/(2σ²)} (Canonne–Kamath–Steinke 2020); Rényi divergences of independent
 *       coordinates add, giving {@code α Σ_i N_ij²/(2σ_Z²) ≤ αρ}.
 *   <li>Pure ε-DP: discrete Laplace with scale {@code t_Z = max_j Σ_i |N_ij| / ε} (triangle
 *       inequality on the log-density ratio).
 *   <li>(ε, δ)-DP: the discrete Gaussian at the largest ρ such that ρ-zCDP implies (ε, δ)-DP by the
 *       tight conversion of CKS 2020 ({@link org.dpsql.matrix.mechanism.ZcdpToApproxDp}), which is
 *       valid for every zCDP mechanism.
 * </ul>
 *
 * <p><b>Why not the analytic Gaussian for (ε, δ).</b> The Balle–Wang calibration ({@link
 * org.dpsql.matrix.mechanism.AnalyticGaussian}) is exact for <em>continuous</em> Gaussian noise: it
 * uses that the privacy loss {@code (‖v‖² + 2⟨Y, v⟩)/(2σ²)} is exactly normal. For the multivariate
 * discrete Gaussian {@code ⟨Y, v⟩} is a lattice variable whose law depends on the column {@code v}
 * itself, not only on {@code ‖v‖}; only its Rényi divergences (hence zCDP) are proven to match the
 * continuous ones, and the classical bound {@code σ = Δ√(2 ln(1.25/δ))/ε} is likewise a theorem
 * about continuous noise. We found no proven tight (ε, δ) bound for the multivariate discrete
 * Gaussian, so (ε, δ) releases go through zCDP. The cost, measured at {@code Δ = 1}: σ is 5–11%
 * larger than the analytic σ for ε in {0.1, 0.5, 1, 2} and δ in {1e-5, 1e-9}, and 8–30% smaller than
 * the classical σ (see {@code CalibrationTest#costOfRigourTable}).
 *
 * <p>Estimation ({@link org.dpsql.matrix.mechanism.LeastSquares}, {@link
 * org.dpsql.matrix.mechanism.Estimate}), answering ({@link
 * org.dpsql.matrix.Workload#answer}) and non-negative least squares ({@link
 * org.dpsql.matrix.mechanism.NonNegativeLeastSquares}) are post-processing of the released
 * measurement and cost no privacy.
 */
package org.dpsql.matrix.mechanism;
