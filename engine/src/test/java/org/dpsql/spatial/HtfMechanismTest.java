package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class HtfMechanismTest {
  private static final FrequencyMatrix DATA =
      new GaussianClusterData(128, 128, 3, 200_000, 6, 17).frequencyMatrix();

  private static HtfRelease release(HtfParameters p, long seed) {
    return new HtfMechanism(p).release(DATA, new SeededRandomBits(seed));
  }

  /** A root-to-leaf path: the nodes from the root down to one leaf. */
  private static List<List<MeasuredNode>> paths(MeasuredNode root) {
    List<List<MeasuredNode>> out = new ArrayList<>();
    collect(root, new ArrayList<>(), out);
    return out;
  }

  private static void collect(MeasuredNode n, List<MeasuredNode> prefix, List<List<MeasuredNode>> out) {
    prefix.add(n);
    if (n.isLeaf()) {
      out.add(new ArrayList<>(prefix));
    } else {
      for (MeasuredNode c : n.children()) {
        collect(c, prefix, out);
      }
    }
    prefix.remove(prefix.size() - 1);
  }

  @Test
  void budgetSplitIsExact() {
    for (String e : new String[] {"0.1", "0.3", "0.5", "1"}) {
      HtfParameters p = HtfParameters.paperDefaults(Rational.parse(e));
      for (int h = 0; h <= 20; h++) {
        HtfBudget b = HtfBudget.of(p, h);
        assertEquals(b.total(), b.partition().add(b.data()).add(b.height()));
        assertEquals(Rational.parse("0.0005").multiply(h), b.partition());
        assertEquals(Rational.parse("0.0005").divide(7), b.perEvaluation());
        assertEquals(Rational.parse(e).subtract(Rational.parse("0.0005").multiply(h))
            .subtract(Rational.parse("0.0001")), b.data());
        assertEquals(b.data(), b.remainingAt(h));
      }
    }
    // the paper's example: eps_tot = 0.1, h = 15: eps_data = 0.1 - 15 * 5e-4 - 1e-4 = 0.0924
    assertEquals(Rational.parse("0.0924"),
        HtfBudget.of(HtfParameters.paperDefaults(Rational.parse("0.1")), 15).data());
  }

  /**
   * Sequential composition on every root-to-leaf path: the data measurements sum to ε_data
   * exactly, the split charges to (number of splits)·ε'_prt ≤ ε_prt, and with ε_height the total
   * is ≤ ε_tot, with equality on paths that reach height 0 through h splits.
   */
  @Test
  void everyPathSpendsExactlyTheDataBudgetAndAtMostTheTotal() {
    HtfRelease r = release(HtfParameters.paperDefaults(Rational.parse("0.5")), 1);
    HtfBudget b = r.budget();
    assertEquals(13, b.treeHeight()); // floor(log2(200000 * 0.5 / 10))
    int full = 0;
    int pruned = 0;
    for (List<MeasuredNode> path : paths(r.root())) {
      Rational data = Rational.ZERO;
      Rational split = Rational.ZERO;
      int splits = 0;
      for (MeasuredNode n : path) {
        for (Measurement m : n.measurements()) {
          data = data.add(m.epsilon());
        }
        split = split.add(n.partitionCharge());
        if (!n.isLeaf()) {
          splits++;
          assertEquals(b.partitionPerLevel(), n.partitionCharge());
        }
      }
      assertEquals(b.data(), data, "data budget on a path");
      assertEquals(b.partitionPerLevel().multiply(splits), split);
      assertTrue(split.compareTo(b.partition()) <= 0);
      Rational total = data.add(split).add(b.height());
      assertTrue(total.compareTo(b.total()) <= 0);
      if (splits == b.treeHeight()) {
        assertEquals(b.total(), total);
        full++;
      } else {
        pruned++;
      }
    }
    assertTrue(full > 0 && pruned > 0, "both kinds of path occur: " + full + ", " + pruned);
  }

  /** With reclaiming, a path that stops early spends the unused split budget on its leaf. */
  @Test
  void withReclaimingEveryPathSpendsExactlyTheTotal() {
    HtfRelease r = release(
        HtfParameters.paperDefaults(Rational.parse("0.5")).withReclaimPartitionBudget(true), 2);
    for (List<MeasuredNode> path : paths(r.root())) {
      Rational total = r.budget().height();
      for (MeasuredNode n : path) {
        total = total.add(n.budgetSpent());
      }
      assertEquals(r.budget().total(), total);
    }
  }

  /**
   * Parallel composition per level: nodes of one level are disjoint; every inner node's first
   * measurement uses that level's share ε_i and its split ε'_prt; every node's spending is the same
   * function of its level and kind, so a level as a whole spends ε_i + ε'_prt per record.
   */
  @Test
  void perLevelBudgetsAreUniformAndNodesDisjoint() {
    HtfRelease r = release(HtfParameters.paperDefaults(Rational.parse("0.3")), 3);
    HtfBudget b = r.budget();
    Map<Integer, List<MeasuredNode>> byLevel = new TreeMap<>();
    List<MeasuredNode> all = new ArrayList<>();
    List<MeasuredNode> stack = new ArrayList<>(List.of(r.root()));
    while (!stack.isEmpty()) {
      MeasuredNode n = stack.remove(stack.size() - 1);
      all.add(n);
      byLevel.computeIfAbsent(n.level(), k -> new ArrayList<>()).add(n);
      stack.addAll(n.children());
    }
    assertEquals(b.treeHeight(), r.root().level());
    for (Map.Entry<Integer, List<MeasuredNode>> e : byLevel.entrySet()) {
      List<MeasuredNode> level = e.getValue();
      long area = 0;
      for (int i = 0; i < level.size(); i++) {
        area += level.get(i).region().area();
        for (int j = i + 1; j < level.size(); j++) {
          assertTrue(!level.get(i).region().intersects(level.get(j).region()));
        }
        MeasuredNode n = level.get(i);
        if (!n.isLeaf()) {
          assertEquals(1, n.measurements().size());
          assertEquals(b.levelShare(e.getKey()), n.measurements().get(0).epsilon());
          assertEquals(b.partitionPerLevel(), n.partitionCharge());
        } else if (n.measurements().size() == 2) { // pruned by count
          assertEquals(b.levelShare(e.getKey()), n.measurements().get(0).epsilon());
          assertEquals(b.remainingAt(e.getKey()).subtract(b.levelShare(e.getKey())),
              n.measurements().get(1).epsilon());
        } else {
          assertEquals(b.remainingAt(e.getKey()), n.measurements().get(0).epsilon());
        }
      }
      assertTrue(area <= DATA.domain().area());
    }
    // leaves tile the domain
    long leafArea = 0;
    for (MeasuredNode l : r.root().leaves()) {
      leafArea += l.region().area();
    }
    assertEquals(DATA.domain().area(), leafArea);
  }

  @Test
  void sameSeedGivesTheSameReleaseAndAnotherSeedAnother() {
    HtfParameters p = HtfParameters.paperDefaults(Rational.parse("0.1"));
    HtfRelease a = release(p, 77);
    HtfRelease b = release(p, 77);
    HtfRelease c = release(p, 78);
    assertEquals(describe(a.root()), describe(b.root()));
    assertEquals(a.noisyTotal(), b.noisyTotal());
    assertNotEquals(describe(a.root()), describe(c.root()));
  }

  private static String describe(MeasuredNode n) {
    StringBuilder sb = new StringBuilder();
    sb.append(n.region()).append(n.level()).append(n.measurements()).append(n.partitionCharge());
    for (MeasuredNode c : n.children()) {
      sb.append('(').append(describe(c)).append(')');
    }
    return sb.toString();
  }

  /** Without noise, the tree follows the exact stop rules: leaves are small or light. */
  @Test
  void noiseFreeTreeObeysTheStopConditions() {
    HtfParameters p = HtfParameters.paperDefaults(Rational.parse("0.5"));
    HtfRelease r = new HtfMechanism(p).release(DATA, NoiseSource.off());
    assertEquals(DATA.total(), r.noisyTotal());
    for (MeasuredNode leaf : r.root().leaves()) {
      long count = DATA.count(leaf.region());
      boolean stopped = leaf.level() == 0 || leaf.region().area() <= p.stopArea()
          || count <= p.stopCount() || leaf.region().area() == 1;
      assertTrue(stopped, () -> "leaf " + leaf + " should have been split");
      for (Measurement m : leaf.measurements()) {
        assertEquals(count, m.noisyCount());
      }
    }
  }

  /**
   * The count noise of the release path: (noisy − exact) for a node measured with a geometric
   * share (a rational with a large denominator) is discrete Laplace with scale 1/ε_i. Chi-square
   * at significance 0.001 on 20,000 samples, fixed seed.
   */
  @Test
  void countNoiseIsDiscreteLaplaceWithScaleOneOverEpsilon() {
    Rational eps = GeometricBudget.allocate(Rational.parse("0.9"), 6).get(2);
    NoiseSource noise = NoiseSource.exact(new SeededRandomBits(5));
    GridRectangle region = new GridRectangle(10, 40, 5, 60);
    long exact = DATA.count(region);
    long[] z = new long[20_000];
    for (int i = 0; i < z.length; i++) {
      z[i] = CountMeasurer.measure(DATA, region, eps, noise).noisyCount() - exact;
    }
    double p = SpatialStats.symmetricPValue(z, new DiscreteLaplaceDistribution(eps.reciprocal())::pmf);
    System.out.println("[HtfMechanismTest] count noise at eps = " + eps.doubleValue() + ": chi-square p = " + p);
    assertTrue(p > 0.001, "chi-square p = " + p);
  }

  @Test
  void rejectsInconsistentParameters() {
    Rational e = Rational.parse("0.1");
    assertThrows(IllegalArgumentException.class, () -> new HtfParameters(e, e,
        HtfParameters.PAPER_PARTITION_PER_LEVEL, 3, 100, 5, Rational.of(10), false,
        Inference.LEAF_LAST_MEASUREMENT));
    assertThrows(IllegalArgumentException.class, () -> new HtfParameters(e,
        HtfParameters.PAPER_EPSILON_HEIGHT, Rational.ZERO, 3, 100, 5, Rational.of(10), false,
        Inference.LEAF_LAST_MEASUREMENT));
    assertThrows(IllegalArgumentException.class, () -> new HtfParameters(e,
        HtfParameters.PAPER_EPSILON_HEIGHT, HtfParameters.PAPER_PARTITION_PER_LEVEL, -1, 100, 5,
        Rational.of(10), false, Inference.LEAF_LAST_MEASUREMENT));
  }

  /** The height is capped so that the split budget never eats more than half of the rest. */
  @Test
  void heightIsCappedByTheBudget() {
    HtfParameters p = HtfParameters.paperDefaults(Rational.parse("0.002")); // cap: 0.0019/2/0.0005 -> 1
    assertEquals(1, p.maxHeightForBudget());
    HtfRelease r = new HtfMechanism(p).release(DATA, NoiseSource.off());
    assertEquals(1, r.budget().treeHeight());
    assertTrue(r.budget().data().compareTo(r.budget().partition()) > 0);
  }
}
