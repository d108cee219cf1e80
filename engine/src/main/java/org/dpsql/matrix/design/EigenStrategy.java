package org.dpsql.matrix.design;

import java.util.Arrays;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.LUDecomposition;
import org.apache.commons.math3.linear.RealMatrix;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * A strategy produced by Eigen-Design (seed 001, Program 2): weighted eigen-queries {@code A' =
 * diag(√u) Q} stacked over the column completion {@code D'} (§2.2 step 4), so that
 *
 * <pre>  AᵀA = Qᵀ diag(u) Q + u_R (I − QᵀQ) + D'²</pre>
 *
 * where the middle term is present only for a principal-vectors design over a complete, full-rank
 * eigenbasis whose remaining eigen-queries share the weight {@code u_R} and are kept implicit (they
 * span the orthogonal complement of the rows of {@code Q}). Every column of {@code A} has squared
 * L2 norm equal to the largest one: the completion raises the others without changing the
 * sensitivity.
 *
 * <p>Its error on the workload it was designed for is computed at construction exactly, per spec
 * P7, as {@code ||A||₂² trace(Bᵀ (AᵀA)⁺ B)} with the clean factor {@code WᵀW = BBᵀ} of the kept
 * eigenpairs: by the Woodbury identity on the cells {@code S} the completion touches (and, for a
 * rank-deficient workload, the limit that confines the pseudo-inverse to the row space), so the only
 * matrix factored is of order {@code min(|S|, rank)} (or the number of principal vectors, for an
 * implicit complement). Immutable.
 */
public final class EigenStrategy implements Strategy {
  static {
    org.dpsql.support.QuietOjAlgo.ensure();
  }

  private final String name;
  private final int n;
  private final double[] eigenvalues; // σ of the individually held queries
  private final double[][] queries; // rows
  private final double[] weights; // u
  private final double complementWeight; // u_R, or 0
  private final double complementEigenvalueSum;
  private final double[] completion; // D'_j² per cell
  private final WeightingSolution certificate;
  private final double totalSquaredError;
  private final double svdb;
  private final double programOneObjective;

  EigenStrategy(
      String name,
      double[] eigenvalues,
      double[][] queries,
      double[] weights,
      double complementWeight,
      double complementEigenvalueSum,
      double[] completion,
      WeightingSolution certificate,
      double svdb,
      Workload workload) {
    this.name = name;
    this.n = completion.length;
    this.eigenvalues = eigenvalues;
    this.queries = queries;
    this.weights = weights;
    this.complementWeight = complementWeight;
    this.complementEigenvalueSum = complementEigenvalueSum;
    this.completion = completion;
    this.certificate = certificate;
    this.svdb = svdb;
    double obj = 0;
    for (int i = 0; i < weights.length; i++) {
      obj += eigenvalues[i] / weights[i];
    }
    if (complementWeight > 0) {
      obj += complementEigenvalueSum / complementWeight;
    }
    this.programOneObjective = obj * sensitivitySquared();
    this.totalSquaredError =
        sensitivitySquared() * (complementWeight > 0 ? complementTrace(workload) : explicitTrace());
  }

  // ------------------------------------------------------------------ accessors

  /** Eigenvalues {@code σᵢ} of the individually weighted eigen-queries, descending (a copy). */
  public double[] eigenvalues() {
    return eigenvalues.clone();
  }

  /** The individually weighted eigen-queries {@code qᵢ} as rows (a deep copy). */
  public double[][] eigenQueries() {
    return Matrices.copy(queries);
  }

  /** The Program-1 weights {@code uᵢ} (row {@code i} of {@code A'} is {@code √uᵢ qᵢ}), a copy. */
  public double[] weights() {
    return weights.clone();
  }

  /**
   * The common weight {@code u_R} of the implicit remaining eigen-queries of a principal-vectors
   * design, or 0 if every eigen-query is held explicitly.
   */
  public double complementWeight() {
    return complementWeight;
  }

  /** The completion diagonal {@code D'ⱼⱼ} for every cell (0 where the column was already tight). */
  public double[] completionDiagonal() {
    double[] d = new double[n];
    for (int j = 0; j < n; j++) {
      d[j] = Math.sqrt(completion[j]);
    }
    return d;
  }

  /** The certificate of the final Program 1 solve (weights, primal, dual, relative gap). */
  public WeightingSolution certificate() {
    return certificate;
  }

  /**
   * {@code ||A||₂² trace(WᵀW (AᵀA)⁺)} for the workload it was designed for: the total squared error
   * over all queries at unit noise scale (seed 001 Prop. 4 without the constant {@code P}).
   */
  public double totalSquaredError() {
    return totalSquaredError;
  }

  /** The Program 1 objective {@code ||A'||₂² Σ σᵢ/uᵢ}: the error before completion. */
  public double programOneObjective() {
    return programOneObjective;
  }

  /** The singular value bound {@code svdb(W)} of the workload it was designed for. */
  public double svdb() {
    return svdb;
  }

  /** {@code totalSquaredError / svdb ≥ 1}: the squared-error ratio to the lower bound. */
  public double errorRatio() {
    return totalSquaredError / svdb;
  }

  // ------------------------------------------------------------------ Strategy

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long rows() {
    long r = queries.length + (complementWeight > 0 ? n : 0);
    for (double d : completion) {
      if (d > 0) {
        r++;
      }
    }
    return r;
  }

  @Override
  public double[][] matrix() {
    double[][] a = new double[(int) rows()][];
    int r = 0;
    for (int i = 0; i < queries.length; i++) {
      double s = Math.sqrt(weights[i]);
      double[] row = new double[n];
      for (int j = 0; j < n; j++) {
        row[j] = s * queries[i][j];
      }
      a[r++] = row;
    }
    if (complementWeight > 0) {
      double[][] p = complementProjector();
      double s = Math.sqrt(complementWeight);
      for (double[] row : p) {
        for (int j = 0; j < n; j++) {
          row[j] *= s;
        }
        a[r++] = row;
      }
    }
    for (int j = 0; j < n; j++) {
      if (completion[j] > 0) {
        double[] row = new double[n];
        row[j] = Math.sqrt(completion[j]);
        a[r++] = row;
      }
    }
    return a;
  }

  @Override
  public double[][] gram() {
    double[][] x = new double[n][queries.length];
    for (int i = 0; i < queries.length; i++) {
      double s = Math.sqrt(weights[i]);
      for (int j = 0; j < n; j++) {
        x[j][i] = s * queries[i][j];
      }
    }
    double[][] g = Dense.gramOfRows(x);
    if (complementWeight > 0) {
      double[][] p = complementProjector();
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          g[a][b] += complementWeight * p[a][b];
        }
      }
    }
    for (int j = 0; j < n; j++) {
      g[j][j] += completion[j];
    }
    return g;
  }

  private double[][] complementProjector() {
    double[][] qt = Dense.transpose(queries);
    double[][] p = Dense.gramOfRows(qt);
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        p[a][b] = (a == b ? 1 : 0) - p[a][b];
      }
    }
    return p;
  }

  @Override
  public double[] columnNormsSquared() {
    double[] c = new double[n];
    double[] rest = new double[n];
    for (int i = 0; i < queries.length; i++) {
      double[] q = queries[i];
      for (int j = 0; j < n; j++) {
        c[j] += weights[i] * q[j] * q[j];
        rest[j] += q[j] * q[j];
      }
    }
    for (int j = 0; j < n; j++) {
      if (complementWeight > 0) {
        c[j] += complementWeight * Math.max(0, 1 - rest[j]);
      }
      c[j] += completion[j];
    }
    return c;
  }

  @Override
  public double[] columnNormsL1() {
    double[] c = new double[n];
    if (complementWeight > 0) {
      for (double[] row : matrix()) {
        for (int j = 0; j < n; j++) {
          c[j] += Math.abs(row[j]);
        }
      }
      return c;
    }
    for (int i = 0; i < queries.length; i++) {
      double s = Math.sqrt(weights[i]);
      double[] q = queries[i];
      for (int j = 0; j < n; j++) {
        c[j] += s * Math.abs(q[j]);
      }
    }
    for (int j = 0; j < n; j++) {
      c[j] += Math.sqrt(completion[j]);
    }
    return c;
  }

  private double sensitivitySquared() {
    return Dense.max(columnNormsSquared());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name + String.format(" [error %.6g, svdb %.6g, ratio %.6f]", totalSquaredError, svdb, errorRatio());
  }

  // ------------------------------------------------------------------ exact error

  /**
   * {@code trace(G X⁺)} with {@code G = Qᵀ diag(σ) Q} and {@code X = Qᵀ diag(u) Q + D²}. Writing
   * {@code S} for the cells with {@code D_j > 0}: {@code Σ σᵢ/uᵢ − trace((NᵀC N)⁻¹ Nᵀ B N)} with
   * {@code C = D_S⁻² + Q_Sᵀ U⁻¹ Q_S}, {@code B = Q_Sᵀ diag(σ/u²) Q_S}, and {@code N} a basis of the
   * vectors {@code z} with {@code Σ_S zⱼ eⱼ} in the row space of {@code Q} (all of {@code ℝ^S} when
   * {@code Q} is a complete basis).
   */
  private double explicitTrace() {
    double base = 0;
    for (int i = 0; i < weights.length; i++) {
      base += eigenvalues[i] / weights[i];
    }
    int[] s = support();
    if (s.length == 0) {
      return base;
    }
    int r = queries.length;
    int m = s.length;
    // rows = cells in S, columns = eigen-queries
    double[][] qs = new double[m][r];
    for (int i = 0; i < r; i++) {
      double[] q = queries[i];
      for (int a = 0; a < m; a++) {
        qs[a][i] = q[s[a]];
      }
    }
    if (r < n && r < m) {
      // Low rank: N = Q_Sᵀ Y with Y the unit eigenvectors of R = Q_S Q_Sᵀ (r × r) for eigenvalue 1
      // (RY = Y), so NᵀCN = Yᵀ(Q_S D_S⁻² Q_Sᵀ + U⁻¹)Y and NᵀBN = Yᵀ diag(σ/u²) Y — all r × r.
      double[][] qsRows = Dense.transpose(qs); // r × m
      SymmetricEigen re = SymmetricEigen.of(Dense.gramOfRows(qsRows));
      int keep = 0;
      while (keep < re.size() && re.valuesUnsafe()[keep] > 1 - 1e-8) {
        keep++;
      }
      if (keep == 0) {
        return base;
      }
      double[][] y = Arrays.copyOf(re.vectorsUnsafe(), keep); // keep × r (rows)
      double[] invD = new double[m];
      for (int a = 0; a < m; a++) {
        invD[a] = 1 / completion[s[a]];
      }
      double[][] t = scaledGram(qsRows, invD); // r × r
      double[] bDiag = new double[r];
      for (int i = 0; i < r; i++) {
        t[i][i] += 1 / weights[i];
        bDiag[i] = eigenvalues[i] / (weights[i] * weights[i]);
      }
      double[][] bm = new double[r][r];
      for (int i = 0; i < r; i++) {
        bm[i][i] = bDiag[i];
      }
      return base - traceOfSolve(congruence(y, t), congruence(y, bm));
    }
    double[][] c = scaledGram(qs, inv(weights));
    double[] b2 = new double[r];
    for (int i = 0; i < r; i++) {
      b2[i] = eigenvalues[i] / (weights[i] * weights[i]);
    }
    double[][] b = scaledGram(qs, b2);
    for (int a = 0; a < m; a++) {
      c[a][a] += 1 / completion[s[a]];
    }
    if (r < n) {
      // N: the unit eigenvectors of P = Q_Sᵀ Q_S (m × m, m ≤ r here) with eigenvalue 1
      SymmetricEigen pe = SymmetricEigen.of(scaledGram(qs, ones(r)));
      int keep = 0;
      while (keep < pe.size() && pe.valuesUnsafe()[keep] > 1 - 1e-8) {
        keep++;
      }
      double[][] nb = Arrays.copyOf(pe.vectorsUnsafe(), keep); // keep × m (rows)
      if (nb.length == 0) {
        return base;
      }
      c = congruence(nb, c);
      b = congruence(nb, b);
    }
    return base - traceOfSolve(c, b);
  }

  /**
   * {@code trace(G X⁻¹)} for {@code X = Y + Qᵀ Δ Q}, {@code Y = diag(u_R + D²)}, {@code Δ = diag(u −
   * u_R)} (complete full-rank basis, implicit remaining queries): {@code trace(G Y⁻¹) − trace(Δ (I +
   * KΔ)⁻¹ H)} with {@code K = Q Y⁻¹ Qᵀ}, {@code H = Zᵀ G Z}, {@code Z = Y⁻¹ Qᵀ}, using the workload's
   * fast Gram product.
   */
  private double complementTrace(Workload w) {
    if (w == null || w.cells() != n) {
      throw new IllegalArgumentException("the workload is needed to evaluate an implicit complement");
    }
    int p = queries.length;
    double[] y = new double[n];
    for (int j = 0; j < n; j++) {
      y[j] = complementWeight + completion[j];
    }
    double[] gd = w.gramDiagonal();
    double t0 = 0;
    for (int j = 0; j < n; j++) {
      t0 += gd[j] / y[j];
    }
    double[][] zt = new double[p][n]; // Zᵀ = Q Y⁻¹
    double[][] yq = new double[p][n]; // Q Y^{-1/2}
    for (int i = 0; i < p; i++) {
      for (int j = 0; j < n; j++) {
        zt[i][j] = queries[i][j] / y[j];
        yq[i][j] = queries[i][j] / Math.sqrt(y[j]);
      }
    }
    double[][] gzt = Dense.transpose(w.gramTimes(Dense.transpose(zt))); // (G Z)ᵀ, p × n
    double[][] h = Dense.crossOfRows(zt, gzt); // Zᵀ G Z
    double[][] k = Dense.gramOfRows(yq); // Q Y⁻¹ Qᵀ
    double[] delta = new double[p];
    boolean nonNegative = true;
    for (int i = 0; i < p; i++) {
      delta[i] = weights[i] - complementWeight;
      nonNegative &= delta[i] >= 0;
    }
    if (nonNegative) {
      // Δ(I + KΔ)⁻¹ = Δ^{1/2}(I + Δ^{1/2} K Δ^{1/2})⁻¹Δ^{1/2}: symmetric positive definite
      double[] rd = new double[p];
      for (int i = 0; i < p; i++) {
        rd[i] = Math.sqrt(delta[i]);
      }
      double[][] a = new double[p][p];
      double[][] b = new double[p][p];
      for (int i = 0; i < p; i++) {
        for (int j = 0; j < p; j++) {
          a[i][j] = (i == j ? 1 : 0) + rd[i] * k[i][j] * rd[j];
          b[i][j] = rd[i] * h[i][j] * rd[j];
        }
      }
      return t0 - traceOfSolve(a, b);
    }
    double[][] ikd = new double[p][p];
    for (int a = 0; a < p; a++) {
      for (int b = 0; b < p; b++) {
        ikd[a][b] = (a == b ? 1 : 0) + k[a][b] * delta[b];
      }
    }
    RealMatrix sol =
        new LUDecomposition(new Array2DRowRealMatrix(ikd, false)).getSolver().solve(new Array2DRowRealMatrix(h, false));
    double t1 = 0;
    for (int i = 0; i < p; i++) {
      t1 += delta[i] * sol.getEntry(i, i);
    }
    return t0 - t1;
  }

  private int[] support() {
    int count = 0;
    for (double d : completion) {
      if (d > 0) {
        count++;
      }
    }
    int[] s = new int[count];
    int t = 0;
    for (int j = 0; j < n; j++) {
      if (completion[j] > 0) {
        s[t++] = j;
      }
    }
    return s;
  }

  /** {@code X diag(d) Xᵀ} for the rows of {@code x}. */
  private static double[][] scaledGram(double[][] x, double[] d) {
    double[][] y = new double[x.length][];
    double[] rd = new double[d.length];
    for (int i = 0; i < d.length; i++) {
      rd[i] = Math.sqrt(d[i]);
    }
    for (int a = 0; a < x.length; a++) {
      double[] row = new double[d.length];
      for (int i = 0; i < d.length; i++) {
        row[i] = x[a][i] * rd[i];
      }
      y[a] = row;
    }
    return Dense.gramOfRows(y);
  }

  /** {@code N C Nᵀ} for the rows {@code N} ({@code q × m}) and symmetric {@code C} ({@code m × m}). */
  private static double[][] congruence(double[][] nrows, double[][] c) {
    int q = nrows.length;
    int m = c.length;
    double[][] nc = new double[q][m];
    for (int a = 0; a < q; a++) {
      for (int t = 0; t < m; t++) {
        double v = nrows[a][t];
        if (v == 0) {
          continue;
        }
        double[] ct = c[t];
        double[] out = nc[a];
        for (int b = 0; b < m; b++) {
          out[b] += v * ct[b];
        }
      }
    }
    double[][] r = new double[q][q];
    for (int a = 0; a < q; a++) {
      for (int b = 0; b <= a; b++) {
        r[a][b] = Dense.dot(nc[a], nrows[b], m);
        r[b][a] = r[a][b];
      }
    }
    return r;
  }

  /** {@code trace(C⁻¹ B)} for symmetric positive definite {@code C}. */
  private static double traceOfSolve(double[][] c, double[][] b) {
    Dense.Spd spd = new Dense.Spd(Matrices.copy(c));
    // column a of C⁻¹B (B symmetric) contributes its entry a; columns are independent
    return java.util.stream.IntStream.range(0, b.length).parallel().mapToDouble(a -> spd.solve(b[a])[a]).sum();
  }

  private static double[] inv(double[] v) {
    double[] o = new double[v.length];
    for (int i = 0; i < v.length; i++) {
      o[i] = 1 / v[i];
    }
    return o;
  }

  private static double[] ones(int r) {
    double[] o = new double[r];
    Arrays.fill(o, 1);
    return o;
  }
}
