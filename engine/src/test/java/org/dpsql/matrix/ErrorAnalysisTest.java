package org.dpsql.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Prop. 4 errors and the svdb bound on the 8-cell workload of seed 001 Fig. 1(b), against the
 * numbers of spec §6 items 1–4.
 */
class ErrorAnalysisTest {

  static final double[][] FIG_1B = PaperExamples.figure1b();

  private final Workload w = new ExplicitWorkload(FIG_1B);

  @Test
  void sensitivities() {
    assertEquals(Math.sqrt(5), w.sensitivityL2(), 1e-12);
    assertEquals(2, Strategies.wavelet(8).sensitivityL2(), 1e-12);
    assertEquals(2, Strategies.hierarchical(8, 2).sensitivityL2(), 1e-12);
    assertEquals(4, Strategies.hierarchical(8, 2).sensitivityL1(), 1e-12);
    assertEquals(1, Strategies.identity(8).sensitivityL1(), 1e-12);
  }

  @Test
  void svdbOfFigure1b() {
    assertEquals(7.5 + Math.sqrt(221) / 2, ErrorAnalysis.svdb(w), 1e-7);
  }

  @Test
  void propositionFourErrorsOfTheExampleStrategies() {
    assertEquals(36, ErrorAnalysis.totalSquaredError(w, Strategies.identity(8)), 1e-9);
    assertEquals(21, ErrorAnalysis.totalSquaredError(w, Strategies.wavelet(8)), 1e-9);
    assertEquals(
        19.961905, ErrorAnalysis.totalSquaredError(w, Strategies.hierarchical(8, 2)), 1e-6);
    // W itself as a (rank-4) strategy, least squares through the pseudo-inverse
    assertEquals(20, ErrorAnalysis.totalSquaredError(w, new ExplicitStrategy("W", FIG_1B)), 1e-8);
    // the plain Gaussian mechanism on W: m ||W||² = 40
    assertEquals(40, w.queries() * w.sensitivityL2() * w.sensitivityL2(), 1e-9);
  }

  @Test
  void exampleFourRatiosWithinPointThreePercent() {
    double identity = Math.sqrt(ErrorAnalysis.totalSquaredError(w, Strategies.identity(8)));
    double wavelet = Math.sqrt(ErrorAnalysis.totalSquaredError(w, Strategies.wavelet(8)));
    double lb = Math.sqrt(ErrorAnalysis.svdb(w));
    double gaussian = Math.sqrt(40);
    assertEquals(45.36 / 29.18, identity / lb, 0.003 * 45.36 / 29.18);
    assertEquals(34.62 / 45.36, wavelet / identity, 0.003 * 34.62 / 45.36);
    assertEquals(47.78 / 45.36, gaussian / identity, 0.003 * 47.78 / 45.36);
    assertEquals(29.18 / 45.36, lb / identity, 0.003 * 29.18 / 45.36);
  }

  @Test
  void workloadOutsideTheRowSpaceHasInfiniteError() {
    Strategy total = new ExplicitStrategy("total", new double[][] {{1, 1, 1, 1, 1, 1, 1, 1}});
    assertEquals(
        Double.POSITIVE_INFINITY, ErrorAnalysis.totalSquaredError(w, total));
    Workload justTotal = new TotalWorkload(8);
    assertEquals(1, ErrorAnalysis.totalSquaredError(justTotal, total), 1e-9);
  }

  @Test
  void kroneckerErrorIsTheProductOfFactorErrors() {
    Workload k = KroneckerWorkload.of(new AllRangesWorkload(4), new PrefixWorkload(8));
    Strategy a = Strategies.kronecker(Strategies.hierarchical(4, 2), Strategies.wavelet(8));
    double product = ErrorAnalysis.totalSquaredError(k, a);
    double dense =
        ErrorAnalysis.totalSquaredError(
            new ExplicitWorkload(k.matrix()), new ExplicitStrategy("dense", a.matrix()));
    assertEquals(dense, product, 1e-8 * dense);
    double svdbDense = ErrorAnalysis.svdb(new ExplicitWorkload(k.matrix()));
    assertEquals(svdbDense, ErrorAnalysis.svdb(k), 1e-8 * svdbDense);
  }

  @Test
  void boundNeverExceedsBaselineErrors() {
    for (long seed = 1; seed <= 20; seed++) {
      Workload r = Workloads.randomPredicates(12, 8, seed);
      double bound = ErrorAnalysis.svdb(r);
      for (Strategy a :
          new Strategy[] {
            Strategies.identity(8),
            Strategies.wavelet(8),
            Strategies.hierarchical(8, 2),
            Strategies.hierarchical(8, 3),
            Strategies.fourier(8)
          }) {
        assertTrue(ErrorAnalysis.totalSquaredError(r, a) >= bound * (1 - 1e-9), a.name());
      }
    }
  }

  @Test
  void fourierRestrictedToMarginalsKeepsOnlyUsedRows() {
    int[] dims = {2, 2, 2};
    Workload oneWay = Workloads.marginals(dims, 1);
    Strategy f = Strategies.fourier(oneWay, dims);
    assertEquals(4, f.rows()); // constant + one coefficient per attribute
    assertTrue(Double.isFinite(ErrorAnalysis.totalSquaredError(oneWay, f)));
  }
}
