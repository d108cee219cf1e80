package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.accounting.Accounting;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.matrix.mechanism.Estimate;
import org.dpsql.mechanism.SeededRandomBits;
import org.dpsql.policy.BudgetAmount;
import org.dpsql.rewrite.Measurement;
import org.dpsql.sql.DpHint;
import org.dpsql.sql.Mechanism;
import org.junit.jupiter.api.Test;

/**
 * Issue 33: a workload is never answered worse than by measuring its own queries directly, whatever
 * the number of cells. 1, 10 and 100 ranges over 8,760 hourly cells (one year), COUNT(*) with at
 * most {@code c = 10} rows per unit. Measuring the ranges {@code W} directly has total squared error
 * {@code ‖W‖₂² rank(W)} times the noise variance per unit sensitivity: {@code ‖W‖₂²} is the most
 * ranges covering one hour, and the rank is computed independently here (union-find on the ranges'
 * end points).
 */
class RowSpaceCandidatesTest {
  private static final int HOURS = 8760;
  private static final int C = 10;
  private static final BudgetAmount DEFAULT = new BudgetAmount(null, null, new BigDecimal("0.02"));
  private static final BigDecimal DELTA = new BigDecimal("1e-9");

  private static SparseWorkload ranges(int[][] r) {
    int[][] rows = new int[r.length][];
    for (int i = 0; i < r.length; i++) {
      rows[i] = new int[r[i][1] - r[i][0]];
      for (int j = 0; j < rows[i].length; j++) {
        rows[i][j] = r[i][0] + j;
      }
    }
    return new SparseWorkload(HOURS, rows);
  }

  private static int[][] randomRanges(int m, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int[][] r = new int[m][];
    for (int i = 0; i < m; i++) {
      int a = rnd.nextInt(HOURS);
      int b = rnd.nextInt(HOURS);
      r[i] = new int[] {Math.min(a, b), Math.max(a, b) + 1};
    }
    return r;
  }

  private static WorkloadCalibration calibrate(Accounting accounting, BudgetAmount budget,
      DpHint hint, SparseWorkload w) throws SQLException {
    return WorkloadCalibration.calibrate(accounting, budget, DELTA, hint,
        List.of(Measurement.countStar()), List.of(w), C);
  }

  @Test
  void oneWeekOfHoursIsMeasuredOnce() throws SQLException {
    // 2025-03-01 .. 2025-03-08: hours 1416 .. 1584
    SparseWorkload week = ranges(new int[][] {{1416, 1584}});
    WorkloadCalibration.VectorPlan vp =
        calibrate(Accounting.ZCDP, DEFAULT, DpHint.NONE, week).perMeasurement().get(0);
    assertEquals(C / Math.sqrt(2 * 0.02), vp.expectedRmse(), 1e-9);
    WorkloadCalibration.Candidate identity = vp.candidates().stream()
        .filter(c -> c.mechanism() == Mechanism.IDENTITY).findFirst().orElseThrow();
    assertEquals(C / Math.sqrt(2 * 0.02) * Math.sqrt(168), identity.rmse(), 1e-9);
  }

  @Test
  void oneTenAndHundredRangesNeverWorseThanDirectUnderZcdp() throws SQLException {
    for (int m : new int[] {1, 10, 100}) {
      int[][] r = randomRanges(m, 1000 + m);
      WorkloadCalibration.VectorPlan vp =
          calibrate(Accounting.ZCDP, DEFAULT, DpHint.NONE, ranges(r)).perMeasurement().get(0);
      double sd = C / Math.sqrt(2 * 0.02);
      double direct = sd * Math.sqrt(maxOverlap(r) * (double) rank(r) / m);
      double identity = sd * Math.sqrt(totalLength(r) / (double) m);
      assertTrue(vp.expectedRmse() <= direct * (1 + 1e-9), m + ": " + vp.expectedRmse() + " > " + direct);
      assertTrue(vp.expectedRmse() < identity / 3, m + ": " + vp.expectedRmse() + " vs " + identity);
    }
  }

