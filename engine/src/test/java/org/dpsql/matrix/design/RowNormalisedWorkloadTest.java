package org.dpsql.matrix.design;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.KroneckerWorkload;
import org.dpsql.matrix.PermutedWorkload;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.junit.jupiter.api.Test;

/** Closed-form row normalisation (§2.5) equals normalising the explicit rows. */
class RowNormalisedWorkloadTest {

  @Test
  void closedFormsMatchExplicitNormalisation() {
    List<Workload> ws =
        List.of(
            new AllRangesWorkload(17),
            new PrefixWorkload(13),
            new TotalWorkload(5),
            KroneckerWorkload.of(new AllRangesWorkload(4), new TotalWorkload(3)),
            new UnionWorkload(List.of(new PrefixWorkload(6), new AllRangesWorkload(6))),
            new PermutedWorkload(new AllRangesWorkload(9), PermutedWorkload.randomPermutation(9, 1)),
            Workloads.rangeMarginals(new int[] {3, 4}, 1),
            new ExplicitWorkload(PaperExampleTest.W));
    for (Workload w : ws) {
      double[][] expected = normalisedGram(w.matrix());
      double[][] actual = RowNormalisedWorkload.of(w).gram();
      for (int i = 0; i < expected.length; i++) {
        for (int j = 0; j < expected.length; j++) {
          assertEquals(expected[i][j], actual[i][j], 1e-12, w + " at " + i + "," + j);
        }
      }
    }
  }

  private static double[][] normalisedGram(double[][] rows) {
    int n = rows[0].length;
    double[][] g = new double[n][n];
    for (double[] r : rows) {
      double s = 0;
      for (double v : r) {
        s += v * v;
      }
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          g[i][j] += r[i] * r[j] / s;
        }
      }
    }
    return g;
  }
}
