package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The paper's accuracy protocol at full size, one setting: 1024 x 1024 grid, 3,500,000 points in
 * one Gaussian cluster of σ = 100 (the paper's high-sparsity setting), ε_tot = 0.1 (its most
 * stringent budget), 2,000 random queries of random shape and size, MRE with smoothing 20. HTF
 * (default parameters) must beat UG, AG, the kd-tree and the quadtree at their prescribed
 * settings, as Shaham et al. report (Figs. 3–6). HTF's error varies a lot between noise draws:
 * over 6 datasets x 2 noise seeds of this setting it beat the best of these baselines (always AG)
 * in 11 of 12 cases, by 1.5x–5x; the fixed seeds below are a typical case (1.8x), not the best.
 * The full table (3 σ x 3 ε x 4 workloads, 5 repetitions, two cluster counts) is produced by
 * {@code org.dpsql.bench.HtfExperiment} and recorded in {@code docs/htf-results.md}.
 */
@Tag("slow")
class HtfAccuracyTest {

  @Test
  void htfBeatsTheBaselinesOnSparseData() {
    FrequencyMatrix f = new GaussianClusterData(1024, 1024, 1, 3_500_000, 100, 2021).frequencyMatrix();
    List<GridRectangle> queries = RangeQueryWorkload.randomShapes(1024, 1024, 2000, 104);
    Rational eps = Rational.parse("0.1");
    double htf = RelativeError.mean(f,
        new HtfMechanism(HtfParameters.paperDefaults(eps)).publish(f, new SeededRandomBits(1)),
        queries, RelativeError.PAPER_SMOOTHING);
    List<SpatialMechanism> baselines = List.of(UniformGrid.paperDefaults(eps),
        AdaptiveGrid.paperDefaults(eps), PrivateKdTree.paperDefaults(eps),
        PrivateQuadtree.paperDefaults(eps));
    StringBuilder report = new StringBuilder("HTF " + String.format("%.2f", htf));
    for (SpatialMechanism m : baselines) {
      double mre = RelativeError.mean(f, m.publish(f, new SeededRandomBits(2)), queries,
          RelativeError.PAPER_SMOOTHING);
      report.append(String.format(", %s %.2f", m.name(), mre));
      assertTrue(htf < mre, () -> "HTF must beat " + m.name() + ": " + report);
    }
    System.out.println("[HtfAccuracyTest] MRE % " + report);
  }
}
