package org.dpsql.spatial;

/**
 * An axis-aligned rectangle of grid cells: rows {@code [rowFrom, rowTo)} and columns {@code
 * [colFrom, colTo)} of a frequency matrix (half-open on both axes). Row {@code i} is the {@code
 * i}-th cell along the y axis counted from the bottom (as in the paper's figures), column {@code j}
 * the {@code j}-th along the x axis.
 *
 * <p>Guarantee: immutable; every instance is non-empty ({@code rowFrom < rowTo}, {@code colFrom <
 * colTo}) with non-negative bounds, so {@link #area()} is at least 1.
 *
 * @param rowFrom first row (inclusive)
 * @param rowTo last row (exclusive)
 * @param colFrom first column (inclusive)
 * @param colTo last column (exclusive)
 */
public record GridRectangle(int rowFrom, int rowTo, int colFrom, int colTo) {

  /**
   * @throws IllegalArgumentException if a bound is negative or the rectangle is empty
   */
  public GridRectangle {
    if (rowFrom < 0 || colFrom < 0) {
      throw new IllegalArgumentException(
          "grid rectangle bounds must be non-negative: rows [" + rowFrom + ", " + rowTo
              + "), cols [" + colFrom + ", " + colTo + ")");
    }
    if (rowTo <= rowFrom || colTo <= colFrom) {
      throw new IllegalArgumentException(
          "grid rectangle must be non-empty: rows [" + rowFrom + ", " + rowTo + "), cols ["
              + colFrom + ", " + colTo + ")");
    }
  }

  /** The rectangle {@code [0, rows) x [0, cols)}. */
  public static GridRectangle ofSize(int rows, int cols) {
    return new GridRectangle(0, rows, 0, cols);
  }

  /** Number of rows. */
  public int height() {
    return rowTo - rowFrom;
  }

  /** Number of columns. */
  public int width() {
    return colTo - colFrom;
  }

  /** Number of cells. */
  public long area() {
    return (long) height() * width();
  }

  /** Extent along an axis: {@link #height()} for {@link SplitAxis#ROWS}, else {@link #width()}. */
  public int extent(SplitAxis axis) {
    return axis == SplitAxis.ROWS ? height() : width();
  }

  /** Whether {@code other} lies entirely inside this rectangle. */
  public boolean contains(GridRectangle other) {
    return rowFrom <= other.rowFrom && other.rowTo <= rowTo
        && colFrom <= other.colFrom && other.colTo <= colTo;
  }

  /** Whether the two rectangles share at least one cell. */
  public boolean intersects(GridRectangle other) {
    return rowFrom < other.rowTo && other.rowFrom < rowTo
        && colFrom < other.colTo && other.colFrom < colTo;
  }

  /** Number of cells the two rectangles share (0 if disjoint). */
  public long intersectionArea(GridRectangle other) {
    long h = Math.min(rowTo, other.rowTo) - Math.max(rowFrom, other.rowFrom);
    long w = Math.min(colTo, other.colTo) - Math.max(colFrom, other.colFrom);
    return h <= 0 || w <= 0 ? 0 : h * w;
  }

  /**
   * The first part of a split after {@code k} rows (or columns) along {@code axis}: rows {@code
   * [rowFrom, rowFrom + k)} for {@link SplitAxis#ROWS}.
   *
   * @throws IllegalArgumentException unless {@code 0 < k < extent(axis)}
   */
  public GridRectangle lowerPart(SplitAxis axis, int k) {
    checkSplit(axis, k);
    return axis == SplitAxis.ROWS
        ? new GridRectangle(rowFrom, rowFrom + k, colFrom, colTo)
        : new GridRectangle(rowFrom, rowTo, colFrom, colFrom + k);
  }

  /**
   * The second part of a split after {@code k} rows (or columns) along {@code axis}.
   *
   * @throws IllegalArgumentException unless {@code 0 < k < extent(axis)}
   */
  public GridRectangle upperPart(SplitAxis axis, int k) {
    checkSplit(axis, k);
    return axis == SplitAxis.ROWS
        ? new GridRectangle(rowFrom + k, rowTo, colFrom, colTo)
        : new GridRectangle(rowFrom, rowTo, colFrom + k, colTo);
  }

  private void checkSplit(SplitAxis axis, int k) {
    if (k <= 0 || k >= extent(axis)) {
      throw new IllegalArgumentException(
          "split position " + k + " must be strictly inside (0, " + extent(axis) + ") along "
              + axis + " of " + this);
    }
  }

  @Override
  public String toString() {
    return "rows[" + rowFrom + "," + rowTo + ")xcols[" + colFrom + "," + colTo + ")";
  }
}
