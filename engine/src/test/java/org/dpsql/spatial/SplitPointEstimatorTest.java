package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class SplitPointEstimatorTest {

  /** 16 rows x 1 column: five rows of 10, then eleven empty rows; o_5 = 0 is the optimum. */
  private static FrequencyMatrix fiveDenseRows() {
    long[][] c = new long[16][1];
    for (int i = 0; i < 5; i++) {
      c[i][0] = 10;
    }
    return FrequencyMatrix.of(c);
  }

  /**
   * Noise off, T = 3: round 1 evaluates 8, then k₁ = 4, k₂ = 12 (o = 37.5, 18.3, 58.3) and keeps 4
   * with l = 0, r = 8; round 2 evaluates 2 and 6 (47.1, 16.7) and keeps 6 with l = 4, r = 8; round
   * 3 evaluates 5 and 7 (0, 28.6) and returns 5. Exactly 2T + 1 = 7 evaluations.
   */
  @Test
  void visitsTheCorrectedCandidatePositions() {
    SplitPointEstimator est = new SplitPointEstimator(3);
    FrequencyMatrix f = fiveDenseRows();
    SplitPointEstimator.SplitChoice c =
        est.choose(f, f.domain(), SplitAxis.ROWS, Rational.of(1), NoiseSource.off());
    assertEquals(List.of(8, 4, 12, 2, 6, 5, 7), c.evaluated());
    assertEquals(5, c.position());
  }

  /** With T = 4 the fourth round has no interior candidate in (4, 5) or (5, 6) and stops. */
  @Test
  void stopsWhenNoInteriorCandidateIsLeft() {
    FrequencyMatrix f = fiveDenseRows();
    SplitPointEstimator.SplitChoice c = new SplitPointEstimator(4)
        .choose(f, f.domain(), SplitAxis.ROWS, Rational.of(1), NoiseSource.off());
    assertEquals(List.of(8, 4, 12, 2, 6, 5, 7), c.evaluated());
    assertEquals(5, c.position());
  }

  @Test
  void singleCandidateIsReturnedWithoutEvaluation() {
    FrequencyMatrix f = FrequencyMatrix.of(new long[][] {{1, 7}, {3, 0}});
    SplitPointEstimator.SplitChoice c = new SplitPointEstimator(3)
        .choose(f, f.domain(), SplitAxis.ROWS, Rational.of(1), NoiseSource.off());
    assertEquals(1, c.position());
    assertEquals(List.of(), c.evaluated());
    FrequencyMatrix one = FrequencyMatrix.of(new long[][] {{1, 7}});
    assertThrows(IllegalArgumentException.class, () -> new SplitPointEstimator(3)
        .choose(one, one.domain(), SplitAxis.ROWS, Rational.of(1), NoiseSource.off()));
  }

  @Test
  void perEvaluationBudgetIsPerLevelOverTwoTPlusOne() {
    assertEquals(Rational.of(5, 70_000),
        new SplitPointEstimator(3).perEvaluationBudget(Rational.of(5, 10_000)));
    assertEquals(Rational.of(1), new SplitPointEstimator(0).perEvaluationBudget(Rational.of(1)));
    assertThrows(IllegalArgumentException.class, () -> new SplitPointEstimator(-1));
  }

  /**
   * With real noise, on random nodes of every size: at most 2T + 1 distinct evaluations, every one
   * a valid interior split, and the result one of them.
   */
  @Test
  void evaluationsStayWithinTheBudgetedCount() {
    SplittableRandom rnd = new SplittableRandom(3);
    SeededRandomBits bits = new SeededRandomBits(99);
    for (int trial = 0; trial < 200; trial++) {
      int rows = 2 + rnd.nextInt(60);
      int cols = 1 + rnd.nextInt(5);
      FrequencyMatrix f = HomogeneityObjectiveTest.randomMatrix(rnd, rows, cols, 50);
      int t = rnd.nextInt(6);
      SplitPointEstimator est = new SplitPointEstimator(t);
      SplitPointEstimator.SplitChoice c =
          est.choose(f, f.domain(), SplitAxis.ROWS, Rational.of(1, 100), bits);
      assertTrue(c.evaluated().size() <= 2 * t + 1);
      assertEquals(c.evaluated().size(), new HashSet<>(c.evaluated()).size(), "re-evaluation");
      assertTrue(c.position() >= 1 && c.position() < rows);
      for (int k : c.evaluated()) {
        assertTrue(k >= 1 && k < rows);
      }
      if (!c.evaluated().isEmpty()) {
        assertTrue(c.evaluated().contains(c.position()));
      }
    }
  }

  /**
   * The noise of one evaluation: L_k · (noisy − exact) must be discrete Laplace with scale 2 L_k /
   * ε''. Chi-square at significance 0.001 on 20,000 samples (fixed seed), for L = 1 (scale 2) and
   * L = 27 (scale 54, a 4 x 3 node split after one row: 3 x 9 cells).
   */
  @Test
  void evaluationNoiseIsDiscreteLaplaceWithTheScaledSensitivity() {
    SeededRandomBits bits = new SeededRandomBits(2024);
    NoiseSource noise = NoiseSource.exact(bits);
    FrequencyMatrix small = FrequencyMatrix.of(new long[][] {{4}, {1}});
    FrequencyMatrix wide = HomogeneityObjectiveTest.randomMatrix(new SplittableRandom(1), 4, 3, 9);
    Object[][] cases = {{small, 1L, 2L}, {wide, 27L, 54L}};
    for (Object[] cs : cases) {
      FrequencyMatrix f = (FrequencyMatrix) cs[0];
      long l = (Long) cs[1];
      Rational exact = HomogeneityObjective.objective(f, f.domain(), SplitAxis.ROWS, 1);
      long[] z = new long[20_000];
      for (int s = 0; s < z.length; s++) {
        Rational noisy = SplitPointEstimator.noisyObjective(
            f, f.domain(), SplitAxis.ROWS, 1, Rational.ONE, noise);
        Rational scaled = noisy.subtract(exact).multiply(l);
        assertTrue(scaled.isInteger(), "noise must live on the lattice Z / L");
        z[s] = scaled.num().longValueExact();
      }
      DiscreteLaplaceDistribution d = new DiscreteLaplaceDistribution(Rational.of((Long) cs[2]));
      double p = SpatialStats.symmetricPValue(z, d::pmf);
      System.out.println("[SplitPointEstimatorTest] evaluation noise, L = " + l + ": chi-square p = " + p);
      assertTrue(p > 0.001, "chi-square p = " + p + " for L = " + l);
    }
  }
}
