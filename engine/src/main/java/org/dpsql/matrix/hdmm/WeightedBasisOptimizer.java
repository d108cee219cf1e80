package org.dpsql.matrix.hdmm;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;
import org.dpsql.support.QuietOjAlgo;
import org.ojalgo.matrix.decomposition.LU;
import org.ojalgo.matrix.store.MatrixStore;
import org.ojalgo.matrix.store.RawStore;

/**
 * The ε-DP variant of seed 001 (§3.5, spec §2.6): Program-1-style row weighting {@code A = ΛQ} of a
 * fixed design basis {@code Q} (wavelet, hierarchical, …) under L1 sensitivity, choosing {@code λ ≥
 * 0} to minimise {@code ||ΛQ||₁² · trace(WᵀW (QᵀΛ²Q)⁻¹)}. The paper gives no algorithm for this case
 * (it is convex for square {@code Q} but not an SOCP); here it is solved with the same {@link
 * BoundedLbfgs} as the p-Identity.
 *
 * <p><b>Smoothing.</b> The objective is scale-invariant but {@code ||ΛQ||₁ = maxⱼ sⱼ}, {@code sⱼ =
 * Σᵢ λᵢ|Qᵢⱼ|}, is not differentiable. It is replaced by the upper bound {@code N_q = (Σⱼ sⱼ^q)^{1/q}
 * ≥ maxⱼ sⱼ} (at most {@code n^{1/q}} times larger) with continuation {@code q = 4, 16, 64, 256,
 * 1024}, each stage warm-started from the previous one; the gradient is {@code ∂N_q/∂λᵢ = Σⱼ (sⱼ /
 * N_q)^{q−1} |Qᵢⱼ|}. The result is then normalised exactly to {@code maxⱼ sⱼ = 1} and scored with the
 * exact max, and the unweighted design ({@code λ = 1}, the starting point) is kept if it is better.
 *
 * <p><b>Trace.</b> For a square invertible {@code Q} (wavelet, identity), {@code trace(G (QᵀΛ²Q)⁻¹)
 * = Σᵢ cᵢ/λᵢ²} with {@code cᵢ = (Q⁻ᵀ G Q⁻¹)ᵢᵢ}, computed once; each evaluation is then {@code
 * O(nnz(Q))}. Otherwise (hierarchical: {@code 2n − 1} rows) the trace and its gradient {@code
 * ∂/∂λᵢ = −2λᵢ qᵢᵀ X⁻¹ G X⁻¹ qᵢ} ({@code X = QᵀΛ²Q}) are dense, {@code O(n³)} per evaluation, and
 * only done up to {@code maxDenseCells} cells.
 *
 * <p><b>Completion.</b> Optionally (the L1 analogue of Eigen-Design's step 4), rows {@code (1 −
 * sⱼ) eⱼᵀ} are appended for every column with {@code sⱼ < 1}: every column then has L1 norm exactly
 * 1, so {@code ||A||₁} is unchanged while {@code AᵀA} only grows, and the error cannot increase;
 * the completed strategy is evaluated densely (up to {@code maxCompletionCells}).
 *
 * <p>Deterministic; immutable and thread-safe.
 */
public final class WeightedBasisOptimizer {
  static {
    QuietOjAlgo.ensure();
  }

  private static final double[] CONTINUATION = {4, 16, 64, 256, 1024};

  private final BoundedLbfgs solver;
  private final int maxDenseCells;
  private final int maxCompletionCells;

  /**
   * @param solver the quasi-Newton solver used at every smoothing stage
   * @param maxDenseCells largest {@code n} for which a non-square design is optimised (dense {@code
   *     O(n³)} evaluations)
   * @param maxCompletionCells largest {@code n} for which the completion is computed ({@code 0}: never)
   */
  public WeightedBasisOptimizer(BoundedLbfgs solver, int maxDenseCells, int maxCompletionCells) {
    if (maxDenseCells < 0 || maxCompletionCells < 0) {
      throw new IllegalArgumentException("cell limits must be non-negative");
    }
    this.solver = solver;
    this.maxDenseCells = maxDenseCells;
    this.maxCompletionCells = maxCompletionCells;
  }

