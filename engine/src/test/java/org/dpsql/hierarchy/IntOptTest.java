package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class IntOptTest {

  private static void assertFeasible(long[] y, long c) {
    long s = 0;
    for (long v : y) {
      assertTrue(v >= 0, "negative entry");
      s += v;
    }
    assertEquals(c, s, "sum");
  }

  /** Random small instance: b in [1, 6], c in [0, 30], x_i in [-12, 20]. */
  private static long[] randomX(SplittableRandom r, int b) {
    long[] x = new long[b];
    for (int i = 0; i < b; i++) {
      x[i] = r.nextInt(33) - 12;
    }
    return x;
  }

  @Test
  void paperWorkedExample() {
    long[] x = {0, -1, 1};
    // Section 4.2: (1, 0, 1) and (0, 0, 2) are both optimal at distance 1.
    assertEquals(1, IntOpt.minimumDistance(x, 2));
    assertArrayEquals(new long[] {0, 0, 2}, IntOpt.solve(x, 2, ReductionOrder.ASCENDING));
    assertArrayEquals(new long[] {1, 0, 1}, IntOpt.solve(x, 2, ReductionOrder.DESCENDING));
    assertArrayEquals(new long[] {0, 0, 2}, IntOpt.projectAppendixC(x, 2));
    assertArrayEquals(new long[] {0, 0, 2}, ChebyshevMilp.algorithm2(x, 2, ReductionOrder.ASCENDING));
    assertEquals(1, ChebyshevMilp.bruteForce(x, 2));
  }

  @Test
  void moreHandExamples() {
    // Lemma 5's bound is not always tight: x = (5, 5, -1), c = 0 needs distance 5.
    long[] x = {5, 5, -1};
    assertEquals(5, IntOpt.minimumDistance(x, 0));
    assertArrayEquals(new long[] {0, 0, 0}, IntOpt.solve(x, 0));
    // Already feasible: unchanged.
    assertArrayEquals(new long[] {3, 0, 4}, IntOpt.solve(new long[] {3, 0, 4}, 7));
    // Single child: must take the parent's value.
    assertArrayEquals(new long[] {9}, IntOpt.solve(new long[] {-4}, 9));
    // Surplus spread: x = (1,1,1,1), c = 10 -> every entry +2 or +3 (distance 2 is impossible).
    long[] y = IntOpt.solve(new long[] {1, 1, 1, 1}, 10);
    assertFeasible(y, 10);
    assertEquals(2, IntOpt.chebyshevDistance(new long[] {1, 1, 1, 1}, y));
  }

  @Test
  void equalsTheLiteralAlgorithm2OnRandomInstances() {
    SplittableRandom r = new SplittableRandom(11);
    for (int trial = 0; trial < 20_000; trial++) {
      int b = 1 + r.nextInt(8);
      long[] x = randomX(r, b);
      long c = r.nextInt(40);
      for (ReductionOrder order : ReductionOrder.values()) {
        assertArrayEquals(
            ChebyshevMilp.algorithm2(x, c, order),
            IntOpt.solve(x, c, order),
            () -> "x=" + java.util.Arrays.toString(x) + " c=" + c + " " + order);
      }
    }
  }

  @Test
  @Tag("slow") // 1,000 ojAlgo MILP solves: 1.5-10 s depending on machine load
  void optimalAgainstMilpAndBruteForceOnSmallInstances() {
    SplittableRandom r = new SplittableRandom(2024);
    int instances = 1_000;
    int heuristicZeros = 0;
    int neutralZeros = 0;
    for (int trial = 0; trial < instances; trial++) {
      int b = 1 + r.nextInt(6);
      long[] x = randomX(r, b);
      long c = r.nextInt(31);
      long milp = ChebyshevMilp.optimum(x, c);
      long closedForm = IntOpt.minimumDistance(x, c);
      assertEquals(milp, closedForm, "closed form vs MILP");
      if (b <= 4 && c <= 15) {
        assertEquals(milp, ChebyshevMilp.bruteForce(x, c), "MILP vs brute force");
      }
      long[] asc = IntOpt.solve(x, c, ReductionOrder.ASCENDING);
      long[] idx = IntOpt.solve(x, c, ReductionOrder.INDEX);
      long[] desc = IntOpt.solve(x, c, ReductionOrder.DESCENDING);
      long[] appC = IntOpt.projectAppendixC(x, c);
      for (long[] y : new long[][] {asc, idx, desc, appC}) {
        assertFeasible(y, c);
        assertEquals(milp, IntOpt.chebyshevDistance(x, y), "distance = MILP optimum");
      }
      // The false-positive heuristic never increases the distance (same optimum as no heuristic).
      assertEquals(
          IntOpt.chebyshevDistance(x, idx), IntOpt.chebyshevDistance(x, asc), "heuristic distance");
      for (int i = 0; i < b; i++) {
        heuristicZeros += asc[i] == 0 ? 1 : 0;
        neutralZeros += idx[i] == 0 ? 1 : 0;
      }
    }
    System.out.printf(
        "IntOpt: %d instances equal to the ojAlgo MILP optimum; zeros ascending %d vs index order %d%n",
        instances, heuristicZeros, neutralZeros);
    assertTrue(heuristicZeros >= neutralZeros, "ascending order should not produce fewer zeros");
  }

  @Test
  void largeValuesAndLargeFanOut() {
    SplittableRandom r = new SplittableRandom(5);
    long[] x = new long[100_000];
    long sum = 0;
    for (int i = 0; i < x.length; i++) {
      x[i] = (i % 100 == 0 ? 5_000 : 0) + r.nextInt(401) - 200;
      sum += Math.max(0, x[i]);
    }
    long c = sum / 2;
    long[] y = IntOpt.solve(x, c);
    assertFeasible(y, c);
    assertEquals(IntOpt.minimumDistance(x, c), IntOpt.chebyshevDistance(x, y));
    long[] y4 = IntOpt.projectAppendixC(x, c);
    assertFeasible(y4, c);
    assertEquals(IntOpt.minimumDistance(x, c), IntOpt.chebyshevDistance(x, y4));
  }

  @Test
  void farFromTheStartingLevel() {
    // The literal Algorithm 2 would sweep about 10^9 times here; the fast version is immediate.
    long[] x = {1_000_000_000L, 1_000_000_000L, -3};
    long[] y = IntOpt.solve(x, 0);
    assertArrayEquals(new long[] {0, 0, 0}, y);
    assertEquals(1_000_000_000L, IntOpt.minimumDistance(x, 0));
    assertArrayEquals(new long[] {0, 0, 0}, IntOpt.projectAppendixC(x, 0));
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> IntOpt.solve(new long[0], 1));
    assertThrows(IllegalArgumentException.class, () -> IntOpt.solve(new long[] {1}, -1));
    assertThrows(IllegalArgumentException.class, () -> IntOpt.minimumDistance(new long[] {1}, -2));
    assertThrows(NullPointerException.class, () -> IntOpt.solve(null, 1));
  }
}
