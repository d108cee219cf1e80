package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TreeDomainTest {

  /** Every child's parent is its parent, child counts add up to the next level's size. */
  static void assertWellFormed(TreeDomain d) {
    assertEquals(1, d.levelSize(0));
    for (int l = 0; l < d.depth(); l++) {
      long children = 0;
      for (long u = 0; u < d.levelSize(l); u++) {
        int b = d.childCount(l, u);
        assertTrue(b >= 1);
        for (int j = 0; j < b; j++) {
          long c = d.child(l, u, j);
          assertEquals(u, d.parent(l + 1, c), "parent of child");
        }
        children += b;
      }
      assertEquals(d.levelSize(l + 1), children, "level " + (l + 1) + " size");
    }
  }

  @Test
  void uniformHierarchy() {
    Hierarchy h = Hierarchy.uniform(3, 2, 4);
    assertEquals(3, h.depth());
    assertEquals(3, h.size(1));
    assertEquals(6, h.size(2));
    assertEquals(24, h.size(3));
    assertEquals(4, h.firstChild(2, 1));
    assertEquals(1, h.ancestor(3, 11, 1));
    assertWellFormed(h);
    assertThrows(IllegalArgumentException.class, () -> h.child(1, 0, 2));
    assertThrows(IllegalArgumentException.class, () -> h.childCount(3, 0));
    assertThrows(IllegalArgumentException.class, () -> Hierarchy.uniform(2, 0));
  }

  @Test
  void hierarchyFromLeafPaths() {
    List<List<String>> paths =
        List.of(
            List.of("Veneto", "Padova", "Abano"),
            List.of("Lombardia", "Milano", "Milano"),
            List.of("Veneto", "Venezia", "Chioggia"),
            List.of("Veneto", "Padova", "Este"));
    Hierarchy h = Hierarchy.ofLeafPaths(paths);
    assertEquals(2, h.size(1));
    assertEquals(3, h.size(2));
    assertEquals(4, h.size(3));
    assertWellFormed(h);
    int este = h.find(List.of("Veneto", "Padova", "Este"));
    assertEquals("Este", h.label(3, este));
    assertEquals("Padova", h.label(2, (int) h.parent(3, este)));
    assertEquals("Veneto", h.label(1, h.ancestor(3, este, 1)));
    assertEquals(-1, h.find(List.of("Veneto", "Milano")));
    assertThrows(
        IllegalArgumentException.class,
        () -> Hierarchy.ofLeafPaths(List.of(List.of("a", "b"), List.of("a", "b"))));
    assertThrows(
        IllegalArgumentException.class,
        () -> Hierarchy.ofLeafPaths(List.of(List.of("a", "b"), List.of("a"))));
  }

  @Test
  void destinationTreeFollowsThePaper() {
    Hierarchy areas = Hierarchy.uniform(3, 2);
    OdTreeDomain d = OdTreeDomain.destinationTree(areas);
    assertEquals(4, d.depth());
    // level 1: (country, region); level 2: region pairs; level 3: (region, province); level 4: pairs
    assertEquals(0, d.originLevel(1));
    assertEquals(1, d.destinationLevel(1));
    assertEquals(1, d.originLevel(2));
    assertEquals(1, d.destinationLevel(2));
    assertEquals(1, d.originLevel(3));
    assertEquals(2, d.destinationLevel(3));
    assertEquals(3, d.levelSize(1));
    assertEquals(9, d.levelSize(2));
    assertEquals(18, d.levelSize(3));
    assertEquals(36, d.levelSize(4));
    assertTrue(d.splitsDestination(0));
    assertFalse(d.splitsDestination(1));
    assertWellFormed(d);
    // children of (u1 = 2, v1 = 1) at level 2 are (2, v2) for v2 in children(1) = {2, 3}
    long node = d.nodeId(2, 2, 1);
    assertEquals(2, d.childCount(2, node));
    assertEquals(d.nodeId(3, 2, 2), d.child(2, node, 0));
    assertEquals(d.nodeId(3, 2, 3), d.child(2, node, 1));
    assertEquals(2, d.originOf(3, d.child(2, node, 1)));
    assertEquals(3, d.destinationOf(3, d.child(2, node, 1)));
  }

  @Test
  void originTreeSplitsTheOriginFirst() {
    Hierarchy o = Hierarchy.uniform(2, 3);
    Hierarchy dest = Hierarchy.uniform(4, 2);
    OdTreeDomain d = new OdTreeDomain(o, dest, OdTreeDomain.SplitOrder.ORIGIN_FIRST);
    assertEquals(1, d.originLevel(1));
    assertEquals(0, d.destinationLevel(1));
    assertEquals(2, d.levelSize(1));
    assertEquals(8, d.levelSize(2));
    assertEquals(24, d.levelSize(3));
    assertEquals(48, d.levelSize(4));
    assertWellFormed(d);
    assertThrows(
        IllegalArgumentException.class,
        () -> new OdTreeDomain(o, Hierarchy.uniform(2), OdTreeDomain.SplitOrder.ORIGIN_FIRST));
  }

  @Test
  void bothOdTreesHaveTheSameLeavesAndTotals() {
    Hierarchy areas = SyntheticOdData.randomPartition(2, 2, 4, 3);
    OdTreeDomain dt = OdTreeDomain.destinationTree(areas);
    OdTreeDomain ot = OdTreeDomain.originTree(areas);
    SplittableRandom r = new SplittableRandom(1);
    int leaves = areas.size(2);
    List<Long> ids = new ArrayList<>();
    List<Long> cnt = new ArrayList<>();
    for (int o = 0; o < leaves; o++) {
      for (int v = 0; v < leaves; v++) {
        if (r.nextInt(3) == 0) {
          ids.add(dt.leafId(o, v));
          cnt.add((long) (1 + r.nextInt(9)));
        }
      }
    }
    long[] idArr = ids.stream().mapToLong(Long::longValue).toArray();
    long[] cArr = cnt.stream().mapToLong(Long::longValue).toArray();
    HierarchicalCounts a = HierarchicalCounts.fromLeafCounts(dt, idArr, cArr);
    HierarchicalCounts b = HierarchicalCounts.fromLeafCounts(ot, idArr, cArr); // same leaf ids
    a.checkConsistency();
    b.checkConsistency();
    assertEquals(a.total(), b.total());
    // Level 2 of both trees is the region-pair level: identical counts.
    assertEquals(a.level(2).size(), b.level(2).size());
    for (int i = 0; i < a.level(2).size(); i++) {
      assertEquals(a.level(2).id(i), b.level(2).id(i));
      assertEquals(a.level(2).value(i), b.level(2).value(i));
    }
    // Level 1 differs: (country, destination region) vs (origin region, country).
    long sumOverOrigins = 0;
    for (int u = 0; u < areas.size(1); u++) {
      sumOverOrigins += a.count(2, dt.nodeId(2, u, 0));
    }
    assertEquals(sumOverOrigins, a.count(1, dt.nodeId(1, 0, 0)));
  }

  @Test
  void countsAreAggregatedAndValidated() {
    Hierarchy h = Hierarchy.uniform(2, 3);
    HierarchicalCounts c =
        HierarchicalCounts.fromLeafCounts(h, new long[] {5, 0, 4, 1}, new long[] {7, 1, 0, 2});
    assertEquals(10, c.total());
    assertEquals(3, c.count(1, 0));
    assertEquals(7, c.count(1, 1));
    assertEquals(3, c.level(2).size()); // zero dropped
    assertTrue(c.isNonNegative());
    c.checkConsistency();
    assertThrows(
        IllegalArgumentException.class,
        () -> HierarchicalCounts.fromLeafCounts(h, new long[] {6}, new long[] {1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> HierarchicalCounts.fromLeafCounts(h, new long[] {1}, new long[] {-1}));
    assertThrows(
        IllegalArgumentException.class,
        () -> HierarchicalCounts.fromLeafCounts(h, new long[] {1, 1}, new long[] {1, 2}));
    HierarchicalCounts signed =
        HierarchicalCounts.fromSignedLeafValues(h, new long[] {0, 3}, new long[] {-2, 1});
    assertFalse(signed.isNonNegative());
    assertEquals(-1, signed.total());
    signed.checkConsistency();
  }

  @Test
  void consistencyCheckDetectsViolations() {
    Hierarchy h = Hierarchy.uniform(2, 2);
    SparseLevel[] levels = {
      SparseLevel.of(new long[] {0}, new long[] {5}),
      SparseLevel.of(new long[] {0, 1}, new long[] {2, 3}),
      SparseLevel.of(new long[] {0, 2}, new long[] {2, 2})
    };
    HierarchicalCounts bad = new HierarchicalCounts(h, levels);
    assertThrows(IllegalStateException.class, bad::checkConsistency);
  }

  @Test
  void pairSortIsStableAndCorrect() {
    SplittableRandom r = new SplittableRandom(9);
    for (int n : new int[] {0, 1, 5, 31, 32, 33, 1000, 5000}) {
      long[] k = new long[n];
      long[] v = new long[n];
      for (int i = 0; i < n; i++) {
        k[i] = r.nextInt(50);
        v[i] = i;
      }
      LongPairSort.sort(k, v, n);
      for (int i = 1; i < n; i++) {
        assertTrue(k[i - 1] < k[i] || (k[i - 1] == k[i] && v[i - 1] < v[i]));
      }
    }
  }
}
