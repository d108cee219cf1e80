package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * {@link OwnRowAnswers} on weighted and parallel rows: the strategy rows {@code 3·(1,1,0,0,0)},
 * {@code (0,1,1,0,0)}, {@code 2·(1,1,0,0,0)} and {@code (0,0,0,2,4)} over 5 cells. The query
 * {@code (1,1,0,0,0)} pools rows 0 and 2: {@code (3y₀ + 2y₂)/13}, variance {@code v/13}; the query
 * {@code (0,0,0,1,2)} is row 3 halved, {@code y₃/2}, variance {@code v/4}; a single cell and the
 * sum of two rows are not answered.
 *
 * <p>Empirical check at ρ = 0.5 (noise variance {@code v = S₂/(2ρ) = 16}, {@code S₂ = 4² = 16} at
 * cell 4, above cell 1's {@code 3² + 1² + 2² = 14}): over {@code R = 4,000} seeded releases, {@code Σ err²/Var} of each query is a
 * chi-square with {@code R} degrees of freedom (up to the discrete Gaussian's fourth moment, equal
 * to the continuous one within {@code e^(−2π²v)}), accepted within {@code ±4.89 √(2/R)} of {@code R}
 * relative (two-sided significance 10⁻⁶); the mean error within {@code ±4.89 √(Var/R)}.
 */
class OwnRowPoolingTest {
  private static LatticeStrategy strategy() {
    int[] starts = {0, 2, 4, 6, 8};
    int[] cols = {0, 1, 1, 2, 0, 1, 3, 4};
    long[] vals = {3, 3, 1, 1, 2, 2, 2, 4};
    return LatticeStrategy.of("pooled", List.of(LatticeMatrix.ofCompressedRows(4, 5, 0, starts,
        cols, vals)));
  }

  @Test
  void parallelRowsArePooledWithTheirExactVariance() {
    LatticeStrategy a = strategy();
    OwnRowAnswers own = OwnRowAnswers.of(a);
    assertEquals(3, own.distinctRows());
    double[] y = {30, 7, 19, 11};
    double[] pair = {1, 1, 0, 0, 0};
    assertEquals((3 * 30 + 2 * 19) / 13.0, own.answer(pair, y), 1e-12);
    assertEquals(1 / 13.0, own.unitVariance(pair), 1e-15);
    double[] halfRow = {0, 0, 0, 1, 2};
    assertEquals(11 / 2.0, own.answer(halfRow, y), 1e-12);
    assertEquals(0.25, own.unitVariance(halfRow), 1e-15);
    double[] negative = {0, 0, 0, -3, -6};
    assertEquals(-3 * 11 / 2.0, own.answer(negative, y), 1e-12);
    assertEquals(9 * 0.25, own.unitVariance(negative), 1e-15);
    assertFalse(own.covers(new double[] {0, 0, 0, 0, 1}));
    assertFalse(own.covers(new double[] {1, 2, 1, 0, 0}), "the sum of two measured rows");
    assertFalse(own.covers(new double[] {0, 0, 0, 1, 3}), "same support, other ratios");
    assertThrows(IllegalArgumentException.class,
        () -> own.answer(new double[] {0, 0, 1, 0, 0}, y));
    Workload w = new SparseWorkload(5, new int[][] {{0, 1}, {1, 2}});
    assertTrue(own.covers(w));
    assertEquals(1 / 13.0 + 1, own.totalUnitVariance(w), 1e-12);
    double[] both = own.answers(w, y);
    assertEquals((3 * 30 + 2 * 19) / 13.0, both[0], 1e-12);
    assertEquals(7, both[1], 1e-12);
    assertFalse(own.covers(new SparseWorkload(5, new int[][] {{0, 1}, {2}})));
  }

  @Test
  void releasesAreUnbiasedWithTheStatedVariance() {
    LatticeStrategy a = strategy();
    MatrixMechanism mm = MatrixMechanism.answeringOwnRows(a);
    assertThrows(IllegalStateException.class, mm::inference);
    NoiseSpec spec = NoiseSpec.zcdp(Rational.of(new BigDecimal("0.5")));
    double v = mm.calibrate(spec).unitVariance();
    assertEquals(16, v, 1e-6 * 16);
    check(mm, spec, v, 2.0, 2026);
  }

  /**
   * Under pure DP (ε = 1) the noise is discrete Laplace of scale {@code t = S₁/ε = 6} ({@code S₁ =
   * 3 + 1 + 2} at cell 1), {@code q = e^(−1/t)}: {@code Var[Z²]/Var[Z]² = (1 + 10q + q²)/(2q) − 1
   * ≈ 5.01} (from {@code E Z² = 2q/(1−q)²}, {@code E Z⁴ = 2q(1 + 10q + q²)/(1−q)⁴}), which bounds the
   * pooled query's ratio too (a sum of independent terms has a smaller excess kurtosis): the
   * tolerance is {@code ±4.89 √(ratio/R)}.
   */
  @Test
  void releasesUnderPureDpAreUnbiasedWithTheStatedVariance() {
    MatrixMechanism mm = MatrixMechanism.answeringOwnRows(strategy());
    NoiseSpec spec = NoiseSpec.pureDp(Rational.of(1));
    double v = mm.calibrate(spec).unitVariance();
    double q = Math.exp(-1 / 6.0);
    assertEquals(2 * q / ((1 - q) * (1 - q)), v, 1e-9 * v);
    check(mm, spec, v, (1 + 10 * q + q * q) / (2 * q) - 1, 77);
  }

  /**
   * {@code R} releases of {@code x}; per query, the mean squared error over the stated variance
   * within {@code ±4.89 √(kurtosisRatio/R)} of 1 and the mean error within {@code ±4.89
   * √(Var/R)} of 0.
   */
  private static void check(MatrixMechanism mm, NoiseSpec spec, double v, double kurtosisRatio,
      long seed) {
    long[] x = {4, 0, 9, 2, 5};
    double[][] queries = {{1, 1, 0, 0, 0}, {0, 1, 1, 0, 0}, {0, 0, 0, 1, 2}};
    double[] truth = {4, 9, 12};
    double[] stated = {v / 13, v, v / 4};
    int releases = 4000;
    double[] squared = new double[3];
    double[] sum = new double[3];
    SeededRandomBits random = new SeededRandomBits(seed);
    for (int r = 0; r < releases; r++) {
      Estimate e = mm.run(x, spec, random);
      assertFalse(e.hasCells());
      for (int q = 0; q < 3; q++) {
        double err = e.answer(queries[q]) - truth[q];
        squared[q] += err * err;
        sum[q] += err;
        if (r == 0) {
          assertEquals(stated[q], e.variance(queries[q]), 1e-9 * stated[q]);
        }
      }
    }
    for (int q = 0; q < 3; q++) {
      assertEquals(1, squared[q] / releases / stated[q],
          4.89 * Math.sqrt(kurtosisRatio / releases),
          "query " + q + ": empirical / stated variance");
      assertEquals(0, sum[q] / releases, 4.89 * Math.sqrt(stated[q] / releases),
          "query " + q + ": mean error");
    }
  }
}
