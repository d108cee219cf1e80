package org.dpsql.matrix.mechanism;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * Least-squares inference for a {@link LatticeStrategy} {@code Â} (step 2 of the matrix mechanism,
 * seed 001 Prop. 3): {@code x̂ = Â⁺ y}, the minimum-norm minimiser of {@code ‖Âx − y‖₂}. With full
 * column rank {@code x̂ = (ÂᵀÂ)⁻¹Âᵀy} through a cached Cholesky factor (ojAlgo); otherwise through
 * the pseudo-inverse on the row space of {@code Â} (eigen-decomposition of {@code ÂᵀÂ}, eigenvalues
 * below {@code 1e-10} of the largest treated as zero). A Kronecker strategy uses {@code (⊗Âᵢ)⁺ =
 * ⊗Âᵢ⁺} factor by factor (mode-wise), never forming the product.
 *
 * <p>Guarantees: the estimate is unbiased for every query {@code w} in the row space of {@code Â}
 * ({@code E[w x̂] = w x}, because {@code w Â⁺Â = w} there), with variance {@code v · w (ÂᵀÂ)⁺ wᵀ}
 * where {@code v} is the per-coordinate noise variance; queries outside the row space are refused
 * ({@link #requireInRowSpace}) because their estimate would be biased. Inference is
 * post-processing of the released measurement and costs no privacy. Factorisations are computed
 * once (O(n³) per factor) and reused; instances are immutable and thread-safe.
 */
public final class LeastSquares {
  /**
   * Relative tolerance of the row-space test: {@code w} is accepted when {@code ‖w − Pw‖₂ ≤ 1e-7
   * ‖w‖₂}, {@code P} the projector onto the row space of {@code Â}.
   */
  public static final double ROW_SPACE_TOLERANCE = 1e-7;

  private final LatticeStrategy strategy;
  private final List<FactorInverse> factors;

  private LeastSquares(LatticeStrategy strategy) {
    this(strategy, false);
  }

  private LeastSquares(LatticeStrategy strategy, boolean conjugateGradients) {
    this.strategy = strategy;
    List<FactorInverse> fs = new ArrayList<>();
    for (LatticeMatrix f : strategy.factors()) {
      fs.add(new FactorInverse(f, conjugateGradients));
    }
    this.factors = List.copyOf(fs);
  }

  /** Factorises {@code strategy} (O(n³) per Kronecker factor). */
  public static LeastSquares of(LatticeStrategy strategy) {
    return new LeastSquares(Objects.requireNonNull(strategy, "strategy"));
  }

  /**
   * The inference with every wide stored factor solved by conjugate gradients whatever its size
   * (for tests against the dense representations).
   */
  static LeastSquares iterative(LatticeStrategy strategy) {
    return new LeastSquares(Objects.requireNonNull(strategy, "strategy"), true);
  }

  /** The strategy this inference belongs to. */
  public LatticeStrategy strategy() {
    return strategy;
  }

  /**
   * {@code rank(Â)} (the product of the factors' ranks); for a factor solved by conjugate gradients
   * (the workload's own rows over many cells) its row count, an upper bound.
   */
  public long rank() {
    long r = 1;
    for (FactorInverse f : factors) {
      r *= f.rank;
    }
    return r;
  }

  /** Whether {@code Â} has full column rank (every query is in its row space). */
  public boolean fullColumnRank() {
    return factors.stream().allMatch(FactorInverse::fullRank);
  }

  /** {@code x̂ = Â⁺ y} for a measurement of this strategy. */
  public Estimate estimate(Measurement y) {
    if (y.size() != strategy.rows() || y.bits() != strategy.bits()) {
      throw new IllegalArgumentException(
          "measurement of " + y.size() + " values on 2^-" + y.bits() + " does not belong to " + strategy);
    }
    return new Estimate(this, estimate(y.values()), y.noise());
  }

  /** {@code x̂ = Â⁺ y} for any real vector {@code y} of length {@code p}. */
  public double[] estimate(double[] y) {
    if (y.length != strategy.rows()) {
      throw new IllegalArgumentException("expected " + strategy.rows() + " values, got " + y.length);
    }
    return perMode(y, strategy.rowDims(), f -> f::pinvTimes);
  }

  /** {@code (ÂᵀÂ)⁺ v}. */
  public double[] gramPinvTimes(double[] v) {
    requireCells(v);
    return perMode(v, strategy.cellDims(), f -> f::gramPinvTimes);
  }

  /** The orthogonal projection of {@code w} onto the row space of {@code Â}. */
  public double[] projectOntoRowSpace(double[] w) {
    requireCells(w);
    if (fullColumnRank()) {
      return w.clone();
    }
    return perMode(w, strategy.cellDims(), f -> f::project);
  }

  /** {@code w (ÂᵀÂ)⁺ wᵀ}: the variance of {@code w x̂} per unit of noise variance. */
  public double quadraticForm(double[] w) {
    double[] g = gramPinvTimes(w);
    double s = 0;
    for (int i = 0; i < w.length; i++) {
      s += w[i] * g[i];
    }
    return s;
  }

  /** Whether {@code w} lies in the row space of {@code Â} (to {@link #ROW_SPACE_TOLERANCE}). */
  public boolean inRowSpace(double[] w) {
    if (w.length == strategy.cells() && factors.size() == 1
        && factors.get(0).isMultipleOfRow(w)) {
      return true; // one of the measured rows itself (iterative factors): no solve
    }
    double[] p = projectOntoRowSpace(w);
    double norm = 0;
    double residual = 0;
    for (int i = 0; i < w.length; i++) {
      norm += w[i] * w[i];
      double d = w[i] - p[i];
      residual += d * d;
    }
    return residual <= ROW_SPACE_TOLERANCE * ROW_SPACE_TOLERANCE * norm;
  }

  /**
   * Refuses a query outside the row space of {@code Â}.
   *
   * @throws IllegalArgumentException if {@code w} is not in the row space
   */
  public void requireInRowSpace(double[] w) {
    if (!inRowSpace(w)) {
      throw new IllegalArgumentException(
          "query is not in the row space of strategy " + strategy.name() + " (rank " + rank() + " of "
              + strategy.cells() + " cells): it cannot be answered without bias from this measurement");
    }
  }

  /**
   * Refuses a workload with any query outside the row space of {@code Â}: checks {@code trace(WᵀW
   * (I − P)) ≤ tol² · trace(WᵀW)} per factor (Kronecker workloads on a Kronecker strategy with the
   * same factor shapes), per member (unions), or on the whole domain (one-factor strategies).
   *
   * @throws IllegalArgumentException if some query is not in the row space, or the workload's
   *     shape does not allow the check
   */
  public void requireInRowSpace(Workload w) {
    if (w.cells() != strategy.cells()) {
      throw new IllegalArgumentException(
          "workload over " + w.cells() + " cells, strategy over " + strategy.cells());
    }
    if (fullColumnRank()) {
      return;
    }
    if (!workloadInRowSpace(w)) {
      throw new IllegalArgumentException(
          "workload " + w + " has queries outside the row space of strategy " + strategy.name()
              + " (rank " + rank() + " of " + strategy.cells() + " cells)");
    }
  }

  private boolean workloadInRowSpace(Workload w) {
    if (w instanceof UnionWorkload u) {
      return u.members().stream().allMatch(this::workloadInRowSpace);
    }
    if (factors.size() == 1) {
      return factorInRowSpace(factors.get(0), w);
    }
    List<Workload> wf = w.kroneckerFactors();
    if (wf.size() == factors.size() && matchingShapes(wf)) {
      boolean allInside = true;
      for (int i = 0; i < wf.size(); i++) {
        if (wf.get(i).frobeniusSquared() == 0) {
          return true; // the zero workload
        }
        allInside &= factorInRowSpace(factors.get(i), wf.get(i));
      }
      return allInside;
    }
    throw new IllegalArgumentException(
        "cannot check the row space of " + w + " against the rank-deficient Kronecker strategy "
            + strategy.name() + "; check its queries one by one");
  }

  private boolean matchingShapes(List<Workload> wf) {
    for (int i = 0; i < wf.size(); i++) {
      if (wf.get(i).cells() != factors.get(i).n) {
        return false;
      }
    }
    return true;
  }

  /** {@code trace(U G_W Uᵀ) ≤ tol² trace(G_W)} for the null basis {@code U} of the factor. */
  private static boolean factorInRowSpace(FactorInverse f, Workload w) {
    if (f.fullRank()) {
      return true;
    }
    if (!f.holdsNullBasis()) {
      return f.squaredResidual(w)
          <= ROW_SPACE_TOLERANCE * ROW_SPACE_TOLERANCE * w.frobeniusSquared();
    }
    double[][] u = f.nullBasis(); // (n−r) × n
    double[][] ut = org.dpsql.matrix.Matrices.transpose(u); // n × (n−r)
    double[][] gu = w.gramTimes(ut);
    double outside = 0;
    for (int k = 0; k < u.length; k++) {
      for (int j = 0; j < f.n; j++) {
        outside += u[k][j] * gu[j][k];
      }
    }
    return outside <= ROW_SPACE_TOLERANCE * ROW_SPACE_TOLERANCE * w.frobeniusSquared();
  }

  /**
   * {@code trace(W (ÂᵀÂ)⁺ Wᵀ)}: the total variance of the workload answers per unit of noise
   * variance (seed 001 Prop. 4 without {@code ‖Â‖₂²}). Product form for Kronecker workloads on a
   * matching Kronecker strategy, sums for unions, query by query for a sparse workload with fewer
   * queries than cells, dense otherwise (up to 4096 cells). For the implicit all-range
   * Eigen-Design ({@link SineLattice}) and a workload of ranges, prefixes, cells or the total (or a
   * union of them) in closed form, {@code O(n)}, from the rounded scales on the exact DST-I (see
   * {@link SineLattice#gramInverseTimes}).
   */
  public double traceGramPinv(Workload w) {
    if (w.cells() != strategy.cells()) {
      throw new IllegalArgumentException(
          "workload over " + w.cells() + " cells, strategy over " + strategy.cells());
    }
    if (factors.size() == 1) {
      Double sine = sineTrace(factors.get(0), w);
      if (sine != null) {
        return sine;
      }
    }
    if (w instanceof UnionWorkload u) {
      double t = 0;
      for (Workload m : u.members()) {
        t += traceGramPinv(m);
      }
      return t;
    }
    List<Workload> wf = w.kroneckerFactors();
    if (factors.size() > 1 && wf.size() == factors.size() && matchingShapes(wf)) {
      double t = 1;
      for (int i = 0; i < wf.size(); i++) {
        Double sine = sineTrace(factors.get(i), wf.get(i));
        t *= sine != null ? sine
            : denseTrace(wf.get(i), factors.get(i).n, factors.get(i)::gramPinvTimes);
      }
      return t;
    }
    if (w instanceof org.dpsql.matrix.SparseWorkload s && s.queries() < w.cells()) {
      // query by query: Σᵢ wᵢ G⁺ wᵢᵀ, O(m) products instead of n
      double t = 0;
      double[] row = new double[w.cells()];
      for (int i = 0; i < s.queries(); i++) {
        int[] cells = s.row(i);
        for (int c : cells) {
          row[c] = 1;
        }
        t += quadraticForm(row);
        for (int c : cells) {
          row[c] = 0;
        }
      }
      return t;
    }
    return denseTrace(w, strategy.cells(), this::gramPinvTimes);
  }

  /**
   * For the implicit all-range Eigen-Design factor and a workload of ranges, prefixes, cells or the
   * total over it: {@code Σ_k g_k / w_k²} from the DST-I Gram diagonal, {@code O(n)}; else null.
   */
  private static Double sineTrace(FactorInverse f, Workload w) {
    if (f.a.sine() == null) {
      return null;
    }
    double[] g = org.dpsql.matrix.design.TransformDesign.sineGramDiagonal(w);
    if (g == null) {
      return null;
    }
    double[] d = f.a.sine().inverseSquaredWeights();
    double t = 0;
    for (int k = 0; k < g.length; k++) {
      t += g[k] * d[k];
    }
    return t;
  }

  private static double denseTrace(Workload w, int n, UnaryOperator<double[]> gramPinv) {
    if (n > 4096) {
      throw new IllegalArgumentException("too many cells for a dense trace: " + n);
    }
    double[][] x = new double[n][n]; // column j = G⁺ e_j
    double[] e = new double[n];
    for (int j = 0; j < n; j++) {
      e[j] = 1;
      double[] c = gramPinv.apply(e);
      e[j] = 0;
      for (int i = 0; i < n; i++) {
        x[i][j] = c[i];
      }
    }
    double[][] m = w.gramTimes(x); // (WᵀW) G⁺
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += m[i][i];
    }
    return t;
  }

  private double[] perMode(
      double[] v, int[] dims, java.util.function.Function<FactorInverse, UnaryOperator<double[]>> op) {
    double[] t = v;
    for (int f = 0; f < factors.size(); f++) {
      FactorInverse fi = factors.get(f);
      t = ModeProduct.apply(t, dims, f, fi.n, op.apply(fi));
      dims[f] = fi.n;
    }
    return t;
  }

  private void requireCells(double[] v) {
    if (v.length != strategy.cells()) {
      throw new IllegalArgumentException("expected " + strategy.cells() + " cells, got " + v.length);
    }
  }

  @Override
  public String toString() {
    return "LeastSquares[" + strategy + ", rank " + rank() + "]";
  }
}
