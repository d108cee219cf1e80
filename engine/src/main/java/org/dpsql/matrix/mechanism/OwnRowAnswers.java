package org.dpsql.matrix.mechanism;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.dpsql.matrix.SparseRows;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;

/**
 * Answers a query that is a multiple of measured strategy rows by those rows' own noisy
 * measurements, with no least-squares solve: the answer path of the workload's own rows ({@link
 * org.dpsql.matrix.DirectStrategy}) when they are too ill-conditioned for conjugate gradients.
 *
 * <p>For a query {@code q} let {@code J(q)} be the measured rows {@code a_j = μ_j q} parallel to it
 * ({@code μ_j ≠ 0}, same support, same ratios; found by hashing each row normalised by its first
 * non-zero, in {@code O(nnz)} once). Its answer is {@code q̂ = Σ_{j∈J} μ_j y_j / Σ_{j∈J} μ_j²} —
 * the least-squares estimate of {@code qx} from those rows alone. Guarantees, for i.i.d. noise of
 * variance {@code v} per measured row (the lattice noise of {@link MatrixMechanism}):
 *
 * <ul>
 *   <li>unbiased: {@code E[y_j] = a_j x = μ_j qx}, so {@code E[q̂] = qx};
 *   <li>variance exactly {@code v / Σ_{j∈J} μ_j²} ({@link #unitVariance}); for a workload measured
 *       as {@code A = CW} (row {@code k} is query {@code k} times its integer weight {@code c_k}) and
 *       no two parallel queries, query {@code k} is answered by {@code y_k / c_k} with variance
 *       exactly {@code v / c_k²}, and the workload's total by {@code v Σ_k 1/c_k²} ({@link
 *       #totalUnitVariance}); with parallel (e.g. repeated) queries their rows are pooled, which
 *       only lowers it;
 *   <li>the noise of {@code q̂} is a linear combination {@code Σ λ_j Z_j} with {@code Σ λ_j² =
 *       1/Σ μ_j²}, so a {@code σ²}-subgaussian noise per row gives a {@code σ²/Σ μ_j²}-subgaussian
 *       error;
 *   <li>a query parallel to no measured row is refused ({@link IllegalArgumentException}): it is
 *       not answered from this measurement (it would need a solve, or be biased), so it is measured
 *       anew;
 *   <li>answers of different queries are each unbiased but not mutually consistent (a query that is
 *       the sum of two others is not answered as their sum), and there are no cell estimates.
 * </ul>
 *
 * Privacy: answering is post-processing of the released measurement {@code y}; it reads no data
 * and costs nothing. Memory: a copy of the strategy's {@code O(nnz)} rows and an {@code O(m)}
 * index; built in {@code O(nnz)} expected time. Immutable and thread-safe.
 */
public final class OwnRowAnswers {
  private final LatticeStrategy strategy;
  private final int[] starts;
  private final int[] cols;
  private final long[] nums;
  private final double scale;
  /** Per class of parallel rows: its members, as compressed lists over {@link #members}. */
  private final int[] classStarts;
  private final int[] members;
  /** Per class: {@code Σ_j a_j[first]²} in real units. */
  private final double[] firstSquares;
  /** Hash of a normalised row → the classes with that hash (usually one). */
  private final Map<Long, int[]> byHash;
  /** Per class: its first measured row, to which a query is compared. */
  private final int[] representatives;

  private OwnRowAnswers(LatticeStrategy strategy) {
    if (strategy.factors().size() != 1 || strategy.factors().get(0).sine() != null) {
      throw new IllegalArgumentException("own-row answers need one stored strategy factor: "
          + strategy.name());
    }
    this.strategy = strategy;
    LatticeMatrix a = strategy.factors().get(0);
    this.starts = a.rowStarts();
    this.cols = a.columnIndices();
    this.nums = a.numerators();
    this.scale = Math.scalb(1.0, -a.bits());
    int m = a.rows();
    int[] classOf = new int[m];
    int[] representative = new int[m];
    int classes = 0;
    Map<Long, int[]> hashes = new HashMap<>();
    for (int i = 0; i < m; i++) {
      int len = starts[i + 1] - starts[i];
      if (len == 0) {
        classOf[i] = -1; // an all-zero row measures nothing
        continue;
      }
      long h = hash(cols, starts[i], len, t -> nums[t]);
      int[] known = hashes.get(h);
      int found = -1;
      if (known != null) {
        for (int c : known) {
          if (parallelRows(representative[c], i)) {
            found = c;
            break;
          }
        }
      }
      if (found < 0) {
        found = classes++;
        representative[found] = i;
        int[] grown = known == null ? new int[1] : Arrays.copyOf(known, known.length + 1);
        grown[grown.length - 1] = found;
        hashes.put(h, grown);
      }
      classOf[i] = found;
    }
    int[] counts = new int[classes + 1];
    for (int c : classOf) {
      if (c >= 0) {
        counts[c + 1]++;
      }
    }
    for (int c = 0; c < classes; c++) {
      counts[c + 1] += counts[c];
    }
    this.classStarts = counts.clone();
    this.members = new int[counts[classes]];
    this.firstSquares = new double[classes];
    int[] fill = Arrays.copyOf(counts, classes);
    for (int i = 0; i < m; i++) {
      int c = classOf[i];
      if (c >= 0) {
        members[fill[c]++] = i;
        double f = nums[starts[i]] * scale;
        firstSquares[c] += f * f;
      }
    }
    this.byHash = hashes;
    this.representatives = Arrays.copyOf(representative, classes);
  }

