package org.dpsql.matrix.design;

import org.dpsql.matrix.Strategy;

/**
 * The Eigen-Design strategy of all ranges over {@code n} cells (or the best re-weighting of its
 * eigen-queries for another workload, {@link TransformDesign#forWorkload}) held in closed form: {@code A =
 * diag(√u) Q} with {@code Q} the orthonormal DST-I basis {@code Q_kj = √(2/(n+1)) sin(π kj/(n+1))}
 * that diagonalises the all-range Gram ({@link EigenBasis#allRanges}), and weights {@code u} from
 * Program 1 ({@link TransformDesign}). Nothing {@code n × n} is held: {@code O(n)} memory;
 * {@link #times}, {@link #reconstruct} and the column norms are fast transforms ({@link
 * SineTransform}, {@code O(n log n)}).
 *
 * <p>Exact error: {@code Q} is square and orthogonal, so {@code AᵀA = Qᵀ diag(u) Q} is invertible
 * with {@code (AᵀA)⁻¹ = Qᵀ diag(1/u) Q}, and with {@code WᵀW = Qᵀ diag(σ) Q} the total squared error
 * at unit noise is {@code ‖A‖₂² trace(WᵀW (AᵀA)⁻¹) = maxⱼ (Mu)ⱼ · Σₖ σₖ/uₖ}, where {@code (Mu)ⱼ =
 * Σₖ uₖ Q_kj²} is the squared norm of column {@code j}; the singular value bound is {@code svdb =
 * (Σₖ √σₖ)²/n} (seed 001, Thm. 2). There is no column completion (its exact error would need a
 * solve of the order of the completed cells), so the error is Program 1's optimum over re-weighted
 * eigen-queries, a few per cent above svdb. Immutable.
 */
public final class TransformStrategy implements Strategy {
  private final int n;
  private final String workload;
  private final double[] weights;
  private final double[] eigenvalues;
  private final double[] columnNorms;
  private final double totalSquaredError;
  private final double svdb;

  TransformStrategy(String workload, double[] weights, double[] eigenvalues, double svdb) {
    this.n = weights.length;
    this.workload = workload;
    this.weights = weights.clone();
    this.eigenvalues = eigenvalues.clone();
    this.columnNorms = TransformDesign.squaredColumnNorms(weights);
    double max = 0;
    for (double c : columnNorms) {
      max = Math.max(max, c);
    }
    double s = 0;
    for (int k = 0; k < n; k++) {
      s += eigenvalues[k] / weights[k];
    }
    this.totalSquaredError = max * s;
    this.svdb = svdb;
  }

  /**
   * {@code trace(WᵀW (AᵀA)⁻¹) = Σ_k g_k/u_k} for a workload whose DST-I Gram diagonal {@code g}
   * is known ({@link TransformDesign#sineGramDiagonal}); NaN for any other.
   */
  public double traceGramInverse(org.dpsql.matrix.Workload w) {
    double[] g = w.cells() == n ? TransformDesign.sineGramDiagonal(w) : null;
    if (g == null) {
      return Double.NaN;
    }
    double s = 0;
    for (int k = 0; k < n; k++) {
      s += g[k] / weights[k];
    }
    return s;
  }

  /** The Program-1 weights {@code uₖ} (a copy), eigen-query {@code k+1} at index {@code k}. */
  public double[] weights() {
    return weights.clone();
  }

  /** {@code ‖A‖₂² trace(WᵀW (AᵀA)⁻¹)}, exact from the eigenvalues (see the class comment). */
  public double totalSquaredError() {
    return totalSquaredError;
  }

  /** The singular value bound {@code (Σ √λₖ)²/n} of the designed workload ({@code λ} its eigenvalues). */
  public double svdb() {
    return svdb;
  }

  /** {@code totalSquaredError / svdb ≥ 1}. */
  public double errorRatio() {
    return totalSquaredError / svdb;
  }

  /** {@code A x = √u ∘ Q x}, by one DST-I. */
  public double[] times(double[] x) {
    requireLength(x.length);
    double[] y = SineTransform.dstI(x);
    double c = Math.sqrt(2.0 / (n + 1));
    for (int k = 0; k < n; k++) {
      y[k] *= c * Math.sqrt(weights[k]);
    }
    return y;
  }

  /**
   * The least-squares estimate {@code x̂ = A⁻¹ y = Qᵀ (y / √u)} (A is square and invertible; {@code
   * Q} is symmetric and orthogonal), by one DST-I.
   */
  public double[] reconstruct(double[] y) {
    requireLength(y.length);
    double[] z = new double[n];
    for (int k = 0; k < n; k++) {
      z[k] = y[k] / Math.sqrt(weights[k]);
    }
    double[] x = SineTransform.dstI(z);
    double c = Math.sqrt(2.0 / (n + 1));
    for (int j = 0; j < n; j++) {
      x[j] *= c;
    }
    return x;
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long rows() {
    return n;
  }

  /**
   * The explicit {@code n × n} matrix (for checks at small {@code n}).
   *
   * @throws IllegalStateException above {@link org.dpsql.matrix.Workload#MAX_DENSE_CELLS} cells
   */
  @Override
  public double[][] matrix() {
    if (n > org.dpsql.matrix.Workload.MAX_DENSE_CELLS) {
      throw new IllegalStateException(n + " cells are too many for an explicit strategy matrix");
    }
    double[][] a = new double[n][];
    EigenBasis q = EigenBasis.allRanges(n);
    for (int k = 0; k < n; k++) {
      double[] row = q.eigenQuery(k);
      double s = Math.sqrt(weights[k]);
      for (int j = 0; j < n; j++) {
        row[j] *= s;
      }
      a[k] = row;
    }
    return a;
  }

  @Override
  public double[] columnNormsSquared() {
    return columnNorms.clone();
  }

  /** The L1 norm of every column, by direct sums: {@code O(n²)} time, {@code O(n)} memory. */
  @Override
  public double[] columnNormsL1() {
    double[] out = new double[n];
    double c = Math.sqrt(2.0 / (n + 1));
    long period = 2L * (n + 1);
    double[] sin = new double[(int) period];
    for (int t = 0; t < period; t++) {
      sin[t] = Math.abs(Math.sin(Math.PI * t / (n + 1)));
    }
    double[] root = new double[n];
    for (int k = 0; k < n; k++) {
      root[k] = Math.sqrt(weights[k]);
    }
    java.util.stream.IntStream.range(0, n).parallel().forEach(j -> {
      double s = 0;
      long jj = j + 1;
      for (int k = 0; k < n; k++) {
        s += root[k] * sin[(int) (((k + 1) * jj) % period)];
      }
      out[j] = c * s;
    });
    return out;
  }

  /** Whether {@code strategyName} is the {@link #name()} of a transform strategy. */
  public static boolean named(String strategyName) {
    return strategyName != null && strategyName.startsWith("EigenDesign-transform(");
  }

  @Override
  public String name() {
    return "EigenDesign-transform(" + workload + ")";
  }

  private void requireLength(int len) {
    if (len != n) {
      throw new IllegalArgumentException("expected " + n + " values, got " + len);
    }
  }
}
