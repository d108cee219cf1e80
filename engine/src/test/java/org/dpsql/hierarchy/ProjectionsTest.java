package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ProjectionsTest {

  private static void assertFeasible(long[] y, long c) {
    long s = 0;
    for (long v : y) {
      assertTrue(v >= 0);
      s += v;
    }
    assertEquals(c, s);
  }

  @Test
  void simplexProjectionIsTheEuclideanProjection() {
    SplittableRandom r = new SplittableRandom(3);
    for (int trial = 0; trial < 20_000; trial++) {
      int b = 1 + r.nextInt(10);
      long[] x = new long[b];
      for (int i = 0; i < b; i++) {
        x[i] = r.nextInt(61) - 20;
      }
      long c = r.nextInt(80);
      long[] num = SimplexL2Projection.realProjectionNumerators(x, c);
      long k = num[b];
      double[] yhat = new double[b];
      double sum = 0;
      for (int i = 0; i < b; i++) {
        yhat[i] = num[i] / (double) k;
        sum += yhat[i];
        assertTrue(yhat[i] >= 0);
      }
      assertEquals(c, sum, 1e-9, "real projection sums to c");
      // KKT: ŷ = max(x − θ, 0) for a single θ (θ = x_i − ŷ_i on the support, θ >= x_i off it).
      if (c > 0) {
        double theta = Double.NaN;
        for (int i = 0; i < b; i++) {
          if (yhat[i] > 0) {
            double th = x[i] - yhat[i];
            if (Double.isNaN(theta)) {
              theta = th;
            }
            assertEquals(theta, th, 1e-9, "one threshold on the support");
          }
        }
        for (int i = 0; i < b; i++) {
          if (yhat[i] == 0) {
            assertTrue(x[i] <= theta + 1e-9, "off-support entries are below the threshold");
          }
        }
      }
      long[] y = SimplexL2Projection.instance().project(x, c);
      assertFeasible(y, c);
      for (int i = 0; i < b; i++) {
        assertTrue(Math.abs(y[i] - yhat[i]) <= 1.5 + 1e-9, "within 1.5 of the real projection");
      }
    }
    // Hand example: x = (10, 4, -3), c = 8: θ = (14 − 8)/2 = 3, ŷ = (7, 1, 0).
    assertArrayEquals(new long[] {7, 1, 0}, SimplexL2Projection.instance().project(new long[] {10, 4, -3}, 8));
    // Rounding then redistribution: x = (1, 1, 1), c = 2: ŷ = (2/3, 2/3, 2/3) rounds to (1, 1, 1),
    // one unit too many, taken from the smallest non-zero (ties by index): (0, 1, 1).
    assertArrayEquals(new long[] {0, 1, 1}, SimplexL2Projection.instance().project(new long[] {1, 1, 1}, 2));
  }

  @Test
  void milpProjectionIsChebyshevOptimal() {
    SplittableRandom r = new SplittableRandom(4);
    for (int trial = 0; trial < 300; trial++) {
      int b = 1 + r.nextInt(6);
      long[] x = new long[b];
      for (int i = 0; i < b; i++) {
        x[i] = r.nextInt(41) - 10;
      }
      long c = r.nextInt(50);
      long[] y = LpChebyshevProjection.instance().project(x, c);
      assertFeasible(y, c);
      assertEquals(IntOpt.minimumDistance(x, c), IntOpt.chebyshevDistance(x, y));
    }
    // large values (the root of the binary complete data set)
    long[] x = {525_901, 525_370};
    long[] y = LpChebyshevProjection.instance().project(x, 1_051_271);
    assertFeasible(y, 1_051_271);
    assertEquals(IntOpt.minimumDistance(x, 1_051_271), IntOpt.chebyshevDistance(x, y));
  }
}
