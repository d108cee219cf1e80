package org.dpsql.matrix.mechanism;

import org.dpsql.support.QuietOjAlgo;
import org.ojalgo.matrix.decomposition.Cholesky;
import org.ojalgo.matrix.decomposition.Eigenvalue;
import org.ojalgo.matrix.store.MatrixStore;
import org.ojalgo.matrix.store.RawStore;

/**
 * The least-squares operators of one strategy factor {@code Â = N/2^k} ({@code p × n}): the Gram
 * pseudo-inverse {@code G⁺ = (ÂᵀÂ)⁺}, {@code Â⁺ = G⁺Âᵀ} and the orthogonal projector onto the row
 * space of {@code Â}. Full column rank: a Cholesky factor {@code G = LLᵀ}. Otherwise: the
 * eigen-decomposition of {@code G} restricted to eigenvalues above {@link #RANK_TOLERANCE} times the
 * largest (the numerical row space). Immutable after construction.
 */
final class FactorInverse {
  /**
   * Relative threshold below which an eigenvalue of {@code ÂᵀÂ} (or a squared Cholesky pivot,
   * relative to the largest diagonal entry) counts as zero: {@code 1e-10}, i.e. singular values
   * below {@code 1e-5} of the largest are treated as rank deficiency.
   */
  static final double RANK_TOLERANCE = 1e-10;

  static {
    QuietOjAlgo.ensure();
  }

  final LatticeMatrix a;
  final int n;
  final int rank;
  /** Lower Cholesky factor (full rank), else null. */
  private final double[][] chol;
  /** Row-space eigenvectors as rows ({@code r × n}) and reciprocal eigenvalues (rank deficient). */
  private final double[][] basis;
  private final double[] inverseEigenvalues;
  /** Null-space eigenvectors as rows ({@code (n−r) × n}) (rank deficient), else empty. */
  private final double[][] nullBasis;

  FactorInverse(LatticeMatrix a) {
    this.a = a;
    this.n = a.cols();
    double[][] g = a.realGram();
    double maxDiag = 0;
    for (int i = 0; i < n; i++) {
      maxDiag = Math.max(maxDiag, g[i][i]);
    }
    double[][] l = cholesky(g, maxDiag);
    if (l != null) {
      chol = l;
      basis = null;
      inverseEigenvalues = null;
      nullBasis = new double[0][n];
      rank = n;
      return;
    }
    chol = null;
    RawStore store = RawStore.wrap(copy(g));
    Eigenvalue<Double> evd = Eigenvalue.R064.make(store, true);
    if (!evd.decompose(store)) {
      throw new IllegalStateException("eigen-decomposition of the strategy Gram matrix failed");
    }
    MatrixStore<Double> v = evd.getV();
    MatrixStore<Double> d = evd.getD();
    double max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, d.doubleValue(i, i));
    }
    int r = 0;
    for (int i = 0; i < n; i++) {
      if (d.doubleValue(i, i) > RANK_TOLERANCE * max) {
        r++;
      }
    }
    rank = r;
    basis = new double[r][n];
    inverseEigenvalues = new double[r];
    nullBasis = new double[n - r][n];
    int kept = 0;
    int dropped = 0;
    for (int i = 0; i < n; i++) {
      double lambda = d.doubleValue(i, i);
      double[] target;
      if (lambda > RANK_TOLERANCE * max) {
        inverseEigenvalues[kept] = 1 / lambda;
        target = basis[kept++];
      } else {
        target = nullBasis[dropped++];
      }
      for (int j = 0; j < n; j++) {
        target[j] = v.doubleValue(j, i);
      }
    }
  }

  /** Lower Cholesky factor of {@code g}, or null if {@code g} is not (numerically) positive definite. */
  private static double[][] cholesky(double[][] g, double maxDiag) {
    int n = g.length;
    if (maxDiag <= 0) {
      return null;
    }
    RawStore store = RawStore.wrap(copy(g));
    Cholesky<Double> c = Cholesky.R064.make(store);
    if (!c.decompose(store) || !c.isSPD()) {
      return null;
    }
    MatrixStore<Double> lower = c.getL();
    double[][] l = new double[n][];
    for (int i = 0; i < n; i++) {
      l[i] = new double[i + 1];
      for (int j = 0; j <= i; j++) {
        l[i][j] = lower.doubleValue(i, j);
      }
      double pivot = l[i][i];
      if (!(pivot * pivot > RANK_TOLERANCE * maxDiag)) {
        return null;
      }
    }
    return l;
  }

  private static double[][] copy(double[][] g) {
    double[][] c = new double[g.length][];
    for (int i = 0; i < g.length; i++) {
      c[i] = g[i].clone();
    }
    return c;
  }

  boolean fullRank() {
    return chol != null;
  }

  /** {@code G⁺ v}. */
  double[] gramPinvTimes(double[] v) {
    if (chol != null) {
      double[] z = new double[n];
      for (int i = 0; i < n; i++) {
        double[] li = chol[i];
        double s = v[i];
        for (int j = 0; j < i; j++) {
          s -= li[j] * z[j];
        }
        z[i] = s / li[i];
      }
      for (int i = n - 1; i >= 0; i--) {
        double[] li = chol[i];
        double xi = z[i] / li[i];
        z[i] = xi;
        for (int j = 0; j < i; j++) {
          z[j] -= li[j] * xi;
        }
      }
      return z;
    }
    double[] out = new double[n];
    for (int k = 0; k < basis.length; k++) {
      double[] b = basis[k];
      double c = 0;
      for (int j = 0; j < n; j++) {
        c += b[j] * v[j];
      }
      c *= inverseEigenvalues[k];
      for (int j = 0; j < n; j++) {
        out[j] += c * b[j];
      }
    }
    return out;
  }

  /** {@code Â⁺ y = G⁺ Âᵀ y}: the minimum-norm least-squares solution of {@code Â x ≈ y}. */
  double[] pinvTimes(double[] y) {
    return gramPinvTimes(a.realTransposeTimes(y));
  }

  /** The projection of {@code w} onto the row space of {@code Â} ({@code w} itself if full rank). */
  double[] project(double[] w) {
    if (chol != null) {
      return w.clone();
    }
    double[] out = w.clone();
    for (double[] b : nullBasis) {
      double c = 0;
      for (int j = 0; j < n; j++) {
        c += b[j] * w[j];
      }
      for (int j = 0; j < n; j++) {
        out[j] -= c * b[j];
      }
    }
    return out;
  }

  /** An orthonormal basis of the null space of {@code Â} (rows; empty if full rank), a copy. */
  double[][] nullBasis() {
    double[][] c = new double[nullBasis.length][];
    for (int i = 0; i < c.length; i++) {
      c[i] = nullBasis[i].clone();
    }
    return c;
  }
}