  @Test
  void tenRangesNeverWorseThanDirectUnderPureDp() throws SQLException {
    int[][] r = randomRanges(10, 77);
    BudgetAmount eps = new BudgetAmount(new BigDecimal("0.5"), null, null);
    WorkloadCalibration.VectorPlan vp =
        calibrate(Accounting.PURE, eps, DpHint.NONE, ranges(r)).perMeasurement().get(0);
    // discrete Laplace of scale ‖W‖₁ c/ε per measured range: variance 2 (‖W‖₁ c/ε)² (continuous
    // approximation, as the calibration's error formula)
    double direct = Math.sqrt(2) * maxOverlap(r) * C / 0.5 * Math.sqrt(rank(r) / 10.0);
    assertTrue(vp.expectedRmse() <= direct * (1 + 1e-9), vp.expectedRmse() + " > " + direct);
  }

  @Test
  void hundredRangesAreMeasuredWithoutAnNByNArray() throws SQLException {
    int[][] r = randomRanges(100, 5);
    SparseWorkload w = ranges(r);
    BudgetAmount huge = new BudgetAmount(null, null, new BigDecimal("1000000"));
    WorkloadCalibration cal = calibrate(Accounting.ZCDP, huge, DpHint.NONE, w);
    WorkloadCalibration.VectorPlan vp = cal.perMeasurement().get(0);
    long[] x = new long[HOURS];
    SplittableRandom rnd = new SplittableRandom(9);
    for (int j = 0; j < HOURS; j++) {
      x[j] = rnd.nextInt(8);
    }
    org.dpsql.matrix.mechanism.MatrixMechanism mm = vp.chosen().prepared().get();
    // the ranges measured as they are: 0/1 rows are exact on the lattice, so the measured L2
    // sensitivity² is exactly the most ranges covering one cell
    assertTrue(vp.chosen().strategyName().startsWith("Direct("), vp.chosen().strategyName());
    assertEquals(maxOverlap(r), mm.strategy().sensitivityL2Squared().doubleValue(), 0);
    Estimate e = mm.run(x, vp.noise(), new SeededRandomBits(3));
    double[] truth = w.answer(Arrays.stream(x).asDoubleStream().toArray());
    double[] got = e.answers(w);
    // expected RMSE at ρ = 10⁶ is below 0.1, so every answer is within 1 of the truth unless some
    // error exceeds 10 standard deviations of its own
    assertTrue(vp.expectedRmse() < 0.1, "rmse " + vp.expectedRmse());
    for (int i = 0; i < truth.length; i++) {
      assertEquals(truth[i], got[i], 1.0, "range " + i);
    }
  }

  /** The most ranges covering one hour: {@code ‖W‖₂²} (and {@code ‖W‖₁}) of the 0/1 ranges. */
  static int maxOverlap(int[][] ranges) {
    int[] cover = new int[HOURS + 1];
    for (int[] r : ranges) {
      cover[r[0]]++;
      cover[r[1]]--;
    }
    int max = 0;
    int run = 0;
    for (int c : cover) {
      run += c;
      max = Math.max(max, run);
    }
    return max;
  }

  /**
   * The rank of the ranges' indicator rows: {@code 1[a,b) = P(b) − P(a)} for the independent
   * prefix-complement indicators {@code P}, so the rank is that of the incidence matrix of the graph
   * with an edge {@code (a, b)} per range: the number of edges joining two components.
   */
  static int rank(int[][] ranges) {
    int[] parent = new int[HOURS + 1];
    for (int i = 0; i < parent.length; i++) {
      parent[i] = i;
    }
    int rank = 0;
    for (int[] r : ranges) {
      int a = find(parent, r[0]);
      int b = find(parent, r[1]);
      if (a != b) {
        parent[a] = b;
        rank++;
      }
    }
    return rank;
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  private static long totalLength(int[][] ranges) {
    long s = 0;
    for (int[] r : ranges) {
      s += r[1] - r[0];
    }
    return s;
  }
}
