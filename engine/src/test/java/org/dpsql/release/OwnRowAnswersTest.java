package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.accounting.Accounting;
import org.dpsql.matrix.DirectStrategy;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.LatticeStrategy;
import org.dpsql.matrix.mechanism.LeastSquares;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a workload is never answered worse than by measuring its own queries, also when its
 * rows are too ill-conditioned for least squares. 2,100 random long ranges over 4,000 hourly
 * cells (both ends uniform, so the mean length is n/3; the scaled-down form of 3,000 ranges over
 * 8,760 hours, kept above 2,048 queries and 2,048 cells so that the rows are solved iteratively):
 * conjugate gradients do not reach the accepted residual within their work cap (the probe fails,
 * shown here), so the workload's rows are measured as they are and each query answered by its own
 * noisy count ({@link MatrixMechanism#answeringOwnRows}).
 *
 * <p>Stated error: the rows are plain ({@code c_k = 1}: more than 256 norm groups, so not
 * re-weighted) and pairwise non-parallel, so query {@code k}'s answer {@code y_k} has variance
 * exactly {@code v} (the lattice noise's variance, {@code ≈ ‖W‖₂²/(2ρ)}), the total {@code m v},
 * the expected RMSE {@code √(‖W‖₂²/(2ρ))}; the identity's is {@code √(‖W‖_F²/(2ρ m))}.
 *
 * <p>Empirical check: the answers' errors are independent (one noise coordinate each), so over
 * {@code R} seeded releases {@code Σ err²/v} is a sum of {@code N = R m} independent squared
 * standardised discrete Gaussians: mean {@code N}, variance {@code 2N} (the discrete Gaussian's
 * fourth moment at {@code σ² ≈ 2·10⁴} equals the continuous one up to {@code e^(−2π²σ²)}). The
 * ratio empirical/stated MSE is accepted within {@code ±4.89 √(2/N)} (two-sided significance
 * {@code 10⁻⁶}), and the mean error within {@code ±4.89 √(v/N)} (no bias).
 */
class OwnRowAnswersTest {
  private static final int CELLS = 4000;
  private static final int QUERIES = 2100;
  private static final BigDecimal DELTA = new BigDecimal("1e-9");
  private static final BudgetAmount RHO = new BudgetAmount(null, null, new BigDecimal("0.02"));

  private static Workload w;
  private static long[] x;
  private static double[] truth;

  @BeforeAll
  static void workload() {
    SplittableRandom r = new SplittableRandom(3000);
    int[][] rows = new int[QUERIES][];
    for (int i = 0; i < rows.length; i++) {
      int a = r.nextInt(CELLS);
      int b = r.nextInt(CELLS);
      rows[i] = java.util.stream.IntStream.rangeClosed(Math.min(a, b), Math.max(a, b)).toArray();
    }
    w = new SparseWorkload(CELLS, rows);
    x = new long[CELLS];
    SplittableRandom d = new SplittableRandom(33);
    for (int j = 0; j < CELLS; j++) {
      x[j] = d.nextInt(6);
    }
    truth = w.answer(java.util.Arrays.stream(x).asDoubleStream().toArray());
  }

  private static WorkloadCalibration.VectorPlan plan(BudgetAmount budget, boolean cells)
      throws SQLException {
    return WorkloadCalibration.calibrate(Accounting.ZCDP, budget, DELTA, DpHint.NONE,
        List.of(Measurement.countStar()), List.of(w), 1, cells).perMeasurement().get(0);
  }

  private static double maxColumnCount() {
    double s2 = 0;
    for (double v : w.gramDiagonal()) {
      s2 = Math.max(s2, v);
    }
    return s2;
  }

  @Test
  void illConditionedRowsAreAnsweredByTheirOwnMeasurementsBelowTheIdentity()
      throws SQLException {
    DirectStrategy direct = DirectStrategy.forWorkload(w, false,
        WorkloadCalibration.MAX_DIRECT_NONZEROS);
    assertFalse(direct.reweighted(), direct.name());
    // the conjugate-gradient probe fails: least squares is not available for these rows
    IllegalStateException probe = assertThrows(IllegalStateException.class,
        () -> LeastSquares.of(LatticeStrategy.round(direct)));
    assertTrue(probe.getMessage().contains("did not converge"), probe.getMessage());

    WorkloadCalibration.VectorPlan vp = plan(RHO, false);
    WorkloadCalibration.Candidate chosen = vp.chosen();
    double identity = vp.candidates().stream().filter(c -> c.mechanism() == Mechanism.IDENTITY)
        .findFirst().orElseThrow().rmse();
    double stated = Math.sqrt(maxColumnCount() / (2 * 0.02));
    System.out.printf("%d random ranges over %d cells: chosen %s %.3f, identity %.3f%n", QUERIES,
        CELLS, chosen.strategyName(), chosen.rmse(), identity);
    assertTrue(chosen.strategyName().startsWith(WorkloadCalibration.OWN_ROWS_PREFIX + "Direct("),
        chosen.strategyName());
    assertFalse(chosen.cellEstimates());
    assertEquals(Mechanism.DISCRETE_GAUSSIAN, chosen.mechanism());
    assertEquals(stated, chosen.rmse(), 1e-9 * stated);
    assertEquals(Math.sqrt(w.frobeniusSquared() / (2 * 0.02 * QUERIES)), identity,
        1e-9 * identity);
    assertTrue(chosen.rmse() < identity, chosen.rmse() + " >= " + identity);

    // a release that must return cell estimates does not get it (identity or another design)
    WorkloadCalibration.VectorPlan cells = plan(RHO, true);
    assertTrue(cells.candidates().stream().allMatch(WorkloadCalibration.Candidate::cellEstimates),
        cells.candidates().toString());
    assertTrue(cells.chosen().cellEstimates());
  }

  @Test
  void empiricalErrorIsTheStatedErrorWithoutBias() throws SQLException {
    WorkloadCalibration.VectorPlan vp = plan(RHO, false);
    MatrixMechanism mm = vp.chosen().prepared().get();
    assertTrue(mm.answersOwnRows());
    double v = mm.calibrate(vp.noise()).unitVariance();
    // the calibration's RMSE uses σ² = ‖W‖₂²/(2ρ); the exact discrete Gaussian variance is below
    assertEquals(vp.expectedRmse() * vp.expectedRmse(), v, 1e-6 * v);
    int releases = 5;
    double squared = 0;
    double sum = 0;
    for (int rep = 0; rep < releases; rep++) {
      Estimate e = mm.run(x, vp.noise(), new SeededRandomBits(500 + rep));
      double[] got = e.answers(w);
      for (int k = 0; k < QUERIES; k++) {
        double err = got[k] - truth[k];
        squared += err * err;
        sum += err;
      }
      assertEquals(QUERIES * v, e.totalVariance(w), 1e-9 * QUERIES * v);
    }
    double n = releases * (double) QUERIES;
    double ratio = squared / n / v;
    double tolerance = 4.89 * Math.sqrt(2 / n);
    System.out.printf("empirical MSE / stated MSE = %.4f (tolerance ±%.4f over %.0f answers)%n",
        ratio, tolerance, n);
    assertEquals(1, ratio, tolerance, "empirical / stated mean squared error");
    assertEquals(0, sum / n, 4.89 * Math.sqrt(v / n), "mean error");
  }

  /**
   * With ρ = 10⁸ the noise's standard deviation is below 0.003 per query: every answer rounds to
   * its exact count; a repeated query (a multiple of a measured row, found by its normalised row)
   * is answered, with the variance of its row; any other query (one cell, or the sum of two
   * measured ranges) is refused, to be measured anew; there are no cell estimates.
   */
  @Test
  void noiseFreeAnswersAreTheExactCountsAndOnlyMeasuredQueriesAreCovered() throws SQLException {
    WorkloadCalibration.VectorPlan vp = plan(new BudgetAmount(null, null,
        new BigDecimal("100000000")), false);
    MatrixMechanism mm = vp.chosen().prepared().get();
    Estimate e = mm.run(x, vp.noise(), new SeededRandomBits(7));
    double[] got = e.answers(w);
    for (int k = 0; k < QUERIES; k++) {
      assertEquals(Math.round(truth[k]), Math.round(got[k]), "query " + k);
    }
    assertFalse(e.hasCells());
    assertThrows(IllegalStateException.class, e::cells);
    assertThrows(IllegalStateException.class, e::inference);
    double[][] rows = w.matrix();
    assertTrue(e.covers(w));
    assertTrue(e.covers(rows[17]));
    assertEquals(got[17], e.answer(rows[17]), 0);
    double[] twice = rows[17].clone();
    for (int j = 0; j < twice.length; j++) {
      twice[j] *= 2;
    }
    assertEquals(2 * got[17], e.answer(twice), 1e-9 * Math.abs(got[17]));
    assertEquals(4 * e.variance(rows[17]), e.variance(twice), 1e-9 * e.variance(twice));
    double[] cell = new double[CELLS];
    cell[5] = 1;
    assertFalse(e.covers(cell));
    assertThrows(IllegalArgumentException.class, () -> e.answer(cell));
    double[] both = rows[17].clone();
    for (int j = 0; j < both.length; j++) {
      both[j] += rows[18][j];
    }
    assertFalse(e.covers(both));
    // the same workload again from the kept estimate: the same answers
    assertArrayEquals(got, e.answers(w));
  }
}
