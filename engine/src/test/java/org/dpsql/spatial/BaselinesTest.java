package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class BaselinesTest {
  private static final FrequencyMatrix DATA =
      new GaussianClusterData(128, 128, 3, 100_000, 8, 5).frequencyMatrix();
  private static final Rational EPS = Rational.parse("0.5");
  private static final Rational EPS_N = HtfParameters.PAPER_EPSILON_HEIGHT;

  /** Qardaji et al.'s granularities at the paper's data size (3.5 million points). */
  @Test
  void gridGranularitiesFollowQardaji() {
    UniformGrid ug = UniformGrid.paperDefaults(Rational.parse("0.1"));
    assertEquals(187, ug.granularity(3_500_000, 1024)); // round(sqrt(35000)) = round(187.08)
    assertEquals(418, UniformGrid.paperDefaults(Rational.parse("0.5")).granularity(3_500_000, 1024));
    assertEquals(1024, ug.granularity(Long.MAX_VALUE / 4, 1024));
    assertEquals(1, ug.granularity(-5, 1024));
    AdaptiveGrid ag = AdaptiveGrid.paperDefaults(Rational.parse("0.1"));
    assertEquals(47, ag.firstLevelGranularity(3_500_000, 1024)); // ceil(187.08 / 4)
    assertEquals(10, ag.firstLevelGranularity(1_000, 1024)); // max(10, ...)
    // m2 = ceil(sqrt(N' (1 - 0.5) 0.1 / 5)) with N' = 2000: sqrt(20) = 4.47 -> 5
    assertEquals(5, ag.secondLevelGranularity(2_000, 100));
    assertEquals(1, ag.secondLevelGranularity(-30, 100));
    assertEquals(3, ag.secondLevelGranularity(2_000, 3)); // clamped to the cell
  }

  private static List<List<MeasuredNode>> paths(MeasuredNode root) {
    List<List<MeasuredNode>> out = new ArrayList<>();
    collect(root, new ArrayList<>(), out);
    return out;
  }

  private static void collect(MeasuredNode n, List<MeasuredNode> p, List<List<MeasuredNode>> out) {
    p.add(n);
    if (n.isLeaf()) {
      out.add(new ArrayList<>(p));
    } else {
      for (MeasuredNode c : n.children()) {
        collect(c, p, out);
      }
    }
    p.remove(p.size() - 1);
  }

  private static void assertEveryPathSpends(MeasuredNode root, Rational expected) {
    assertEveryPathSpends(root, expected, Rational.ZERO);
  }

  /**
   * Every path spends exactly {@code expected} minus the split budget {@code perSplit} of the
   * levels it never split (a kd-tree leaf reached early, a single cell, stops charging splits).
   */
  private static void assertEveryPathSpends(MeasuredNode root, Rational expected, Rational perSplit) {
    for (List<MeasuredNode> path : paths(root)) {
      Rational s = EPS_N;
      for (MeasuredNode n : path) {
        s = s.add(n.budgetSpent());
      }
      int unsplit = path.get(path.size() - 1).level();
      assertEquals(expected, s.add(perSplit.multiply(unsplit)),
          "path to " + path.get(path.size() - 1).region());
      assertTrue(s.compareTo(expected) <= 0);
    }
  }

  /** Every record's path through each baseline spends exactly ε (including ε_N). */
  @Test
  void everyBaselineSpendsExactlyEpsilonOnEveryPath() {
    SeededRandomBits bits = new SeededRandomBits(4);
    assertEveryPathSpends(UniformGrid.paperDefaults(EPS).releaseTree(DATA, NoiseSource.exact(bits)), EPS);
    assertEveryPathSpends(AdaptiveGrid.paperDefaults(EPS).releaseTree(DATA, NoiseSource.exact(bits)), EPS);
    Rational medians = EPS.subtract(EPS_N).multiply(PrivateKdTree.PAPER_MEDIAN_SHARE);
    MeasuredNode kd = PrivateKdTree.paperDefaults(EPS).releaseTree(DATA, NoiseSource.exact(bits));
    assertEquals(12, kd.level()); // floor(log2(100000 * 0.5 / 10))
    assertEveryPathSpends(kd, EPS, medians.divide(12));
    assertEveryPathSpends(PrivateKdTree.paperDefaults(EPS).withHeight(6)
        .releaseTree(DATA, NoiseSource.exact(bits)), EPS, medians.divide(6));
    assertEveryPathSpends(PrivateQuadtree.paperDefaults(EPS).releaseTree(DATA, NoiseSource.exact(bits)), EPS);
  }

  /** With noise off every baseline answers node-aligned rectangles exactly. */
  @Test
  void noiseFreeBaselinesAnswerAlignedRectanglesExactly() {
    List<MeasuredNode> trees = List.of(
        UniformGrid.paperDefaults(EPS).releaseTree(DATA, NoiseSource.off()),
        AdaptiveGrid.paperDefaults(EPS).releaseTree(DATA, NoiseSource.off()),
        PrivateKdTree.paperDefaults(EPS).releaseTree(DATA, NoiseSource.off()),
        PrivateQuadtree.paperDefaults(EPS).releaseTree(DATA, NoiseSource.off()));
    for (MeasuredNode t : trees) {
      SpatialSynopsis s = TreeInference.synopsis(t, Inference.LEAST_SQUARES);
      for (MeasuredNode leaf : t.leaves()) {
        long c = DATA.count(leaf.region());
        assertEquals(c, s.answer(leaf.region()), 1e-9 * Math.max(1, c));
      }
      assertEquals(DATA.total(), s.answer(DATA.domain()), 1e-9 * DATA.total());
    }
  }

  /** The quadtree's structure is data-independent: two datasets give the same leaves. */
  @Test
  void quadtreeStructureIsDataIndependent() {
    FrequencyMatrix other = new GaussianClusterData(128, 128, 1, 5_000, 30, 9).frequencyMatrix();
    PrivateQuadtree qt = PrivateQuadtree.paperDefaults(EPS).withDepth(5);
    List<GridRectangle> a = new ArrayList<>();
    List<GridRectangle> b = new ArrayList<>();
    qt.releaseTree(DATA, NoiseSource.exact(new SeededRandomBits(1))).leaves().forEach(l -> a.add(l.region()));
    qt.releaseTree(other, NoiseSource.exact(new SeededRandomBits(2))).leaves().forEach(l -> b.add(l.region()));
    assertEquals(a, b);
    assertEquals(1024, a.size()); // 4^5
  }

  /** The kd-tree's median utility −|2 S(k) − S| has sensitivity 1 (checked on every neighbour). */
  @Test
  void kdMedianUtilityHasSensitivityOne() {
    long[][] c = {{3, 0, 2}, {1, 4, 0}, {0, 0, 5}, {2, 2, 2}};
    FrequencyMatrix f = FrequencyMatrix.of(c);
    for (SplitAxis axis : SplitAxis.values()) {
      long[] u = PrivateKdTree.medianUtilities(f, f.domain(), axis);
      for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 3; j++) {
          c[i][j]++;
          long[] u2 = PrivateKdTree.medianUtilities(FrequencyMatrix.of(c), f.domain(), axis);
          c[i][j]--;
          for (int k = 0; k < u.length; k++) {
            assertEquals(1, Math.abs(u2[k] - u[k]));
          }
        }
      }
    }
    // noise off: the exact median cut. Rows sum to 5, 5, 5, 6: cut after 2 rows (10 vs 11).
    MeasuredNode t = PrivateKdTree.paperDefaults(EPS).withHeight(2).releaseTree(f, NoiseSource.off());
    assertEquals(new GridRectangle(0, 2, 0, 3), t.children().get(0).region());
  }

  /** UG cells are disjoint and tile the domain with the prescribed granularity. */
  @Test
  void uniformGridTilesTheDomain() {
    UniformGrid ug = UniformGrid.paperDefaults(EPS);
    MeasuredNode t = ug.releaseTree(DATA, NoiseSource.off());
    int m = ug.granularity(DATA.total(), 128);
    assertEquals(m * m, t.leaves().size());
    long area = 0;
    for (MeasuredNode l : t.leaves()) {
      area += l.region().area();
      assertEquals(1, l.measurements().size());
      assertEquals(EPS.subtract(EPS_N), l.measurements().get(0).epsilon());
    }
    assertEquals(DATA.domain().area(), area);
    assertTrue(m > 10);
  }
}
