package org.dpsql.hierarchy;

import java.util.Objects;

/**
 * An integer-valued hierarchical tree over a public {@link TreeDomain}, stored sparsely: per level
 * only the non-zero nodes are materialised (as the paper's dropping of zero nodes requires); every
 * other node of the public domain has value 0.
 *
 * <p>Guarantees: immutable; <em>hierarchical</em> — every node's value equals the sum of its
 * children's values (trees built from leaf counts are consistent by construction; trees released
 * by a TopDown mechanism are consistent because every projection preserves its parent's total;
 * {@link #checkConsistency()} verifies it). {@link #isNonNegative()} tells whether it is also a
 * <em>non-negative</em> hierarchical tree (Definition 2.2): always true for {@link #fromLeafCounts}
 * and for TopDown, Stability-Histogram releases; a {@link VanillaGauss} release may be negative.
 */
public final class HierarchicalCounts {
  private final TreeDomain domain;
  private final SparseLevel[] levels;
  private final boolean nonNegative;

  HierarchicalCounts(TreeDomain domain, SparseLevel[] levels) {
    this.domain = domain;
    this.levels = levels;
    boolean nn = true;
    for (SparseLevel l : levels) {
      if (l.size() > 0 && l.min() < 0) {
        nn = false;
        break;
      }
    }
    this.nonNegative = nn;
  }

  /**
   * The tree whose leaves have the given counts — e.g. the rows of a pushed-down {@code GROUP BY}
   * over the hierarchy columns — and every inner node the sum of its leaves. Leaf ids absent from
   * the arrays have count 0.
   *
   * @param leafIds distinct leaf ids in {@code [0, domain.levelSize(T))}, in any order
   * @param counts the non-negative count of each leaf
   * @throws IllegalArgumentException on a length mismatch, an id outside the public domain, a
   *     duplicate id or a negative count
   */
  public static HierarchicalCounts fromLeafCounts(
      TreeDomain domain, long[] leafIds, long[] counts) {
    return build(domain, leafIds, counts, false);
  }

  /**
   * As {@link #fromLeafCounts} but accepting negative leaf values (noisy releases such as {@link
   * VanillaGauss}); the result is hierarchical but possibly not non-negative.
   */
  public static HierarchicalCounts fromSignedLeafValues(
      TreeDomain domain, long[] leafIds, long[] values) {
    return build(domain, leafIds, values, true);
  }

  private static HierarchicalCounts build(
      TreeDomain domain, long[] leafIds, long[] counts, boolean signed) {
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(leafIds, "leafIds");
    Objects.requireNonNull(counts, "counts");
    if (leafIds.length != counts.length) {
      throw new IllegalArgumentException(
          "leafIds and counts differ in length: " + leafIds.length + " vs " + counts.length);
    }
    int t = domain.depth();
    long leaves = domain.levelSize(t);
    int n = leafIds.length;
    for (int i = 0; i < n; i++) {
      if (leafIds[i] < 0 || leafIds[i] >= leaves) {
        throw new IllegalArgumentException(
            "leaf id " + leafIds[i] + " is outside the public domain [0, " + leaves + ")");
      }
      if (!signed && counts[i] < 0) {
        throw new IllegalArgumentException(
            "count of leaf " + leafIds[i] + " is negative: " + counts[i]);
      }
    }
    SparseLevel[] levels = new SparseLevel[t + 1];
    levels[t] = SparseLevel.sortedFrom(leafIds.clone(), counts.clone(), n, false);
    for (int l = t; l >= 1; l--) {
      levels[l - 1] = parentSums(domain, l, levels[l]);
    }
    return new HierarchicalCounts(domain, levels);
  }

  /** The non-zero sums, per parent node at level {@code l − 1}, of the nodes {@code child}. */
  private static SparseLevel parentSums(TreeDomain domain, int l, SparseLevel child) {
    int m = child.size();
    long[] ids = new long[m];
    long[] vals = new long[m];
    for (int i = 0; i < m; i++) {
      ids[i] = domain.parent(l, child.id(i));
      vals[i] = child.value(i);
    }
    return SparseLevel.sortedFrom(ids, vals, m, true);
  }

  /** The public domain. */
  public TreeDomain domain() {
    return domain;
  }

  /** The depth {@code T}. */
  public int depth() {
    return levels.length - 1;
  }

  /** The non-zero nodes of {@code level}. */
  public SparseLevel level(int level) {
    if (level < 0 || level >= levels.length) {
      throw new IllegalArgumentException(
          "level " + level + " out of range [0, " + (levels.length - 1) + "]");
    }
    return levels[level];
  }

  /** The value of node {@code node} of {@code level} (0 if not stored). */
  public long count(int level, long node) {
    return level(level).get(node);
  }

  /** The root value: the total number of records. */
  public long total() {
    return levels[0].get(0);
  }

  /** Whether every value is {@code >= 0}. */
  public boolean isNonNegative() {
    return nonNegative;
  }

  /**
   * Verifies the hierarchy: every stored node is inside the public domain, every node's value
   * equals the sum of its children's (including nodes that are not stored, whose value is 0).
   *
   * @throws IllegalStateException naming the first violation
   */
  public void checkConsistency() {
    for (int l = 0; l < levels.length; l++) {
      SparseLevel lev = levels[l];
      long size = domain.levelSize(l);
      for (int i = 0; i < lev.size(); i++) {
        if (lev.id(i) < 0 || lev.id(i) >= size) {
          throw new IllegalStateException("node " + lev.id(i) + " outside level " + l);
        }
      }
    }
    for (int l = levels.length - 1; l >= 1; l--) {
      SparseLevel sums = parentSums(domain, l, levels[l]);
      SparseLevel parent = levels[l - 1];
      if (sums.size() != parent.size()) {
        throw new IllegalStateException(
            "level " + (l - 1) + " has " + parent.size() + " non-zero nodes but its children sum to "
                + sums.size() + " non-zero nodes");
      }
      for (int i = 0; i < sums.size(); i++) {
        if (sums.id(i) != parent.id(i)) {
          throw new IllegalStateException(
              "level " + (l - 1) + ": stored node " + parent.id(i)
                  + " does not match the children's non-zero parent " + sums.id(i));
        }
        if (sums.value(i) != parent.value(i)) {
          throw new IllegalStateException(
              "node " + parent.id(i) + " of level " + (l - 1) + " = " + parent.value(i)
                  + " but its children sum to " + sums.value(i));
        }
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("HierarchicalCounts[total=").append(total());
    for (int l = 0; l < levels.length; l++) {
      sb.append(l == 0 ? ", non-zero per level " : "/").append(levels[l].size());
    }
    return sb.append(']').toString();
  }
}
