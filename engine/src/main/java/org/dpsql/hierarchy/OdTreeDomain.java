package org.dpsql.hierarchy;

import java.util.Objects;

/**
 * The origin/destination tree of Boninsegna &amp; Silvestri (Section 3): a single non-negative
 * hierarchical tree built from an origin hierarchy and a destination hierarchy with the same number
 * {@code g} of levels, alternating the two. Its depth is {@code T = 2g}; a node of tree level
 * {@code k} is a pair (origin area, destination area) and its count is the number of trips from
 * inside the origin area to inside the destination area (a hierarchical range query).
 *
 * <ul>
 *   <li>{@link SplitOrder#DESTINATION_FIRST} (the paper's <em>destination tree</em>): from node
 *       {@code (u_ℓ, v_ℓ)} first split the destination into its children {@code v_{ℓ+1}} (level
 *       {@code 2ℓ+1}, cross-level queries {@code (u_ℓ, v_{ℓ+1})}), then the origin (level {@code
 *       2ℓ+2}, intra-level queries {@code (u_{ℓ+1}, v_{ℓ+1})}).
 *   <li>{@link SplitOrder#ORIGIN_FIRST} (the <em>origin tree</em>): the origin is split first.
 * </ul>
 *
 * <p>Node ids: a node of tree level {@code k} with origin area {@code o} (of origin level {@link
 * #originLevel(int)}) and destination area {@code d} (of destination level {@link
 * #destinationLevel(int)}) has id {@code o · |P^D_{destinationLevel(k)}| + d}. The leaves (level
 * {@code 2g}) are the finest O/D pairs, {@link #leafId(int, int)}.
 *
 * <p>Guarantees: immutable; children come only from the two public hierarchies (Lemma 2: with
 * counts aggregated from trips, the tree is non-negative and hierarchical).
 */
public final class OdTreeDomain implements TreeDomain {

  /** Which of the two areas is split first at every hierarchy level. */
  public enum SplitOrder {
    /** The destination tree: destination split at odd tree levels, origin at even ones. */
    DESTINATION_FIRST,
    /** The origin tree: origin split at odd tree levels, destination at even ones. */
    ORIGIN_FIRST
  }

  private final Hierarchy origin;
  private final Hierarchy destination;
  private final SplitOrder order;
  private final int g;

  /**
   * The O/D tree of the two hierarchies.
   *
   * @throws IllegalArgumentException if the hierarchies have different depths
   */
  public OdTreeDomain(Hierarchy origin, Hierarchy destination, SplitOrder order) {
    this.origin = Objects.requireNonNull(origin, "origin");
    this.destination = Objects.requireNonNull(destination, "destination");
    this.order = Objects.requireNonNull(order, "order");
    if (origin.depth() != destination.depth()) {
      throw new IllegalArgumentException(
          "origin and destination hierarchies must have the same number of levels: "
              + origin.depth()
              + " vs "
              + destination.depth());
    }
    this.g = origin.depth();
    long leaves = (long) origin.size(g) * destination.size(g);
    if (leaves <= 0) {
      throw new IllegalArgumentException("empty O/D domain");
    }
  }

  /** The destination tree (destination split first) of a hierarchy with itself. */
  public static OdTreeDomain destinationTree(Hierarchy areas) {
    return new OdTreeDomain(areas, areas, SplitOrder.DESTINATION_FIRST);
  }

  /** The origin tree (origin split first) of a hierarchy with itself. */
  public static OdTreeDomain originTree(Hierarchy areas) {
    return new OdTreeDomain(areas, areas, SplitOrder.ORIGIN_FIRST);
  }

  public Hierarchy origin() {
    return origin;
  }

  public Hierarchy destination() {
    return destination;
  }

  public SplitOrder order() {
    return order;
  }

  /** {@code T = 2g}. */
  @Override
  public int depth() {
    return 2 * g;
  }

  /** The origin hierarchy level of the nodes of tree level {@code k}. */
  public int originLevel(int k) {
    checkTreeLevel(k);
    return order == SplitOrder.DESTINATION_FIRST ? k / 2 : (k + 1) / 2;
  }

