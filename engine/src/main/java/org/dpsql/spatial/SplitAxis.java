package org.dpsql.spatial;

/**
 * The axis along which a node of a spatial partition is cut in two. {@link #ROWS} cuts between two
 * rows (a horizontal line: the y coordinate is split), {@link #COLUMNS} between two columns.
 *
 * <p>Guarantee: HTF and the kd-tree alternate axes by node height, {@link #forHeight(int)}: rows at
 * even heights, columns at odd heights (Algorithm 2 of Shaham et al.).
 */
public enum SplitAxis {
  /** Cut between rows (along y). */
  ROWS,
  /** Cut between columns (along x). */
  COLUMNS;

  /** The axis HTF splits on at a node of the given height: rows when even, columns when odd. */
  public static SplitAxis forHeight(int height) {
    return (height & 1) == 0 ? ROWS : COLUMNS;
  }

  /**
   * The axis a node of the given height is split on: {@link #forHeight(int)} if the node has at
   * least two cells along it, else the other axis if it has two cells along that one, else {@code
   * null} (a single cell cannot be split). The fallback keeps thin slivers splittable; the paper's
   * Algorithm 2 does not say what to do with a node of one row at an even height.
   */
  public static SplitAxis splittable(int height, GridRectangle node) {
    SplitAxis a = forHeight(height);
    if (node.extent(a) >= 2) {
      return a;
    }
    return node.extent(a.other()) >= 2 ? a.other() : null;
  }

  /** The other axis. */
  public SplitAxis other() {
    return this == ROWS ? COLUMNS : ROWS;
  }
}
