package org.dpsql.matrix.mechanism;

import org.dpsql.support.QuietOjAlgo;
import org.ojalgo.matrix.decomposition.Cholesky;
import org.ojalgo.matrix.decomposition.Eigenvalue;
import org.ojalgo.matrix.store.MatrixStore;
import org.ojalgo.matrix.store.RawStore;

/**
 * The least-squares operators of one strategy factor {@code Â = N/2^k} ({@code p × n}): the Gram
 * pseudo-inverse {@code G⁺ = (ÂᵀÂ)⁺}, {@code Â⁺ = G⁺Âᵀ} and the orthogonal projector onto the row
 * space of {@code Â}. Four representations, chosen by shape:
 *
 * <ul>
 *   <li>a monomial factor (one non-zero per row and column, e.g. the identity): {@code G} is
 *       diagonal, {@code O(n)} memory;
 *   <li>a wide factor ({@code p < n}, with {@code 2p ≤ n} or {@code n >} {@value #DENSE_CELLS}): the
 *       row space from the eigen-decomposition of the {@code p × p} row Gram {@code ÂÂᵀ = UΛUᵀ},
 *       whose non-zero eigenvalues are those of {@code G} with eigenvectors {@code ÂᵀU Λ^(−1/2)};
 *       {@code O(p n)} memory, no {@code n × n} array and no null-space basis;
 *   <li>full column rank otherwise: a Cholesky factor {@code G = LLᵀ};
 *   <li>rank deficient otherwise: the eigen-decomposition of {@code G}.
 * </ul>
 *
 * Eigenvalues at or below {@link #RANK_TOLERANCE} times the largest count as zero in every case.
 * A fifth, the implicit all-range Eigen-Design ({@link SineLattice}), is square and invertible:
 * {@code Â⁻¹y} by refinement over fast transforms, {@code G⁻¹v} from its rounded scales on the
 * exact DST-I ({@link SineLattice#gramInverseTimes}), {@code O(n)} memory.
 * Immutable after construction.
 */
final class FactorInverse {
  /**
   * Relative threshold below which an eigenvalue of {@code ÂᵀÂ} (or a squared Cholesky pivot,
   * relative to the largest diagonal entry) counts as zero: {@code 1e-10}, i.e. singular values
   * below {@code 1e-5} of the largest are treated as rank deficiency.
   */
  static final double RANK_TOLERANCE = 1e-10;

  /** Above this many cells a factor with fewer rows than cells always uses the row Gram. */
  static final int DENSE_CELLS = 2048;

  static {
    QuietOjAlgo.ensure();
  }

  final LatticeMatrix a;
  final int n;
  final int rank;
  /** Lower Cholesky factor (full rank, not monomial), else null. */
  private double[][] chol;
  /** The diagonal of {@code G} of a monomial factor, else null. */
  private double[] diagonal;
  /** Row-space eigenvectors as rows ({@code r × n}) and reciprocal eigenvalues (rank deficient). */
  private double[][] basis;
  private double[] inverseEigenvalues;
  /**
   * Null-space eigenvectors as rows ({@code (n−r) × n}) (rank deficient, square representation),
   * empty if full rank, null for a wide factor (the complement of {@link #basis} is not stored).
   */
  private double[][] nullBasis;
  /** The implicit all-range Eigen-Design (square, invertible), else null. */
  private final SineLattice sine;

