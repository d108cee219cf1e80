package org.dpsql.hierarchy;

/**
 * The public domain of a hierarchical tree: which nodes exist at every level and which children
 * each node has, known <em>before</em> looking at any data (enumerated from a public hierarchy,
 * never from the rows).
 *
 * <p>Levels run from {@code 0} (the root, a single node with id {@code 0}) to {@link #depth()} =
 * {@code T} (the leaves). The nodes of level {@code ℓ} have ids {@code 0 .. levelSize(ℓ) - 1}.
 * Every node of a level {@code ℓ < T} has at least one child; every node of level {@code ℓ ≥ 1}
 * has exactly one parent, and {@code parent(ℓ + 1, child(ℓ, u, j)) == u} for every child index
 * {@code j}. A TopDown mechanism adds noise to <em>every</em> child in this domain of a kept node,
 * so an implementation must never derive its children from data.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface TreeDomain {

  /** The depth {@code T}: the number of levels below the root. */
  int depth();

  /** Number of nodes of the full public domain at {@code level} ({@code 1} at level 0). */
  long levelSize(int level);

  /**
   * Number of children of node {@code node} of level {@code level}, {@code 0 <= level < T}.
   *
   * @throws IllegalArgumentException if the level or the node id is out of range
   */
  int childCount(int level, long node);

  /**
   * The id (at level {@code level + 1}) of child {@code j} of node {@code node} of level {@code
   * level}, {@code 0 <= j < childCount(level, node)}.
   *
   * @throws IllegalArgumentException if an argument is out of range
   */
  long child(int level, long node, int j);

  /**
   * The id (at level {@code level - 1}) of the parent of node {@code node} of level {@code level},
   * {@code 1 <= level <= T}.
   *
   * @throws IllegalArgumentException if the level or the node id is out of range
   */
  long parent(int level, long node);
}