  /** The answers of the rows of {@code strategy} (one stored factor, e.g. the workload's rows). */
  public static OwnRowAnswers of(LatticeStrategy strategy) {
    return new OwnRowAnswers(strategy);
  }

  /** The strategy whose measurements answer. */
  public LatticeStrategy strategy() {
    return strategy;
  }

  /** The number of classes of parallel measured rows (distinct queries answered). */
  public int distinctRows() {
    return representatives.length;
  }

  private interface Value {
    double at(int t);
  }

  /** A hash of the support and of the values divided by the first, stored at {@code [from, +len)}. */
  private static long hash(int[] support, int from, int len, Value value) {
    double first = value.at(from);
    long h = len;
    for (int t = from; t < from + len; t++) {
      h = h * 0x9E3779B97F4A7C15L + support[t];
      h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(value.at(t) / first + 0.0);
    }
    return h ^ (h >>> 29);
  }

  /** Whether measured rows {@code i} and {@code k} are multiples of each other. */
  private boolean parallelRows(int i, int k) {
    int len = starts[i + 1] - starts[i];
    if (len != starts[k + 1] - starts[k]) {
      return false;
    }
    double fi = nums[starts[i]];
    double fk = nums[starts[k]];
    for (int t = 0; t < len; t++) {
      int a = starts[i] + t;
      int b = starts[k] + t;
      if (cols[a] != cols[b] || nums[a] / fi + 0.0 != nums[b] / fk + 0.0) {
        return false;
      }
    }
    return true;
  }

  /** The class of measured rows parallel to the query {@code (support, values)}, or −1. */
  private int classOf(int[] support, double[] values) {
    return classOf(support, t -> values[t]);
  }

  /** The same, with the query's values given by position in its support. */
  private int classOf(int[] support, Value values) {
    if (support.length == 0) {
      return -1;
    }
    long h = hash(support, 0, support.length, values);
    int[] known = byHash.get(h);
    if (known == null) {
      return -1;
    }
    double first = values.at(0);
    for (int c : known) {
      int r = representatives[c];
      if (starts[r + 1] - starts[r] != support.length) {
        continue;
      }
      double fr = nums[starts[r]];
      boolean same = true;
      for (int t = 0; t < support.length && same; t++) {
        int a = starts[r] + t;
        same = cols[a] == support[t] && nums[a] / fr + 0.0 == values.at(t) / first + 0.0;
      }
      if (same) {
        return c;
      }
    }
    return -1;
  }

  /** A dense query as its support and non-zero values. */
  private static Object[] sparse(double[] w) {
    int nnz = 0;
    for (double v : w) {
      if (v != 0) {
        nnz++;
      }
    }
    int[] s = new int[nnz];
    double[] v = new double[nnz];
    int k = 0;
    for (int j = 0; j < w.length; j++) {
      if (w[j] != 0) {
        s[k] = j;
        v[k++] = w[j];
      }
    }
    return new Object[] {s, v};
  }

  private int classOfDense(double[] w) {
    if (w.length != strategy.cells()) {
      throw new IllegalArgumentException("expected " + strategy.cells() + " cells, got "
          + w.length);
    }
    Object[] sv = sparse(w);
    return classOf((int[]) sv[0], (double[]) sv[1]);
  }

  /** Whether {@code w} is a (non-zero) multiple of measured rows, hence answered here. */
  public boolean covers(double[] w) {
    return classOfDense(w) >= 0;
  }

  /** Whether every query of {@code w} is a multiple of measured rows. */
  public boolean covers(Workload w) {
    if (w.cells() != strategy.cells()) {
      return false;
    }
    Rows rows = Rows.of(w);
    if (rows == null) {
      return false;
    }
    for (int i = 0; i < rows.count(); i++) {
      if (rows.classIn(this, i) < 0) {
        return false;
      }
    }
    return true;
  }

  private int require(int c, String what) {
    if (c < 0) {
      throw new IllegalArgumentException(what + " is not one of the measured queries of "
          + strategy.name() + " (nor a multiple of one): a release answered by its own "
          + "measurements answers only those, without least squares; it is measured anew");
    }
    return c;
  }

  /** {@code q[first] · Σ_j a_j[first] y_j / Σ_j a_j[first]²} over the class {@code c}. */
  private double answer(int c, double first, double[] y) {
    double s = 0;
    for (int t = classStarts[c]; t < classStarts[c + 1]; t++) {
      int j = members[t];
      s += nums[starts[j]] * scale * y[j];
    }
    return first * s / firstSquares[c];
  }

