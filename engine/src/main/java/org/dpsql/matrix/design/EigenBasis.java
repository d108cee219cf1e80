package org.dpsql.matrix.design;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.PermutedWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * Eigenpairs {@code (σᵢ, qᵢ)} of a workload Gram {@code WᵀW = Σ σᵢ qᵢᵀ qᵢ}, eigenvalues in
 * descending order, eigen-queries {@code qᵢ} orthonormal rows over the cells (seed 001, Def. 6).
 * A basis holds either all {@code n} pairs ({@link #isComplete()}) or only the pairs spanning the
 * row space of {@code W} (the others have eigenvalue 0).
 *
 * <p>Closed forms avoid the {@code O(n³)} eigensolve: the all-range Gram is {@code (n+1)·T⁻¹} for
 * {@code T = tridiag(−1, 2, −1)}, with DST-I eigenvectors {@code √(2/(n+1)) sin(π k j/(n+1))} and
 * eigenvalues {@code (n+1)/(2 − 2cos(πk/(n+1)))}; the prefix Gram is the inverse of {@code T} with
 * {@code T₁₁ = 1}, with eigenvectors {@code √(4/(2n+1)) cos((2k−1)(2j−1)π/(2(2n+1)))} and eigenvalues
 * {@code 1/(2 − 2cos((2k−1)π/(2n+1)))} (both verified numerically in the tests). Permuted workloads
 * permute the eigen-queries; unions of Kronecker products and short explicit workloads are
 * decomposed from a factor {@code WᵀW = F Fᵀ} with few columns. Immutable.
 */
public abstract class EigenBasis {

  /** Relative threshold below which eigenvalues count as zero (seed 001 spec, P6). */
  public static final double DEFAULT_TOLERANCE = 1e-10;

  EigenBasis() {}

  /** {@code n}: the number of cells. */
  public abstract int cells();

  /** The number of eigenpairs held. */
  public abstract int size();

  /** Eigenvalue {@code i} (descending in {@code i}). */
  public abstract double eigenvalue(int i);

  /** Eigen-query {@code i}: a fresh unit row vector over the cells. */
  public abstract double[] eigenQuery(int i);

  /** A short description of how the basis was obtained, e.g. {@code sine(2048)}. */
  public abstract String kind();

  /** Whether the held eigen-queries form a complete orthonormal basis of {@code ℝⁿ}. */
  public boolean isComplete() {
    return size() == cells();
  }

  /** All held eigenvalues, descending (a copy). */
  public double[] eigenvalues() {
    double[] v = new double[size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = eigenvalue(i);
    }
    return v;
  }

  /** Eigen-queries {@code from ≤ i < to} as rows (fresh arrays). */
  public double[][] eigenQueries(int from, int to) {
    checkRange(from, to);
    double[][] q = new double[to - from][];
    for (int i = from; i < to; i++) {
      q[i - from] = eigenQuery(i);
    }
    return q;
  }

  /** The Program-1 design of the squared eigen-queries {@code from ≤ i < to}. */
  public SquaredDesign squares(int from, int to) {
    return DenseSquaredDesign.ofQueries(eigenQueries(from, to));
  }

  /** The number of eigenvalues above {@code relTol · σ_max}. */
  public int rank(double relTol) {
    double max = size() == 0 ? 0 : eigenvalue(0);
    int r = 0;
    while (r < size() && eigenvalue(r) > relTol * max && eigenvalue(r) > 0) {
      r++;
    }
    return r;
  }

  /**
   * The singular value bound {@code svdb = (1/n)(Σ √σᵢ)²} (seed 001, Thm. 2) over the eigenvalues
   * above {@code relTol · σ_max}; smaller ones are exactly zero (P6).
   */
  public double svdb(double relTol) {
    int r = rank(relTol);
    double s = 0;
    for (int i = 0; i < r; i++) {
      s += Math.sqrt(eigenvalue(i));
    }
    return s * s / cells();
  }

  /** This basis with its cells permuted: cell {@code j} becomes base cell {@code perm[j]}. */
  public EigenBasis permuted(int[] perm) {
    if (perm.length != cells()) {
      throw new IllegalArgumentException("permutation length " + perm.length + " ≠ " + cells());
    }
    return new Permuted(this, perm.clone());
  }

  void checkRange(int from, int to) {
    if (from < 0 || to > size() || from > to) {
      throw new IllegalArgumentException("bad eigenpair range [" + from + ", " + to + ") of " + size());
    }
  }

  // ------------------------------------------------------------------ factories

  /** The closed-form (DST-I) eigenbasis of all ranges over {@code n} cells. */
  public static EigenBasis allRanges(int n) {
    return new Sine(n);
  }

  /** The closed-form cosine eigenbasis of the {@code n} prefix (CDF) queries. */
  public static EigenBasis prefix(int n) {
    return new Prefix(n);
  }

  /**
   * The basis with the given eigenpairs ({@code rows[i]} the eigen-query of {@code values[i]}),
   * sorted descending. Rows are used as given (they must be orthonormal; checked to {@code 1e-8} for
   * up to 512 rows).
   */
  public static EigenBasis explicit(double[] values, double[][] rows, String kind) {
    if (values.length != rows.length || rows.length == 0) {
      throw new IllegalArgumentException("need one non-empty row per eigenvalue");
    }
    int n = rows[0].length;
    Integer[] order = new Integer[values.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      if (rows[i].length != n) {
        throw new IllegalArgumentException("eigen-query " + i + " has " + rows[i].length + " cells, not " + n);
      }
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -values[i]));
    double[] v = new double[values.length];
    double[][] q = new double[values.length][];
    for (int r = 0; r < order.length; r++) {
      v[r] = values[order[r]];
      q[r] = rows[order[r]].clone();
    }
    if (q.length <= 512) {
      for (int a = 0; a < q.length; a++) {
        for (int b = 0; b <= a; b++) {
          double d = Dense.dot(q[a], q[b], n) - (a == b ? 1 : 0);
          if (Math.abs(d) > 1e-8) {
            throw new IllegalArgumentException("eigen-queries are not orthonormal (" + a + ", " + b + ")");
          }
        }
      }
    }
    return new Explicit(v, q, kind);
  }

  /** Like {@link #explicit} for rows known to be orthonormal and values known to be descending. */
  static EigenBasis trusted(double[] values, double[][] rows, String kind) {
    return new Explicit(values, rows, kind);
  }

  /** The eigenbasis of a dense symmetric Gram matrix (ojAlgo solver). */
  public static EigenBasis ofGram(double[][] gram) {
    SymmetricEigen e = SymmetricEigen.of(gram);
    return new Explicit(e.valuesUnsafe(), e.vectorsUnsafe(), "dense(" + gram.length + ")");
  }

  /**
   * The non-zero eigenpairs of {@code F Fᵀ} where the rows of {@code factorColumns} are the columns
   * of {@code F}; cheaper than {@link #ofGram} when {@code F} has fewer columns than rows.
   */
  public static EigenBasis ofFactor(double[][] factorColumns) {
    SymmetricEigen e = SymmetricEigen.ofFactor(factorColumns, DEFAULT_TOLERANCE);
    return new Explicit(
        e.valuesUnsafe(), e.vectorsUnsafe(), "factored(" + factorColumns.length + " columns)");
  }

  /**
   * The eigenbasis of a workload's Gram, by its structure: closed forms for all ranges and prefixes,
   * trivial ones for identity and total, permutation of the base basis for a {@link
   * PermutedWorkload}, Kronecker products of the factors' bases, a low-rank factor for unions of
   * Kronecker products and explicit workloads with fewer rows than cells (when that factor has
   * fewer columns than cells), and the dense solver otherwise.
   */
  public static EigenBasis of(Workload w) {
    if (w instanceof AllRangesWorkload) {
      return allRanges(w.cells());
    }
    if (w instanceof PrefixWorkload) {
      return prefix(w.cells());
    }
    if (w instanceof PermutedWorkload p) {
      return of(p.base()).permuted(p.permutation());
    }
    if (w instanceof IdentityWorkload) {
      int n = w.cells();
      double[] v = new double[n];
      Arrays.fill(v, 1);
      return new Explicit(v, org.dpsql.matrix.Matrices.identity(n), "identity(" + n + ")");
    }
    if (w instanceof TotalWorkload) {
      int n = w.cells();
      double[] q = new double[n];
      Arrays.fill(q, 1 / Math.sqrt(n));
      return new Explicit(new double[] {n}, new double[][] {q}, "total(" + n + ")");
    }
    if (w instanceof KroneckerWorkload k && k.kroneckerFactors().size() > 1) {
      return kronecker(k.kroneckerFactors().stream().map(EigenBasis::of).toList());
    }
    double[][] f = lowRankFactor(w);
    if (f != null) {
      return ofFactor(f);
    }
    return ofGram(w.gram());
  }

  /** The product basis {@code ⊗ₐ Bₐ}: eigenvalues multiply, eigen-queries are Kronecker products. */
  public static EigenBasis kronecker(List<EigenBasis> factors) {
    long n = 1;
    long size = 1;
    for (EigenBasis b : factors) {
      n *= b.cells();
      size *= b.size();
    }
    if (n * size > 200_000_000L) {
      throw new IllegalStateException(
          "the product basis has " + size + " eigen-queries over " + n + " cells; design per factor instead");
    }
    double[][] vals = factors.stream().map(EigenBasis::eigenvalues).toArray(double[][]::new);
    double[][][] rows =
        factors.stream().map(b -> b.eigenQueries(0, b.size())).toArray(double[][][]::new);
    int total = (int) size;
    double[] v = new double[total];
    double[][] q = new double[total][];
    int[] idx = new int[factors.size()];
    for (int t = 0; t < total; t++) {
      double val = 1;
      List<double[]> parts = new ArrayList<>();
      for (int a = 0; a < idx.length; a++) {
        val *= vals[a][idx[a]];
        parts.add(rows[a][idx[a]]);
      }
      v[t] = val;
      q[t] = Matrices.kroneckerOfVectors(parts);
      for (int a = idx.length - 1; a >= 0; a--) {
        if (++idx[a] < vals[a].length) {
          break;
        }
        idx[a] = 0;
      }
    }
    StringBuilder kind = new StringBuilder("kronecker(");
    for (int a = 0; a < factors.size(); a++) {
      kind.append(a == 0 ? "" : " ⊗ ").append(factors.get(a).kind());
    }
    Integer[] order = new Integer[total];
    for (int i = 0; i < total; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -v[i]));
    double[] sv = new double[total];
    double[][] sq = new double[total][];
    for (int r = 0; r < total; r++) {
      sv[r] = v[order[r]];
      sq[r] = q[order[r]];
    }
    return new Explicit(sv, sq, kind.append(')').toString());
  }

  /** The most entries of an explicit or sparse workload's rows used as a low-rank factor. */
  static final double LOW_RANK_ENTRIES = 2e7;

  /**
   * Columns of a factor {@code F} with {@code WᵀW = F Fᵀ} and fewer columns than cells, or {@code
   * null}: the rows of a short explicit or sparse workload, or for a union of Kronecker products the scaled
   * Kronecker products of the members' factor eigenpairs.
   */
  static double[][] lowRankFactor(Workload w) {
    int n = w.cells();
    if ((w instanceof ExplicitWorkload || w instanceof org.dpsql.matrix.SparseWorkload)
        && w.queries() < n && w.queries() * (double) n <= LOW_RANK_ENTRIES) {
      return w.matrix();
    }
    if (w instanceof UnionWorkload u) {
      List<List<EigenBasis>> members = new ArrayList<>();
      long columns = 0;
      for (Workload m : u.members()) {
        List<EigenBasis> fb = new ArrayList<>();
        long r = 1;
        for (Workload f : m.kroneckerFactors()) {
          if (f.cells() > 4096) {
            return null;
          }
          EigenBasis b = of(f);
          fb.add(b);
          r *= b.rank(DEFAULT_TOLERANCE);
        }
        columns += r;
        if (columns >= n) {
          return null;
        }
        members.add(fb);
      }
      double[][] out = new double[(int) columns][];
      int c = 0;
      for (List<EigenBasis> fb : members) {
        int[] ranks = fb.stream().mapToInt(b -> b.rank(DEFAULT_TOLERANCE)).toArray();
        int[] idx = new int[fb.size()];
        long count = 1;
        for (int r : ranks) {
          count *= r;
        }
        for (long t = 0; t < count; t++) {
          List<double[]> parts = new ArrayList<>();
          for (int a = 0; a < idx.length; a++) {
            double[] q = fb.get(a).eigenQuery(idx[a]);
            double s = Math.sqrt(fb.get(a).eigenvalue(idx[a]));
            for (int j = 0; j < q.length; j++) {
              q[j] *= s;
            }
            parts.add(q);
          }
          out[c++] = Matrices.kroneckerOfVectors(parts);
          for (int a = idx.length - 1; a >= 0; a--) {
            if (++idx[a] < ranks[a]) {
              break;
            }
            idx[a] = 0;
          }
        }
      }
      return out;
    }
    return null;
  }

  // ------------------------------------------------------------------ implementations

  private static final class Explicit extends EigenBasis {
    private final double[] values;
    private final double[][] rows;
    private final String kind;

    Explicit(double[] values, double[][] rows, String kind) {
      this.values = values;
      this.rows = rows;
      this.kind = kind;
    }

    @Override
    public int cells() {
      return rows[0].length;
    }

    @Override
    public int size() {
      return values.length;
    }

    @Override
    public double eigenvalue(int i) {
      return values[i];
    }

    @Override
    public double[] eigenQuery(int i) {
      return rows[i].clone();
    }

    @Override
    public String kind() {
      return kind;
    }
  }

  /** A complete closed-form basis of {@code n} eigen-queries over {@code n} cells. */
  private abstract static class ClosedForm extends EigenBasis {
    final int n;

    ClosedForm(int n) {
      this.n = Matrices.requireCells(n);
    }

    @Override
    public int cells() {
      return n;
    }

    @Override
    public int size() {
      return n;
    }

    /** The 1-based frequencies {@code k} of the eigen-queries {@code from..to-1}. */
    int[] frequencies(int from, int to) {
      checkRange(from, to);
      int[] d = new int[to - from];
      for (int i = from; i < to; i++) {
        d[i - from] = i + 1;
      }
      return d;
    }
  }

  private static final class Sine extends ClosedForm {
    Sine(int n) {
      super(n);
    }

    @Override
    public double eigenvalue(int i) {
      int k = i + 1;
      double s = Math.sin(Math.PI * k / (2.0 * (n + 1)));
      return (n + 1) / (4 * s * s); // = (n+1)/(2 − 2cos(πk/(n+1)))
    }

    @Override
    public double[] eigenQuery(int i) {
      int k = i + 1;
      double c = Math.sqrt(2.0 / (n + 1));
      double[] q = new double[n];
      for (int j = 1; j <= n; j++) {
        q[j - 1] = c * Math.sin(Math.PI * (((long) k * j) % (2L * (n + 1))) / (n + 1));
      }
      return q;
    }

    @Override
    public SquaredDesign squares(int from, int to) {
      return CosineSquaredDesign.sine(n, frequencies(from, to));
    }

    @Override
    public String kind() {
      return "sine(" + n + ")";
    }
  }

  private static final class Prefix extends ClosedForm {
    Prefix(int n) {
      super(n);
    }

    @Override
    public double eigenvalue(int i) {
      int k = i + 1;
      double s = Math.sin((2 * k - 1) * Math.PI / (2.0 * (2 * n + 1)));
      return 1 / (4 * s * s); // = 1/(2 − 2cos((2k−1)π/(2n+1)))
    }

    @Override
    public double[] eigenQuery(int i) {
      int k = i + 1;
      double c = Math.sqrt(4.0 / (2 * n + 1));
      long period = 4L * (2 * n + 1);
      double[] q = new double[n];
      for (int j = 1; j <= n; j++) {
        long m = ((long) (2 * k - 1) * (2 * j - 1)) % period;
        q[j - 1] = c * Math.cos(Math.PI * m / (2.0 * (2 * n + 1)));
      }
      return q;
    }

    @Override
    public SquaredDesign squares(int from, int to) {
      return CosineSquaredDesign.prefix(n, frequencies(from, to));
    }

    @Override
    public String kind() {
      return "prefix-cosine(" + n + ")";
    }
  }

  private static final class Permuted extends EigenBasis {
    private final EigenBasis base;
    private final int[] perm;

    Permuted(EigenBasis base, int[] perm) {
      this.base = base;
      this.perm = perm;
    }

    @Override
    public int cells() {
      return perm.length;
    }

    @Override
    public int size() {
      return base.size();
    }

    @Override
    public double eigenvalue(int i) {
      return base.eigenvalue(i);
    }

    @Override
    public double[] eigenQuery(int i) {
      double[] q = base.eigenQuery(i);
      double[] out = new double[q.length];
      for (int j = 0; j < q.length; j++) {
        out[j] = q[perm[j]];
      }
      return out;
    }

    @Override
    public SquaredDesign squares(int from, int to) {
      return new PermutedSquaredDesign(base.squares(from, to), perm);
    }

    @Override
    public String kind() {
      return "permuted " + base.kind();
    }
  }
}