  /** At most 500 iterations per stage; dense designs up to 128 cells; completion up to 1024 cells. */
  public static WeightedBasisOptimizer defaults() {
    return new WeightedBasisOptimizer(new BoundedLbfgs(10, 500, 1e-9, 5, 0), 128, 1024);
  }

  /** Whether {@code design} can be weighted for a workload of its size with these limits. */
  public boolean supports(Strategy design) {
    return design.rows() == design.cells() || design.cells() <= maxDenseCells;
  }

  /**
   * The best weighting of {@code design}'s rows for {@code w} (completed if that helps), scored
   * with {@code ||A||₁² trace(WᵀW (AᵀA)⁻¹)}.
   *
   * @throws IllegalArgumentException if {@code design} is not full column rank, does not match the
   *     workload, or is non-square and larger than {@code maxDenseCells}
   */
  public ScoredStrategy optimize(Workload w, Strategy design) {
    if (w.cells() != design.cells()) {
      throw new IllegalArgumentException(
          "workload has " + w.cells() + " cells, design " + design.name() + " has " + design.cells());
    }
    if (!supports(design)) {
      throw new IllegalArgumentException(
          "non-square design " + design.name() + " over " + design.cells() + " cells exceeds the dense limit "
              + maxDenseCells);
    }
    double[][] q = design.matrix();
    int k = q.length;
    int n = w.cells();
    SparseRows rows = new SparseRows(q, n);
    Trace trace = k == n ? squareTrace(w, q) : null;
    if (trace == null) {
      trace = new DenseTrace(w, rows);
    }
    double[] lambda = new double[k];
    java.util.Arrays.fill(lambda, 1);
    double baseline = exactObjective(rows, trace, lambda);
    if (!Double.isFinite(baseline)) {
      throw new IllegalArgumentException("design " + design.name() + " does not support the workload");
    }
    double[] x = lambda.clone();
    for (double power : CONTINUATION) {
      Trace t = trace;
      BoundedLbfgs.Objective f = (l, g) -> smoothed(rows, t, power, l, g);
      x = solver.minimize(f, x).point();
    }
    double optimised = exactObjective(rows, trace, x);
    // the optimiser may drive weights to 0 until the trace is evaluated on a (nearly) singular
    // strategy, where the fast route returns garbage (a negative objective was seen on a partition
    // workload): optimised weights are kept only if an independent computation confirms them
    boolean better = Double.isFinite(optimised) && optimised >= 0 && optimised < baseline
        && confirmed(w, q, rows, x, optimised);
    double[] weights = better ? x : lambda;
    double objective = better ? optimised : baseline;
    double[] s = rows.columnL1(weights);
    double max = max(s);
    double[][] a = weighted(q, weights, max);
    String name = "Weighted(" + design.name() + ")";
    ScoredStrategy weighted = new ScoredStrategy(new ExplicitStrategy(name, dropZeroRows(a)), objective);
    if (n > maxCompletionCells) {
      return weighted;
    }
    List<double[]> completed = new ArrayList<>(List.of(dropZeroRows(a)));
    for (int j = 0; j < n; j++) {
      double gap = 1 - s[j] / max;
      if (gap > 1e-9) {
        double[] row = new double[n];
        row[j] = gap;
        completed.add(row);
      }
    }
    if (completed.size() == weighted.strategy().rows()) {
      return weighted;
    }
    Strategy c = new ExplicitStrategy("Completed" + name, completed.toArray(new double[0][]));
    double cObjective = ErrorAnalysis.totalSquaredErrorL1(w, c);
    return cObjective < objective ? new ScoredStrategy(c, cObjective) : weighted;
  }

