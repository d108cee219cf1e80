package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ReleaseMetricsTest {

  @Test
  void handComputedExample() {
    Hierarchy h = Hierarchy.uniform(2, 3); // leaves 0..5
    HierarchicalCounts truth =
        HierarchicalCounts.fromLeafCounts(h, new long[] {0, 1, 4}, new long[] {5, 2, 9});
    HierarchicalCounts released =
        HierarchicalCounts.fromSignedLeafValues(h, new long[] {0, 2, 3, 5}, new long[] {7, 1, -4, 3});
    ReleaseMetrics leaves = ReleaseMetrics.of(truth, released, 2);
    // errors: leaf0 +2, leaf1 -2, leaf2 +1, leaf3 -4, leaf4 -9, leaf5 +3
    assertEquals(9, leaves.maxAbsoluteError());
    assertEquals(3, leaves.positives()); // leaves 0, 2, 5
    assertEquals(2, leaves.falsePositives()); // leaves 2, 5
    assertEquals(2, leaves.falseNegatives()); // leaves 1, 4
    assertEquals(2.0 / 3.0, leaves.falseDiscoveryRate(), 1e-12);
    ReleaseMetrics level1 = ReleaseMetrics.of(truth, released, 1);
    // truth (7, 9), released (8, -1)
    assertEquals(10, level1.maxAbsoluteError());
    assertEquals(1, level1.positives());
    assertEquals(0, level1.falsePositives());
    assertEquals(1, level1.falseNegatives());
    assertEquals(0, ReleaseMetrics.of(truth, truth, 2).maxAbsoluteError());
    assertEquals(3, ReleaseMetrics.perLevel(truth, released).length);
  }
}
