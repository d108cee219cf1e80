package org.dpsql.spatial;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Helpers for grid-shaped partitions: equal-width boundaries on the cell grid, and a balanced
 * binary hierarchy of unmeasured nodes over a grid of measured leaves (an index for fast
 * answering; it adds no measurement and no privacy cost).
 */
final class GridHierarchy {
  private GridHierarchy() {}

  /** {@code parts + 1} boundaries {@code ⌊i · extent / parts⌋}, {@code 1 <= parts <= extent}. */
  static int[] boundaries(int from, int extent, int parts) {
    if (parts < 1 || parts > extent) {
      throw new IllegalArgumentException("cannot cut " + extent + " cells into " + parts + " parts");
    }
    int[] b = new int[parts + 1];
    for (int i = 0; i <= parts; i++) {
      b[i] = from + (int) ((long) i * extent / parts);
    }
    return b;
  }

  /**
   * A balanced binary tree over the grid cells {@code [rb[i], rb[i+1]) x [cb[j], cb[j+1])}, with
   * {@code leaf.apply(i, j)} as the leaves and unmeasured inner nodes.
   */
  static MeasuredNode balanced(int[] rb, int[] cb, BiFunction<Integer, Integer, MeasuredNode> leaf) {
    return build(rb, cb, 0, rb.length - 1, 0, cb.length - 1, leaf);
  }

  private static MeasuredNode build(int[] rb, int[] cb, int i0, int i1, int j0, int j1,
      BiFunction<Integer, Integer, MeasuredNode> leaf) {
    if (i1 - i0 == 1 && j1 - j0 == 1) {
      return leaf.apply(i0, j0);
    }
    List<MeasuredNode> kids = new ArrayList<>(2);
    if (i1 - i0 >= j1 - j0) {
      int mid = (i0 + i1) >>> 1;
      kids.add(build(rb, cb, i0, mid, j0, j1, leaf));
      kids.add(build(rb, cb, mid, i1, j0, j1, leaf));
    } else {
      int mid = (j0 + j1) >>> 1;
      kids.add(build(rb, cb, i0, i1, j0, mid, leaf));
      kids.add(build(rb, cb, i0, i1, mid, j1, leaf));
    }
    int level = Math.max(kids.get(0).level(), kids.get(1).level()) + 1;
    return new MeasuredNode(new GridRectangle(rb[i0], rb[i1], cb[j0], cb[j1]), level, List.of(),
        org.dpsql.mechanism.Rational.ZERO, kids);
  }

  /** {@code round(sqrt(x))} clamped to {@code [1, max]}; {@code x <= 0} gives 1. */
  static int roundedSqrt(double x, int max) {
    if (!(x > 0)) {
      return 1;
    }
    return (int) Math.max(1, Math.min(max, Math.round(Math.sqrt(x))));
  }

  /** {@code ceil(sqrt(x))} clamped to {@code [1, max]}; {@code x <= 0} gives 1. */
  static int ceilSqrt(double x, int max) {
    if (!(x > 0)) {
      return 1;
    }
    return (int) Math.max(1, Math.min(max, Math.ceil(Math.sqrt(x))));
  }
}
