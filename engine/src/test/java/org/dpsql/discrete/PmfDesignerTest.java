package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Reproduces spec §4 (items 3–6, 8, 12, P1, P4) of seed paper 000 with {@link PmfDesigner}. Every
 * designed PMF is also checked here with an independent PDP leakage computation in doubles.
 *
 * <p>Performance measurements are tagged {@code performance} and run only with {@code
 * -Ddpsql.perf=true}.
 */
class PmfDesignerTest {

  private static final MilpReading A = MilpReading.SHARED_INDICATOR;
  private static final MilpReading B = MilpReading.PER_DIFFERENCE;
  private static final DesignObjective ER = DesignObjective.ERROR_RATE;

  // ------------------------------------------------------------------------------------------
  // Independent helpers
  // ------------------------------------------------------------------------------------------

  /** Per-mu PDP leakage {@code sum_eta f(eta) 1[f(eta) > e^eps f(eta+mu)]}, in M's order. */
  static double[] leakagePerMu(double[] f, Set<Integer> m, double eps) {
    int size = f.length;
    double e = Math.exp(eps);
    double[] out = new double[m.size()];
    int k = 0;
    for (int mu : new TreeSet<>(m)) {
      double s = 0.0;
      for (int eta = 0; eta < size; eta++) {
        if (f[eta] > e * f[(eta + mu) % size]) {
          s += f[eta];
        }
      }
      out[k++] = s;
    }
    return out;
  }

  static double leakage(double[] f, Set<Integer> m, double eps) {
    return Arrays.stream(leakagePerMu(f, m, eps)).max().orElse(0.0);
  }

  /** Asserts a valid PMF with PDP leakage at most delta. */
  static void assertPrivatePmf(double[] f, Set<Integer> m, double eps, double delta) {
    double sum = 0.0;
    for (double v : f) {
      assertTrue(v >= 0.0, "negative mass " + v);
      sum += v;
    }
    assertEquals(1.0, sum, 1e-12);
    double leak = leakage(f, m, eps);
    assertTrue(leak <= delta, "leakage " + leak + " > delta " + delta);
  }

  static Set<Integer> bd(int muBar) {
    Set<Integer> s = new TreeSet<>();
    for (int i = 1; i <= muBar; i++) {
      s.add(i);
    }
    return s;
  }

  /** Lengths of the runs of equal masses (relative tolerance 1e-6), from eta = 0. */
  static List<Integer> stepLengths(double[] f) {
    List<Integer> out = new ArrayList<>();
    int len = 1;
    for (int i = 1; i < f.length; i++) {
      if (Math.abs(f[i] - f[i - 1]) <= 1e-6 * Math.max(f[i], f[i - 1])) {
        len++;
      } else {
        out.add(len);
        len = 1;
      }
    }
    out.add(len);
    return out;
  }

  // Theorem 2 (SD, coprime), eqs. 19-21, ER objective.
  static double deltaBar(int n, double eps, int k) {
    if (k == n) {
      return 1.0;
    }
    return Math.exp(-(n - k - 1) * eps) * (1 - Math.exp(-eps)) / (1 - Math.exp(-(n - k + 1) * eps));
  }

  static double deltaUnder(int n, double eps, int k) {
    if (k == 0) {
      return 0.0;
    }
    return Math.exp(-(n - k) * eps) * (1 - Math.exp(-eps)) / (1 - Math.exp(-(n - k + 1) * eps));
  }

  static double theorem2F0(int n, double eps, double delta) {
    for (int k = 0; k <= n; k++) {
      if (deltaUnder(n, eps, k) <= delta && delta <= deltaBar(n, eps, k)) {
        return (1 - Math.exp(-eps)) / (1 - Math.exp(-(n - k + 1) * eps));
      }
      if (k >= 1 && deltaBar(n, eps, k - 1) < delta && delta <= deltaUnder(n, eps, k)) {
        return delta * Math.exp((n - k) * eps);
      }
    }
    throw new AssertionError("delta not covered: " + delta);
  }

  // ------------------------------------------------------------------------------------------
  // Item 3: Lemma 3 (SD, delta = 0)
  // ------------------------------------------------------------------------------------------

