package org.dpsql.matrix.design;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.PermutedWorkload;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.junit.jupiter.api.Test;

/** Seed 001 spec §6 items 6–11 and 16 on random and structured workloads. */
class EigenDesignPropertiesTest {

  /** A random workload: 0/1 predicates, {−1,0,1} entries or Gaussian, of random shape. */
  static Workload randomWorkload(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = 2 + r.nextInt(18);
    int m = 1 + r.nextInt(30);
    int kind = r.nextInt(3);
    double[][] w = new double[m][n];
    for (double[] row : w) {
      for (int j = 0; j < n; j++) {
        row[j] = switch (kind) {
          case 0 -> r.nextBoolean() ? 1 : 0;
          case 1 -> r.nextInt(3) - 1;
          default -> r.nextGaussian();
        };
      }
      row[r.nextInt(n)] = 1; // no empty query
    }
    return new ExplicitWorkload(w);
  }

  static List<EigenDesign> designers(int rank) {
    List<EigenDesign> d = new ArrayList<>();
    d.add(EigenDesign.standard());
    d.add(EigenDesign.standard().withoutCompletion());
    d.add(EigenDesign.standard().withSolver(QueryWeighting.Method.CLOSED_FORM, 0));
    d.add(EigenDesign.standard().withPrincipalVectors(Math.max(1, rank / 3)));
    d.add(EigenDesign.standard().withPrincipalFraction(0.1));
    d.add(EigenDesign.standard().withSeparation(2));
    d.add(EigenDesign.standard().forRelativeError());
    return d;
  }

  @Test
  void items6and7LowerBoundAndTheoremThreeOnRandomWorkloads() {
    int checked = 0;
    for (long seed = 0; seed < 150; seed++) {
      Workload w = randomWorkload(seed);
      EigenBasis b = EigenBasis.of(w);
      double svdb = b.svdb(EigenBasis.DEFAULT_TOLERANCE);
      double thm3 = Math.pow(w.cells() * b.eigenvalue(0) / svdb, 0.25);
      for (EigenDesign d : designers(b.rank(EigenBasis.DEFAULT_TOLERANCE))) {
        EigenStrategy s = d.design(w);
        // the error on the original workload (the relative-error design was made for another one)
        double err = ErrorAnalysis.totalSquaredError(w, s);
        assertTrue(err >= svdb * (1 - 1e-9), "seed " + seed + " " + s.name() + ": " + err + " < svdb " + svdb);
        if (!s.name().contains("relative")) {
          assertEquals(s.totalSquaredError(), err, 1e-7 * err, "seed " + seed + " " + s.name());
          if (s.name().startsWith("EigenDesign(")) { // Thm. 3 is about Program 2 itself
            assertTrue(Math.sqrt(err / svdb) <= thm3 * (1 + 1e-9), "seed " + seed + " Thm. 3");
          }
        }
        checked++;
      }
      // baselines never beat the bound either
      double id = ErrorAnalysis.totalSquaredError(w, Strategies.identity(w.cells()));
      assertTrue(id >= svdb * (1 - 1e-9));
      if (Integer.bitCount(w.cells()) == 1) {
        assertTrue(ErrorAnalysis.totalSquaredError(w, Strategies.wavelet(w.cells())) >= svdb * (1 - 1e-9));
      }
      assertTrue(ErrorAnalysis.totalSquaredError(w, Strategies.hierarchical(w.cells(), 2)) >= svdb * (1 - 1e-9));
    }
    assertEquals(150 * 7, checked);
  }

  @Test
  void independentOracleAgreesWithWoodburyEvaluation() {
    for (long seed = 200; seed < 240; seed++) {
      Workload w = randomWorkload(seed);
      EigenStrategy s = EigenDesign.standard().design(w);
      assertEquals(s.totalSquaredError(), ReferenceErrors.totalSquaredError(w, s), 1e-7 * s.totalSquaredError());
    }
    Workload ranges = new AllRangesWorkload(96);
    EigenStrategy s = EigenDesign.standard().design(ranges);
    assertEquals(s.totalSquaredError(), ReferenceErrors.totalSquaredError(ranges, s), 1e-8 * s.totalSquaredError());
    assertEquals(s.totalSquaredError(), ErrorAnalysis.totalSquaredError(ranges, s), 1e-8 * s.totalSquaredError());
  }

