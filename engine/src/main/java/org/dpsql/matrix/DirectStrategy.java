package org.dpsql.matrix;

/**
 * The workload's own queries as the strategy, held sparsely: {@code A = C W} with a diagonal of
 * positive integer weights {@code C}, one weight per group of queries (a group: the queries of one
 * union member with one squared norm), rows in the workload's own order. Every entry is an
 * integer, so the lattice strategy is {@code A} itself (no rounding) and its sensitivities are
 * exact column maxima computed from the non-zeros: {@code ‖A‖₂² = max_j Σ_k A_kj²}, {@code ‖A‖₁ =
 * max_j Σ_k |A_kj|}. Memory {@code O(m + nnz)}: nothing {@code m × m} or {@code n × n}.
 *
 * <p>Error (the guarantee {@code WorkloadCalibration} scores by): with i.i.d. noise of variance
 * {@code v} per measurement, query {@code k} is estimated without bias by its own measurement
 * divided by its weight {@code c_k}, variance {@code v/c_k²}; the least-squares answer {@code w_k
 * Â⁺y} is the best linear unbiased estimator (Gauss–Markov, for every estimable query, also when
 * {@code A} is rank deficient), so its variance is at most that. Hence the expected total squared
 * error of the workload at unit-sensitivity noise is at most {@code ‖A‖² ·} {@link #errorSum()}
 * {@code = ‖A‖² Σ_k 1/c_k²}, with equality when the rows of {@code A} are linearly independent
 * (then each least-squares answer is its own measurement). For the plain rows the bound is {@code
 * ‖W‖² m}; the exact value is {@code ‖W‖² rank(W)}.
 *
 * <p>Weights: the plain rows ({@code C = I}), and {@code c_g² ∝ √(m_g/s_g)} under L2 noise or
 * {@code c_g³ ∝ m_g/s_g} under L1 noise for group {@code g} of {@code m_g} queries whose largest
 * column norm (squared, resp. L1) is {@code s_g} — the minimisers of {@code (Σ c_g² s_g)(Σ
 * m_g/c_g²)} and {@code (Σ c_g s_g)² (Σ m_g/c_g²)}, optimal when every column meets each group
 * equally (marginals: a 1-way marginal over hours × kinds is 2,880 hour queries and 3 kind
 * queries) — rounded to integers of at least 7 bits; {@link #forWorkload} keeps whichever has the
 * lower bound, computed exactly for the rounded weights. Immutable and thread-safe.
 */
public final class DirectStrategy implements Strategy {
  /** The smallest weight of re-weighted groups (7 significant bits for their ratios). */
  static final long WEIGHT_SCALE = 64;

  /** The most groups re-weighted; beyond, only the plain rows are offered. */
  static final int MAX_GROUPS = 256;

  private final String name;
  private final SparseRows rows;
  private final double errorSum;

  private DirectStrategy(String name, SparseRows rows, double errorSum) {
    this.name = name;
    this.rows = rows;
    this.errorSum = errorSum;
  }

  /**
   * The workload's rows, plain and (when its queries fall into 2 to {@value #MAX_GROUPS} groups)
   * re-weighted per group, whichever has the lower bound for {@code l1} (pure DP) or L2 noise;
   * {@code null} when its rows are not all integers or have more than {@code maxNonZeros}
   * non-zeros.
   */
  public static DirectStrategy forWorkload(Workload w, boolean l1, long maxNonZeros) {
    SparseRows plain = SparseRows.of(w, maxNonZeros);
    if (plain == null) {
      return null;
    }
    DirectStrategy direct = new DirectStrategy("Direct(" + w + ")", plain, plain.rows());
    int[] group = groups(w, plain);
    int count = 0;
    for (int g : group) {
      count = Math.max(count, g + 1);
    }
    if (count < 2 || count > MAX_GROUPS) {
      return direct;
    }
    long[] c = weights(plain, group, count, l1);
    if (c == null) {
      return direct;
    }
    DirectStrategy weighted = weighted(w, plain, group, c);
    double a = l1 ? direct.totalL1Bound() : direct.totalL2Bound();
    double b = l1 ? weighted.totalL1Bound() : weighted.totalL2Bound();
    return b < a ? weighted : direct;
  }

  /**
   * The rows of {@code plain} (the workload {@code w}'s) with row {@code k} multiplied by {@code
   * weights[group[k]]}.
   *
   * @throws IllegalArgumentException if a weight is not positive
   */
  static DirectStrategy weighted(Workload w, SparseRows plain, int[] group, long[] weights) {
    long[] perRow = new long[plain.rows()];
    double sum = 0;
    for (int k = 0; k < perRow.length; k++) {
      long c = weights[group[k]];
      if (c <= 0) {
        throw new IllegalArgumentException("weights must be positive: " + c);
      }
      perRow[k] = c;
      sum += 1 / ((double) c * c);
    }
    return new DirectStrategy("WeightedDirect(" + w + ", " + weights.length + " groups"
        + (weights.length <= 8 ? ", weights " + java.util.Arrays.toString(weights) : "") + ")",
        plain.scaleRows(perRow), sum);
  }

