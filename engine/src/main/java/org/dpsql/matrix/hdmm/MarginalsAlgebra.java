package org.dpsql.matrix.hdmm;

import java.util.List;
import java.util.Optional;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.Workload;

/**
 * The commutative algebra spanned by Kronecker products of {@code I} and {@code J} (all ones) on a
 * domain {@code n₁ × … × n_d}, in which every marginal workload and every {@link MarginalsStrategy}
 * diagonalises (HDMM §7).
 *
 * <p>With the orthogonal projectors {@code P₁ = J/n} (constants) and {@code P₀ = I − P₁} on each
 * attribute, the {@code 2^d} idempotents {@code E_T = ⊗ₐ (P₀ if a ∈ T else P₁)} are mutually
 * orthogonal, sum to {@code I} and have {@code rank E_T = Π_{a∈T} (nₐ − 1)}. Since {@code I = P₀ +
 * P₁} and {@code J = nₐ P₁}:
 *
 * <pre>
 *   ⊗ₐ (I if a ∈ S else J) = Σ_{T ⊆ S} c_S E_T,         c_S = Π_{a∉S} nₐ,
 *   ⊗ₐ (αₐ I + βₐ J)       = Σ_T Π_{a∈T} αₐ · Π_{a∉T} (αₐ + βₐ nₐ) · E_T.
 * </pre>
 *
 * Hence a marginals strategy has {@code AᵀA = Σ_T λ_T E_T}, {@code λ_T = Σ_{S ⊇ T} θ_S² c_S}, a
 * workload whose Gram is a sum of products of {@code αI + βJ} has {@code WᵀW = Σ_T γ_T E_T}, and
 * {@code trace(WᵀW (AᵀA)⁺) = Σ_T rank(E_T) γ_T / λ_T} (infinite if some {@code γ_T > 0} has {@code
 * λ_T = 0}). Superset and subset sums over the {@code 2^d} masks cost {@code O(d 2^d)}.
 */
final class MarginalsAlgebra {
  private MarginalsAlgebra() {}

  /** In place: {@code v[S] ← Σ_{T ⊆ S} v[T]}. */
  static void subsetSums(double[] v, int d) {
    for (int a = 0; a < d; a++) {
      int bit = 1 << a;
      for (int s = 0; s < v.length; s++) {
        if ((s & bit) != 0) {
          v[s] += v[s ^ bit];
        }
      }
    }
  }

  /** In place: {@code v[T] ← Σ_{S ⊇ T} v[S]}. */
  static void supersetSums(double[] v, int d) {
    for (int a = 0; a < d; a++) {
      int bit = 1 << a;
      for (int s = 0; s < v.length; s++) {
        if ((s & bit) == 0) {
          v[s] += v[s | bit];
        }
      }
    }
  }

  /** {@code rank(E_T) = Π_{a ∈ T} (nₐ − 1)} for every mask {@code T}. */
  static double[] ranks(int[] dims) {
    double[] r = new double[1 << dims.length];
    for (int t = 0; t < r.length; t++) {
      double v = 1;
      for (int a = 0; a < dims.length; a++) {
        if ((t >> a & 1) == 1) {
          v *= dims[a] - 1;
        }
      }
      r[t] = v;
    }
    return r;
  }

  /** {@code c_S = Π_{a ∉ S} nₐ} for every mask {@code S}. */
  static double[] complementSizes(int[] dims) {
    double[] c = new double[1 << dims.length];
    for (int s = 0; s < c.length; s++) {
      double v = 1;
      for (int a = 0; a < dims.length; a++) {
        if ((s >> a & 1) == 0) {
          v *= dims[a];
        }
      }
      c[s] = v;
    }
    return c;
  }

  /** {@code λ_T = Σ_{S ⊇ T} θ_S² c_S}: the eigenvalues of {@code AᵀA} of a marginals strategy. */
  static double[] strategyEigenvalues(double[] theta, int[] dims) {
    double[] c = complementSizes(dims);
    double[] lambda = new double[theta.length];
    for (int s = 0; s < theta.length; s++) {
      lambda[s] = theta[s] * theta[s] * c[s];
    }
    supersetSums(lambda, dims.length);
    return lambda;
  }

  /**
   * The eigenvalues {@code γ_T} of {@code WᵀW} on the {@code E_T}, if {@code w} is a union of
   * Kronecker products whose every factor has Gram {@code αI + βJ} (identity, total, or any factor
   * whose dense Gram has that form); empty otherwise.
   */
  static Optional<Spectrum> spectrum(Workload w) {
    Optional<ProductTerms> pt = ProductTerms.of(w);
    if (pt.isEmpty()) {
      return Optional.empty();
    }
    int[] dims = pt.get().dims();
    int d = dims.length;
    if (d > 24) {
      return Optional.empty();
    }
    double[] gamma = new double[1 << d];
    for (List<Workload> term : pt.get().terms()) {
      double[] alpha = new double[d];
      double[] beta = new double[d];
      for (int a = 0; a < d; a++) {
        double[] ab = identityPlusOnes(term.get(a));
        if (ab == null) {
          return Optional.empty();
        }
        alpha[a] = ab[0];
        beta[a] = ab[1];
      }
      for (int t = 0; t < gamma.length; t++) {
        double v = 1;
        for (int a = 0; a < d; a++) {
          v *= (t >> a & 1) == 1 ? alpha[a] : alpha[a] + beta[a] * dims[a];
        }
        gamma[t] += v;
      }
    }
    return Optional.of(new Spectrum(dims, gamma));
  }

  /** {@code (α, β)} with {@code FᵀF = αI + βJ}, or {@code null}. */
  static double[] identityPlusOnes(Workload f) {
    if (f instanceof IdentityWorkload) {
      return new double[] {1, 0};
    }
    if (f instanceof TotalWorkload) {
      return new double[] {0, 1};
    }
    int n = f.cells();
    if (n > 2048) {
      return null;
    }
    double[] diag = f.gramDiagonal();
    for (double v : diag) {
      if (Math.abs(v - diag[0]) > 1e-12 * Math.abs(diag[0])) {
        return null; // αI + βJ has a constant diagonal
      }
    }
    double[][] g = f.gram();
    if (n == 1) {
      return new double[] {g[0][0], 0};
    }
    double beta = g[0][1];
    double alpha = g[0][0] - beta;
    double scale = Math.abs(alpha) + Math.abs(beta);
    if (Math.abs(alpha) <= 1e-12 * scale) {
      alpha = 0;
    }
    if (Math.abs(beta) <= 1e-12 * scale) {
      beta = 0;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        double expected = (i == j ? alpha : 0) + beta;
        if (Math.abs(g[i][j] - expected) > 1e-12 * scale) {
          return null;
        }
      }
    }
    return new double[] {alpha, beta};
  }

  /**
   * The spectrum of a marginal-type workload Gram.
   *
   * @param dims attribute sizes
   * @param gamma {@code γ_T} per mask {@code T}
   */
  record Spectrum(int[] dims, double[] gamma) {
    /** {@code Σ_T rank(E_T) γ_T / λ_T}, {@code +∞} if the workload is outside the strategy's row space. */
    double trace(double[] lambda) {
      double[] rank = ranks(dims);
      double t = 0;
      for (int s = 0; s < gamma.length; s++) {
        double w = rank[s] * gamma[s];
        if (w > 0) {
          if (!(lambda[s] > 0)) {
            return Double.POSITIVE_INFINITY;
          }
          t += w / lambda[s];
        }
      }
      return t;
    }
  }
}
