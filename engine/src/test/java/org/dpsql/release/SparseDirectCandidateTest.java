package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.accounting.Accounting;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.matrix.mechanism.MatrixMechanism;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a workload of more than {@link WorkloadCalibration#MAX_ROW_STRATEGY_QUERIES} queries
 * over more than {@link WorkloadCalibration#MAX_DENSE_CELLS} cells is never answered worse than by
 * measuring its own queries directly. The 1-way marginals of 2,880 hours × 3 kinds (2,883 queries,
 * 8,640 cells, each cell in two queries) at ρ = 0.02 and one row per unit: measuring the queries
 * directly gives the least-squares total squared error {@code ‖W‖₂² rank(W) / (2ρ)} with {@code
 * ‖W‖₂² = 2} and {@code rank(W) = 2,880 + 3 − 1} (the hour totals and the kind totals share one
 * relation, their common sum), so RMSE {@code √(2 · 2882 / 2883 / 0.04) ≈ 7.07}; the identity
 * gives {@code √(‖W‖_F² / 2883 / 0.04) = √(17280 / 2883) · 5 ≈ 12.24}. Rows too ill-conditioned
 * for conjugate gradients: {@link OwnRowAnswersTest}.
 */
class SparseDirectCandidateTest {
  private static final int HOURS = 2880;
  private static final int KINDS = 3;
  private static final BigDecimal DELTA = new BigDecimal("1e-9");

  private static WorkloadCalibration.VectorPlan plan(Accounting accounting, BudgetAmount budget,
      Workload w, int c) throws SQLException {
    return WorkloadCalibration.calibrate(accounting, budget, DELTA, DpHint.NONE,
        List.of(Measurement.countStar()), List.of(w), c).perMeasurement().get(0);
  }

  private static final BudgetAmount RHO = new BudgetAmount(null, null, new BigDecimal("0.02"));

  @Test
  void marginalsOfHoursAndKindsAreNeverWorseThanTheirOwnQueries() throws SQLException {
    Workload w = Workloads.marginals(new int[] {HOURS, KINDS}, 1);
    assertEquals(HOURS + KINDS, w.queries());
    long started = System.nanoTime();
    WorkloadCalibration.VectorPlan vp = plan(Accounting.ZCDP, RHO, w, 1);
    double seconds = (System.nanoTime() - started) / 1e9;
    double sd = 1 / Math.sqrt(2 * 0.02);
    double direct = sd * Math.sqrt(2.0 * (HOURS + KINDS - 1) / (HOURS + KINDS));
    double identity = sd * Math.sqrt(2.0 * HOURS * KINDS / (HOURS + KINDS));
    System.out.printf("MARGINALS(2880 x 3; 1): chosen %s %.3f, direct %.3f, identity %.3f, "
        + "calibrated in %.2f s%n", vp.chosen().strategyName(), vp.expectedRmse(), direct,
        identity, seconds);
    assertTrue(vp.expectedRmse() <= direct, vp.expectedRmse() + " > " + direct);
    WorkloadCalibration.Candidate id = vp.candidates().stream()
        .filter(c -> c.mechanism() == Mechanism.IDENTITY).findFirst().orElseThrow();
    assertEquals(identity, id.rmse(), 1e-9 * identity);
    // the re-weighted rows: hour totals weighted 89, kind totals 16 (89/16 ≈ (2880/3)^(1/4)), so
    // ‖A‖₂² = 89² + 16² and Σ 1/c_k² = 2880/89² + 3/16²: a stated bound, exact in its arithmetic
    double weighted = sd * Math.sqrt((89 * 89 + 16 * 16) * (2880.0 / (89 * 89) + 3.0 / 256)
        / (HOURS + KINDS));
    assertEquals(weighted, vp.expectedRmse(), 1e-9 * weighted, vp.chosen().strategyName());
    assertTrue(vp.chosen().strategyName().startsWith("WeightedDirect("), vp.chosen().strategyName());
  }

  @Test
  void underPureDpTheRowsAreReweightedForLaplaceNoise() throws SQLException {
    Workload w = Workloads.marginals(new int[] {HOURS, KINDS}, 1);
    BudgetAmount eps = new BudgetAmount(new BigDecimal("0.5"), null, null);
    WorkloadCalibration.VectorPlan vp = plan(Accounting.PURE, eps, w, 1);
    // discrete Laplace of scale ‖W‖₁/ε per measured query, variance 2(‖W‖₁/ε)² (the calibration's
    // continuous formula): the plain rows give ‖W‖₁ = 2, at most m queries
    double direct = Math.sqrt(2) * 2 / 0.5;
    assertTrue(vp.expectedRmse() <= direct, vp.expectedRmse() + " > " + direct);
    assertEquals(Mechanism.GEOMETRIC, vp.chosen().mechanism());
  }

  /**
   * Measured with ρ = 10⁶ per unit the noise on each query has standard deviation below 0.001:
   * every workload answer and every query in the strategy's row space equals its exact count to
   * 0.01, a query outside it (one cell) is refused, and the estimate is computed without an {@code
   * n × n} or {@code m × m} array (conjugate gradients on the sparse rows).
   */
  @Test
  void noiseFreeEstimatesEqualTheExactCountsAndCellsAreRefused() throws SQLException {
    Workload w = Workloads.marginals(new int[] {HOURS, KINDS}, 1);
    BudgetAmount huge = new BudgetAmount(null, null, new BigDecimal("1000000"));
    WorkloadCalibration.VectorPlan vp = plan(Accounting.ZCDP, huge, w, 1);
    long[] x = new long[HOURS * KINDS];
    SplittableRandom rnd = new SplittableRandom(33);
    for (int j = 0; j < x.length; j++) {
      x[j] = rnd.nextInt(5);
    }
    long started = System.nanoTime();
    MatrixMechanism mm = vp.chosen().prepared().get();
    Estimate e = mm.run(x, vp.noise(), new SeededRandomBits(7));
    double[] got = e.answers(w);
    double seconds = (System.nanoTime() - started) / 1e9;
    System.out.printf("MARGINALS(2880 x 3; 1): prepared, measured and estimated in %.2f s%n",
        seconds);
    double[] truth = w.answer(java.util.Arrays.stream(x).asDoubleStream().toArray());
    for (int i = 0; i < truth.length; i++) {
      assertEquals(truth[i], got[i], 0.01, "query " + i);
    }
    // a day (24 hours, all kinds) is in the row space: answered, and equal to its count
    double[] day = new double[x.length];
    long count = 0;
    for (int h = 48; h < 72; h++) {
      for (int k = 0; k < KINDS; k++) {
        day[h * KINDS + k] = 1;
        count += x[h * KINDS + k];
      }
    }
    assertEquals(count, e.answer(day), 0.01);
    // one cell (hour 5, kind 1) is not: refused rather than answered with bias
    double[] cell = new double[x.length];
    cell[5 * KINDS + 1] = 1;
    assertFalse(e.inference().inRowSpace(cell));
    assertTrue(e.inference().inRowSpace(w.matrix()[17]));
  }
}
