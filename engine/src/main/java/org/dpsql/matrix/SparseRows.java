package org.dpsql.matrix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The rows of an integer workload held by their non-zeros only (compressed sparse rows): row
 * {@code i} holds the integer entries {@code values[k]} at the columns {@code columns[k]} for
 * {@code starts[i] ≤ k < starts[i+1]}, columns increasing. Memory {@code O(m + nnz)}; nothing
 * {@code m × n} or {@code n × n} is formed.
 *
 * <p>Guarantee: {@link #of(Workload, long)} returns exactly the rows of {@link Workload#matrix()},
 * in its row order, whenever every entry is an integer (predicates, cells, totals, prefixes,
 * ranges, their Kronecker products, unions and column permutations, and explicit integer matrices
 * small enough to materialise); it returns {@code null} rather than an approximation otherwise.
 * Column statistics are exact ({@code long}). Immutable.
 */
public final class SparseRows {
  private final int cols;
  private final int[] starts;
  private final int[] columns;
  private final long[] values;

  private SparseRows(int cols, int[] starts, int[] columns, long[] values) {
    this.cols = cols;
    this.starts = starts;
    this.columns = columns;
    this.values = values;
  }

  /** {@code m}. */
  public int rows() {
    return starts.length - 1;
  }

  /** {@code n}. */
  public int cols() {
    return cols;
  }

  /** The number of stored (non-zero) entries. */
  public int nonZeros() {
    return columns.length;
  }

  /** The start of each row in {@link #columnIndices()}, plus the end (a copy). */
  public int[] rowStarts() {
    return starts.clone();
  }

  /** The column of each stored entry, row by row (a copy). */
  public int[] columnIndices() {
    return columns.clone();
  }

  /** The stored integer entries, row by row (a copy). */
  public long[] entries() {
    return values.clone();
  }

  /** Exact {@code Σ_k W_kj²} for every column {@code j}. */
  public long[] columnSumsOfSquares() {
    long[] s = new long[cols];
    for (int k = 0; k < values.length; k++) {
      s[columns[k]] = Math.addExact(s[columns[k]], Math.multiplyExact(values[k], values[k]));
    }
    return s;
  }

  /** Exact {@code Σ_k |W_kj|} for every column {@code j}. */
  public long[] columnAbsSums() {
    long[] s = new long[cols];
    for (int k = 0; k < values.length; k++) {
      s[columns[k]] = Math.addExact(s[columns[k]], Math.abs(values[k]));
    }
    return s;
  }

  /** These rows with row {@code k} multiplied by {@code c[k]}. */
  public SparseRows scaleRows(long[] c) {
    if (c.length != rows()) {
      throw new IllegalArgumentException(c.length + " scales for " + rows() + " rows");
    }
    long[] v = new long[values.length];
    for (int i = 0; i < rows(); i++) {
      for (int k = starts[i]; k < starts[i + 1]; k++) {
        v[k] = Math.multiplyExact(values[k], c[i]);
      }
    }
    return new SparseRows(cols, starts, columns, v);
  }

  /** The rows of {@code parts} stacked in order (all over the same columns). */
  public static SparseRows stack(List<SparseRows> parts) {
    int n = parts.get(0).cols;
    long m = 0;
    long nnz = 0;
    for (SparseRows p : parts) {
      if (p.cols != n) {
        throw new IllegalArgumentException("stacked rows need the same columns");
      }
      m += p.rows();
      nnz += p.nonZeros();
    }
    int[] starts = new int[Math.toIntExact(m + 1)];
    int[] columns = new int[Math.toIntExact(nnz)];
    long[] values = new long[columns.length];
    int r = 0;
    int k = 0;
    for (SparseRows p : parts) {
      for (int i = 0; i < p.rows(); i++) {
        starts[r++] = k + p.starts[i];
      }
      System.arraycopy(p.columns, 0, columns, k, p.nonZeros());
      System.arraycopy(p.values, 0, values, k, p.nonZeros());
      k += p.nonZeros();
    }
    starts[r] = k;
    return new SparseRows(n, starts, columns, values);
  }

  /** The members of a union, flattened (a non-union workload is its own single member). */
  public static List<Workload> unionMembers(Workload w) {
    List<Workload> out = new ArrayList<>();
    if (w instanceof UnionWorkload u) {
      for (Workload m : u.members()) {
        out.addAll(unionMembers(m));
      }
    } else {
      out.add(w);
    }
    return out;
  }

  /**
   * The rows of {@code w} when all its entries are integers and it has at most {@code
   * maxNonZeros} non-zeros, else {@code null}.
   */
  public static SparseRows of(Workload w, long maxNonZeros) {
    try {
      return build(w, maxNonZeros);
    } catch (TooLarge | ArithmeticException e) {
      return null;
    }
  }

  private static final class TooLarge extends RuntimeException {
    TooLarge() {
      super(null, null, false, false);
    }
  }

  private static void check(double nnz, long max) {
    if (nnz > max) {
      throw new TooLarge();
    }
  }

  private static SparseRows build(Workload w, long max) {
    int n = w.cells();
    if (w instanceof SparseWorkload s) {
      int m = (int) s.queries();
      int[][] rows = new int[m][];
      long nnz = 0;
      for (int i = 0; i < m; i++) {
        rows[i] = s.row(i);
        nnz += rows[i].length;
        check(nnz, max);
      }
      int[] starts = new int[m + 1];
      int[] columns = new int[(int) nnz];
      int k = 0;
      for (int i = 0; i < m; i++) {
        starts[i] = k;
        System.arraycopy(rows[i], 0, columns, k, rows[i].length);
        k += rows[i].length;
      }
      starts[m] = k;
      long[] values = new long[k];
      Arrays.fill(values, 1);
      return new SparseRows(n, starts, columns, values);
    }
    if (w instanceof IdentityWorkload) {
      check(n, max);
      int[] starts = new int[n + 1];
      int[] columns = new int[n];
      for (int i = 0; i < n; i++) {
        starts[i] = i;
        columns[i] = i;
      }
      starts[n] = n;
      long[] values = new long[n];
      Arrays.fill(values, 1);
      return new SparseRows(n, starts, columns, values);
    }
    if (w instanceof TotalWorkload) {
      check(n, max);
      int[] columns = new int[n];
      for (int j = 0; j < n; j++) {
        columns[j] = j;
      }
      long[] values = new long[n];
      Arrays.fill(values, 1);
      return new SparseRows(n, new int[] {0, n}, columns, values);
    }
    if (w instanceof PrefixWorkload) {
      check(n * (n + 1.0) / 2, max);
      return intervals(n, false);
    }
    if (w instanceof AllRangesWorkload) {
      check(n * (n + 1.0) * (n + 2.0) / 6, max);
      return intervals(n, true);
    }
    if (w instanceof UnionWorkload u) {
      List<SparseRows> parts = new ArrayList<>();
      long nnz = 0;
      for (Workload m : u.members()) {
        SparseRows p = build(m, max - nnz);
        nnz += p.nonZeros();
        parts.add(p);
      }
      return stack(parts);
    }
    if (w instanceof KroneckerWorkload kw) {
      List<SparseRows> fs = new ArrayList<>();
      double nnz = 1;
      for (Workload f : kw.kroneckerFactors()) {
        SparseRows p = build(f, max);
        nnz *= p.nonZeros();
        check(nnz, max);
        fs.add(p);
      }
      SparseRows out = fs.get(0);
      for (int i = 1; i < fs.size(); i++) {
        out = kronecker(out, fs.get(i));
      }
      return out;
    }
    if (w instanceof PermutedWorkload p) {
      SparseRows base = build(p.base(), max);
      int[] perm = p.permutation();
      int[] inverse = new int[perm.length];
      for (int i = 0; i < perm.length; i++) {
        inverse[perm[i]] = i; // column perm[i] of the base is column i here
      }
      return base.permuteColumns(inverse);
    }
    // any other family: its explicit rows, when small enough to materialise
    if (w.queries() * (double) n > Math.min(Workload.MAX_EXPLICIT_ENTRIES, 4.0 * max)) {
      throw new TooLarge();
    }
    double[][] a = w.matrix();
    List<Integer> cs = new ArrayList<>();
    List<Long> vs = new ArrayList<>();
    int[] starts = new int[a.length + 1];
    for (int i = 0; i < a.length; i++) {
      starts[i] = cs.size();
      for (int j = 0; j < n; j++) {
        double v = a[i][j];
        if (v != 0) {
          if (v != Math.rint(v) || Math.abs(v) > 0x1p40) {
            throw new TooLarge(); // not an integer matrix
          }
          cs.add(j);
          vs.add((long) v);
          check(cs.size(), max);
        }
      }
    }
    starts[a.length] = cs.size();
    return new SparseRows(n, starts, cs.stream().mapToInt(Integer::intValue).toArray(),
        vs.stream().mapToLong(Long::longValue).toArray());
  }

  /** Prefixes {@code [0, b]} (b = 0..n−1), or all ranges {@code [a, b]} in a-major order. */
  private static SparseRows intervals(int n, boolean ranges) {
    long m = ranges ? (long) n * (n + 1) / 2 : n;
    long nnz = ranges ? (long) n * (n + 1) * (n + 2) / 6 : (long) n * (n + 1) / 2;
    int[] starts = new int[Math.toIntExact(m + 1)];
    int[] columns = new int[Math.toIntExact(nnz)];
    int r = 0;
    int k = 0;
    for (int a = 0; a < (ranges ? n : 1); a++) {
      for (int b = a; b < n; b++) {
        starts[r++] = k;
        for (int j = a; j <= b; j++) {
          columns[k++] = j;
        }
      }
    }
    starts[r] = k;
    long[] values = new long[k];
    Arrays.fill(values, 1);
    return new SparseRows(n, starts, columns, values);
  }

  /** {@code a ⊗ b}: rows and columns in row-major order of the factors'. */
  private static SparseRows kronecker(SparseRows a, SparseRows b) {
    int n = Math.multiplyExact(a.cols, b.cols);
    int m = Math.multiplyExact(a.rows(), b.rows());
    int nnz = Math.multiplyExact(a.nonZeros(), b.nonZeros());
    int[] starts = new int[m + 1];
    int[] columns = new int[nnz];
    long[] values = new long[nnz];
    int r = 0;
    int k = 0;
    for (int i = 0; i < a.rows(); i++) {
      for (int j = 0; j < b.rows(); j++) {
        starts[r++] = k;
        for (int p = a.starts[i]; p < a.starts[i + 1]; p++) {
          for (int q = b.starts[j]; q < b.starts[j + 1]; q++) {
            columns[k] = a.columns[p] * b.cols + b.columns[q];
            values[k] = Math.multiplyExact(a.values[p], b.values[q]);
            k++;
          }
        }
      }
    }
    starts[r] = k;
    return new SparseRows(n, starts, columns, values);
  }

  /** These rows with column {@code j} moved to {@code target[j]} (entries re-sorted per row). */
  private SparseRows permuteColumns(int[] target) {
    int[] c = new int[columns.length];
    long[] v = new long[values.length];
    for (int i = 0; i < rows(); i++) {
      int from = starts[i];
      int len = starts[i + 1] - from;
      long[] packed = new long[len];
      for (int t = 0; t < len; t++) {
        packed[t] = ((long) target[columns[from + t]] << 32) | t;
      }
      Arrays.sort(packed);
      for (int t = 0; t < len; t++) {
        c[from + t] = (int) (packed[t] >>> 32);
        v[from + t] = values[from + (int) packed[t]];
      }
    }
    return new SparseRows(cols, starts, c, v);
  }

  /** The rows as a dense {@code double} array (for tests and small sizes). */
  public double[][] toDense() {
    Matrices.requireExplicit(rows(), cols);
    double[][] out = new double[rows()][cols];
    for (int i = 0; i < rows(); i++) {
      for (int k = starts[i]; k < starts[i + 1]; k++) {
        out[i][columns[k]] = values[k];
      }
    }
    return out;
  }
}
