package org.dpsql.adaptive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * The per-cell noise of the tabulation (noisy − exact) follows the intended distribution: discrete
 * Laplace with scale s/((1−γ)ε) or discrete Gaussian with σ² = s/(2(1−γ)ρ). Chi-square goodness of
 * fit at significance 0.001 on 64,000 cells (8,000 groups, all forced to the 8-cell fine table by
 * θ3 below any total), fixed seeds; and the same samples are rejected against a distribution with
 * 25% larger scale (the test has power).
 */
class NoiseDistributionTest {

  long[] cellNoise(AdaptiveTabulationSpec spec, long seed) {
    List<TabulatedCount> rows =
        new AdaptiveTabulation(spec)
            .tabulateLevel("L", AdaptiveChoiceTest.counts(), new SeededRandomBits(seed));
    long[] noise = new long[rows.size()];
    int n = 0;
    int index = 0;
    String last = null;
    for (TabulatedCount r : rows) {
      assertEquals(DetailLevel.SEX_BY_AGE_FINE, r.detail());
      String key = r.group().geography() + r.group().iteration();
      index = key.equals(last) ? index + 1 : 0;
      last = key;
      noise[n++] = r.noisyCount() - AdaptiveChoiceTest.CELLS[index];
    }
    return noise;
  }

  @Test
  void geometricCellNoiseIsDiscreteLaplace() {
    AdaptiveTabulationSpec spec =
        AdaptiveChoiceTest.spec(BaseMechanism.GEOMETRIC, "1.2", -3000, -2000, -1000, Set.of());
    double scale = 1 / spec.stepTwoBudget(spec.level("L")).doubleValue(); // 2/(0.5·1.2) = 10/3
    assertEquals(10.0 / 3, scale, 1e-12);
    long[] noise = cellNoise(spec, 11);
    assertEquals(64_000, noise.length);
    double p = Stats.chiSquareAgainstPmf(noise, z -> Stats.laplacePmf(scale, z));
    double wrong = Stats.chiSquareAgainstPmf(noise, z -> Stats.laplacePmf(1.25 * scale, z));
    System.out.printf(
        "geometric cell noise: chi-square p = %.3f (against 1.25x scale: %.2e)%n", p, wrong);
    assertTrue(p > 0.001);
    assertTrue(wrong < 0.001);
  }

  @Test
  void discreteGaussianCellNoiseIsDiscreteGaussian() {
    AdaptiveTabulationSpec spec =
        AdaptiveChoiceTest.spec(
            BaseMechanism.DISCRETE_GAUSSIAN, "0.3", -3000, -2000, -1000, Set.of());
    double sigma2 = 1 / (2 * spec.stepTwoBudget(spec.level("L")).doubleValue()); // 2/(2·0.5·0.3)
    assertEquals(20.0 / 3, sigma2, 1e-12);
    long[] noise = cellNoise(spec, 12);
    double p = Stats.chiSquareAgainstPmf(noise, z -> Stats.gaussianPmf(sigma2, z));
    double wrong =
        Stats.chiSquareAgainstPmf(noise, z -> Stats.gaussianPmf(1.25 * 1.25 * sigma2, z));
    System.out.printf(
        "discrete Gaussian cell noise: chi-square p = %.3f (against 1.25x sigma: %.2e)%n",
        p, wrong);
    assertTrue(p > 0.001);
    assertTrue(wrong < 0.001);
  }
}