  /**
   * Whether the weighted strategy's objective recomputed by {@link ErrorAnalysis} (its own
   * factorisation) agrees with {@code objective} to 1e-6, relative.
   */
  private static boolean confirmed(Workload w, double[][] q, SparseRows rows, double[] weights,
      double objective) {
    double max = max(rows.columnL1(weights));
    if (!(max > 0)) {
      return false;
    }
    double[][] a = weighted(q, weights, max);
    try {
      double check = ErrorAnalysis.totalSquaredErrorL1(w, new ExplicitStrategy("check",
          dropZeroRows(a)));
      return Double.isFinite(check) && check >= 0
          && Math.abs(check - objective) <= 1e-6 * Math.max(check, objective);
    } catch (RuntimeException e) {
      return false; // the strategy does not support the workload after all
    }
  }

  /** The design's rows scaled by their weights over {@code max}, the largest column L1 norm. */
  private static double[][] weighted(double[][] q, double[] weights, double max) {
    double[][] a = new double[q.length][];
    for (int i = 0; i < q.length; i++) {
      a[i] = q[i].clone();
      for (int j = 0; j < a[i].length; j++) {
        a[i][j] *= weights[i] / max;
      }
    }
    return a;
  }

  private static double max(double[] values) {
    double max = 0;
    for (double v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  private static double[][] dropZeroRows(double[][] a) {
    List<double[]> kept = new ArrayList<>();
    for (double[] row : a) {
      for (double v : row) {
        if (v != 0) {
          kept.add(row);
          break;
        }
      }
    }
    return kept.toArray(new double[0][]);
  }

  /** {@code (maxⱼ sⱼ)² · trace(G X⁻¹)} at {@code λ}. */
  private static double exactObjective(SparseRows rows, Trace trace, double[] lambda) {
    double max = max(rows.columnL1(lambda));
    double t = trace.value(lambda, null);
    return max * max * t;
  }

  /** {@code N_q(λ)² · trace(G X⁻¹)} and its gradient. */
  private static double smoothed(SparseRows rows, Trace trace, double q, double[] lambda, double[] grad) {
    double[] s = rows.columnL1(lambda);
    double max = max(s);
    if (!(max > 0)) {
      return Double.POSITIVE_INFINITY;
    }
    double sum = 0;
    for (double v : s) {
      sum += Math.pow(v / max, q);
    }
    double norm = max * Math.pow(sum, 1 / q);
    double[] tg = grad == null ? null : new double[lambda.length];
    double t = trace.value(lambda, tg);
    if (!Double.isFinite(t)) {
      return Double.POSITIVE_INFINITY;
    }
    if (grad != null) {
      double[] dn = new double[s.length];
      for (int j = 0; j < s.length; j++) {
        dn[j] = Math.pow(s[j] / norm, q - 1);
      }
      for (int i = 0; i < lambda.length; i++) {
        grad[i] = 2 * norm * t * rows.dotAbs(i, dn) + norm * norm * tg[i];
      }
    }
    return norm * norm * t;
  }

  /** {@code trace(G (QᵀΛ²Q)⁻¹)} and its gradient in {@code λ}. */
  private interface Trace {
    double value(double[] lambda, double[] grad);
  }

  /** Square {@code Q}: {@code Σ cᵢ/λᵢ²}; {@code null} if {@code Q} is singular. */
  private static Trace squareTrace(Workload w, double[][] q) {
    LU<Double> lu = LU.R064.make();
    RawStore qs = RawStore.wrap(q);
    if (!lu.decompose(qs) || !lu.isSolvable()) {
      return null;
    }
    MatrixStore<Double> inv = lu.getInverse();
    int n = q.length;
    double[][] v = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        v[i][j] = inv.doubleValue(i, j);
      }
    }
    double[][] gv = w.gramTimes(v);
    double[] c = new double[n];
    for (int i = 0; i < n; i++) {
      double t = 0;
      for (int r = 0; r < n; r++) {
        t += v[r][i] * gv[r][i];
      }
      c[i] = Math.max(0, t);
    }
    return (lambda, grad) -> {
      double t = 0;
      for (int i = 0; i < n; i++) {
        if (c[i] > 0) {
          if (!(lambda[i] > 0)) {
            return Double.POSITIVE_INFINITY;
          }
          t += c[i] / (lambda[i] * lambda[i]);
        }
        if (grad != null) {
          grad[i] = c[i] > 0 ? -2 * c[i] / (lambda[i] * lambda[i] * lambda[i]) : 0;
        }
      }
      return t;
    };
  }

