package org.dpsql.spatial;

import java.util.Objects;

/**
 * A released private spatial histogram, ready to answer rectangle count queries: a hierarchy of
 * disjoint rectangles with one estimate each (inner estimates are the sums of their children's).
 *
 * <p>Guarantee: answering is post-processing of a differentially private release, so any number
 * of queries is free of privacy cost. A query is answered by descending only into nodes that
 * overlap it: a node inside the query contributes its estimate, a leaf that overlaps it partially
 * contributes its estimate times the overlapped fraction of its cells (the uniformity assumption
 * of Shaham et al., Section 2.2). Hence a query that is a union of released leaves gets exactly
 * the sum of their estimates. Immutable and thread-safe.
 */
public final class SpatialSynopsis {
  private final int[] bounds; // 4 per node: rowFrom, rowTo, colFrom, colTo
  private final int[] first;
  private final int[] count;
  private final double[] estimate;
  private final int leaves;

  SpatialSynopsis(int[] bounds, int[] first, int[] count, double[] estimate) {
    this.bounds = bounds;
    this.first = first;
    this.count = count;
    this.estimate = estimate;
    int l = 0;
    for (int c : count) {
      if (c == 0) {
        l++;
      }
    }
    this.leaves = l;
  }

  /**
   * A synopsis restored from storage (what {@link #bounds()}, {@link #firstChildren()}, {@link
   * #childCounts()} and {@link #estimates()} returned).
   *
   * @throws IllegalArgumentException if the arrays do not describe a tree of non-empty rectangles
   *     whose children follow their parent
   */
  public static SpatialSynopsis restore(int[] bounds, int[] first, int[] count,
      double[] estimate) {
    int n = count.length;
    if (n == 0 || first.length != n || estimate.length != n || bounds.length != 4L * n) {
      throw new IllegalArgumentException("inconsistent spatial synopsis arrays");
    }
    for (int v = 0; v < n; v++) {
      if (bounds[4 * v] >= bounds[4 * v + 1] || bounds[4 * v + 2] >= bounds[4 * v + 3]) {
        throw new IllegalArgumentException("empty rectangle at node " + v);
      }
      if (count[v] < 0 || (count[v] > 0 && (first[v] <= v || first[v] > n - count[v]))) {
        throw new IllegalArgumentException("bad children at node " + v);
      }
    }
    return new SpatialSynopsis(bounds.clone(), first.clone(), count.clone(), estimate.clone());
  }

  /** The node rectangles, 4 per node: rowFrom, rowTo, colFrom, colTo (a copy). */
  public int[] bounds() {
    return bounds.clone();
  }

  /** Per node, the index of its first child (children are consecutive; a copy). */
  public int[] firstChildren() {
    return first.clone();
  }

  /** Per node, its number of children (0 for a leaf; a copy). */
  public int[] childCounts() {
    return count.clone();
  }

  /** Per node, its estimate (a copy). */
  public double[] estimates() {
    return estimate.clone();
  }

  /** The whole domain covered. */
  public GridRectangle domain() {
    return new GridRectangle(bounds[0], bounds[1], bounds[2], bounds[3]);
  }

  /** Number of leaves (released partitions). */
  public int leafCount() {
    return leaves;
  }

  /** Number of nodes. */
  public int nodeCount() {
    return count.length;
  }

  /** The estimate of the whole domain (the root). */
  public double totalEstimate() {
    return estimate[0];
  }

  /**
   * The estimated number of records in {@code q} (a real number; may be negative, since noisy
   * counts may be).
   *
   * @throws IllegalArgumentException if {@code q} is not inside the domain
   */
  public double answer(GridRectangle q) {
    Objects.requireNonNull(q, "q");
    if (q.rowFrom() < bounds[0] || q.rowTo() > bounds[1] || q.colFrom() < bounds[2]
        || q.colTo() > bounds[3]) {
      throw new IllegalArgumentException("query " + q + " is outside the domain " + domain());
    }
    return answer(q.rowFrom(), q.rowTo(), q.colFrom(), q.colTo());
  }

  /**
   * The estimated number of records in the real rectangle {@code [rowFrom, rowTo) × [colFrom,
   * colTo)} of grid coordinates (cell {@code (i, j)} is {@code [i, i+1) × [j, j+1)}), clipped to the
   * domain: a query that cuts a grid cell counts the covered fraction of it, by the same uniformity
   * assumption as for leaves. An empty or outside rectangle has estimate 0.
   */
  public double answer(double rowFrom, double rowTo, double colFrom, double colTo) {
    double qr0 = Math.max(rowFrom, bounds[0]);
    double qr1 = Math.min(rowTo, bounds[1]);
    double qc0 = Math.max(colFrom, bounds[2]);
    double qc1 = Math.min(colTo, bounds[3]);
    if (!(qr1 > qr0 && qc1 > qc0)) {
      return 0;
    }
    int[] stack = new int[64];
    int top = 0;
    stack[top++] = 0;
    double sum = 0;
    while (top > 0) {
      int v = stack[--top];
      int b = 4 * v;
      int r0 = bounds[b];
      int r1 = bounds[b + 1];
      int c0 = bounds[b + 2];
      int c1 = bounds[b + 3];
      double h = Math.min(r1, qr1) - Math.max(r0, qr0);
      double w = Math.min(c1, qc1) - Math.max(c0, qc0);
      if (h <= 0 || w <= 0) {
        continue;
      }
      double area = (double) (r1 - r0) * (c1 - c0);
      double inter = h * w;
      if (inter == area) {
        sum += estimate[v];
      } else if (count[v] == 0) {
        sum += estimate[v] * (inter / area);
      } else {
        int k = count[v];
        if (top + k > stack.length) {
          stack = java.util.Arrays.copyOf(stack, Math.max(2 * stack.length, top + k));
        }
        for (int c = first[v]; c < first[v] + k; c++) {
          stack[top++] = c;
        }
      }
    }
    return sum;
  }
}
