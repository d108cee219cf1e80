package org.dpsql.hierarchy;

import java.util.Objects;

/**
 * Theorem 4 of the paper with its constants made explicit: with probability at least {@code 1 −
 * β}, the maximum absolute error of a TopDown release with a Chebyshev-optimal projection (InfTDA,
 * TDA_ℓ∞) at every level {@code ℓ' <= ℓ} is at most
 *
 * <pre>
 *   B_ℓ(β) = [unbounded] t_0 + 2 Σ_{k=1..ℓ} t_k,   t_k = σ_k √(2 ln(2N/β)),
 * </pre>
 *
 * where {@code N = Σ_{k=1..ℓ} |V_k|} (+1 for the perturbed root) bounds the number of noise draws
 * at levels {@code <= ℓ} by the public domain sizes. Derivation (the proof of Theorem 4): by eq. (7)
 * and the offset argument, {@code |err(u_ℓ)| <= 2||noise of the children of u_{ℓ−1}||_∞ +
 * |err(u_{ℓ−1})|} (an offset {@code ξ} with {@code ||ξ||_∞ <= |err(u_{ℓ−1})|} that makes the true
 * children feasible always exists: put a positive error on one child, take a negative one greedily
 * from the children's counts), and {@code |err(root)|} is 0 (bounded) or at most the root noise
 * (unbounded: clamping to 0 only reduces it); unrolling, {@code |err(u_ℓ)| <= |err_0| + 2 Σ_{k<=ℓ}
 * max|noise_k|}. The discrete Gaussian tail (CKS Corollary 9, the paper's Corollary 7) {@code P[|Z|
 * >= t] <= 2e^{−t²/(2σ²)}} and a union bound over at most {@code N} draws give the failure
 * probability {@code β}. With the uniform split, {@code B_ℓ = 2ℓ√(T/ρ)·√(2 ln(2N/β))} under bounded
 * DP with one record — the {@code O(ℓ√(T/ρ log(bℓ/β)))} of the proof before its last step.
 *
 * <p>Guarantee: a deterministic function of public parameters (floating point, for tests and
 * reports).
 */
public final class TopDownErrorBound {
  private TopDownErrorBound() {}

  /** {@code B_ℓ(β)} as above. */
  public static double maxErrorBound(TopDownBudget budget, TreeDomain domain, int level, double beta) {
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(domain, "domain");
    if (!(beta > 0 && beta < 1)) {
      throw new IllegalArgumentException("beta must be in (0, 1): " + beta);
    }
    if (level < 0 || level > domain.depth() || domain.depth() != budget.depth()) {
      throw new IllegalArgumentException("level " + level + " / depth mismatch");
    }
    double draws = budget.isPerturbed(0) ? 1 : 0;
    for (int k = 1; k <= level; k++) {
      draws += domain.levelSize(k);
    }
    if (draws == 0) {
      return 0; // bounded root: exact
    }
    double factor = Math.sqrt(2 * Math.log(2 * draws / beta));
    double bound = 0;
    if (budget.isPerturbed(0)) {
      bound += Math.sqrt(budget.sigmaSquared(0).doubleValue()) * factor;
    }
    for (int k = 1; k <= level; k++) {
      bound += 2 * Math.sqrt(budget.sigmaSquared(k).doubleValue()) * factor;
    }
    return bound;
  }
}
