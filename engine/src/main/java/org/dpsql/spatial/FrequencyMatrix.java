package org.dpsql.spatial;

import java.util.Objects;

/**
 * The exact N x M frequency matrix of a location dataset: entry {@code (i, j)} is the number of
 * records in grid cell row {@code i}, column {@code j}. This is the input of every spatial
 * mechanism of this package; the caller builds it from one pushed-down {@code GROUP BY} of cell
 * indices, the mechanisms never see raw points.
 *
 * <p>Guarantee: immutable (the counts are copied in); every count is non-negative and the total
 * fits in a {@code long}. Backed by 2-D prefix sums, so {@link #count(GridRectangle)} is O(1) and
 * exact. This class holds <em>sensitive</em> data: nothing derived from it may leave the engine
 * except through a differentially private mechanism.
 */
public final class FrequencyMatrix {
  private final int rows;
  private final int cols;
  private final long[] cells; // row-major, rows * cols
  private final long[] prefix; // (rows + 1) x (cols + 1), prefix[(i) * (cols + 1) + j] = sum below i, left of j

  private FrequencyMatrix(int rows, int cols, long[] cells) {
    this.rows = rows;
    this.cols = cols;
    this.cells = cells;
    int stride = cols + 1;
    this.prefix = new long[(rows + 1) * stride];
    for (int i = 0; i < rows; i++) {
      long rowSum = 0;
      int base = i * cols;
      for (int j = 0; j < cols; j++) {
        long c = cells[base + j];
        if (c < 0) {
          throw new IllegalArgumentException(
              "cell counts must be non-negative: cell (" + i + ", " + j + ") = " + c);
        }
        rowSum = Math.addExact(rowSum, c);
        prefix[(i + 1) * stride + j + 1] = Math.addExact(prefix[i * stride + j + 1], rowSum);
      }
    }
  }

  /**
   * A matrix from row-major counts ({@code counts[i * cols + j]} is cell {@code (i, j)}); the array
   * is copied.
   *
   * @throws IllegalArgumentException if a dimension is not positive, the array length is not
   *     {@code rows * cols}, a count is negative, or the total overflows a {@code long}
   */
  public static FrequencyMatrix ofRowMajor(int rows, int cols, long[] counts) {
    Objects.requireNonNull(counts, "counts");
    checkDimensions(rows, cols);
    if (counts.length != (long) rows * cols) {
      throw new IllegalArgumentException(
          "expected " + ((long) rows * cols) + " counts for a " + rows + " x " + cols
              + " matrix, got " + counts.length);
    }
    try {
      return new FrequencyMatrix(rows, cols, counts.clone());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("total count overflows a long", e);
    }
  }

  /**
   * A matrix from a rectangular array, {@code counts[i][j]} being cell {@code (i, j)}.
   *
   * @throws IllegalArgumentException if the array is empty or ragged, or as {@link #ofRowMajor}
   */
  public static FrequencyMatrix of(long[][] counts) {
    Objects.requireNonNull(counts, "counts");
    if (counts.length == 0 || counts[0].length == 0) {
      throw new IllegalArgumentException("frequency matrix must have at least one cell");
    }
    int r = counts.length;
    int c = counts[0].length;
    long[] flat = new long[r * c];
    for (int i = 0; i < r; i++) {
      if (counts[i].length != c) {
        throw new IllegalArgumentException(
            "ragged frequency matrix: row " + i + " has " + counts[i].length + " cells, row 0 has "
                + c);
      }
      System.arraycopy(counts[i], 0, flat, i * c, c);
    }
    try {
      return new FrequencyMatrix(r, c, flat);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("total count overflows a long", e);
    }
  }

  private static void checkDimensions(int rows, int cols) {
    if (rows <= 0 || cols <= 0) {
      throw new IllegalArgumentException(
          "frequency matrix dimensions must be positive: " + rows + " x " + cols);
    }
    if ((long) (rows + 1) * (cols + 1) > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("frequency matrix too large: " + rows + " x " + cols);
    }
  }

  /** Number of rows N. */
  public int rows() {
    return rows;
  }

  /** Number of columns M. */
  public int columns() {
    return cols;
  }

  /** The whole domain {@code [0, N) x [0, M)}. */
  public GridRectangle domain() {
    return GridRectangle.ofSize(rows, cols);
  }

  /** The count of cell {@code (row, col)}. */
  public long cell(int row, int col) {
    Objects.checkIndex(row, rows);
    Objects.checkIndex(col, cols);
    return cells[row * cols + col];
  }

  /** The total number of records |D|. */
  public long total() {
    return prefix[prefix.length - 1];
  }

  /**
   * The exact number of records inside {@code r}, in O(1).
   *
   * @throws IllegalArgumentException if {@code r} is not inside the domain
   */
  public long count(GridRectangle r) {
    checkInside(r);
    return countUnchecked(r.rowFrom(), r.rowTo(), r.colFrom(), r.colTo());
  }

  long countUnchecked(int r0, int r1, int c0, int c1) {
    int s = cols + 1;
    return prefix[r1 * s + c1] - prefix[r0 * s + c1] - prefix[r1 * s + c0] + prefix[r0 * s + c0];
  }

  /** Row-major cell array, not copied: package-internal, never to be modified. */
  long[] cellsUnsafe() {
    return cells;
  }

  /**
   * Throws unless {@code r} lies inside the domain.
   *
   * @throws IllegalArgumentException if {@code r} sticks out of {@code [0, N) x [0, M)}
   */
  public void checkInside(GridRectangle r) {
    if (r.rowTo() > rows || r.colTo() > cols) {
      throw new IllegalArgumentException(
          "rectangle " + r + " is outside the " + rows + " x " + cols + " grid");
    }
  }

  @Override
  public String toString() {
    return "FrequencyMatrix[" + rows + " x " + cols + "]"; // no counts: they are sensitive
  }
}