  /** Non-square {@code Q}: dense Cholesky of {@code X = QᵀΛ²Q}. */
  private static final class DenseTrace implements Trace {
    private final Workload w;
    private final SparseRows rows;

    DenseTrace(Workload w, SparseRows rows) {
      this.w = w;
      this.rows = rows;
    }

    @Override
    public double value(double[] lambda, double[] grad) {
      int n = w.cells();
      double[][] x = new double[n][n];
      for (int i = 0; i < rows.count(); i++) {
        double l2 = lambda[i] * lambda[i];
        if (l2 == 0) {
          continue;
        }
        int[] idx = rows.index(i);
        double[] val = rows.values(i);
        for (int a = 0; a < idx.length; a++) {
          double va = l2 * val[a];
          double[] xa = x[idx[a]];
          for (int b = 0; b < idx.length; b++) {
            xa[idx[b]] += va * val[b];
          }
        }
      }
      double[][] xinv;
      try {
        xinv = SmallDense.inverseSpd(x);
      } catch (ArithmeticException singular) {
        return Double.POSITIVE_INFINITY;
      }
      double[][] y = w.gramTimes(xinv); // G X⁻¹
      double t = 0;
      for (int i = 0; i < n; i++) {
        t += y[i][i];
      }
      if (grad != null) {
        double[][] kmat = SmallDense.multiply(xinv, y); // X⁻¹ G X⁻¹
        for (int i = 0; i < rows.count(); i++) {
          int[] idx = rows.index(i);
          double[] val = rows.values(i);
          double quad = 0;
          for (int a = 0; a < idx.length; a++) {
            double[] ka = kmat[idx[a]];
            double inner = 0;
            for (int b = 0; b < idx.length; b++) {
              inner += ka[idx[b]] * val[b];
            }
            quad += val[a] * inner;
          }
          grad[i] = -2 * lambda[i] * quad;
        }
      }
      return t;
    }
  }

  /** The non-zeros of each design row. */
  private static final class SparseRows {
    private final int[][] index;
    private final double[][] values;
    private final int n;

    SparseRows(double[][] q, int n) {
      this.n = n;
      index = new int[q.length][];
      values = new double[q.length][];
      for (int i = 0; i < q.length; i++) {
        int nnz = 0;
        for (double v : q[i]) {
          if (v != 0) {
            nnz++;
          }
        }
        index[i] = new int[nnz];
        values[i] = new double[nnz];
        int c = 0;
        for (int j = 0; j < n; j++) {
          if (q[i][j] != 0) {
            index[i][c] = j;
            values[i][c++] = q[i][j];
          }
        }
      }
    }

    int count() {
      return index.length;
    }

    int[] index(int i) {
      return index[i];
    }

    double[] values(int i) {
      return values[i];
    }

    /** {@code sⱼ = Σᵢ λᵢ |Qᵢⱼ|}. */
    double[] columnL1(double[] lambda) {
      double[] s = new double[n];
      for (int i = 0; i < index.length; i++) {
        double l = lambda[i];
        if (l == 0) {
          continue;
        }
        for (int a = 0; a < index[i].length; a++) {
          s[index[i][a]] += l * Math.abs(values[i][a]);
        }
      }
      return s;
    }

    /** {@code Σⱼ |Qᵢⱼ| vⱼ}. */
    double dotAbs(int i, double[] v) {
      double t = 0;
      for (int a = 0; a < index[i].length; a++) {
        t += Math.abs(values[i][a]) * v[index[i][a]];
      }
      return t;
    }
  }

  @Override
  public String toString() {
    return "WeightedBasisOptimizer(" + solver + ", maxDenseCells=" + maxDenseCells
        + ", maxCompletionCells=" + maxCompletionCells + ")";
  }
}