  @Test
  void item8CompletionKeepsSensitivityAndNeverRaisesTheTrace() {
    List<Workload> ws = new ArrayList<>();
    for (long seed = 300; seed < 360; seed++) {
      ws.add(randomWorkload(seed));
    }
    ws.add(new AllRangesWorkload(50));
    ws.add(new ExplicitWorkload(PaperExampleTest.W));
    for (Workload w : ws) {
      EigenStrategy plain = EigenDesign.standard().withoutCompletion().design(w);
      EigenStrategy done = EigenDesign.standard().design(w);
      assertEquals(plain.sensitivityL2(), done.sensitivityL2(), 1e-12);
      double tPlain = ErrorAnalysis.traceGramTimesPseudoInverse(w, plain);
      double tDone = ErrorAnalysis.traceGramTimesPseudoInverse(w, done);
      assertTrue(tDone <= tPlain * (1 + 1e-9), w + ": completion raised the trace " + tPlain + " → " + tDone);
      // every column reaches the sensitivity after completion, except P7's round-off clean-up
      for (double c : done.columnNormsSquared()) {
        assertEquals(1, c, 1e-8);
      }
      assertEquals(plain.programOneObjective(), plain.totalSquaredError(), 1e-9 * plain.totalSquaredError());
    }
  }

  @Test
  void item9PermutationInvariance() {
    int n = 64;
    Workload ranges = new AllRangesWorkload(n);
    Workload permuted = new PermutedWorkload(ranges, PermutedWorkload.randomPermutation(n, 42));
    double e0 = EigenDesign.standard().design(ranges).totalSquaredError();
    EigenStrategy p = EigenDesign.standard().design(permuted);
    assertEquals(e0, p.totalSquaredError(), 1e-9 * e0);
    assertEquals(e0, ErrorAnalysis.totalSquaredError(permuted, p), 1e-9 * e0);
    // the dense eigensolver on an explicitly permuted random workload gives the same error too
    Workload w = randomWorkload(7);
    int[] perm = PermutedWorkload.randomPermutation(w.cells(), 3);
    Workload wp = new ExplicitWorkload(new PermutedWorkload(w, perm).matrix());
    double a = EigenDesign.standard().design(w).totalSquaredError();
    double b = EigenDesign.standard().design(wp).totalSquaredError();
    assertEquals(a, b, 1e-9 * a);
    // Wavelet and Hierarchical exploit locality and are not invariant
    for (org.dpsql.matrix.Strategy s : List.of(Strategies.wavelet(n), Strategies.hierarchical(n, 2))) {
      double before = ErrorAnalysis.totalSquaredError(ranges, s);
      double after = ErrorAnalysis.totalSquaredError(permuted, s);
      assertTrue(after > 2 * before, s.name() + ": " + before + " → " + after);
    }
  }

  @Test
  void item10OrthogonalInvariance() {
    for (long seed = 400; seed < 410; seed++) {
      Workload w = randomWorkload(seed);
      double[][] rows = w.matrix();
      double[][] q = randomOrthogonal(rows.length, seed);
      Workload qw = new ExplicitWorkload(Dense.transpose(org.dpsql.matrix.Matrices.multiply(Dense.transpose(rows), Dense.transpose(q))));
      double a = EigenDesign.standard().design(w).totalSquaredError();
      double b = EigenDesign.standard().design(qw).totalSquaredError();
      assertEquals(a, b, 1e-9 * a, "seed " + seed);
    }
  }