  /** Group of each row: its union member and its squared norm, numbered in order of appearance. */
  static int[] groups(Workload w, SparseRows plain) {
    int[] member = new int[plain.rows()];
    int r = 0;
    int i = 0;
    for (Workload m : SparseRows.unionMembers(w)) {
      for (long q = 0; q < m.queries(); q++) {
        member[r++] = i;
      }
      i++;
    }
    int[] starts = plain.rowStarts();
    long[] vals = plain.entries();
    java.util.Map<java.util.List<Long>, Integer> ids = new java.util.HashMap<>();
    int[] group = new int[member.length];
    for (int k = 0; k < member.length; k++) {
      long sq = 0;
      for (int t = starts[k]; t < starts[k + 1]; t++) {
        sq = Math.addExact(sq, Math.multiplyExact(vals[t], vals[t]));
      }
      group[k] = ids.computeIfAbsent(java.util.List.of((long) member[k], sq), key -> ids.size());
    }
    return group;
  }

  /** The rounded heuristic weights of the groups, smallest {@link #WEIGHT_SCALE}, or null. */
  private static long[] weights(SparseRows plain, int[] group, int count, boolean l1) {
    long[] m = new long[count];
    for (int g : group) {
      m[g]++;
    }
    // s_g: the largest column norm within each group (one pass per group over its rows)
    int[] starts = plain.rowStarts();
    int[] cols = plain.columnIndices();
    long[] vals = plain.entries();
    int[][] rowsOf = new int[count][];
    int[] fill = new int[count];
    for (int g = 0; g < count; g++) {
      rowsOf[g] = new int[(int) m[g]];
    }
    for (int k = 0; k < group.length; k++) {
      rowsOf[group[k]][fill[group[k]]++] = k;
    }
    long[] column = new long[plain.cols()];
    double[] real = new double[count];
    double min = Double.POSITIVE_INFINITY;
    for (int g = 0; g < count; g++) {
      long s = 0;
      for (int k : rowsOf[g]) {
        for (int t = starts[k]; t < starts[k + 1]; t++) {
          long v = l1 ? Math.abs(vals[t]) : Math.multiplyExact(vals[t], vals[t]);
          column[cols[t]] = Math.addExact(column[cols[t]], v);
          s = Math.max(s, column[cols[t]]);
        }
      }
      for (int k : rowsOf[g]) {
        for (int t = starts[k]; t < starts[k + 1]; t++) {
          column[cols[t]] = 0;
        }
      }
      if (s == 0) {
        return null; // an all-zero query
      }
      real[g] = l1 ? Math.cbrt(m[g] / (double) s) : Math.sqrt(Math.sqrt(m[g] / (double) s));
      min = Math.min(min, real[g]);
    }
    long[] c = new long[count];
    long gcd = 0;
    for (int g = 0; g < count; g++) {
      double r = real[g] / min * WEIGHT_SCALE;
      if (!(r < 0x1p24)) {
        return null; // ratios too large for exact small integers
      }
      c[g] = Math.round(r);
      gcd = java.math.BigInteger.valueOf(gcd).gcd(java.math.BigInteger.valueOf(c[g])).longValue();
    }
    for (int g = 0; g < count; g++) {
      c[g] /= gcd;
    }
    return c;
  }

  /** Whether the rows are re-weighted (else they are the workload's plain rows). */
  public boolean reweighted() {
    return name.startsWith("WeightedDirect(");
  }

  /** The integer rows {@code A} (weights applied). */
  public SparseRows sparseRows() {
    return rows;
  }

  /**
   * {@code Σ_k 1/c_k²}: the workload's total variance per unit of measurement variance, an upper
   * bound for the least-squares answers (exact when the rows are linearly independent).
   */
  public double errorSum() {
    return errorSum;
  }

  /** Exact {@code max_j Σ_k A_kj²}. */
  public long maxColumnSumOfSquares() {
    long max = 0;
    for (long v : rows.columnSumsOfSquares()) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** Exact {@code max_j Σ_k |A_kj|}. */
  public long maxColumnAbsSum() {
    long max = 0;
    for (long v : rows.columnAbsSums()) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** {@code ‖A‖₂² · Σ mᵢ/cᵢ²}: bound on the total squared error at unit L2 noise scale. */
  public double totalL2Bound() {
    return maxColumnSumOfSquares() * errorSum();
  }

  /** {@code ‖A‖₁² · Σ mᵢ/cᵢ²}: bound on the total squared error at unit L1 noise scale. */
  public double totalL1Bound() {
    double s1 = maxColumnAbsSum();
    return s1 * s1 * errorSum();
  }

  @Override
  public int cells() {
    return rows.cols();
  }

  @Override
  public long rows() {
    return rows.rows();
  }

  @Override
  public double[][] matrix() {
    return rows.toDense();
  }

  @Override
  public double[] columnNormsSquared() {
    long[] s = rows.columnSumsOfSquares();
    double[] d = new double[s.length];
    for (int j = 0; j < s.length; j++) {
      d[j] = s[j];
    }
    return d;
  }

  @Override
  public double[] columnNormsL1() {
    long[] s = rows.columnAbsSums();
    double[] d = new double[s.length];
    for (int j = 0; j < s.length; j++) {
      d[j] = s[j];
    }
    return d;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name + " [" + rows() + "x" + cells() + ", nnz " + rows.nonZeros() + "]";
  }
}
