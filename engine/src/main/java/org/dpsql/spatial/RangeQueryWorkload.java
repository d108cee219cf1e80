package org.dpsql.spatial;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random rectangle query workloads of the paper's protocol (Section 5.1): squares covering a fixed
 * fraction of the domain (2%, 6%, 10%), and rectangles of random shape and size. Positions are
 * uniform among the placements that fit entirely inside the grid, so every square query covers
 * the stated fraction (its side rounded to whole cells) and its centre is uniform over the domain
 * shrunk by half a side.
 *
 * <p>Guarantee: deterministic for a given seed ({@link SplittableRandom}; workload generation, not
 * noise).
 */
public final class RangeQueryWorkload {
  private RangeQueryWorkload() {}

  /**
   * {@code count} squares of side {@code round(sqrt(fraction · rows · cols))} (clamped to the
   * grid), uniformly placed.
   *
   * @throws IllegalArgumentException unless {@code 0 < fraction <= 1} and {@code count >= 0}
   */
  public static List<GridRectangle> squares(int rows, int cols, double fraction, int count, long seed) {
    if (!(fraction > 0 && fraction <= 1) || count < 0) {
      throw new IllegalArgumentException("fraction in (0, 1] and count >= 0 required: " + fraction
          + ", " + count);
    }
    int side = (int) Math.max(1, Math.round(Math.sqrt(fraction * rows * cols)));
    int h = Math.min(side, rows);
    int w = Math.min(side, cols);
    SplittableRandom rnd = new SplittableRandom(seed);
    List<GridRectangle> out = new ArrayList<>(count);
    for (int q = 0; q < count; q++) {
      int r0 = rnd.nextInt(rows - h + 1);
      int c0 = rnd.nextInt(cols - w + 1);
      out.add(new GridRectangle(r0, r0 + h, c0, c0 + w));
    }
    return out;
  }

  /**
   * {@code count} rectangles of random shape and size: height uniform on {@code [1, rows]}, width
   * uniform on {@code [1, cols]}, independently, then uniformly placed.
   */
  public static List<GridRectangle> randomShapes(int rows, int cols, int count, long seed) {
    if (count < 0) {
      throw new IllegalArgumentException("count must be non-negative: " + count);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<GridRectangle> out = new ArrayList<>(count);
    for (int q = 0; q < count; q++) {
      int h = 1 + rnd.nextInt(rows);
      int w = 1 + rnd.nextInt(cols);
      int r0 = rnd.nextInt(rows - h + 1);
      int c0 = rnd.nextInt(cols - w + 1);
      out.add(new GridRectangle(r0, r0 + h, c0, c0 + w));
    }
    return out;
  }
}