  private void requireMeasurement(double[] y) {
    if (y.length != strategy.rows()) {
      throw new IllegalArgumentException("expected " + strategy.rows() + " measured values, got "
          + y.length);
    }
  }

  /**
   * The answer of {@code w} from the measured values {@code y}.
   *
   * @throws IllegalArgumentException if {@code w} is parallel to no measured row
   */
  public double answer(double[] w, double[] y) {
    requireMeasurement(y);
    Object[] sv = sparse(w);
    double[] v = (double[]) sv[1];
    int c = require(classOfDense(w), "the query");
    return answer(c, v[0], y);
  }

  /**
   * The answers of every query of {@code w}, in its row order, from the measured values {@code y}.
   *
   * @throws IllegalArgumentException if a query is parallel to no measured row
   */
  public double[] answers(Workload w, double[] y) {
    requireMeasurement(y);
    Rows rows = requireRows(w);
    double[] out = new double[rows.count()];
    for (int i = 0; i < out.length; i++) {
      int c = require(rows.classIn(this, i), "query " + i + " of " + w);
      out[i] = answer(c, rows.first(i), y);
    }
    return out;
  }

  /**
   * {@code Var[ŵ] / v = w[first]² / Σ_j a_j[first]²}: the variance of the answer of {@code w} per
   * unit of noise variance per measured row.
   *
   * @throws IllegalArgumentException if {@code w} is parallel to no measured row
   */
  public double unitVariance(double[] w) {
    Object[] sv = sparse(w);
    double[] v = (double[]) sv[1];
    int c = require(classOfDense(w), "the query");
    return v[0] * v[0] / firstSquares[c];
  }

  /**
   * {@code Σ_k Var[ŵ_k] / v} over the queries of {@code w}: the exact total variance of its
   * answers per unit of noise variance per measured row.
   *
   * @throws IllegalArgumentException if a query is parallel to no measured row
   */
  public double totalUnitVariance(Workload w) {
    Rows rows = requireRows(w);
    double t = 0;
    for (int i = 0; i < rows.count(); i++) {
      int c = require(rows.classIn(this, i), "query " + i + " of " + w);
      double f = rows.first(i);
      t += f * f / firstSquares[c];
    }
    return t;
  }

  private Rows requireRows(Workload w) {
    if (w.cells() != strategy.cells()) {
      throw new IllegalArgumentException("workload over " + w.cells() + " cells, strategy over "
          + strategy.cells());
    }
    Rows rows = Rows.of(w);
    if (rows == null) {
      throw new IllegalArgumentException("cannot list the queries of " + w + " one by one");
    }
    return rows;
  }

  /**
   * A workload's queries as sparse rows: a predicate workload's cell lists as they are (values 1),
   * else its integer rows, else its explicit rows.
   */
  private record Rows(int[] starts, int[] support, double[] values, SparseWorkload predicates) {
    /** The most non-zeros listed. */
    static final long MAX_NON_ZEROS = 100_000_000L;

    static Rows of(Workload w) {
      if (w instanceof SparseWorkload p) {
        return new Rows(null, null, null, p);
      }
      SparseRows r = SparseRows.of(w, MAX_NON_ZEROS);
      if (r != null) {
        long[] e = r.entries();
        double[] v = new double[e.length];
        for (int k = 0; k < e.length; k++) {
          v[k] = e[k];
        }
        return new Rows(r.rowStarts(), r.columnIndices(), v, null);
      }
      if (w.queries() * (double) w.cells() > Workload.MAX_EXPLICIT_ENTRIES) {
        return null;
      }
      double[][] m = w.matrix();
      int[] s = new int[m.length + 1];
      java.util.List<Integer> c = new java.util.ArrayList<>();
      java.util.List<Double> v = new java.util.ArrayList<>();
      for (int i = 0; i < m.length; i++) {
        s[i] = c.size();
        for (int j = 0; j < m[i].length; j++) {
          if (m[i][j] != 0) {
            c.add(j);
            v.add(m[i][j]);
          }
        }
      }
      s[m.length] = c.size();
      return new Rows(s, c.stream().mapToInt(Integer::intValue).toArray(),
          v.stream().mapToDouble(Double::doubleValue).toArray(), null);
    }

    int count() {
      return predicates != null ? (int) predicates.queries() : starts.length - 1;
    }

    /** The class of {@code own}'s measured rows parallel to query {@code i}, or −1. */
    int classIn(OwnRowAnswers own, int i) {
      if (predicates != null) {
        return own.classOf(predicates.row(i), t -> 1.0);
      }
      int from = starts[i];
      return own.classOf(Arrays.copyOfRange(support, from, starts[i + 1]),
          t -> values[from + t]);
    }

    /** The first non-zero value of query {@code i} (of a query with one). */
    double first(int i) {
      return predicates != null ? 1.0 : values[starts[i]];
    }
  }
}
