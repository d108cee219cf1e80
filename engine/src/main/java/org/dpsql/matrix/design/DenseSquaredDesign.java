package org.dpsql.matrix.design;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A Program-1 constraint matrix held explicitly, one row of squared entries per design query
 * ({@code squares[i][j] = M[j][i]}). Products cost {@code O(n k)}; the Gram products use blocked
 * dot-product kernels.
 */
public final class DenseSquaredDesign implements SquaredDesign {
  private final double[][] squares; // k × n
  private final int n;

  private DenseSquaredDesign(double[][] squares, int n) {
    this.squares = squares;
    this.n = n;
  }

  /** The design whose queries are the rows of {@code queries} ({@code k × n}); entries are squared. */
  public static DenseSquaredDesign ofQueries(double[][] queries) {
    double[][] s = new double[queries.length][];
    for (int i = 0; i < queries.length; i++) {
      double[] q = queries[i];
      double[] r = new double[q.length];
      for (int j = 0; j < q.length; j++) {
        r[j] = q[j] * q[j];
      }
      s[i] = r;
    }
    return ofSquares(s);
  }

  /** The design whose column {@code i} is {@code squares[i]} (non-negative, copied). */
  public static DenseSquaredDesign ofSquares(double[][] squares) {
    if (squares.length == 0) {
      throw new IllegalArgumentException("a design needs at least one query");
    }
    int n = squares[0].length;
    double[][] s = new double[squares.length][];
    for (int i = 0; i < squares.length; i++) {
      if (squares[i].length != n) {
        throw new IllegalArgumentException("design " + i + " has " + squares[i].length + " cells, not " + n);
      }
      for (double v : squares[i]) {
        if (!(v >= 0) || !Double.isFinite(v)) {
          throw new IllegalArgumentException("squared entries must be finite and non-negative: " + v);
        }
      }
      s[i] = squares[i].clone();
    }
    return new DenseSquaredDesign(s, n);
  }

  static DenseSquaredDesign wrap(double[][] squares) {
    return new DenseSquaredDesign(squares, squares[0].length);
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public int designs() {
    return squares.length;
  }

  @Override
  public double[] times(double[] u) {
    double[] out = new double[n];
    for (int i = 0; i < squares.length; i++) {
      double ui = u[i];
      if (ui == 0) {
        continue;
      }
      double[] s = squares[i];
      for (int j = 0; j < n; j++) {
        out[j] += ui * s[j];
      }
    }
    return out;
  }

  @Override
  public double[] transposeTimes(double[] mu) {
    double[] out = new double[squares.length];
    IntStream s = IntStream.range(0, squares.length);
    if ((long) squares.length * n > 1_000_000) {
      s = s.parallel();
    }
    s.forEach(i -> out[i] = Dense.dot(squares[i], mu, n));
    return out;
  }

  @Override
  public double[][] designGram(double[] w) {
    double[] rw = new double[n];
    for (int j = 0; j < n; j++) {
      rw[j] = Math.sqrt(w[j]);
    }
    double[][] x = new double[squares.length][n];
    for (int i = 0; i < squares.length; i++) {
      double[] s = squares[i];
      double[] xi = x[i];
      for (int j = 0; j < n; j++) {
        xi[j] = s[j] * rw[j];
      }
    }
    return Dense.gramOfRows(x);
  }

  @Override
  public double[][] cellGram(double[] d) {
    int k = squares.length;
    double[][] x = new double[n][k];
    for (int i = 0; i < k; i++) {
      double rd = Math.sqrt(d[i]);
      double[] s = squares[i];
      for (int j = 0; j < n; j++) {
        x[j][i] = s[j] * rd;
      }
    }
    return Dense.gramOfRows(x);
  }

  @Override
  public double[] column(int i) {
    return squares[i].clone();
  }

  @Override
  public SquaredDesign selectDesigns(int[] designs) {
    double[][] s = new double[designs.length][];
    for (int i = 0; i < designs.length; i++) {
      s[i] = squares[designs[i]];
    }
    return new DenseSquaredDesign(s, n);
  }

  /**
   * Merges cells whose constraint rows agree after rounding every entry to a grid of {@code 2⁻⁴⁰}
   * (identical rows up to floating-point noise, such as mirror cells of a symmetric workload).
   */
  @Override
  public SquaredDesign distinctCells() {
    int[] cols = distinctCellIndices();
    if (cols.length == n) {
      return this;
    }
    return new DenseSquaredDesign(Dense.selectColumns(squares, cols), cols.length);
  }

  @Override
  public int[] distinctCellIndices() {
    int k = squares.length;
    Map<Key, Integer> seen = new HashMap<>();
    List<Integer> keep = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      long[] r = new long[k];
      for (int i = 0; i < k; i++) {
        r[i] = Math.round(squares[i][j] * 0x1p40);
      }
      if (seen.putIfAbsent(new Key(r), j) == null) {
        keep.add(j);
      }
    }
    return keep.stream().mapToInt(Integer::intValue).toArray();
  }

  private record Key(long[] v) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && Arrays.equals(v, k.v);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(v);
    }
  }
}
