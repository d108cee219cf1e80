package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class SpatialSynopsisTest {
  private static final FrequencyMatrix DATA =
      new GaussianClusterData(96, 80, 4, 60_000, 7, 3).frequencyMatrix();

  private static HtfRelease noiseFree() {
    return new HtfMechanism(HtfParameters.paperDefaults(Rational.parse("0.5")))
        .release(DATA, NoiseSource.off());
  }

  private static List<MeasuredNode> allNodes(MeasuredNode root) {
    List<MeasuredNode> out = new ArrayList<>();
    List<MeasuredNode> stack = new ArrayList<>(List.of(root));
    while (!stack.isEmpty()) {
      MeasuredNode n = stack.remove(stack.size() - 1);
      out.add(n);
      stack.addAll(n.children());
    }
    return out;
  }

  /** Noise off: a query equal to any node of the tree, or the union of two siblings, is exact. */
  @Test
  void alignedRectanglesReturnTheExactCount() {
    HtfRelease r = noiseFree();
    for (Inference rule : Inference.values()) {
      SpatialSynopsis s = r.synopsis(rule);
      int checked = 0;
      for (MeasuredNode n : allNodes(r.root())) {
        // the paper's rule sums integers: exact; the weighted rules round in the last place
        double tol = rule == Inference.LEAF_LAST_MEASUREMENT ? 0.0 : 1e-9 * DATA.count(n.region());
        assertEquals((double) DATA.count(n.region()), s.answer(n.region()), tol,
            () -> rule + " " + n.region());
        checked++;
      }
      assertTrue(checked > 50);
      assertEquals((double) DATA.total(), s.answer(DATA.domain()), 1e-9 * DATA.total());
      assertEquals((double) DATA.total(), s.totalEstimate(), 1e-9);
    }
  }

  /**
   * Noise off: any rectangle gets the uniformity estimate Σ_leaves count(leaf)·|q ∩ leaf|/|leaf|,
   * computed here by brute force over all leaves.
   */
  @Test
  void unalignedRectanglesReturnTheUniformityEstimate() {
    HtfRelease r = noiseFree();
    SpatialSynopsis s = r.synopsis(Inference.LEAF_LAST_MEASUREMENT);
    List<MeasuredNode> leaves = r.root().leaves();
    int differ = 0;
    for (GridRectangle q : RangeQueryWorkload.randomShapes(DATA.rows(), DATA.columns(), 300, 9)) {
      double expected = 0;
      for (MeasuredNode l : leaves) {
        expected += DATA.count(l.region()) * (double) l.region().intersectionArea(q) / l.region().area();
      }
      double got = s.answer(q);
      assertEquals(expected, got, 1e-9 * Math.max(1, expected), q::toString);
      if (Math.abs(got - DATA.count(q)) > 1e-6) {
        differ++;
      }
    }
    assertTrue(differ > 0, "some queries must cut leaves, else the test is vacuous");
  }

  /** A hand-built tree: one leaf cut by the query contributes pro rata. */
  @Test
  void partialOverlapIsProRataByArea() {
    GridRectangle left = new GridRectangle(0, 4, 0, 2);
    GridRectangle right = new GridRectangle(0, 4, 2, 4);
    MeasuredNode root = new MeasuredNode(GridRectangle.ofSize(4, 4), 1, List.of(), Rational.ZERO,
        List.of(MeasuredNode.leaf(left, 0, List.of(new Measurement(40, Rational.ONE))),
            MeasuredNode.leaf(right, 0, List.of(new Measurement(8, Rational.ONE)))));
    SpatialSynopsis s = TreeInference.synopsis(root, Inference.LEAF_LAST_MEASUREMENT);
    // 3 of the left leaf's 8 cells and 3 of the right leaf's 8 cells
    assertEquals(40 * 3 / 8.0 + 8 * 3 / 8.0, s.answer(new GridRectangle(1, 4, 1, 3)), 1e-12);
    assertEquals(48, s.answer(GridRectangle.ofSize(4, 4)), 0);
    assertEquals(2, s.leafCount());
    assertThrows(IllegalArgumentException.class, () -> s.answer(GridRectangle.ofSize(5, 4)));
  }

  /** With noise, answers are still the leaf-level uniformity estimate of the released counts. */
  @Test
  void noisyAnswersAreConsistentWithTheReleasedLeaves() {
    HtfRelease r = new HtfMechanism(HtfParameters.paperDefaults(Rational.parse("0.2")))
        .release(DATA, new SeededRandomBits(12));
    SpatialSynopsis s = r.synopsis(Inference.LEAF_LAST_MEASUREMENT);
    List<MeasuredNode> leaves = r.root().leaves();
    for (GridRectangle q : RangeQueryWorkload.squares(DATA.rows(), DATA.columns(), 0.06, 100, 2)) {
      double expected = 0;
      for (MeasuredNode l : leaves) {
        List<Measurement> ms = l.measurements();
        expected += ms.get(ms.size() - 1).noisyCount()
            * (double) l.region().intersectionArea(q) / l.region().area();
      }
      assertEquals(expected, s.answer(q), 1e-9 * Math.max(1, Math.abs(expected)));
    }
  }
}
