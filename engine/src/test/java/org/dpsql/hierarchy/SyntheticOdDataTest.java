package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SyntheticOdDataTest {

  @Test
  void table1IsReproducedExactly() {
    long[][] expected = {
      {1_051_271, 65_536}, {734_688, 32_768}, {23_302, 655},
      {2_019_580, 189_225}, {1_003_943, 95_612}, {67_840, 1_892}
    };
    int k = 0;
    for (SyntheticOdData.Partition p : SyntheticOdData.Partition.values()) {
      for (SyntheticOdData.Density d : SyntheticOdData.Density.values()) {
        SyntheticOdData.Dataset ds = SyntheticOdData.table1(p, d);
        assertEquals(expected[k][0], ds.users(), ds.name() + " users");
        assertEquals(expected[k][1], ds.pairs(), ds.name() + " O/D pairs");
        assertEquals(p == SyntheticOdData.Partition.BINARY ? 16 : 8, ds.domain().depth(), "depth");
        assertTrue(ds.counts().isNonNegative());
        SparseLevel leaves = ds.counts().level(ds.domain().depth());
        long[] v = leaves.values();
        Arrays.sort(v);
        assertTrue(v[0] >= 1, "every listed pair is non-empty");
        if (v.length > 1000) {
          // heavy (Pareto) tail: the largest flow dwarfs the median
          assertTrue(v[v.length - 1] > 20 * v[v.length / 2], ds.name() + " tail");
        }
        k++;
      }
    }
    assertEquals(256, SyntheticOdData.binaryPartition(8).size(8));
    assertEquals(435, SyntheticOdData.table1RandomPartition().size(4));
  }

  @Test
  void generatorIsDeterministicAndValidates() {
    OdTreeDomain d = OdTreeDomain.destinationTree(Hierarchy.uniform(3, 3));
    HierarchicalCounts a = SyntheticOdData.paretoFlows(d, 20, 500, 1.5, 1);
    HierarchicalCounts b = SyntheticOdData.paretoFlows(d, 20, 500, 1.5, 1);
    assertEquals(500, a.total());
    assertEquals(20, a.level(4).size());
    assertTrue(Arrays.equals(a.level(4).ids(), b.level(4).ids()));
    assertTrue(Arrays.equals(a.level(4).values(), b.level(4).values()));
    assertThrows(IllegalArgumentException.class, () -> SyntheticOdData.paretoFlows(d, 82, 500, 1.5, 1));
    assertThrows(IllegalArgumentException.class, () -> SyntheticOdData.paretoFlows(d, 20, 19, 1.5, 1));
    Hierarchy r = SyntheticOdData.randomPartition(3, 2, 10, 4);
    for (int l = 0; l < 3; l++) {
      for (int i = 0; i < r.size(l); i++) {
        int c = r.childCount(l, i);
        assertTrue(c >= 2 && c <= 10);
      }
    }
  }
}