  @Test
  void item11MarginalsAttainTheBound() {
    int[] dims = {4, 4, 4};
    for (int k = 1; k <= 3; k++) {
      Workload w = Workloads.marginals(dims, k);
      EigenStrategy s = EigenDesign.standard().design(w);
      double bound = ErrorAnalysis.svdb(w);
      assertEquals(bound, s.svdb(), 1e-9 * bound);
      double ratio = Math.sqrt(bound / s.totalSquaredError());
      assertTrue(ratio >= 0.9999, k + "-way marginals: LB/Eig = " + ratio);
      assertEquals(s.totalSquaredError(), ErrorAnalysis.totalSquaredError(w, s), 1e-7 * s.totalSquaredError());
    }
  }

  @Test
  void item16PrincipalVectorsAndSeparation() {
    List<Workload> ws = List.of(new AllRangesWorkload(128), randomWorkload(17), Workloads.marginals(new int[] {4, 4, 4}, 2));
    for (Workload w : ws) {
      EigenStrategy full = EigenDesign.standard().design(w);
      int r = full.eigenvalues().length;
      EigenStrategy pvAll = EigenDesign.standard().withPrincipalFraction(1.0).design(w);
      assertEquals(full.totalSquaredError(), pvAll.totalSquaredError(), 1e-7 * full.totalSquaredError(), w.toString());
      EigenStrategy oneGroup = EigenDesign.standard().withSeparation(r).design(w);
      assertEquals(full.totalSquaredError(), oneGroup.totalSquaredError(), 1e-7 * full.totalSquaredError(), w.toString());
      if (r > 1) { // one remaining query in its own group is the full design too
        EigenStrategy pvAllButOne = EigenDesign.standard().withPrincipalVectors(r - 1).design(w);
        assertEquals(full.totalSquaredError(), pvAllButOne.totalSquaredError(), 1e-6 * full.totalSquaredError());
      }
      for (double f : new double[] {0.02, 0.1, 0.25, 0.5}) {
        EigenStrategy pv = EigenDesign.standard().withPrincipalFraction(f).design(w);
        assertTrue(pv.totalSquaredError() >= full.svdb() * (1 - 1e-9));
        assertEquals(pv.totalSquaredError(), ErrorAnalysis.totalSquaredError(w, pv), 1e-7 * pv.totalSquaredError());
      }
      for (int g : new int[] {1, 2, 5, 16}) {
        EigenStrategy sep = EigenDesign.standard().withSeparation(g).design(w);
        assertTrue(sep.totalSquaredError() >= full.svdb() * (1 - 1e-9));
        assertEquals(sep.totalSquaredError(), ErrorAnalysis.totalSquaredError(w, sep), 1e-7 * sep.totalSquaredError());
      }
    }
  }

  @Test
  void implicitComplementMatchesExplicitPrincipalVectors() {
    Workload w = new AllRangesWorkload(200);
    EigenStrategy explicit = EigenDesign.standard().withPrincipalVectors(20).design(w);
    EigenStrategy implicit = EigenDesign.standard().withPrincipalVectors(20).withImplicitComplementAbove(0).design(w);
    assertTrue(implicit.complementWeight() > 0);
    assertEquals(0, explicit.complementWeight());
    assertEquals(explicit.totalSquaredError(), implicit.totalSquaredError(), 1e-8 * explicit.totalSquaredError());
    assertEquals(implicit.totalSquaredError(), ErrorAnalysis.totalSquaredError(w, implicit), 1e-7 * implicit.totalSquaredError());
    assertEquals(200, implicit.gram().length);
  }

  static double[][] randomOrthogonal(int m, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] q = new double[m][m];
    for (int i = 0; i < m; i++) {
      for (int j = 0; j < m; j++) {
        q[i][j] = r.nextGaussian();
      }
      for (int p = 0; p < i; p++) { // Gram–Schmidt twice
        for (int rep = 0; rep < 2; rep++) {
          double d = Dense.dot(q[i], q[p], m);
          for (int j = 0; j < m; j++) {
            q[i][j] -= d * q[p][j];
          }
        }
      }
      double norm = Math.sqrt(Dense.dot(q[i], q[i], m));
      for (int j = 0; j < m; j++) {
        q[i][j] /= norm;
      }
    }
    return q;
  }
}
