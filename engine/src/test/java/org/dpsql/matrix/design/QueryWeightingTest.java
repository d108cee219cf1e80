package org.dpsql.matrix.design;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Program 1: both solvers agree, certificates are valid, degenerate inputs are handled. */
class QueryWeightingTest {

  @Test
  void interiorPointAndMultiplicativeAgreeOnRandomInstances() {
    for (int seed = 0; seed < 40; seed++) {
      SplittableRandom r = new SplittableRandom(seed);
      int k = 1 + r.nextInt(12);
      int n = 1 + r.nextInt(15);
      double[][] sq = new double[k][n];
      for (double[] row : sq) {
        for (int j = 0; j < n; j++) {
          row[j] = r.nextDouble() < 0.3 ? 0 : r.nextDouble();
        }
        row[r.nextInt(n)] += 0.5; // every query touches a cell
      }
      double[] c = new double[k];
      for (int i = 0; i < k; i++) {
        c[i] = Math.exp(8 * r.nextGaussian());
      }
      SquaredDesign m = DenseSquaredDesign.ofSquares(sq);
      WeightingSolution ip = QueryWeighting.solve(c, m);
      WeightingSolution mu = QueryWeighting.solve(c, m, QueryWeighting.Method.MULTIPLICATIVE, 1e-9, 400_000);
      assertTrue(ip.relativeGap() < 1e-8, "seed " + seed + " IPM gap " + ip.relativeGap());
      assertTrue(ip.dual() <= ip.primal());
      assertEquals(ip.primal(), mu.primal(), 1e-6 * ip.primal(), "seed " + seed);
      // the optimum is below every feasible point (weak duality): check against the other dual
      assertTrue(mu.dual() <= ip.primal() * (1 + 1e-12));
      assertEquals(1, Dense.max(m.times(ip.weights())), 1e-12);
    }
  }

  @Test
  void zeroCostsGetZeroWeightAndTinyCostsStayPositive() {
    double[][] sq = {{0.5, 0.5, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.25, 0.25, 0.5}};
    double[] c = {4, 0, 1e-14, 2};
    WeightingSolution s = QueryWeighting.solve(c, DenseSquaredDesign.ofSquares(sq));
    double[] u = s.weights();
    assertEquals(0, u[1]);
    assertTrue(u[2] > 0 && u[0] > 0 && u[3] > 0);
    assertTrue(s.relativeGap() < 1e-8, "gap " + s.relativeGap());
    double p = 0;
    for (int i = 0; i < c.length; i++) {
      if (c[i] > 0) {
        p += c[i] / u[i];
      }
    }
    assertEquals(p, s.primal(), 1e-12 * p);
    WeightingSolution none = QueryWeighting.solve(new double[4], DenseSquaredDesign.ofSquares(sq));
    assertEquals(0, none.primal());
  }

  @Test
  void allRangeProgramOneCertifiedAt256() {
    EigenBasis b = EigenBasis.allRanges(256);
    WeightingSolution s = QueryWeighting.solve(b.eigenvalues(), b.squares(0, 256));
    assertTrue(s.relativeGap() < 1e-8, "gap " + s.relativeGap());
    assertTrue(s.iterations() <= 20, "iterations " + s.iterations());
    // spec §3: the optimum for n = 256 is 1.0775566 × svdb (numpy prototype, same certificate)
    assertEquals(1.0775566, s.primal() / b.svdb(1e-10), 2e-7);
    double[] uniform = new double[256];
    java.util.Arrays.fill(uniform, 1);
    assertEquals(b.svdb(1e-10), QueryWeighting.dual(b.eigenvalues(), b.squares(0, 256), uniform), 1e-9 * s.primal());
  }

  @Test
  void rejectsBadInput() {
    SquaredDesign m = DenseSquaredDesign.ofSquares(new double[][] {{1, 0}, {0, 0}});
    assertThrows(IllegalArgumentException.class, () -> QueryWeighting.solve(new double[] {1}, m));
    assertThrows(IllegalArgumentException.class, () -> QueryWeighting.solve(new double[] {1, -1}, m));
    assertThrows(IllegalArgumentException.class, () -> QueryWeighting.solve(new double[] {1, Double.NaN}, m));
    assertThrows(IllegalArgumentException.class, () -> QueryWeighting.solve(new double[] {1, 1}, m)); // query 1 has no cell
    assertEquals(0, QueryWeighting.solve(new double[] {1, 0}, m).weights()[1]);
    assertThrows(IllegalArgumentException.class, () -> DenseSquaredDesign.ofSquares(new double[][] {{-1}}));
  }
}
