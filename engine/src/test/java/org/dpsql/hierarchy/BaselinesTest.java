package org.dpsql.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.dpsql.mechanism.DiscreteGaussianDistribution;
import org.dpsql.mechanism.DiscreteLaplaceDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class BaselinesTest {

  @Test
  void vanillaGaussNoisesEveryLeafOfTheFullDomain() {
    OdTreeDomain d = OdTreeDomain.destinationTree(Hierarchy.uniform(5, 4)); // 400 leaves
    HierarchicalCounts data = SyntheticOdData.paretoFlows(d, 40, 4_000, 1.5, 3);
    Rational rho = Rational.parse("0.02");
    VanillaGauss vg = new VanillaGauss(rho, Neighbouring.BOUNDED, Contribution.ONE);
    assertEquals(Rational.of(2).divide(rho.multiply(2)), vg.sigmaSquared(), "σ² = Δ²/(2ρ), Δ² = 2");
    Map<Long, Long> hist = new HashMap<>();
    long n = 0;
    SeededRandomBits bits = new SeededRandomBits(17);
    for (int run = 0; run < 40; run++) {
      HierarchicalCounts rel = vg.release(data, bits);
      rel.checkConsistency();
      for (long leaf = 0; leaf < d.levelSize(d.depth()); leaf++) {
        hist.merge(rel.count(d.depth(), leaf) - data.count(d.depth(), leaf), 1L, Long::sum);
        n++;
      }
    }
    DiscreteGaussianDistribution dg = new DiscreteGaussianDistribution(vg.sigmaSquared());
    double p = Stats.chiSquarePValue(hist, n, dg::pmf);
    System.out.printf("VanillaGauss leaf noise: %d draws, chi-square p = %.3f%n", n, p);
    assertTrue(p > 1e-4, "leaf noise is not N_Z(0, σ²): p = " + p);
  }

  @Test
  void stabilityHistogramThresholdFromTheExactGeometricTail() {
    BigDecimal delta = new BigDecimal("1e-8");
    for (String e : new String[] {"0.1", "1", "10"}) {
      for (Neighbouring nb : Neighbouring.values()) {
        StabilityHistogram sh =
            new StabilityHistogram(new BigDecimal(e), delta, nb, Contribution.ONE);
        long k = nb == Neighbouring.BOUNDED ? 2 : 1;
        assertEquals(k, sh.cellsChanged());
        assertEquals(Rational.of(k).divide(Rational.parse(e)), sh.scale(), "scale k/ε (2/ε bounded)");
        double s = sh.scale().doubleValue();
        double q = Math.exp(-1 / s);
        // k · P[Z >= τ − 1] = k q^{τ−1}/(1+q) <= δ, and τ − 1 would not do (minimality)
        double logLeak = Math.log(k) + (sh.threshold() - 1) * Math.log(q) - Math.log1p(q);
        double logLeakBelow = Math.log(k) + (sh.threshold() - 2) * Math.log(q) - Math.log1p(q);
        assertTrue(logLeak <= Math.log(1e-8), "δ not met at ε = " + e);
        assertTrue(logLeakBelow > Math.log(1e-8), "threshold not minimal at ε = " + e);
        // The paper's continuous threshold 1 + 2 ln(2/δ)/ε is of the same order.
        double paper = 1 + 2 * Math.log(2 / 1e-8) / Double.parseDouble(e);
        assertTrue(sh.threshold() <= paper + 2, "threshold " + sh.threshold() + " vs paper " + paper);
      }
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> new StabilityHistogram(BigDecimal.ONE, delta, Neighbouring.BOUNDED, new Contribution(2, false)));
    assertThrows(
        IllegalArgumentException.class,
        () -> new StabilityHistogram(BigDecimal.ONE, BigDecimal.ONE, Neighbouring.BOUNDED, Contribution.ONE));
  }

  @Test
  void stabilityHistogramHasNoFalsePositivesAndLaplaceNoise() {
    OdTreeDomain d = OdTreeDomain.destinationTree(Hierarchy.uniform(4, 4));
    // a few large cells (always above the threshold) and many small ones
    HierarchicalCounts data = SyntheticOdData.paretoFlows(d, 60, 3_000, 1.5, 5);
    long[] big = {d.leafId(0, 0), d.leafId(3, 7), d.leafId(15, 15)};
    StabilityHistogram sh =
        new StabilityHistogram(BigDecimal.ONE, new BigDecimal("1e-8"), Neighbouring.BOUNDED, Contribution.ONE);
    long[] ids = {big[0], big[1], big[2]};
    long[] counts = {5_000, 5_000, 5_000};
    HierarchicalCounts bigData = HierarchicalCounts.fromLeafCounts(d, ids, counts);
    Map<Long, Long> hist = new HashMap<>();
    long n = 0;
    SeededRandomBits bits = new SeededRandomBits(23);
    for (int run = 0; run < 200; run++) {
      HierarchicalCounts rel = sh.release(data, bits);
      rel.checkConsistency();
      assertTrue(rel.isNonNegative());
      ReleaseMetrics leaf = ReleaseMetrics.of(data, rel, d.depth());
      assertEquals(0, leaf.falsePositives(), "no false positives by construction");
      SparseLevel leaves = rel.level(d.depth());
      for (int i = 0; i < leaves.size(); i++) {
        assertTrue(leaves.value(i) >= sh.threshold());
      }
      HierarchicalCounts relBig = sh.release(bigData, bits);
      for (long id : big) {
        hist.merge(relBig.count(d.depth(), id) - 5_000, 1L, Long::sum);
        n++;
      }
    }
    DiscreteLaplaceDistribution lap = new DiscreteLaplaceDistribution(sh.scale());
    double p = Stats.chiSquarePValue(hist, n, lap::pmf);
    System.out.printf("SH noise: scale %s, threshold %d, %d draws, chi-square p = %.3f%n", sh.scale(), sh.threshold(), n, p);
    assertTrue(p > 1e-4, "SH noise is not discrete Laplace(2/ε): p = " + p);
  }
}
