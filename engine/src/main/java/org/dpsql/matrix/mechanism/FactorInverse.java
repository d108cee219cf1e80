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
 * A wide stored factor with more than {@value #MAX_WIDE_ROWS} rows over more than {@value
 * #DENSE_CELLS} cells (the workload's own rows, {@link org.dpsql.matrix.DirectStrategy}) is never
 * decomposed: {@code Â⁺y}, {@code G⁺v} and the projector are computed by conjugate gradients on
 * the sparse operators {@code ÂᵀÂ} and {@code ÂÂᵀ} (Commons Math {@code ConjugateGradient}, from
 * zero, so the iterates stay in the row space and converge to the minimum-norm solutions), {@code
 * O(nnz)} per iteration and {@code O(p + n + nnz)} memory; its {@code rank} is then the upper
 * bound {@code p} (it is not computed). A solve stops at the relative residual {@value
 * #CG_TOLERANCE}; a row-space test whose solve does not reach it refuses the query, an estimate
 * accepts up to {@value #CG_ACCEPTED} and fails beyond, and a factor on which a fixed
 * pseudo-random right-hand side fails is refused when it is prepared (before any measurement).
 *
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

  /** The most rows whose row Gram is decomposed densely; above, a wide factor is iterative. */
  static final int MAX_WIDE_ROWS = 2048;

  /** The relative residual {@code ‖r‖ ≤ tol ‖b‖} at which a conjugate-gradient solve stops. */
  static final double CG_TOLERANCE = 1e-12;

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
  /** Whether the least-squares operators are computed by conjugate gradients (wide, sparse). */
  private boolean iterative;
  /** The iterative factor's rows, normalised, for the exact "is a strategy row" test (lazy). */
  private volatile java.util.Set<RowKey> rowKeys;

  FactorInverse(LatticeMatrix a) {
    this(a, false);
  }

  /**
   * The operators of {@code a}; {@code conjugateGradients} forces the iterative representation for
   * any stored wide factor (tests compare it with the dense ones at small sizes).
   */
  FactorInverse(LatticeMatrix a, boolean conjugateGradients) {
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
    boolean tooWide = n > DENSE_CELLS
        && (a.rows() > MAX_WIDE_ROWS || a.rows() * (double) n > MAX_WIDE_ENTRIES);
    if (a.rows() < n && (conjugateGradients || tooWide)) {
      iterative = true;
      rank = a.rows(); // an upper bound: the rank of a wide iterative factor is not computed
      probe();
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

  /** The most row-by-cell entries of the dense row-space basis a wide factor holds. */
  static final double MAX_WIDE_ENTRIES = 2e7;

  /** {@code ÂᵀÂ} as an operator on {@code ℝⁿ} (two sparse products). */
  private org.apache.commons.math3.linear.RealLinearOperator normalOperator() {
    return operator(n, v -> a.realTransposeTimes(a.realTimes(v)));
  }

  /** {@code ÂÂᵀ} as an operator on {@code ℝᵖ} (two sparse products). */
  private org.apache.commons.math3.linear.RealLinearOperator rowGramOperator() {
    return operator(a.rows(), u -> a.realTimes(a.realTransposeTimes(u)));
  }

  private static org.apache.commons.math3.linear.RealLinearOperator operator(int dim,
      java.util.function.UnaryOperator<double[]> apply) {
    return new org.apache.commons.math3.linear.RealLinearOperator() {
      @Override
      public int getRowDimension() {
        return dim;
      }

      @Override
      public int getColumnDimension() {
        return dim;
      }

      @Override
      public org.apache.commons.math3.linear.RealVector operate(
          org.apache.commons.math3.linear.RealVector x) {
        return new org.apache.commons.math3.linear.ArrayRealVector(apply.apply(x.toArray()), false);
      }
    };
  }

  /** The relative residual above which a solve that did not reach {@link #CG_TOLERANCE} fails. */
  static final double CG_ACCEPTED = 1e-8;

  /** Iterations without a new smallest residual after which a solve is taken as stagnant. */
  private static final int CG_PATIENCE = 500;

  /** A conjugate-gradient solve: the last iterate and its relative (recursive) residual. */
  private record Solve(double[] x, double relativeResidual) {}

  private static final class Stagnant extends RuntimeException {
    Stagnant() {
      super(null, null, false, false);
    }
  }

  /**
   * The minimum-norm solution of the consistent semi-definite system {@code op z = b} by
   * conjugate gradients from zero (Commons Math), stopping at the relative residual {@link
   * #CG_TOLERANCE}, after {@code maxIterations}, or after {@link #CG_PATIENCE} iterations without
   * progress; the last iterate with its residual.
   */
  private static Solve conjugateGradient(org.apache.commons.math3.linear.RealLinearOperator op,
      double[] b, int maxIterations) {
    double norm = 0;
    for (double v : b) {
      norm += v * v;
    }
    norm = Math.sqrt(norm);
    if (norm == 0) {
      return new Solve(new double[b.length], 0);
    }
    org.apache.commons.math3.linear.RealVector[] last = {null};
    double[] residual = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
    int[] since = {0};
    var cg = new org.apache.commons.math3.linear.ConjugateGradient(maxIterations, CG_TOLERANCE,
        false);
    cg.getIterationManager().addIterationListener(
        new org.apache.commons.math3.util.IterationListener() {
          @Override
          public void initializationPerformed(org.apache.commons.math3.util.IterationEvent e) {}

          @Override
          public void iterationStarted(org.apache.commons.math3.util.IterationEvent e) {}

          @Override
          public void iterationPerformed(org.apache.commons.math3.util.IterationEvent e) {
            var event = (org.apache.commons.math3.linear.IterativeLinearSolverEvent) e;
            last[0] = event.getSolution(); // a live read-only view of the iterate
            residual[0] = event.getNormOfResidual();
            if (residual[0] < residual[1]) {
              residual[1] = residual[0];
              since[0] = 0;
            } else if (++since[0] > CG_PATIENCE) {
              throw new Stagnant();
            }
          }

          @Override
          public void terminationPerformed(org.apache.commons.math3.util.IterationEvent e) {}
        });
    try {
      double[] x = cg.solve(op, new org.apache.commons.math3.linear.ArrayRealVector(b, false))
          .toArray();
      return new Solve(x, Math.min(CG_TOLERANCE, residual[0] / norm));
    } catch (org.apache.commons.math3.exception.MathIllegalStateException | Stagnant stopped) {
      return last[0] == null ? new Solve(null, Double.POSITIVE_INFINITY)
          : new Solve(last[0].toArray(), residual[0] / norm);
    }
  }

  /**
   * The most multiply-adds one solve may spend (about a second): rows ill-conditioned
   * enough to need more are not solved iteratively (the probe refuses them at preparation).
   */
  static final double CG_WORK = 1e9;

  /**
   * The iteration cap: the Krylov spaces have at most {@code rank ≤ min(p, n)} dimensions, and no
   * solve spends more than {@link #CG_WORK} multiply-adds.
   */
  private int maxIterations() {
    double perIteration = 2.0 * a.nonZeros() + n + a.rows();
    return (int) Math.max(50, Math.min(4.0 * Math.min(a.rows(), n) + 200, CG_WORK / perIteration));
  }

  /** The solve's solution when its residual is at most {@code accepted}, else a failure. */
  private static double[] converged(Solve z, double accepted, String what) {
    if (z.x() == null || !(z.relativeResidual() <= accepted)) {
      throw new IllegalStateException("conjugate gradients did not converge for " + what
          + " (relative residual " + z.relativeResidual() + "): the strategy is too ill-conditioned"
          + " to solve iteratively");
    }
    return z.x();
  }

  /**
   * Refuses an iterative factor on which conjugate gradients do not reach {@link #CG_ACCEPTED} for
   * a fixed pseudo-random right-hand side (data-independent, so checked when the strategy is
   * prepared, before anything is measured or charged).
   */
  private void probe() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(0x5EED_0033L);
    double[] y = new double[a.rows()];
    for (int i = 0; i < y.length; i++) {
      y[i] = r.nextDouble() - 0.5;
    }
    pinvTimes(y);
  }

  /** Whether this factor's operators are computed by conjugate gradients. */
  boolean iterative() {
    return iterative;
  }

  /**
   * Whether {@code w} is a multiple of one row of the iterative factor (hence in its row space,
   * exactly): the test that answers the workload's own queries without a solve.
   */
  boolean isMultipleOfRow(double[] w) {
    if (!iterative) {
      return false;
    }
    RowKey key = RowKey.of(w);
    if (key == null) {
      return false;
    }
    java.util.Set<RowKey> keys = rowKeys;
    if (keys == null) {
      keys = new java.util.HashSet<>();
      int[] starts = a.rowStarts();
      int[] cols = a.columnIndices();
      long[] vals = a.numerators();
      for (int i = 0; i < a.rows(); i++) {
        int len = starts[i + 1] - starts[i];
        int[] c = java.util.Arrays.copyOfRange(cols, starts[i], starts[i + 1]);
        double[] v = new double[len];
        for (int t = 0; t < len; t++) {
          v[t] = vals[starts[i] + t];
        }
        RowKey k = RowKey.normalised(c, v);
        if (k != null) {
          keys.add(k);
        }
      }
      rowKeys = keys;
    }
    return keys.contains(key);
  }

  /** A row's support and its values divided by its first non-zero (exact for integer rows). */
  private record RowKey(int[] cols, double[] ratios) {
    static RowKey of(double[] w) {
      int nnz = 0;
      for (double v : w) {
        if (v != 0) {
          nnz++;
        }
      }
      int[] c = new int[nnz];
      double[] v = new double[nnz];
      int k = 0;
      for (int j = 0; j < w.length; j++) {
        if (w[j] != 0) {
          c[k] = j;
          v[k++] = w[j];
        }
      }
      return normalised(c, v);
    }

    static RowKey normalised(int[] c, double[] v) {
      if (c.length == 0) {
        return null;
      }
      double first = v[0];
      double[] r = new double[v.length];
      for (int t = 0; t < v.length; t++) {
        r[t] = v[t] / first;
        if (!Double.isFinite(r[t])) {
          return null;
        }
      }
      return new RowKey(c, r);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RowKey k && java.util.Arrays.equals(cols, k.cols)
          && java.util.Arrays.equals(ratios, k.ratios);
    }

    @Override
    public int hashCode() {
      return 31 * java.util.Arrays.hashCode(cols) + java.util.Arrays.hashCode(ratios);
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
    if (iterative) {
      // G⁺ = Âᵀ (ÂÂᵀ)⁺ (ÂÂᵀ)⁺ Â: two solves with the p × p row Gram operator
      var rg = rowGramOperator();
      double[] u = converged(conjugateGradient(rg, a.realTimes(v), maxIterations()), CG_ACCEPTED,
          "(ÂᵀÂ)⁺v");
      return a.realTransposeTimes(converged(conjugateGradient(rg, u, maxIterations()),
          CG_ACCEPTED, "(ÂᵀÂ)⁺v"));
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
    if (iterative) {
      // the normal equations ÂᵀÂ z = Âᵀy are consistent: from zero, CG ends at Â⁺y
      return converged(conjugateGradient(normalOperator(), a.realTransposeTimes(y),
          maxIterations()), CG_ACCEPTED, "Â⁺y");
    }
    return gramPinvTimes(a.realTransposeTimes(y));
  }

  /** The projection of {@code w} onto the row space of {@code Â} ({@code w} itself if full rank). */
  double[] project(double[] w) {
    if (fullRank()) {
      return w.clone();
    }
    if (iterative) {
      // P w = Âᵀ (ÂÂᵀ)⁺ Â w; a solve that does not converge leaves w's image empty, so the
      // row-space test refuses w rather than accept it
      Solve u = conjugateGradient(rowGramOperator(), a.realTimes(w), maxIterations());
      return u.relativeResidual() <= CG_TOLERANCE ? a.realTransposeTimes(u.x()) : new double[n];
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
    if (iterative) {
      return iterativeSquaredResidual(w);
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

  /**
   * The iterative factor's residual, query by query from the workload's sparse rows: a query that
   * is a multiple of a strategy row contributes 0 without a solve, any other one its projection's
   * residual.
   *
   * @throws IllegalArgumentException if the workload's rows are not integer or too many to list
   */
  private double iterativeSquaredResidual(org.dpsql.matrix.Workload w) {
    org.dpsql.matrix.SparseRows rows = org.dpsql.matrix.SparseRows.of(w, 50_000_000L);
    if (rows == null) {
      throw new IllegalArgumentException("cannot check the row space of " + w + " query by query");
    }
    int[] starts = rows.rowStarts();
    int[] cols = rows.columnIndices();
    long[] vals = rows.entries();
    double out = 0;
    double[] row = new double[n];
    for (int i = 0; i < rows.rows(); i++) {
      for (int k = starts[i]; k < starts[i + 1]; k++) {
        row[cols[k]] = vals[k];
      }
      if (!isMultipleOfRow(row)) {
        out += residual(row);
      }
      for (int k = starts[i]; k < starts[i + 1]; k++) {
        row[cols[k]] = 0;
      }
    }
    return out;
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
