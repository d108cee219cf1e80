package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class TopDownMechanismTest {

  /** A random public domain: a plain hierarchy or an O/D tree in either order. */
  static TreeDomain randomDomain(SplittableRandom r) {
    int kind = r.nextInt(3);
    int levels = 1 + r.nextInt(kind == 0 ? 4 : 2);
    Hierarchy h = SyntheticOdData.randomPartition(levels, 1, 5, r.nextLong());
    if (kind == 0) {
      return h;
    }
    Hierarchy other = SyntheticOdData.randomPartition(levels, 1, 4, r.nextLong());
    return new OdTreeDomain(
        h, other, kind == 1 ? OdTreeDomain.SplitOrder.DESTINATION_FIRST : OdTreeDomain.SplitOrder.ORIGIN_FIRST);
  }

  /** Random sparse leaf counts: each leaf non-empty with a random probability. */
  static HierarchicalCounts randomCounts(TreeDomain d, SplittableRandom r) {
    long leaves = d.levelSize(d.depth());
    double density = r.nextDouble() < 0.3 ? 0.05 : r.nextDouble();
    List<Long> ids = new ArrayList<>();
    List<Long> counts = new ArrayList<>();
    for (long leaf = 0; leaf < leaves; leaf++) {
      if (r.nextDouble() < density) {
        ids.add(leaf);
        counts.add(1L + (r.nextInt(4) == 0 ? r.nextInt(500) : r.nextInt(6)));
      }
    }
    return HierarchicalCounts.fromLeafCounts(
        d,
        ids.stream().mapToLong(Long::longValue).toArray(),
        counts.stream().mapToLong(Long::longValue).toArray());
  }

  private static void assertReleaseInvariants(
      HierarchicalCounts data, TopDownRelease rel, Neighbouring nb) {
    HierarchicalCounts out = rel.tree();
    assertTrue(out.isNonNegative(), "non-negative");
    out.checkConsistency(); // integral by type; every parent = Σ children
    if (nb == Neighbouring.BOUNDED) {
      assertEquals(data.total(), out.total(), "bounded DP: root = public total");
    }
    // Noise on every public-domain child of every kept node, and nowhere else.
    long[] draws = rel.noiseDraws();
    TreeDomain d = data.domain();
    for (int l = 1; l <= d.depth(); l++) {
      long expected = 0;
      SparseLevel prev = out.level(l - 1);
      for (int i = 0; i < prev.size(); i++) {
        expected += d.childCount(l - 1, prev.id(i));
      }
      assertEquals(expected, draws[l], "draws at level " + l);
    }
    assertEquals(nb == Neighbouring.UNBOUNDED ? 1 : 0, draws[0]);
  }

  @Test
  void outputInvariantsOnRandomTrees() {
    SplittableRandom r = new SplittableRandom(42);
    int trees = 0;
    for (int seed = 0; seed < 150; seed++) {
      TreeDomain d = randomDomain(r);
      HierarchicalCounts data = randomCounts(d, r);
      Rational rho = Rational.of(1 + r.nextInt(50), 100);
      for (Neighbouring nb : Neighbouring.values()) {
        BudgetSplit split = r.nextBoolean() ? BudgetSplit.uniform() : BudgetSplit.zoomIn();
        Contribution contribution = r.nextInt(4) == 0 ? new Contribution(2, r.nextBoolean()) : Contribution.ONE;
        TopDownBudget budget = TopDownBudget.of(rho, d.depth(), nb, contribution, split);
        List<TopDownMechanism> mechanisms = new ArrayList<>();
        mechanisms.add(TopDownMechanism.infTda(budget));
        mechanisms.add(TopDownMechanism.infTda(budget, ReductionOrder.DESCENDING));
        mechanisms.add(TopDownMechanism.tdaL2(budget));
        if (seed % 10 == 0) {
          mechanisms.add(TopDownMechanism.tdaLinf(budget)); // slow: a MILP per node
        }
        for (TopDownMechanism m : mechanisms) {
          TopDownRelease rel = m.release(data, new SeededRandomBits(seed * 31L + nb.ordinal()));
          assertReleaseInvariants(data, rel, nb);
          trees++;
        }
      }
    }
    assertTrue(trees > 900);
  }

  @Test
  void emptyDataAndTinyBudgets() {
    Hierarchy h = Hierarchy.uniform(3, 3);
    HierarchicalCounts empty = HierarchicalCounts.fromLeafCounts(h, new long[0], new long[0]);
    TopDownRelease rel =
        TopDownMechanism.infTda(TopDownBudget.paper(Rational.ONE, 2)).release(empty, new SeededRandomBits(1));
    assertEquals(0, rel.tree().total());
    assertEquals(0, rel.totalNoiseDraws(), "nothing kept, nothing drawn");
    HierarchicalCounts one = HierarchicalCounts.fromLeafCounts(h, new long[] {4}, new long[] {1});
    TopDownRelease noisy =
        TopDownMechanism.infTda(TopDownBudget.paper(Rational.of(1, 1_000_000), 2))
            .release(one, new SeededRandomBits(2));
    assertEquals(1, noisy.tree().total());
    noisy.tree().checkConsistency();
    assertThrows(
        IllegalArgumentException.class,
        () -> TopDownMechanism.infTda(TopDownBudget.paper(Rational.ONE, 3)).release(one, new SeededRandomBits(3)));
  }

  @Test
  void noiseDrawsFollowTheLevelsDiscreteGaussian() {
    // A fixed O/D tree; every draw is observed; per level a chi-square test against N_Z(0, σ_ℓ²).
    Hierarchy areas = Hierarchy.uniform(4, 3);
    OdTreeDomain d = OdTreeDomain.destinationTree(areas);
    HierarchicalCounts data = SyntheticOdData.paretoFlows(d, 100, 20_000, 1.5, 7);
    TopDownBudget budget =
        TopDownBudget.of(
            Rational.parse("0.05"), d.depth(), Neighbouring.UNBOUNDED, Contribution.ONE, BudgetSplit.zoomIn());
    TopDownMechanism m = TopDownMechanism.infTda(budget);
    List<Map<Long, Long>> hist = new ArrayList<>();
    long[] n = new long[d.depth() + 1];
    for (int l = 0; l <= d.depth(); l++) {
      hist.add(new HashMap<>());
    }
    SeededRandomBits bits = new SeededRandomBits(99);
    for (int run = 0; run < 60; run++) {
      m.release(
          data,
          bits,
          (level, noise) -> {
            hist.get(level).merge(noise, 1L, Long::sum);
            n[level]++;
          });
    }
    for (int l = 1; l <= d.depth(); l++) {
      DiscreteGaussianDistribution dg = new DiscreteGaussianDistribution(budget.sigmaSquared(l));
      double p = Stats.chiSquarePValue(hist.get(l), n[l], dg::pmf);
      System.out.printf(
          "TopDown noise level %d: sigma^2 = %.1f, %d draws, chi-square p = %.3f%n",
          l, budget.sigmaSquared(l).doubleValue(), n[l], p);
      assertTrue(p > 1e-4, "level " + l + ": noise does not match N_Z(0, σ_ℓ²), p = " + p);
      // and not the neighbouring level's variance (the test can fail)
      if (l < d.depth()) {
        DiscreteGaussianDistribution wrong = new DiscreteGaussianDistribution(budget.sigmaSquared(l).multiply(2));
        if (n[l] > 2_000) {
          assertTrue(Stats.chiSquarePValue(hist.get(l), n[l], wrong::pmf) < 1e-4, "power check");
        }
      }
    }
  }
}
