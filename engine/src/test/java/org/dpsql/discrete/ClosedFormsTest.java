package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * Reproductions of seed paper 000 (spec §4). Where the spec points to "§3.1" for full vectors,
 * breakpoint tables and the three Thm. 3 cases, that section is absent from the spec; the values
 * below were computed from the closed forms and cross-checked, independently of this code, against
 * an LP/MILP solved with HiGHS (scipy) — reading A of the MILP for Thm. 3 — to 1e-7.
 */
class ClosedFormsTest {

  private static BigDecimal bd(double d) {
    return new BigDecimal(Double.toString(d));
  }

  private static void assertPasses(NoisePmf f, Neighbourhood m, double eps, double delta) {
    PdpChecker.require(f, m, bd(eps), bd(delta));
  }

  // --------------------------------------------------------------------------- item 3: Lemma 3

  @Test
  void lemma3CoprimeFullVector() {
    double[] f = ClosedForms.lemma3(7, 3, 0.75);
    assertArrayEquals(
        new double[] {0.5289446, 0.0557503, 0.0058760, 0.2498557, 0.0263346, 0.0027756, 0.1180235, 0.0124396},
        f, 1e-7);
    assertEquals(0.5289446, ClosedForms.lemma3F0(7, 3, 0.75), 1e-7);
    assertEquals(8, ClosedForms.orbitLength(7, 3));
  }

  @Test
  void lemma3NonCoprimeFullVectorWithZerosAtOddEta() {
    double[] f = ClosedForms.lemma3(7, 2, 0.75);
    assertArrayEquals(
        new double[] {0.5552792, 0, 0.2622953, 0, 0.1238995, 0, 0.0585260, 0}, f, 1e-7);
    assertEquals(4, ClosedForms.orbitLength(7, 2));
    for (int eta = 1; eta < 8; eta += 2) {
      assertEquals(0.0, f[eta]);
    }
  }

  /** Fig. 9 orderings, at delta = 0 and at several delta > 0 (Thm. 2 keeps the orbit order). */
  @Test
  void fig9Orderings() {
    int[] orderA = {0, 3, 6, 1, 4, 7, 2, 5};
    int[] orderB = {0, 2, 4, 6};
    double previousF0A = 0;
    double previousF0B = 0;
    for (double delta : new double[] {0, 0.01, 0.05, 0.1, 0.2}) {
      double[] a = ClosedForms.theorem2(7, 3, 0.75, delta);
      for (int i = 0; i + 1 < orderA.length; i++) {
        assertTrue(a[orderA[i]] >= a[orderA[i + 1]], "delta=" + delta + " at " + i);
      }
      double[] b = ClosedForms.theorem2(7, 2, 0.75, delta);
      for (int i = 0; i + 1 < orderB.length; i++) {
        assertTrue(b[orderB[i]] >= b[orderB[i + 1]]);
      }
      for (int eta = 1; eta < 8; eta += 2) {
        assertEquals(0.0, b[eta]);
      }
      assertTrue(a[0] >= previousF0A && b[0] >= previousF0B); // ER decreases with delta
      assertTrue(b[0] >= a[0]); // (b) has the lower ER
      previousF0A = a[0];
      previousF0B = b[0];
    }
    double[] a0 = ClosedForms.lemma3(7, 3, 0.75);
    for (int i = 0; i + 1 < orderA.length; i++) {
      assertTrue(a0[orderA[i]] > a0[orderA[i + 1]]); // strict at delta = 0
    }
  }

  /**
   * Quantised Lemma 3 PMFs pass the exact checker at delta = 0 and the stated eps. They are
   * designed at eps (1 - 1e-9) (ClosedForms.DESIGN_MARGIN) so that rounding to 2^-62 cannot turn
   * a tight ratio e^eps into a violation; they are tight: at eps (1 - 1e-6) they leak.
   */
  @Test
  void quantisedLemma3PassesTheExactCheckerAtDeltaZero() {
    for (int mu : new int[] {1, 2, 3, 4, 5, 6, 7}) {
      NoisePmf f = ClosedForms.lemma3Pmf(7, mu, 0.75);
      Neighbourhood m = Neighbourhood.singleDistance(7, mu);
      assertEquals(0, PdpChecker.delta(f, m, bd(0.75)).signum(), "mu=" + mu);
      assertTrue(PdpChecker.delta(f, m, bd(0.75 * (1 - 1e-6))).signum() > 0);
    }
    for (double eps : new double[] {0.01, 0.3, 1, 2.5}) {
      NoisePmf f = ClosedForms.lemma3Pmf(30, 7, eps);
      assertPasses(f, Neighbourhood.singleDistance(30, 7), eps, 0);
    }
  }

