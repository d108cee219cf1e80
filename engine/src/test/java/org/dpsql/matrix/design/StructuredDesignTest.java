package org.dpsql.matrix.design;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The closed-form (Toeplitz-plus-Hankel) design products agree with the explicit squares. */
class StructuredDesignTest {

  @Test
  void sineAndPrefixDesignsMatchDense() {
    for (int n : new int[] {1, 2, 9, 40}) {
      check(EigenBasis.allRanges(n), n);
      check(EigenBasis.prefix(n), n);
      check(EigenBasis.allRanges(n).permuted(org.dpsql.matrix.PermutedWorkload.randomPermutation(n, n)), n);
    }
  }

  private static void check(EigenBasis b, int n) {
    int from = n > 3 ? 1 : 0;
    int to = n;
    SquaredDesign s = b.squares(from, to);
    SquaredDesign d = DenseSquaredDesign.ofQueries(b.eigenQueries(from, to));
    SplittableRandom r = new SplittableRandom(n);
    int k = to - from;
    double[] u = r.doubles(k, 0.1, 2).toArray();
    double[] mu = r.doubles(n, 0.1, 2).toArray();
    assertClose(d.times(u), s.times(u));
    assertClose(d.transposeTimes(mu), s.transposeTimes(mu));
    double[][] g1 = d.designGram(mu);
    double[][] g2 = s.designGram(mu);
    for (int i = 0; i < k; i++) {
      assertClose(g1[i], g2[i]);
    }
    double[][] c1 = d.cellGram(u);
    double[][] c2 = s.cellGram(u);
    for (int i = 0; i < n; i++) {
      assertClose(c1[i], c2[i]);
    }
    for (int i = 0; i < k; i++) {
      assertClose(d.column(i), s.column(i));
    }
    // merged mirror cells: the reduced design has the same optimum
    double[] c = r.doubles(k, 1, 10).toArray();
    WeightingSolution full = QueryWeighting.solve(c, d, QueryWeighting.Method.MULTIPLICATIVE, 1e-10, 200_000);
    WeightingSolution structured = QueryWeighting.solve(c, s);
    assertEquals(full.primal(), structured.primal(), 1e-8 * full.primal());
  }

  private static void assertClose(double[] expected, double[] actual) {
    double scale = 0;
    for (double v : expected) {
      scale = Math.max(scale, Math.abs(v));
    }
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], 1e-12 * Math.max(1, scale));
    }
  }
}
