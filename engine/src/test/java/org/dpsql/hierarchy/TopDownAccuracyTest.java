package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class TopDownAccuracyTest {
  private static final BigDecimal DELTA = new BigDecimal("1e-8");

  @Test
  void theorem4BoundAndZoomInOnAThreeLevelOdDataSet() {
    // 3-level hierarchy of 4 x 3 x 3 = 36 areas each side: destination tree of depth 6,
    // 1,296 O/D pairs of which 400 non-empty, 50,000 trips; ε = 1, δ = 1e-8 as in the paper.
    OdTreeDomain d = OdTreeDomain.destinationTree(Hierarchy.uniform(4, 3, 3));
    HierarchicalCounts data = SyntheticOdData.paretoFlows(d, 400, 50_000, 1.5, 11);
    Rational rho = TopDownBudget.rhoForApproxDp(BigDecimal.ONE, DELTA);
    TopDownBudget budget = TopDownBudget.paper(rho, d.depth());
    double beta = 0.05;
    int runs = 30;
    int t = d.depth();
    double[] meanInf = new double[t + 1];
    double[] meanVanilla = new double[t + 1];
    long[] worst = new long[t + 1];
    int runsViolating = 0;
    VanillaGauss vanilla = new VanillaGauss(rho, Neighbouring.BOUNDED, Contribution.ONE);
    for (int run = 0; run < runs; run++) {
      HierarchicalCounts rel =
          TopDownMechanism.infTda(budget).release(data, new SeededRandomBits(run)).tree();
      HierarchicalCounts van = vanilla.release(data, new SeededRandomBits(10_000 + run));
      boolean violated = false;
      for (int l = 0; l <= t; l++) {
        long err = ReleaseMetrics.of(data, rel, l).maxAbsoluteError();
        meanInf[l] += err / (double) runs;
        worst[l] = Math.max(worst[l], err);
        meanVanilla[l] += ReleaseMetrics.of(data, van, l).maxAbsoluteError() / (double) runs;
        if (err > TopDownErrorBound.maxErrorBound(budget, d, l, beta)) {
          violated = true;
        }
      }
      runsViolating += violated ? 1 : 0;
    }
    for (int l = 0; l <= t; l++) {
      System.out.printf(
          "3-level O/D, eps=1: level %d InfTDA max-abs-error mean %.1f worst %d, Theorem-4 bound (beta=%.2f) %.0f; VanillaGauss mean %.1f%n",
          l, meanInf[l], worst[l], beta, TopDownErrorBound.maxErrorBound(budget, d, l, beta), meanVanilla[l]);
    }
    // Within the bound at failure probability β: at most the 99.9% binomial quantile of runs fail.
    assertTrue(runsViolating <= 6, runsViolating + " of " + runs + " runs exceed the Theorem 4 bound");
    assertEquals(0, worst[0], "bounded DP: the root is exact");
    // Zoom-in: coarse levels are more accurate than fine ones.
    assertTrue(meanInf[1] < meanInf[t] / 1.5, "level 1 vs leaves");
    assertTrue(meanInf[2] < meanInf[t], "level 2 vs leaves");
    for (int l = 2; l <= t; l++) {
      assertTrue(meanInf[l] >= meanInf[l - 1] - 3, "error should not drop going down: level " + l);
    }
    // and the reverse for per-leaf noise (Proposition 1): worst at the top.
    assertTrue(meanVanilla[0] > 3 * meanVanilla[t]);
    assertTrue(meanInf[1] < meanVanilla[1]);
  }

  @Test
  @Tag("slow") // 5-15 s: Table-1 random sparse, VanillaGauss on 189,225 leaves
  void infTdaHasFewerFalsePositivesOnTheRandomSparseDataSet() {
    SyntheticOdData.Dataset ds =
        SyntheticOdData.table1(SyntheticOdData.Partition.RANDOM, SyntheticOdData.Density.SPARSE);
    HierarchicalCounts data = ds.counts();
    int t = data.depth();
    Rational rho = TopDownBudget.rhoForApproxDp(BigDecimal.ONE, DELTA);
    TopDownBudget budget = TopDownBudget.paper(rho, t);
    VanillaGauss vanilla = new VanillaGauss(rho, Neighbouring.BOUNDED, Contribution.ONE);
    int runs = 5;
    long[] fpInf = new long[t + 1];
    long[] fpL2 = new long[t + 1];
    long[] fpVan = new long[t + 1];
    for (int run = 0; run < runs; run++) {
      HierarchicalCounts inf =
          TopDownMechanism.infTda(budget).release(data, new SeededRandomBits(run)).tree();
      HierarchicalCounts l2 =
          TopDownMechanism.tdaL2(budget).release(data, new SeededRandomBits(100 + run)).tree();
      HierarchicalCounts van = vanilla.release(data, new SeededRandomBits(200 + run));
      for (int l = 0; l <= t; l++) {
        fpInf[l] += ReleaseMetrics.of(data, inf, l).falsePositives();
        fpL2[l] += ReleaseMetrics.of(data, l2, l).falsePositives();
        fpVan[l] += ReleaseMetrics.of(data, van, l).falsePositives();
      }
    }
    long sumInf = 0;
    long sumL2 = 0;
    long sumVan = 0;
    for (int l = 0; l <= t; l++) {
      System.out.printf(
          "random sparse, eps=1, %d runs: level %d false positives InfTDA %d, TDA_l2 %d, VanillaGauss %d%n",
          runs, l, fpInf[l], fpL2[l], fpVan[l]);
      sumInf += fpInf[l];
      sumL2 += fpL2[l];
      sumVan += fpVan[l];
    }
    assertTrue(fpInf[t] < fpL2[t], "leaves: InfTDA vs TDA_l2");
    assertTrue(fpInf[t] < fpVan[t], "leaves: InfTDA vs VanillaGauss");
    assertTrue(sumInf < sumL2 && sumInf < sumVan, "all levels");
  }
}
