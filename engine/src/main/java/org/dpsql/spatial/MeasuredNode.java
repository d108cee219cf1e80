package org.dpsql.spatial;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpsql.mechanism.Rational;

/**
 * A node of a released private spatial partition: its region, the noisy counts measured on it, the
 * budget spent choosing how it was split, and its children (whose regions partition its own).
 *
 * <p>Guarantee: immutable; children are disjoint and cover the node exactly (checked on
 * construction), so nodes of one tree level never overlap and parallel composition applies across
 * them. Everything stored here is a differentially private output (or data-independent), hence
 * publishable: no exact count is kept.
 */
public final class MeasuredNode {
  private final GridRectangle region;
  private final int level;
  private final List<Measurement> measurements;
  private final Rational partitionCharge;
  private final List<MeasuredNode> children;

  /**
   * @param region the node's cells
   * @param level its nominal height in the tree (HTF: the root has height h, nominal leaves 0)
   * @param measurements noisy counts released on this node, in the order they were made
   * @param partitionCharge the budget charged for choosing this node's split (zero if unsplit or
   *     split data-independently)
   * @param children the sub-nodes, disjoint and covering {@code region}, or empty
   * @throws IllegalArgumentException if the children do not partition the region or the charge is
   *     negative
   */
  public MeasuredNode(
      GridRectangle region, int level, List<Measurement> measurements, Rational partitionCharge,
      List<MeasuredNode> children) {
    this.region = Objects.requireNonNull(region, "region");
    this.level = level;
    this.measurements = List.copyOf(measurements);
    this.partitionCharge = Objects.requireNonNull(partitionCharge, "partitionCharge");
    this.children = List.copyOf(children);
    if (partitionCharge.signum() < 0) {
      throw new IllegalArgumentException("partition charge must be non-negative: " + partitionCharge);
    }
    if (!this.children.isEmpty()) {
      long area = 0;
      for (MeasuredNode c : this.children) {
        if (!region.contains(c.region)) {
          throw new IllegalArgumentException("child " + c.region + " is outside " + region);
        }
        area += c.region.area();
      }
      if (area != region.area()) {
        throw new IllegalArgumentException(
            "children of " + region + " cover " + area + " cells, not " + region.area());
      }
      // pairwise disjoint + inside + total area equal => the children tile the node exactly
      for (int i = 0; i < this.children.size(); i++) {
        for (int j = i + 1; j < this.children.size(); j++) {
          if (this.children.get(i).region.intersects(this.children.get(j).region)) {
            throw new IllegalArgumentException("children of " + region + " overlap");
          }
        }
      }
    }
  }

  /** A leaf. */
  public static MeasuredNode leaf(GridRectangle region, int level, List<Measurement> measurements) {
    return new MeasuredNode(region, level, measurements, Rational.ZERO, List.of());
  }

  /** The node's cells. */
  public GridRectangle region() {
    return region;
  }

  /** The node's nominal height (leaves of a full tree at 0). */
  public int level() {
    return level;
  }

  /** The noisy counts released on this node, in the order they were made. */
  public List<Measurement> measurements() {
    return measurements;
  }

  /** The budget charged for choosing this node's split. */
  public Rational partitionCharge() {
    return partitionCharge;
  }

  /** The sub-nodes (empty for a leaf). */
  public List<MeasuredNode> children() {
    return children;
  }

  /** Whether this node has no children. */
  public boolean isLeaf() {
    return children.isEmpty();
  }

  /** The leaves under this node, left to right. */
  public List<MeasuredNode> leaves() {
    List<MeasuredNode> out = new ArrayList<>();
    collectLeaves(this, out);
    return out;
  }

  private static void collectLeaves(MeasuredNode n, List<MeasuredNode> out) {
    if (n.isLeaf()) {
      out.add(n);
    } else {
      for (MeasuredNode c : n.children) {
        collectLeaves(c, out);
      }
    }
  }

  /** Number of nodes in this subtree. */
  public int size() {
    int s = 1;
    for (MeasuredNode c : children) {
      s += c.size();
    }
    return s;
  }

  /** Total privacy budget spent on this node itself (split choice plus measurements). */
  public Rational budgetSpent() {
    Rational b = partitionCharge;
    for (Measurement m : measurements) {
      b = b.add(m.epsilon());
    }
    return b;
  }

  @Override
  public String toString() {
    return "MeasuredNode[" + region + ", level=" + level + ", children=" + children.size() + "]";
  }
}