  /** The destination hierarchy level of the nodes of tree level {@code k}. */
  public int destinationLevel(int k) {
    checkTreeLevel(k);
    return order == SplitOrder.DESTINATION_FIRST ? (k + 1) / 2 : k / 2;
  }

  /** Whether the step from tree level {@code k} to {@code k + 1} splits the destination. */
  public boolean splitsDestination(int k) {
    if (k < 0 || k >= 2 * g) {
      throw new IllegalArgumentException("no split below tree level " + k);
    }
    return (order == SplitOrder.DESTINATION_FIRST) == (k % 2 == 0);
  }

  /** Id of the node of tree level {@code k} with the given origin and destination areas. */
  public long nodeId(int k, int originArea, int destinationArea) {
    int ol = originLevel(k);
    int dl = destinationLevel(k);
    if (originArea < 0 || originArea >= origin.size(ol)) {
      throw new IllegalArgumentException("origin area " + originArea + " out of range at level " + ol);
    }
    if (destinationArea < 0 || destinationArea >= destination.size(dl)) {
      throw new IllegalArgumentException(
          "destination area " + destinationArea + " out of range at level " + dl);
    }
    return (long) originArea * destination.size(dl) + destinationArea;
  }

  /** Id of the leaf (finest O/D pair) from origin area {@code o} to destination area {@code d}. */
  public long leafId(int originLeaf, int destinationLeaf) {
    return nodeId(2 * g, originLeaf, destinationLeaf);
  }

  /** The origin area of node {@code id} of tree level {@code k}. */
  public int originOf(int k, long id) {
    checkNode(k, id);
    return (int) (id / destination.size(destinationLevel(k)));
  }

  /** The destination area of node {@code id} of tree level {@code k}. */
  public int destinationOf(int k, long id) {
    checkNode(k, id);
    return (int) (id % destination.size(destinationLevel(k)));
  }

  @Override
  public long levelSize(int level) {
    return (long) origin.size(originLevel(level)) * destination.size(destinationLevel(level));
  }

  @Override
  public int childCount(int level, long node) {
    checkNode(level, node);
    if (level == 2 * g) {
      throw new IllegalArgumentException("leaves (level " + level + ") have no children");
    }
    int dSize = destination.size(destinationLevel(level));
    int o = (int) (node / dSize);
    int d = (int) (node % dSize);
    return splitsDestination(level)
        ? destination.childCount(destinationLevel(level), d)
        : origin.childCount(originLevel(level), o);
  }

  @Override
  public long child(int level, long node, int j) {
    checkNode(level, node);
    if (level == 2 * g) {
      throw new IllegalArgumentException("leaves (level " + level + ") have no children");
    }
    int dSize = destination.size(destinationLevel(level));
    int o = (int) (node / dSize);
    int d = (int) (node % dSize);
    int childDestLevel = destinationLevel(level + 1);
    long childDSize = destination.size(childDestLevel);
    if (splitsDestination(level)) {
      long dc = destination.child(destinationLevel(level), d, j);
      return o * childDSize + dc;
    }
    long oc = origin.child(originLevel(level), o, j);
    return oc * childDSize + d;
  }

  @Override
  public long parent(int level, long node) {
    checkNode(level, node);
    if (level == 0) {
      throw new IllegalArgumentException("the root has no parent");
    }
    int dSize = destination.size(destinationLevel(level));
    int o = (int) (node / dSize);
    int d = (int) (node % dSize);
    long parentDSize = destination.size(destinationLevel(level - 1));
    if (splitsDestination(level - 1)) {
      long dp = destination.parent(destinationLevel(level), d);
      return o * parentDSize + dp;
    }
    long op = origin.parent(originLevel(level), o);
    return op * parentDSize + d;
  }

  private void checkTreeLevel(int k) {
    if (k < 0 || k > 2 * g) {
      throw new IllegalArgumentException("tree level " + k + " out of range [0, " + 2 * g + "]");
    }
  }

  private void checkNode(int k, long id) {
    long size = levelSize(k);
    if (id < 0 || id >= size) {
      throw new IllegalArgumentException(
          "node " + id + " out of range [0, " + size + ") at tree level " + k);
    }
  }

  @Override
  public String toString() {
    return "OdTreeDomain[" + order + ", origin " + origin + ", destination " + destination + "]";
  }
}