  // --------------------------------------------------------------------------- items 5, 12: Thm. 2

  @Test
  void theorem2BreakpointTable() {
    double eps = 0.75;
    double[][] coprime = { // k: deltaUnder_k, deltaBar_k for n = 7, muHat = 3
      {0, 0.005876043394415015},
      {0.005892398609177894, 0.012474207953518102},
      {0.012548146635299701, 0.02656442663538775},
      {0.026901996836474196, 0.056951527749729995},
      {0.05852599385116556, 0.12389952995519078},
      {0.13160164714691436, 0.278600689196273},
      {0.320821300824607, 0.679178699175393},
      {1.0, 1.0}
    };
    for (int k = 0; k < coprime.length; k++) {
      assertEquals(coprime[k][0], ClosedForms.deltaUnder(7, 3, eps, k), 1e-12, "under " + k);
      assertEquals(coprime[k][1], ClosedForms.deltaBar(7, 3, eps, k), 1e-12, "bar " + k);
      if (k > 0 && k < 7) {
        assertEquals(Math.exp(eps) * ClosedForms.deltaUnder(7, 3, eps, k), ClosedForms.deltaBar(7, 3, eps, k), 1e-15);
      }
    }
    // Non-coprime muHat = 2: n replaced by N_mu - 1 = 3 (P6), i.e. the last four rows above.
    for (int k = 0; k <= 3; k++) {
      assertEquals(k == 0 ? 0 : coprime[k + 4][0], ClosedForms.deltaUnder(7, 2, eps, k), 1e-12);
      assertEquals(coprime[k + 4][1], ClosedForms.deltaBar(7, 2, eps, k), 1e-12);
    }
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.deltaBar(7, 2, eps, 4));
  }

  @Test
  void theorem2F0Values() {
    double[] deltas = {0.003, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9};
    double[] mu3 = {0.5289446, 0.5304168, 0.5335608, 0.5403411, 0.5552792, 0.5897977, 0.6351000, 0.6791787, 0.7, 0.9};
    double[] mu2 = {0.5552792, 0.5552792, 0.5552792, 0.5552792, 0.5552792, 0.5897977, 0.6351000, 0.6791787, 0.7, 0.9};
    for (int i = 0; i < deltas.length; i++) {
      assertEquals(mu3[i], ClosedForms.theorem2F0(7, 3, 0.75, deltas[i]), 1e-6, "mu=3 delta=" + deltas[i]);
      assertEquals(mu2[i], ClosedForms.theorem2F0(7, 2, 0.75, deltas[i]), 1e-6, "mu=2 delta=" + deltas[i]);
    }
    assertEquals(ClosedForms.lemma3F0(7, 3, 0.75), ClosedForms.theorem2F0(7, 3, 0.75, 0), 0);
  }

  /** Item 12 (SD): in the last segment f*(0) = delta. */
  @Test
  void theorem2LastSegmentHasF0EqualToDelta() {
    for (double delta : new double[] {0.68, 0.75, 0.9, 0.999, 1.0}) {
      assertEquals(delta, ClosedForms.theorem2F0(7, 3, 0.75, delta), 1e-12);
      assertEquals(delta, ClosedForms.theorem2F0(7, 2, 0.75, delta), 1e-12);
    }
  }

  /** f*(0) is continuous at every breakpoint, and every Thm. 2 PMF passes the exact checker. */
  @Test
  void theorem2PmfsArePrivateAndContinuous() {
    double eps = 0.75;
    for (int mu : new int[] {1, 2, 3, 4}) {
      int m = ClosedForms.orbitLength(7, mu) - 1;
      for (int k = 1; k <= m; k++) {
        double bar = ClosedForms.deltaBar(7, mu, eps, k - 1);
        assertEquals(
            ClosedForms.theorem2F0(7, mu, eps, bar), ClosedForms.theorem2F0(7, mu, eps, Math.nextUp(bar)), 1e-9);
        double under = ClosedForms.deltaUnder(7, mu, eps, k);
        assertEquals(
            ClosedForms.theorem2F0(7, mu, eps, under), ClosedForms.theorem2F0(7, mu, eps, Math.nextDown(under)), 1e-9);
      }
      for (int i = 0; i <= 100; i++) {
        double delta = i / 100.0;
        double[] f = ClosedForms.theorem2(7, mu, eps, delta);
        double s = 0;
        for (double v : f) {
          assertTrue(v >= 0);
          s += v;
        }
        assertEquals(1, s, 1e-12);
        if (delta > 0) {
          assertPasses(ClosedForms.theorem2Pmf(7, mu, eps, delta), Neighbourhood.singleDistance(7, mu), eps, delta);
        }
      }
    }
    // The flat-region PMF leaks exactly deltaUnder_k (up to the design margin).
    NoisePmf flat = ClosedForms.theorem2Pmf(7, 3, eps, 0.1); // flat region 4
    double leak = PdpChecker.delta(flat, Neighbourhood.singleDistance(7, 3), bd(eps)).doubleValue();
    assertEquals(ClosedForms.deltaUnder(7, 3, eps, 4), leak, 1e-8);
  }

  // --------------------------------------------------------------------------- item 4: Lemma 4

  @Test
  void lemma4Staircases() {
    double[] f = ClosedForms.lemma4(8, 3, 1.5);
    assertArrayEquals(
        new double[] {0.543192, 0.121203, 0.121203, 0.121203, 0.027044, 0.027044, 0.027044, 0.006034, 0.006034},
        f, 1e-6);
    double[] g = ClosedForms.lemma4(4, 2, 1.5); // paper L617, 4 d.p.
    assertArrayEquals(new double[] {0.6469, 0.1443, 0.1443, 0.0322, 0.0322}, g, 5e-5);
    assertPasses(ClosedForms.lemma4Pmf(8, 3, 1.5), Neighbourhood.boundedDifference(8, 3), 1.5, 0);
    assertPasses(ClosedForms.lemma4Pmf(4, 2, 1.5), Neighbourhood.boundedDifference(4, 2), 1.5, 0);
    assertArrayEquals(ClosedForms.lemma4(8, 3, 1.5), ClosedForms.deltaZeroOptimal(Neighbourhood.boundedDifference(8, 3), 1.5), 1e-15);
  }

  // --------------------------------------------------------------------------- item 6: Fig. 10

  /**
   * Fig. 10 (n = 8, muBar = 3, eps = 1.5) has b + r = 4 >= muBar, outside Theorem 3 (P7):
   * theorem3 refuses it and its optimality is left to the MILP designer. What the closed-form side
   * can reproduce: deltaBar_0 = phi_0 e^{-(b-1) eps} = 0.1212 from Lemma 4, and, for the step
   * patterns printed in the figure, the exact checker's leakage equals the printed breakpoints:
   * (1,3,3,2) leaks 0; (1,3,2,3) leaks deltaUnder_1 = 0.1238; (1,3,2,2,1) leaks deltaUnder_2 =
   * 0.1522 (4 d.p.).
   */
  @Test
  void fig10BreakpointsAndStepPatterns() {
    double eps = 1.5;
    Neighbourhood bd = Neighbourhood.boundedDifference(8, 3);
    assertFalse(ClosedForms.isTheorem3Valid(8, 3));
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.theorem3(8, 3, eps, 0.13));
    assertEquals(0.1212, ClosedForms.theorem3DeltaBar(8, 3, eps, 0, 0), 5e-5);
    assertArrayEquals(new int[] {1, 3, 3, 2}, ClosedForms.theorem3FlatLengths(8, 3, 0, 0));
    assertEquals(0, PdpChecker.delta(NoisePmf.quantize(ClosedForms.staircase(new int[] {1, 3, 3, 2}, eps * (1 - 1e-9))), bd, bd(eps)).signum());
    double[] under1 = {0.1238, 0.1522};
    int[][] patterns = {{1, 3, 2, 3}, {1, 3, 2, 2, 1}};
    double[] f0 = {0.554849, 0.557519};
    for (int p = 0; p < 2; p++) {
      double[] f = ClosedForms.staircase(patterns[p], eps * (1 - 1e-9));
      double leak = PdpChecker.delta(NoisePmf.quantize(f), bd, bd(eps)).doubleValue();
      assertEquals(under1[p], leak, 5e-5, "pattern " + p);
      assertEquals(f0[p], f[0], 1e-6);
      for (int i = 1; i < f.length; i++) {
        double ratio = f[i - 1] / f[i];
        assertTrue(Math.abs(ratio - 1) < 1e-9 || Math.abs(ratio - Math.exp(eps)) < 1e-6); // heights differ by e^eps
      }
    }
    // Theorem 3's flat-region formula for (h, j) = (1, 1) gives the same (1,3,2,3) pattern.
    assertArrayEquals(new int[] {1, 3, 2, 3}, ClosedForms.theorem3FlatLengths(8, 3, 1, 1));
    assertEquals(0.1238, ClosedForms.theorem3DeltaUnder(8, 3, eps, 1, 1), 5e-5);
  }

  // --------------------------------------------------------------------------- item 7: Thm. 3

  /**
   * Theorem 3 in three valid cases (b + r < muBar): (16, 5, 1), (9, 4, 1), (13, 6, 0.8). Values at
   * delta in the flat region 0, the first linear and the first flat region (and, for (16,5,1),
   * regions of segment h = 2), each matching an independent MILP (reading A) to 1e-7. phi_0 for
   * (16,5,1), (h,j) = (1,1) is the spec's P5 value 0.266535 (the alpha/beta form as extracted
   * gives the wrong 0.271843).
   */
  @Test
  void theorem3ValidCases() {
    assertTrue(ClosedForms.isTheorem3Valid(16, 5));
    assertEquals(0.266535, ClosedForms.theorem3Phi0(16, 5, 1.0, 1, 1), 1e-6);
    double[][] cases = { // n, muBar, eps, delta, f*(0)
      {16, 5, 1.0, 0.017885761525403526, 0.26431779056660415},
      {16, 5, 1.0, 0.035921553037730494, 0.26542637055650337},
      {16, 5, 1.0, 0.06706215584216124, 0.26653495054640247},
      {16, 5, 1.0, 0.09919669185898985, 0.26964456492354344},
      {16, 5, 1.0, 0.1378481110344214, 0.2739349711926173},
      {9, 4, 1.0, 0.06005908702074124, 0.3265150497646428},
      {9, 4, 1.0, 0.12184399835454669, 0.33120632663395805},
      {9, 4, 1.0, 0.22973371308544213, 0.33589760350327336},
      {13, 6, 0.8, 0.04495023959898036, 0.20007719594614728},
      {13, 6, 0.8, 0.09092311338634672, 0.202353110187276},
      {13, 6, 0.8, 0.1482873860015687, 0.20462902442840472},
    };
    for (double[] c : cases) {
      int n = (int) c[0];
      int muBar = (int) c[1];
      assertEquals(c[4], ClosedForms.theorem3F0(n, muBar, c[2], c[3]), 1e-6, java.util.Arrays.toString(c));
      assertPasses(ClosedForms.theorem3Pmf(n, muBar, c[2], c[3]), Neighbourhood.boundedDifference(n, muBar), c[2], c[3]);
    }
    assertArrayEquals(new int[] {1, 5, 5, 4, 2}, ClosedForms.theorem3FlatLengths(16, 5, 1, 1));
    assertArrayEquals(new int[] {1, 5, 4, 5, 2}, ClosedForms.theorem3FlatLengths(16, 5, 2, 1));
    assertArrayEquals(new int[] {1, 5, 4, 4, 3}, ClosedForms.theorem3FlatLengths(16, 5, 2, 2));
    assertEquals(0.036071583024653936, ClosedForms.theorem3DeltaUnder(16, 5, 1.0, 1, 1), 1e-12);
    assertEquals(0.09805272865966856, ClosedForms.theorem3DeltaBar(16, 5, 1.0, 1, 1), 1e-12);
    assertEquals(0.13725391916793914, ClosedForms.theorem3DeltaBar(16, 5, 1.0, 2, 1), 1e-12);
  }

  /** Item 12 (BD): in the last segment f*(0) = delta, with (40)-(41). */
  @Test
  void theorem3LastSegment() {
    double start = ClosedForms.theorem3DeltaBar(9, 4, 1.0, 1, 1); // deltaBar_{b-1,b-1}
    for (double delta : new double[] {0.5, 0.75, 0.99, 1.0}) {
      assertTrue(delta > start);
      double[] f = ClosedForms.theorem3(9, 4, 1.0, delta);
      assertEquals(delta, f[0], 1e-15);
      assertEquals((1 - delta) / 9, f[5], 1e-15);
    }
    assertPasses(ClosedForms.theorem3Pmf(9, 4, 1.0, 0.5), Neighbourhood.boundedDifference(9, 4), 1.0, 0.5);
  }

  /**
   * Every Thm. 3 PMF (flat, linear, last segment) is private at its (eps, delta) for every valid
   * (n, muBar) with n <= 40, eps in {0.5, 1.5, 3}, on a delta grid plus every breakpoint and
   * two points inside every linear region.
   */
  @Test
  void theorem3PmfsArePrivateEverywhereValid() {
    int checked = 0;
    for (int n = 2; n <= 40; n++) {
      for (int muBar = 2; muBar <= n; muBar++) {
        if (!ClosedForms.isTheorem3Valid(n, muBar)) {
          continue;
        }
        for (double eps : new double[] {0.5, 1.5, 3}) {
          Neighbourhood m = Neighbourhood.boundedDifference(n, muBar);
          java.util.List<Double> deltas = new java.util.ArrayList<>();
          for (int i = 1; i <= 10; i++) {
            deltas.add(i / 10.0);
          }
          int b = n / muBar;
          double previousBar = ClosedForms.theorem3DeltaBar(n, muBar, eps, 0, 0);
          deltas.add(previousBar);
          for (int h = 1; h < b; h++) {
            for (int j = 1; j <= h; j++) {
              double under = ClosedForms.theorem3DeltaUnder(n, muBar, eps, h, j);
              double bar = ClosedForms.theorem3DeltaBar(n, muBar, eps, h, j);
              deltas.add(under);
              deltas.add(bar);
              deltas.add(0.5 * (under + bar));
              deltas.add(0.999 * under); // linear region
              deltas.add(0.5 * (under + previousBar)); // linear region
              previousBar = bar;
            }
          }
          double previous = 0;
          java.util.Collections.sort(deltas);
          for (double delta : deltas) {
            // The real-valued construction itself, with only the smallest (1e-9) design margin.
            double[] f = ClosedForms.theorem3(n, muBar, eps * (1 - 1e-9), delta * (1 - 1e-9));
            assertPasses(NoisePmf.quantize(f), m, eps, delta);
            double f0 = ClosedForms.theorem3F0(n, muBar, eps, delta);
            assertTrue(f0 >= previous - 1e-12, "f0 non-decreasing in delta");
            previous = f0;
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 1000, "checked " + checked);
  }

  /**
   * The paper's optimality claim fails in part of the range (documented on theorem3): for (n,
   * muBar, eps) = (4, 3, 1.5), b + r = 2 < 3, at delta = 0.45 Theorem 3 gives f(0) = 0.581673 but
   * the truncated staircase (0.599021, 0.133660 x3, 0) is (1.5, 0.45)-private.
   */
  @Test
  void theorem3IsNotAlwaysOptimal() {
    assertTrue(ClosedForms.isTheorem3Valid(4, 3));
    assertEquals(0.581673, ClosedForms.theorem3F0(4, 3, 1.5, 0.45), 1e-6);
    double[] s = ClosedForms.staircase(new int[] {1, 3}, 1.5 * (1 - 1e-9));
    double[] better = {s[0], s[1], s[2], s[3], 0};
    NoisePmf f = NoisePmf.quantize(better);
    assertEquals(0.599021, f.mass(0), 1e-6);
    assertPasses(f, Neighbourhood.boundedDifference(4, 3), 1.5, 0.45);
    // Per difference (Def. 2) only one mass violates for each mu: delta = 0.133660; all three
    // violating masses together (reading A) are 0.400979 <= 0.45 too.
    assertEquals(0.133660, PdpChecker.delta(f, Neighbourhood.boundedDifference(4, 3), bd(1.5)).doubleValue(), 1e-6);
    assertEquals(0.400979, 3 * f.mass(1), 1e-6);
  }

  /** Why b <= 3 is required: for b = 4 the printed flat region (3,1) leaks more than deltaUnder_{3,1}. */
  @Test
  void theorem3PrintedLengthsAreInconsistentForBAtLeastFour() {
    assertFalse(ClosedForms.isTheorem3Valid(20, 5)); // b = 4, r = 0: b + r < muBar, but b > 3
    int[] l = ClosedForms.theorem3FlatLengths(20, 5, 3, 1);
    assertArrayEquals(new int[] {1, 5, 4, 5, 4, 2}, l);
    double leak = PdpChecker.delta(NoisePmf.quantize(ClosedForms.staircase(l, 1.0)), Neighbourhood.boundedDifference(20, 5), bd(1.0)).doubleValue();
    assertTrue(leak > ClosedForms.theorem3DeltaUnder(20, 5, 1.0, 3, 1) * 1.5, "leak " + leak);
  }

  // --------------------------------------------------------------------------- P1: symmetric sets

  /** P1: n = 7, eps = 0.75: f(0) = 0.377134 (vs 0.528945 one-sided); n = 8, eps = 1: 0.466715. */
  @Test
  void symmetricSingleDistanceOptimum() {
    assertEquals(0.377134, ClosedForms.symmetricSingleDistance(7, 0.75)[0], 1e-6);
    assertEquals(0.466715, ClosedForms.symmetricSingleDistance(8, 1.0)[0], 1e-6);
    double[] f = ClosedForms.symmetricSingleDistance(8, 1.0);
    for (int k = 0; k <= 8; k++) {
      assertEquals(f[0] * Math.exp(-Math.min(k, 9 - k)), f[k], 1e-15);
    }
    assertPasses(ClosedForms.deltaZeroOptimalPmf(Neighbourhood.addRemoveOne(7), 0.75), Neighbourhood.addRemoveOne(7), 0.75, 0);
  }

  /** P1: the one-sided Lemma 3 PMFs fail under the symmetric neighbourhood; symmetric ones pass. */
  @Test
  void oneSidedPmfsFailTheSymmetricNeighbourhood() {
    for (int mu : new int[] {1, 3}) {
      NoisePmf oneSided = ClosedForms.lemma3Pmf(7, mu, 0.75);
      assertPasses(oneSided, Neighbourhood.singleDistance(7, mu), 0.75, 0);
      Neighbourhood sym = Neighbourhood.symmetricSingleDistance(7, mu);
      BigDecimal leak = PdpChecker.delta(oneSided, sym, bd(0.75));
      assertTrue(leak.compareTo(new BigDecimal("0.1")) > 0, "leak " + leak);
      assertThrows(IllegalStateException.class, () -> PdpChecker.require(oneSided, sym, bd(0.75), BigDecimal.ZERO));
      assertPasses(ClosedForms.deltaZeroOptimalPmf(sym, 0.75), sym, 0.75, 0);
    }
    NoisePmf bd = ClosedForms.lemma4Pmf(8, 3, 1.5);
    assertThrows(IllegalStateException.class,
        () -> PdpChecker.require(bd, Neighbourhood.symmetricBounded(8, 3), bd(1.5), BigDecimal.ZERO));
    assertPasses(ClosedForms.deltaZeroOptimalPmf(Neighbourhood.symmetricBounded(8, 3), 1.5), Neighbourhood.symmetricBounded(8, 3), 1.5, 0);
  }

  /** Symmetric staircase for {+-1, +-2}, n = 9, eps = 1 (matches an independent LP to 1e-12). */
  @Test
  void symmetricBoundedStaircase() {
    double[] f = ClosedForms.symmetricBounded(9, 2, 1.0);
    double[] lp = {0.3265150497646428, 0.12011817404148248, 0.12011817404148248, 0.044189006740914624,
        0.044189006740914624, 0.01625622710576877, 0.044189006740914624, 0.044189006740914624,
        0.12011817404148248, 0.12011817404148248};
    assertArrayEquals(lp, f, 1e-12);
    for (int x = 0; x <= 9; x++) {
      assertEquals(f[0] * Math.exp(-Math.ceil(Math.min(x, 10 - x) / 2.0)), f[x], 1e-15);
    }
  }

  /** The general delta = 0 optimum reduces to Lemma 3 / Lemma 4 on the one-sided sets. */
  @Test
  void deltaZeroOptimalGeneralisesLemmas3And4() {
    for (int mu = 1; mu <= 11; mu++) {
      assertArrayEquals(ClosedForms.lemma3(11, mu, 0.9), ClosedForms.deltaZeroOptimal(Neighbourhood.singleDistance(11, mu), 0.9), 1e-15);
    }
    for (int muBar = 1; muBar <= 11; muBar++) {
      assertArrayEquals(ClosedForms.lemma4(11, muBar, 0.9), ClosedForms.deltaZeroOptimal(Neighbourhood.boundedDifference(11, muBar), 0.9), 1e-15);
    }
  }

  // --------------------------------------------------------------------------- item 11: limits

  @Test
  void limits() {
    assertEquals(0.6321206, ClosedForms.lemma3F0(200, 1, 1.0), 1e-7);
    assertEquals(0.6321206, ClosedForms.sdLimitF0(1.0), 1e-7);
    double previous = 1;
    for (int n : new int[] {1, 2, 5, 10, 20}) {
      double f0 = ClosedForms.lemma3F0(n, 1, 1.0);
      assertTrue(f0 < previous && f0 >= ClosedForms.sdLimitF0(1.0)); // decreases towards the limit
      previous = f0;
    }
    assertEquals(ClosedForms.bdLimitF0(3, 1.0), ClosedForms.lemma4F0(300, 3, 1.0), 1e-12);
    assertEquals(1 / (1 + 3 * Math.exp(-1) / (1 - Math.exp(-1))), ClosedForms.bdLimitF0(3, 1.0), 1e-15);
  }

  /**
   * P10: huge n eps gives masses far below 2^-62. They stay positive in double (no underflow to an
   * "intended" zero); the plain quantisation at the exact eps fails the exact check; the certified
   * lemma3Pmf either finds a margin whose rounding keeps every ratio (here n = 100000, eps = 1: the
   * tail becomes a run of single units, still (1, 0)-private) or refuses (n = 30, muHat = 7, eps =
   * 5: numerators of about 20 cannot keep a ratio e^5 within 1e-3).
   */
  @Test
  void underflowKeepsPositiveMassesPositive() {
    double[] f = ClosedForms.lemma3(100_000, 1, 1.0);
    for (double v : f) {
      assertTrue(v > 0);
    }
    NoisePmf q = NoisePmf.quantize(f);
    assertTrue(q.numeratorLong(100_000) > 0);
    Neighbourhood m = Neighbourhood.singleDistance(100_000, 1);
    assertFalse(PdpChecker.satisfies(q, m, bd(1.0), BigDecimal.ZERO));
    NoisePmf certified = ClosedForms.lemma3Pmf(100_000, 1, 1.0);
    assertPasses(certified, m, 1.0, 0);
    assertEquals(1, certified.numeratorLong(100_000));
    // masses near e^{-150}: only the widest margin (1%) leaves room for the 2^-62 grid
    assertPasses(ClosedForms.lemma3Pmf(30, 7, 5.0), Neighbourhood.singleDistance(30, 7), 5.0, 0);
  }

  /** Smallest masses around 1e-14: the 1e-9 margin is not enough, a larger one is used. */
  @Test
  void certificationWidensTheMarginWhenNeeded() {
    double eps = 1.0;
    Neighbourhood m = Neighbourhood.singleDistance(30, 7);
    NoisePmf plain = NoisePmf.quantize(ClosedForms.lemma3(30, 7, eps * (1 - 1e-9)));
    assertTrue(PdpChecker.delta(plain, m, bd(eps)).signum() > 0); // rounding broke a tight ratio
    NoisePmf certified = ClosedForms.lemma3Pmf(30, 7, eps);
    assertPasses(certified, m, eps, 0);
    assertEquals(ClosedForms.lemma3F0(30, 7, eps), certified.mass(0), 1e-4);
  }

  @Test
  void argumentValidation() {
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.lemma3(7, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.lemma3(7, 3, 0));
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.lemma3(7, 3, Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.theorem2(7, 3, 1, 1.5));
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.theorem3FlatLengths(16, 5, 3, 1));
    assertThrows(IllegalArgumentException.class, () -> ClosedForms.staircase(new int[] {1, -1, 2}, 1));
  }
}