  @Test
  void item3_lemma3_coprimeSingleDistance() {
    double eps = 0.75;
    Set<Integer> m = Set.of(3);
    double[] f = PmfDesigner.lp(7, m, eps, ER);
    assertPrivatePmf(f, m, eps, 0.0);
    assertEquals(0.5289446, f[0], 1e-7);
    assertEquals((1 - Math.exp(-eps)) / (1 - Math.exp(-8 * eps)), f[0], 1e-9);
    // f*_(h) = f*(3h mod 8) = e^{-h eps} f*(0): order 0,3,6,1,4,7,2,5 (Fig. 9a)
    int[] order = {0, 3, 6, 1, 4, 7, 2, 5};
    for (int h = 0; h < 8; h++) {
      assertEquals(f[0] * Math.exp(-h * eps), f[order[h]], 1e-9, "h = " + h);
    }
  }

  @Test
  void item3_lemma3_nonCoprimeSingleDistance() {
    double eps = 0.75;
    Set<Integer> m = Set.of(2);
    double[] f = PmfDesigner.lp(7, m, eps, ER);
    assertPrivatePmf(f, m, eps, 0.0);
    assertEquals(0.5552792, f[0], 1e-7);
    for (int odd = 1; odd < 8; odd += 2) {
      assertEquals(0.0, f[odd], 0.0, "odd eta must be exactly 0: " + odd);
    }
    for (int h = 0; h < 4; h++) {
      assertEquals(f[0] * Math.exp(-h * eps), f[2 * h], 1e-9);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Item 4: Lemma 4 (BD, delta = 0)
  // ------------------------------------------------------------------------------------------

  @Test
  void item4_lemma4_staircase() {
    double eps = 1.5;
    double[] f = PmfDesigner.lp(8, bd(3), eps, ER);
    assertPrivatePmf(f, bd(3), eps, 0.0);
    double[] expected = {
      0.543192, 0.121203, 0.121203, 0.121203, 0.027044, 0.027044, 0.027044, 0.006034, 0.006034
    };
    assertArrayEquals(expected, f, 1e-6);
    assertEquals(List.of(1, 3, 3, 2), stepLengths(f));

    double[] g = PmfDesigner.lp(4, bd(2), eps, ER);
    assertPrivatePmf(g, bd(2), eps, 0.0);
    assertArrayEquals(new double[] {0.6469, 0.1443, 0.1443, 0.0322, 0.0322}, g, 5e-5);
  }

  // ------------------------------------------------------------------------------------------
  // Item 5: Theorem 2 via the MILP
  // ------------------------------------------------------------------------------------------

  @Test
  void item5_theorem2_milpMatchesClosedForm() {
    int n = 7;
    double eps = 0.75;
    Set<Integer> m = Set.of(3);
    // regions (Thm. 2): flat 0, linear 1, flat 1, linear 2, flat 2, linear 3, flat 3, linear 4,
    // flat 4, linear 5, flat 5, linear 6, flat 6, linear 7 (the last segment, f*(0) = delta)
    double[] deltas = {
      0.003, 0.00588, 0.009, 0.0125, 0.02, 0.0268, 0.05, 0.058, 0.1, 0.128, 0.2, 0.3, 0.5, 0.9
    };
    int sawFlat = 0;
    int sawLinear = 0;
    for (double delta : deltas) {
      double expected = theorem2F0(n, eps, delta);
      for (MilpReading reading : MilpReading.values()) {
        double[] f = PmfDesigner.milp(n, m, eps, delta, ER, reading);
        assertPrivatePmf(f, m, eps, delta);
        assertEquals(expected, f[0], 1e-6, "delta = " + delta + ", " + reading);
      }
      boolean linear = Math.abs(expected - theorem2F0(n, eps, delta * 0.999)) > 1e-9;
      if (linear) {
        sawLinear++;
      } else {
        sawFlat++;
      }
    }
    assertEquals(7, sawFlat);
    assertEquals(7, sawLinear);
  }

  @Test
  void item5_theorem2_secondCase() {
    int n = 5;
    double eps = 1.0;
    Set<Integer> m = Set.of(1);
    for (double delta : new double[] {0.01, 0.03, 0.06, 0.12, 0.25}) {
      double[] f = PmfDesigner.milp(n, m, eps, delta, ER, B);
      assertPrivatePmf(f, m, eps, delta);
      assertEquals(theorem2F0(n, eps, delta), f[0], 1e-6, "delta = " + delta);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Item 6: Fig. 10 (reading A), n = 8, mu_bar = 3, eps = 1.5
  // ------------------------------------------------------------------------------------------

  private static final double FIG10_EPS = 1.5;
  private static final double FIG10_A = Math.exp(-FIG10_EPS);

  private static double fig10F0(double delta) {
    return PmfDesigner.milp(8, bd(3), FIG10_EPS, delta, ER, A)[0];
  }

  @Test
  void item6_fig10_breakpointsAndSlopes() {
    double a = FIG10_A;
    double phi0 = 1 / (1 + 3 * a + 3 * a * a + 2 * a * a * a); // (1,3,3,2)
    double phi1 = 1 / (1 + 3 * a + 2 * a * a + 3 * a * a * a); // (1,3,2,3)
    double phi2 = 1 / (1 + 3 * a + 2 * a * a + 2 * a * a * a + a * a * a * a); // (1,3,2,2,1)
    double deltaBar0 = phi0 * a; // eq. 37: phi_0 e^{-(b-1) eps}, b = 2
    double deltaUnder1 = phi1 * a; // leakage of the (1,3,2,3) PMF
    double deltaUnder2 = phi2 * (a + a * a); // leakage of the (1,3,2,2,1) PMF
    assertEquals(0.1212, deltaBar0, 5e-5);
    assertEquals(0.1238, deltaUnder1, 5e-5);
    assertEquals(0.1522, deltaUnder2, 5e-5);

    double h = 2e-4;
    double[][] cases = {
      // breakpoint, f*(0) there, left slope, right slope
      {deltaBar0, phi0, 0.0, Math.exp(FIG10_EPS)},
      {deltaUnder1, phi1, Math.exp(FIG10_EPS), 0.0},
      {deltaUnder2, phi2, 1 / (a + a * a), 0.0},
    };
    for (double[] c : cases) {
      double at = fig10F0(c[0]);
      double left = (at - fig10F0(c[0] - h)) / h;
      double right = (fig10F0(c[0] + h) - at) / h;
      assertEquals(c[1], at, 1e-6, "f*(0) at " + c[0]);
      assertEquals(c[2], left, 1e-3, "left slope at " + c[0]);
      assertEquals(c[3], right, 1e-3, "right slope at " + c[0]);
      assertTrue(Math.abs(left - right) > 1.0, "slope must change at " + c[0]);
    }
  }

  @Test
  void item6_fig10_stepPatterns() {
    Set<Integer> m = bd(3);
    double[][] cases = {{0.1212}, {0.124}, {0.1522}};
    List<List<Integer>> expected = List.of(List.of(1, 3, 3, 2), List.of(1, 3, 2, 3), List.of(1, 3, 2, 2, 1));
    for (int c = 0; c < cases.length; c++) {
      double delta = cases[c][0];
      double[] f = PmfDesigner.milp(8, m, FIG10_EPS, delta, ER, A);
      assertPrivatePmf(f, m, FIG10_EPS, delta);
      List<Integer> steps = stepLengths(f);
      assertEquals(expected.get(c), steps, "delta = " + delta + ": " + Arrays.toString(f));
      // successive step heights differ by e^eps
      int start = 0;
      for (int s = 0; s + 1 < steps.size(); s++) {
        int next = start + steps.get(s);
        assertEquals(Math.exp(FIG10_EPS), f[start] / f[next], 1e-5);
        start = next;
      }
    }
  }

  // ------------------------------------------------------------------------------------------
  // Item 8: reading B dominates reading A
  // ------------------------------------------------------------------------------------------

  @Test
  void item8_readingBStrictlyBetterAtFig10Delta() {
    Set<Integer> m = bd(3);
    double delta = 0.1212;
    double[] fa = PmfDesigner.milp(8, m, 1.5, delta, ER, A);
    double[] fb = PmfDesigner.milp(8, m, 1.5, delta, ER, B);
    assertEquals(0.543192, fa[0], 1e-6);
    assertEquals(0.549828, fb[0], 1e-6);
    assertPrivatePmf(fa, m, 1.5, delta);
    assertPrivatePmf(fb, m, 1.5, delta);
    for (double leak : leakagePerMu(fb, m, 1.5)) {
      assertTrue(leak <= delta, "per-mu leakage " + leak);
    }
  }

  @Test
  void item8_readingBDominatesOnGrid() {
    int[] ns = {5, 8};
    double[] epss = {0.5, 1.5};
    double[] deltas = {0.05, 0.15, 0.3};
    int strict = 0;
    int total = 0;
    for (int n : ns) {
      List<Set<Integer>> sets = List.of(bd(2), bd(3), Set.of(1, n), Set.of(2, 3));
      for (Set<Integer> m : sets) {
        for (double eps : epss) {
          for (double delta : deltas) {
            double[] fa = PmfDesigner.milp(n, m, eps, delta, ER, A);
            double[] fb = PmfDesigner.milp(n, m, eps, delta, ER, B);
            assertPrivatePmf(fa, m, eps, delta);
            assertPrivatePmf(fb, m, eps, delta);
            String where = "n=" + n + " M=" + m + " eps=" + eps + " delta=" + delta;
            assertTrue(fb[0] >= fa[0] - 1e-7, where + ": B " + fb[0] + " < A " + fa[0]);
            total++;
            if (fb[0] > fa[0] + 1e-6) {
              strict++;
            }
          }
        }
      }
    }
    assertEquals(48, total);
    assertTrue(strict > 0);
  }

  /** f(0) values computed independently with HiGHS (scipy.optimize.milp) on the same models. */
  @Test
  void item8_matchesIndependentHighsReference() {
    Object[][] cases = {
      // n, M, eps, delta, f_A(0), f_B(0)
      {8, Set.of(1, 8), 0.5, 0.15, 0.2727953905890436, 0.3391186751231516},
      {5, Set.of(2, 3), 1.5, 0.05, 0.6422840840536069, 0.6468997992965032},
      {8, Set.of(2, 3), 0.5, 0.3, 0.3, 0.330338148434071},
      {31, Set.of(1, 31), 1.0, 0.05, Double.NaN, 0.4748329997443804},
    };
    for (Object[] c : cases) {
      int n = (Integer) c[0];
      @SuppressWarnings("unchecked")
      Set<Integer> m = (Set<Integer>) c[1];
      double eps = (Double) c[2];
      double delta = (Double) c[3];
      if (!Double.isNaN((Double) c[4])) {
        double[] fa = PmfDesigner.milp(n, m, eps, delta, ER, A);
        assertPrivatePmf(fa, m, eps, delta);
        assertEquals((Double) c[4], fa[0], 1e-6, "A " + Arrays.toString(c));
      }
      double[] fb = PmfDesigner.milp(n, m, eps, delta, ER, B);
      assertPrivatePmf(fb, m, eps, delta);
      assertEquals((Double) c[5], fb[0], 1e-6, "B " + Arrays.toString(c));
    }
  }

  @Test
  void item8_readingsCoincideForSingleDifference() {
    for (double delta : new double[] {0.02, 0.1, 0.4}) {
      double fa = PmfDesigner.milp(9, Set.of(3), 1.0, delta, ER, A)[0];
      double fb = PmfDesigner.milp(9, Set.of(3), 1.0, delta, ER, B)[0];
      assertEquals(fa, fb, 1e-7);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Item 12: delta -> 1, last segment f*(0) = delta
  // ------------------------------------------------------------------------------------------

  @Test
  void item12_lastSegmentF0EqualsDelta() {
    for (double delta : new double[] {0.75, 0.9, 0.99}) {
      for (MilpReading reading : MilpReading.values()) {
        double[] sd = PmfDesigner.milp(7, Set.of(3), 0.75, delta, ER, reading);
        assertEquals(delta, sd[0], 1e-6, "SD " + reading);
        assertPrivatePmf(sd, Set.of(3), 0.75, delta);
        double[] bdPmf = PmfDesigner.milp(8, bd(3), 1.5, delta, ER, reading);
        assertEquals(delta, bdPmf[0], 1e-6, "BD " + reading);
        assertPrivatePmf(bdPmf, bd(3), 1.5, delta);
      }
    }
    // delta = 1 (the design budget is delta (1 - 1e-9))
    double[] one = PmfDesigner.milp(7, Set.of(3), 0.75, 1.0, ER, B);
    assertEquals(1.0, one[0], 1e-8);
  }

  // ------------------------------------------------------------------------------------------
  // P1: symmetric add/remove-one neighbourhood
  // ------------------------------------------------------------------------------------------

  @Test
  void p1_symmetricAddRemoveOne() {
    double[] f7 = PmfDesigner.lp(7, Set.of(1, 7), 0.75, ER);
    assertPrivatePmf(f7, Set.of(1, 7), 0.75, 0.0);
    assertEquals(0.377134, f7[0], 1e-6);
    for (int k = 0; k <= 7; k++) {
      assertEquals(f7[0] * Math.exp(-0.75 * Math.min(k, 8 - k)), f7[k], 1e-9);
    }
    double[] f8 = PmfDesigner.lp(8, Set.of(1, 8), 1.0, ER);
    assertPrivatePmf(f8, Set.of(1, 8), 1.0, 0.0);
    assertEquals(0.466715, f8[0], 1e-6);
  }

  // ------------------------------------------------------------------------------------------
  // P4: paper MSE is biased, circular MSE is symmetric
  // ------------------------------------------------------------------------------------------

  @Test
  void p4_paperMseBiasedCircularMseSymmetric() {
    Set<Integer> m = Set.of(1, 8);
    double[] paper = PmfDesigner.lp(8, m, 1.0, DesignObjective.PAPER_MSE);
    assertPrivatePmf(paper, m, 1.0, 0.0);
    assertEquals(2, argMax(paper));
    assertArrayEquals(
        new double[] {0.063, 0.172, 0.467, 0.172, 0.063, 0.023, 0.009, 0.009, 0.023}, paper, 5e-4);

    double[] circ = PmfDesigner.lp(8, m, 1.0, DesignObjective.CIRCULAR_MSE);
    assertPrivatePmf(circ, m, 1.0, 0.0);
    assertEquals(0, argMax(circ));
    for (int eta = 1; eta <= 8; eta++) {
      assertEquals(circ[eta], circ[9 - eta], 1e-9, "symmetry at " + eta);
    }
  }

  private static int argMax(double[] f) {
    int best = 0;
    for (int i = 1; i < f.length; i++) {
      if (f[i] > f[best]) {
        best = i;
      }
    }
    return best;
  }

  @Test
  void objectiveCosts() {
    assertEquals(0.0, DesignObjective.ERROR_RATE.cost(0, 8));
    assertEquals(1.0, DesignObjective.ERROR_RATE.cost(5, 8));
    assertEquals(4.0, DesignObjective.CIRCULAR_MSE.cost(7, 8));
    assertEquals(16.0, DesignObjective.CIRCULAR_MSE.cost(4, 8));
    assertEquals(49.0, DesignObjective.PAPER_MSE.cost(7, 8));
    assertThrows(IllegalArgumentException.class, () -> DesignObjective.PAPER_MSE.cost(9, 8));
  }

  // ------------------------------------------------------------------------------------------
  // eq. 15: minimum delta for a cost budget
  // ------------------------------------------------------------------------------------------

  @Test
  void minDelta_invertsTheorem2InLinearRegions() {
    int n = 7;
    double eps = 0.75;
    Set<Integer> m = Set.of(3);
    for (double delta : new double[] {0.00588, 0.0268, 0.128, 0.3}) {
      double f0 = theorem2F0(n, eps, delta);
      assertTrue(Math.abs(f0 - theorem2F0(n, eps, delta * 0.999)) > 1e-9, "linear region");
      for (MilpReading reading : MilpReading.values()) {
        PmfDesigner.MinDeltaDesign design = PmfDesigner.minDeltaDesign(n, m, eps, ER, 1 - f0, reading);
        assertEquals(delta, design.delta(), 1e-6, "delta = " + delta + " " + reading);
        double[] f = design.pmf();
        assertTrue(1 - f[0] <= 1 - f0 + 1e-9);
        assertPrivatePmf(f, m, eps, design.delta());
        assertEquals(design.delta(), PmfDesigner.minDelta(n, m, eps, ER, 1 - f0, reading), 1e-7);
        assertTrue(1 - PmfDesigner.minDeltaPmf(n, m, eps, ER, 1 - f0, reading)[0] <= 1 - f0 + 1e-9);
      }
    }
  }

  @Test
  void minDelta_zeroWhenTheLpMeetsTheBudget() {
    double[] lp = PmfDesigner.lp(8, bd(3), 1.5, ER);
    assertEquals(0.0, PmfDesigner.minDelta(8, bd(3), 1.5, ER, 1 - lp[0] + 1e-6, B), 1e-12);
    double[] f = PmfDesigner.minDeltaPmf(8, bd(3), 1.5, ER, 1 - lp[0] + 1e-6, B);
    assertTrue(f[0] >= lp[0] - 1e-6);
    assertPrivatePmf(f, bd(3), 1.5, 0.0);
  }

  @Test
  void minDelta_readingBNeverNeedsMoreThanA() {
    Set<Integer> m = bd(3);
    for (double maxCost : new double[] {0.45, 0.44, 0.3}) {
      double da = PmfDesigner.minDelta(8, m, 1.5, ER, maxCost, A);
      PmfDesigner.MinDeltaDesign design = PmfDesigner.minDeltaDesign(8, m, 1.5, ER, maxCost, B);
      double db = design.delta();
      assertTrue(db <= da + 1e-7, "maxCost " + maxCost + ": B " + db + " > A " + da);
      double[] fb = design.pmf();
      assertPrivatePmf(fb, m, 1.5, db);
      assertTrue(1 - fb[0] <= maxCost + 1e-9);
    }
  }

  @Test
  void minDelta_circularMse() {
    Set<Integer> m = Set.of(1, 6);
    double[] lp = PmfDesigner.lp(6, m, 0.5, DesignObjective.CIRCULAR_MSE);
    double lpCost = 0;
    for (int eta = 0; eta <= 6; eta++) {
      lpCost += DesignObjective.CIRCULAR_MSE.cost(eta, 6) * lp[eta];
    }
    double budget = 0.8 * lpCost;
    PmfDesigner.MinDeltaDesign design =
        PmfDesigner.minDeltaDesign(6, m, 0.5, DesignObjective.CIRCULAR_MSE, budget, B);
    double d = design.delta();
    double[] f = design.pmf();
    assertTrue(d > 0 && d < 1);
    assertPrivatePmf(f, m, 0.5, d);
    // and the MILP at that delta reaches (at least) the budget
    double[] g = PmfDesigner.milp(6, m, 0.5, d * (1 + 1e-6), DesignObjective.CIRCULAR_MSE, B);
    double cost = 0;
    for (int eta = 0; eta <= 6; eta++) {
      cost += DesignObjective.CIRCULAR_MSE.cost(eta, 6) * g[eta];
    }
    assertTrue(cost <= budget + 1e-7, "cost " + cost + " budget " + budget);
  }

  // ------------------------------------------------------------------------------------------
  // Numerics and validation
  // ------------------------------------------------------------------------------------------

  @Test
  void largeEpsilonStaysExactlyPrivate() {
    Set<Integer> m = Set.of(1, 8);
    for (double eps : new double[] {10, 25, 50}) {
      double[] f = PmfDesigner.lp(8, m, eps, ER);
      assertPrivatePmf(f, m, eps, 0.0);
      for (double v : f) {
        assertTrue(v > 0.0, "every mass must stay positive for delta = 0");
      }
      double[] g = PmfDesigner.milp(8, m, eps, 0.01, ER, B);
      assertPrivatePmf(g, m, eps, 0.01);
    }
  }

  @Test
  void n1IsRandomizedResponse() {
    for (double eps : new double[] {0.1, 1.0, 3.0}) {
      double[] f = PmfDesigner.lp(1, Set.of(1), eps, ER);
      assertEquals(Math.exp(eps) / (1 + Math.exp(eps)), f[0], 1e-9);
      assertPrivatePmf(f, Set.of(1), eps, 0.0);
    }
  }

  @Test
  void deltaZeroDelegatesToLp() {
    double[] a = PmfDesigner.milp(8, bd(3), 1.5, 0.0, ER, B);
    double[] b = PmfDesigner.lp(8, bd(3), 1.5, ER);
    assertArrayEquals(b, a, 0.0);
  }

  @Test
  void rejectsInvalidInputs() {
    IllegalArgumentException big =
        assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(1), 51, ER));
    assertTrue(big.getMessage().contains("50"), big.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(1), 0.0, ER));
    assertThrows(
        IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(1), Double.NaN, ER));
    assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(0), 1, ER));
    assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(9), 1, ER));
    assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(-1), 1, ER));
    assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(8, Set.of(), 1, ER));
    assertThrows(IllegalArgumentException.class, () -> PmfDesigner.lp(0, Set.of(1), 1, ER));
    assertThrows(
        IllegalArgumentException.class, () -> PmfDesigner.milp(8, Set.of(1), 1, -0.1, ER, B));
    assertThrows(
        IllegalArgumentException.class, () -> PmfDesigner.milp(8, Set.of(1), 1, 1.1, ER, B));
    assertThrows(
        IllegalArgumentException.class, () -> PmfDesigner.minDelta(8, Set.of(1), 1, ER, -1, B));
    assertThrows(
        IllegalArgumentException.class, () -> PmfDesigner.milp(200, bd(30), 1, 0.1, ER, B));
  }

  // ------------------------------------------------------------------------------------------
  // Performance (off by default: -Ddpsql.perf=true)
  // ------------------------------------------------------------------------------------------

  @Test
  @Tag("performance")
  @EnabledIfSystemProperty(named = "dpsql.perf", matches = "true")
  void performance_lpN255() {
    int n = Integer.getInteger("dpsql.perf.lpn", 255);
    Set<Integer> m = Set.of(1, n);
    PmfDesigner.lp(31, Set.of(1, 31), 1.0, ER); // warm-up
    long t0 = System.nanoTime();
    double[] f = PmfDesigner.lp(n, m, 1.0, ER);
    double secs = (System.nanoTime() - t0) / 1e9;
    System.out.printf("PERF LP n=%d M={1,n} eps=1 ER: %.3f s, f(0)=%.9f%n", n, secs, f[0]);
    assertPrivatePmf(f, m, 1.0, 0.0);
    assertEquals(Math.tanh(0.5), f[0], 1e-9); // (1-e^-1)/(1+e^-1) for n -> infinity, symmetric
    long t1 = System.nanoTime();
    double[] g = PmfDesigner.lp(n, m, 0.1, DesignObjective.CIRCULAR_MSE);
    System.out.printf(
        "PERF LP n=%d M={1,n} eps=0.1 CIRCULAR_MSE: %.3f s, f(0)=%.9f%n",
        n, (System.nanoTime() - t1) / 1e9, g[0]);
    assertPrivatePmf(g, m, 0.1, 0.0);
  }

  @Test
  @Tag("performance")
  @EnabledIfSystemProperty(named = "dpsql.perf", matches = "true")
  void performance_milpReadingB() {
    // -Ddpsql.perf.ns=7,15,31 -Ddpsql.perf.eps=1.0 -Ddpsql.perf.delta=0.05 -Ddpsql.perf.bd=0
    // (bd > 0: M = {1..bd} instead of {1, n})
    String list = System.getProperty("dpsql.perf.ns", "7,11,15,19,23,27,31");
    double eps = Double.parseDouble(System.getProperty("dpsql.perf.eps", "1.0"));
    double delta = Double.parseDouble(System.getProperty("dpsql.perf.delta", "0.05"));
    int bdMax = Integer.getInteger("dpsql.perf.bd", 0);
    DesignObjective obj = DesignObjective.valueOf(System.getProperty("dpsql.perf.obj", "ERROR_RATE"));
    PmfDesigner.milp(7, Set.of(1, 7), 1.0, 0.05, ER, B); // warm-up
    for (String tok : list.split(",")) {
      int n = Integer.parseInt(tok.trim());
      Set<Integer> m = bdMax > 0 ? bd(bdMax) : Set.of(1, n);
      long t0 = System.nanoTime();
      double[] f = PmfDesigner.milp(n, m, eps, delta, obj, B);
      double secs = (System.nanoTime() - t0) / 1e9;
      double cost = 0;
      for (int eta = 0; eta <= n; eta++) {
        cost += obj.cost(eta, n) * f[eta];
      }
      System.out.printf(
          "PERF MILP-B n=%d M=%s eps=%s delta=%s %s: %.3f s, f(0)=%.9f cost=%.9f%n",
          n, bdMax > 0 ? "{1.." + bdMax + "}" : "{1,n}", eps, delta, obj, secs, f[0], cost);
      assertPrivatePmf(f, m, eps, delta);
    }
  }
}