  FactorInverse(LatticeMatrix a) {
    this.a = a;
    this.n = a.cols();
    this.sine = a.sine();
    if (sine != null) {
      // square and invertible (SineLattice): fast transforms, nothing n × n
      nullBasis = new double[0][n];
      rank = n;
      return;
    }
    if (a.isMonomial()) {
      diagonal = a.monomialGramDiagonal();
      nullBasis = new double[0][n];
      rank = n;
      return;
    }
    if (a.rows() < n && (2L * a.rows() <= n || n > DENSE_CELLS)) {
      rank = wide();
      return;
    }
    double[][] g = a.realGram();
    double maxDiag = 0;
    for (int i = 0; i < n; i++) {
      maxDiag = Math.max(maxDiag, g[i][i]);
    }
    double[][] l = cholesky(g, maxDiag);
    if (l != null) {
      chol = l;
      nullBasis = new double[0][n];
      rank = n;
      return;
    }
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

  /** The row space of a wide factor from its row Gram; returns the rank. */
  private int wide() {
    int p = a.rows();
    double[][] rg = a.realRowGram();
    RawStore store = RawStore.wrap(rg);
    Eigenvalue<Double> evd = Eigenvalue.R064.make(store, true);
    if (!evd.decompose(store)) {
      throw new IllegalStateException("eigen-decomposition of the strategy row Gram matrix failed");
    }
    MatrixStore<Double> v = evd.getV();
    MatrixStore<Double> d = evd.getD();
    double max = 0;
    for (int i = 0; i < p; i++) {
      max = Math.max(max, d.doubleValue(i, i));
    }
    java.util.List<double[]> rows = new java.util.ArrayList<>();
    java.util.List<Double> inverse = new java.util.ArrayList<>();
    double[] u = new double[p];
    for (int i = 0; i < p; i++) {
      double lambda = d.doubleValue(i, i);
      if (!(lambda > RANK_TOLERANCE * max)) {
        continue;
      }
      for (int t = 0; t < p; t++) {
        u[t] = v.doubleValue(t, i);
      }
      double[] b = a.realTransposeTimes(u);
      double scale = 1 / Math.sqrt(lambda);
      for (int j = 0; j < n; j++) {
        b[j] *= scale;
      }
      rows.add(b);
      inverse.add(1 / lambda);
    }
    basis = rows.toArray(new double[0][]);
    inverseEigenvalues = inverse.stream().mapToDouble(Double::doubleValue).toArray();
    nullBasis = rows.size() == n ? new double[0][n] : null;
    return rows.size();
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
    return rank == n;
  }

  /** Whether an orthonormal basis of the null space is held ({@link #nullBasis()}). */
  boolean holdsNullBasis() {
    return nullBasis != null;
  }

  /** {@code G⁺ v}. */
  double[] gramPinvTimes(double[] v) {
    if (sine != null) {
      return sine.gramInverseTimes(v);
    }
    if (diagonal != null) {
      double[] z = new double[n];
      for (int j = 0; j < n; j++) {
        z[j] = v[j] / diagonal[j];
      }
      return z;
    }
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
    if (sine != null) {
      return sine.solve(y);
    }
    return gramPinvTimes(a.realTransposeTimes(y));
  }

  /** The projection of {@code w} onto the row space of {@code Â} ({@code w} itself if full rank). */
  double[] project(double[] w) {
    if (fullRank()) {
      return w.clone();
    }
    if (nullBasis == null) {
      double[] out = new double[n];
      for (double[] b : basis) {
        double c = 0;
        for (int j = 0; j < n; j++) {
          c += b[j] * w[j];
        }
        for (int j = 0; j < n; j++) {
          out[j] += c * b[j];
        }
      }
      return out;
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

  /**
   * {@code Σᵢ ‖wᵢ − P wᵢ‖²} over the queries {@code wᵢ} of {@code w}, {@code P} the projector onto
   * the row space: query by query for a sparse or short workload (no cancellation), else as {@code
   * trace(WᵀW) − Σₖ bₖᵀ WᵀW bₖ} over the row-space basis {@code bₖ}.
   */
  double squaredResidual(org.dpsql.matrix.Workload w) {
    if (fullRank()) {
      return 0;
    }
    if (w instanceof org.dpsql.matrix.SparseWorkload s) {
      double out = 0;
      double[] row = new double[n];
      for (int i = 0; i < s.queries(); i++) {
        int[] cells = s.row(i);
        for (int c : cells) {
          row[c] = 1;
        }
        out += residual(row);
        for (int c : cells) {
          row[c] = 0;
        }
      }
      return out;
    }
    if (w.queries() * (double) n <= 1e7) {
      double out = 0;
      for (double[] row : w.matrix()) {
        out += residual(row);
      }
      return out;
    }
    double[][] bt = new double[n][basis.length];
    for (int k = 0; k < basis.length; k++) {
      for (int j = 0; j < n; j++) {
        bt[j][k] = basis[k][j];
      }
    }
    double[][] gb = w.gramTimes(bt);
    double inside = 0;
    for (int k = 0; k < basis.length; k++) {
      for (int j = 0; j < n; j++) {
        inside += basis[k][j] * gb[j][k];
      }
    }
    return Math.max(0, w.frobeniusSquared() - inside);
  }

  private double residual(double[] w) {
    double[] p = project(w);
    double s = 0;
    for (int j = 0; j < n; j++) {
      double d = w[j] - p[j];
      s += d * d;
    }
    return s;
  }

  /** An orthonormal basis of the null space of {@code Â} (rows; empty if full rank), a copy. */
  double[][] nullBasis() {
    if (nullBasis == null) {
      throw new IllegalStateException("a wide factor holds no null-space basis");
    }
    double[][] c = new double[nullBasis.length][];
    for (int i = 0; i < c.length; i++) {
      c[i] = nullBasis[i].clone();
    }
    return c;
  }
}
