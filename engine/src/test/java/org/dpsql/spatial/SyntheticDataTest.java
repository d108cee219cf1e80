package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SyntheticDataTest {

  @Test
  void generatorIsDeterministicAndKeepsEveryPoint() {
    GaussianClusterData g = new GaussianClusterData(64, 48, 3, 10_001, 5, 7);
    FrequencyMatrix a = g.frequencyMatrix();
    FrequencyMatrix b = g.frequencyMatrix();
    assertEquals(10_001, a.total());
    for (int i = 0; i < 64; i++) {
      for (int j = 0; j < 48; j++) {
        assertEquals(a.cell(i, j), b.cell(i, j));
      }
    }
    FrequencyMatrix c = new GaussianClusterData(64, 48, 3, 10_001, 5, 8).frequencyMatrix();
    boolean differs = false;
    for (int i = 0; i < 64 && !differs; i++) {
      for (int j = 0; j < 48; j++) {
        differs |= a.cell(i, j) != c.cell(i, j);
      }
    }
    assertTrue(differs);
  }

  /** A single cluster with small σ puts most points within ±2σ of its densest cell. */
  @Test
  void clustersAreConcentrated() {
    FrequencyMatrix f = new GaussianClusterData(200, 200, 1, 50_000, 4, 3).frequencyMatrix();
    int bi = 0;
    int bj = 0;
    for (int i = 0; i < 200; i++) {
      for (int j = 0; j < 200; j++) {
        if (f.cell(i, j) > f.cell(bi, bj)) {
          bi = i;
          bj = j;
        }
      }
    }
    GridRectangle box = new GridRectangle(Math.max(0, bi - 9), Math.min(200, bi + 10),
        Math.max(0, bj - 9), Math.min(200, bj + 10));
    assertTrue(f.count(box) > 0.8 * f.total(), "mass near the centre: " + f.count(box));
  }

  @Test
  void workloadsHaveTheStatedSizesAndStayInside() {
    List<GridRectangle> sq = RangeQueryWorkload.squares(1024, 1024, 0.02, 500, 1);
    assertEquals(500, sq.size());
    for (GridRectangle q : sq) {
      assertEquals(145, q.height()); // round(sqrt(0.02 * 1024^2)) = round(144.8)
      assertEquals(145, q.width());
      assertTrue(q.rowTo() <= 1024 && q.colTo() <= 1024);
    }
    assertEquals(324, RangeQueryWorkload.squares(1024, 1024, 0.10, 1, 1).get(0).width());
    List<GridRectangle> rs = RangeQueryWorkload.randomShapes(100, 50, 500, 2);
    boolean varied = false;
    for (GridRectangle q : rs) {
      assertTrue(q.rowTo() <= 100 && q.colTo() <= 50);
      varied |= q.height() != rs.get(0).height();
    }
    assertTrue(varied);
    assertNotEquals(RangeQueryWorkload.randomShapes(100, 50, 5, 2), RangeQueryWorkload.randomShapes(100, 50, 5, 3));
    assertThrows(IllegalArgumentException.class, () -> RangeQueryWorkload.squares(10, 10, 0, 1, 1));
  }

  @Test
  void relativeErrorUsesTheSmoothingFactor() {
    assertEquals(50.0, RelativeError.of(0, 10, 20), 1e-12);
    assertEquals(10.0, RelativeError.of(200, 180, 20), 1e-12);
    assertEquals(100.0, RelativeError.of(20, 0, 20), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> RelativeError.of(1, 1, 0));
  }

  @Test
  void frequencyMatrixValidatesAndCountsRectangles() {
    FrequencyMatrix f = FrequencyMatrix.of(new long[][] {{1, 2, 3}, {4, 5, 6}});
    assertEquals(21, f.total());
    assertEquals(5 + 6, f.count(new GridRectangle(1, 2, 1, 3)));
    assertEquals(2 + 5, f.count(new GridRectangle(0, 2, 1, 2)));
    assertThrows(IllegalArgumentException.class, () -> FrequencyMatrix.of(new long[][] {{1, -1}}));
    assertThrows(IllegalArgumentException.class, () -> FrequencyMatrix.of(new long[][] {{1}, {1, 2}}));
    assertThrows(IllegalArgumentException.class, () -> f.count(new GridRectangle(0, 3, 0, 1)));
    assertThrows(IllegalArgumentException.class, () -> new GridRectangle(2, 2, 0, 1));
    assertThrows(IllegalArgumentException.class,
        () -> FrequencyMatrix.of(new long[][] {{Long.MAX_VALUE, 1}}));
  }
}
