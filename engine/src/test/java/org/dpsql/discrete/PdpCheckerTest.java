package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Set;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class PdpCheckerTest {

  private static final long D = NoisePmf.DENOMINATOR_LONG;
  /** ln 2 to 90 significant digits. */
  private static final String LN2 =
      "0.693147180559945309417232121458176568075500134360255254120680009493393621969694715605863327";

  private static BigDecimal bd(String s) {
    return new BigDecimal(s);
  }

  private static BigDecimal bd(double d) {
    return new BigDecimal(Double.toString(d));
  }

  @Test
  void uniformPmfHasDeltaZeroForEveryEpsilon() {
    NoisePmf u = NoisePmf.ofNumerators(new long[] {D / 8, D / 8, D / 8, D / 8, D / 8, D / 8, D / 8, D / 8});
    for (Neighbourhood m :
        new Neighbourhood[] {
          Neighbourhood.addRemoveOne(7), Neighbourhood.boundedDifference(7, 7), Neighbourhood.singleDistance(7, 4)
        }) {
      for (String eps : new String[] {"1e-12", "0.1", "1", "10", "1000"}) {
        assertEquals(0, PdpChecker.delta(u, m, bd(eps)).signum(), "eps=" + eps);
      }
      assertEquals(0, PdpChecker.delta(u, m, BigDecimal.ZERO).signum()); // equal masses never violate
    }
  }

  @Test
  void handMadeViolationGivesHandComputedDelta() {
    // f = [1/2, 1/4, 1/8, 1/8], eps = 0.5 (e^eps = 1.6487):
    // mu = 1: f(0)=.5 > 1.6487*.25 and f(1)=.25 > 1.6487*.125 violate, f(2) <= 1.6487 f(3),
    //         f(3) <= 1.6487 f(0)  => 3/4.
    // mu = 3 (= -1): f(0)=.5 > 1.6487 f(3) violates; f(1)<=e f(0); f(2)<=e f(1); f(3)<=e f(2) => 1/2.
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, D / 4, D / 8, D / 8});
    assertEquals(0, bd("0.75").compareTo(PdpChecker.delta(f, Neighbourhood.singleDistance(3, 1), bd("0.5"))));
    assertEquals(0, bd("0.5").compareTo(PdpChecker.delta(f, Neighbourhood.singleDistance(3, 3), bd("0.5"))));
    assertEquals(0, bd("0.75").compareTo(PdpChecker.delta(f, Neighbourhood.addRemoveOne(3), bd("0.5"))));
    // eps = 1 (e = 2.718): only f(0) > e f(3) (0.5 > 0.34) for mu = -1; nothing for mu = +1.
    assertEquals(0, bd("0.5").compareTo(PdpChecker.delta(f, Neighbourhood.addRemoveOne(3), bd("1"))));
    assertEquals(0, PdpChecker.delta(f, Neighbourhood.singleDistance(3, 1), bd("1")).signum());
    // eps = 1.5 (e^1.5 = 4.48 > 4): private with delta = 0 for {+-1}.
    assertEquals(0, PdpChecker.delta(f, Neighbourhood.addRemoveOne(3), bd("1.5")).signum());
    assertTrue(PdpChecker.satisfies(f, Neighbourhood.addRemoveOne(3), bd("1"), bd("0.5")));
    assertFalse(PdpChecker.satisfies(f, Neighbourhood.addRemoveOne(3), bd("1"), bd("0.4999")));
  }

  @Test
  void deltaIsAnExactMultipleOfTwoToMinus62() {
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D - 3, 1, 2});
    // mu=1: f(0) > e f(1) (violation, D-3), f(1)=1 <= e*2, f(2)=2 <= e f(0) => (D-3)/2^62
    BigDecimal expected = new BigDecimal(D - 3).divide(new BigDecimal(D));
    assertEquals(0, expected.compareTo(PdpChecker.delta(f, Neighbourhood.singleDistance(2, 1), bd("1"))));
  }

  /**
   * f(0) = 2 f(1) exactly. The boundary f(0) = e^eps f(1) would need eps = ln 2, which is not a
   * decimal; the checker separates decimals 1e-30 on either side of ln 2 correctly (far beyond
   * double precision), and at the one representable boundary, eps = 0 with equal masses, equality
   * is (correctly) not a violation.
   */
  @Test
  void boundaryIsDecidedExactly() {
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, D / 4, D / 4});
    Neighbourhood m = Neighbourhood.singleDistance(2, 1);
    BigDecimal below = bd("0.693147180559945309417232121458"); // < ln 2
    BigDecimal above = bd("0.693147180559945309417232121459"); // > ln 2
    // below: f(0)=1/2 > e^eps/4 violates; f(1)=f(2); f(2) <= e f(0) => delta = 1/2
    assertEquals(0, bd("0.5").compareTo(PdpChecker.delta(f, m, below)));
    assertEquals(0, PdpChecker.delta(f, m, above).signum());
    // eps = 0: f(1) = f(2) is not a violation, f(0) > f(1) is.
    assertEquals(0, bd("0.5").compareTo(PdpChecker.delta(f, m, BigDecimal.ZERO)));
  }

  /**
   * Conservative behaviour when the interval for e^eps cannot decide: with eps = ln 2 + 1e-60 the
   * truth is "no violation" for a = 2b, but 40 digits cannot separate e^eps from 2, so a checker
   * limited to 40 digits counts a violation; the real checker refines to 80 digits and decides.
   */
  @Test
  void undecidableComparisonsCountAsViolations() {
    BigDecimal eps = bd(LN2).add(bd("1e-60"));
    assertTrue(new PdpChecker.Exp(eps, 40).violates(2, 1)); // conservative
    assertFalse(new PdpChecker.Exp(eps).violates(2, 1)); // decided with more digits
    BigDecimal epsBelow = bd(LN2).subtract(bd("1e-60"));
    assertTrue(new PdpChecker.Exp(epsBelow, 40).violates(2, 1));
    assertTrue(new PdpChecker.Exp(epsBelow).violates(2, 1)); // a true violation
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, D / 4, D / 4});
    assertEquals(0, PdpChecker.delta(f, Neighbourhood.singleDistance(2, 1), eps).signum());
  }

  @Test
  void expBoundsAreRigorous() {
    BigDecimal e = bd("2.71828182845904523536028747135266249775724709369995957496696762772407663035");
    BigDecimal[] iv = PdpChecker.expBounds(BigDecimal.ONE, 60);
    assertTrue(iv[0].compareTo(e) <= 0 && e.compareTo(iv[1]) <= 0);
    assertTrue(iv[1].subtract(iv[0]).compareTo(bd("1e-55")) < 0);
    BigDecimal[] two = PdpChecker.expBounds(bd(LN2), 80);
    assertTrue(two[0].compareTo(bd("2")) < 0 && two[1].compareTo(bd("2")) > 0);
    for (double x : new double[] {1e-9, 0.75, 1.5, 50, 700}) {
      BigDecimal[] b = PdpChecker.expBounds(new BigDecimal(x), 40);
      assertEquals(Math.exp(x), b[0].doubleValue(), Math.ulp(Math.exp(x)) * 4);
      assertTrue(b[0].compareTo(b[1]) < 0);
    }
  }

  /** Cross-check against a plain double computation on random PMFs far from ties. */
  @Test
  void agreesWithDoubleComputationAwayFromTies() {
    SeededRandomBits r = new SeededRandomBits(99);
    for (int trial = 0; trial < 200; trial++) {
      int n = 2 + (int) r.uniformBelow(9);
      double[] m = new double[n + 1];
      double s = 0;
      for (int i = 0; i <= n; i++) {
        m[i] = r.uniformBelow(1000) < 100 ? 0 : 1 + r.uniformBelow(1000);
        s += m[i];
      }
      if (s == 0) {
        continue;
      }
      for (int i = 0; i <= n; i++) {
        m[i] /= s;
      }
      NoisePmf f = NoisePmf.quantize(m);
      double eps = 0.05 * (1 + r.uniformBelow(60));
      Neighbourhood nb = Neighbourhood.boundedDifference(n, 1 + (int) r.uniformBelow(n));
      double e = Math.exp(eps);
      double expected = 0;
      boolean nearTie = false;
      for (int mu : nb.differences()) {
        double leak = 0;
        for (int eta = 0; eta <= n; eta++) {
          double a = f.mass(eta);
          double b = f.mass((eta + mu) % (n + 1));
          if (b > 0 && Math.abs(a / b - e) < 1e-6 * e) {
            nearTie = true;
          }
          if (a > e * b) {
            leak += a;
          }
        }
        expected = Math.max(expected, leak);
      }
      if (!nearTie) {
        assertEquals(expected, PdpChecker.delta(f, nb, new BigDecimal(eps)).doubleValue(), 1e-15);
      }
    }
  }

  @Test
  void requireThrowsWithClearMessage() {
    NoisePmf oneSided = ClosedForms.lemma3Pmf(7, 1, 0.75);
    PdpChecker.require(oneSided, Neighbourhood.singleDistance(7, 1), bd(0.75), BigDecimal.ZERO);
    IllegalStateException ex =
        assertThrows(
            IllegalStateException.class,
            () -> PdpChecker.require(oneSided, Neighbourhood.addRemoveOne(7), bd(0.75), BigDecimal.ZERO));
    assertTrue(ex.getMessage().contains("must not be used"), ex.getMessage());
    assertTrue(ex.getMessage().contains("[1, 7]"), ex.getMessage());
  }

  @Test
  void argumentChecks() {
    NoisePmf f = ClosedForms.lemma3Pmf(7, 1, 0.75);
    assertThrows(IllegalArgumentException.class, () -> PdpChecker.delta(f, Neighbourhood.addRemoveOne(6), bd(1)));
    assertThrows(IllegalArgumentException.class, () -> PdpChecker.delta(f, Neighbourhood.addRemoveOne(7), bd(-1)));
    assertThrows(IllegalArgumentException.class, () -> PdpChecker.epsilonFor(f, Neighbourhood.addRemoveOne(7), bd(2)));
  }

  @Test
  void epsilonForFindsTheSmallestEpsilonRoundedUp() {
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, D / 4, D / 8, D / 8});
    Neighbourhood m = Neighbourhood.singleDistance(3, 1);
    // delta = 0 needs e^eps >= 2 (ratios 2, 2, 1, 1/4): ln 2 = 0.6931471805..., rounded up.
    BigDecimal eps0 = PdpChecker.epsilonFor(f, m, BigDecimal.ZERO);
    assertEquals(0, bd("0.693147181").compareTo(eps0), eps0.toPlainString());
    assertTrue(PdpChecker.satisfies(f, m, eps0, BigDecimal.ZERO));
    assertFalse(PdpChecker.satisfies(f, m, eps0.subtract(bd("1e-9")), BigDecimal.ZERO));
    // delta = 0.75 already holds at eps = 0.
    assertEquals(0, PdpChecker.epsilonFor(f, m, bd("0.75")).signum());
    // A positive mass next to a zero mass leaks for every eps.
    NoisePmf z = NoisePmf.ofNumerators(new long[] {D / 2, D / 2, 0});
    Neighbourhood m2 = Neighbourhood.singleDistance(2, 1);
    assertThrows(IllegalArgumentException.class, () -> PdpChecker.epsilonFor(z, m2, bd("0.4")));
    assertEquals(0, bd("0.000000000").compareTo(PdpChecker.epsilonFor(z, m2, bd("0.5"))));
  }

  // --------------------------------------------------------------------------- Prop. 1 (item 14)

  @Test
  void identityPostProcessingEqualsDelta() {
    NoisePmf f = ClosedForms.theorem2Pmf(7, 3, 0.75, 0.1);
    int[] id = {0, 1, 2, 3, 4, 5, 6, 7};
    for (Neighbourhood m :
        new Neighbourhood[] {Neighbourhood.singleDistance(7, 3), Neighbourhood.addRemoveOne(7), Neighbourhood.boundedDifference(7, 3)}) {
      for (String eps : new String[] {"0.3", "0.75", "1.2"}) {
        assertEquals(
            0, PdpChecker.delta(f, m, bd(eps)).compareTo(PdpChecker.deltaOfPostProcessed(f, m, bd(eps), id)));
      }
    }
  }

  /** Prop. 1: an invertible map of the outputs leaves delta unchanged. */
  @Test
  void permutationOfOutputsLeavesDeltaUnchanged() {
    NoisePmf f = ClosedForms.theorem2Pmf(7, 3, 0.75, 0.1);
    Neighbourhood m = Neighbourhood.singleDistance(7, 3);
    BigDecimal eps = bd("0.75");
    BigDecimal base = PdpChecker.delta(f, m, eps);
    assertTrue(base.signum() > 0);
    SeededRandomBits r = new SeededRandomBits(5);
    for (int t = 0; t < 20; t++) {
      int[] perm = {0, 1, 2, 3, 4, 5, 6, 7};
      for (int i = 7; i > 0; i--) {
        int j = (int) r.uniformBelow(i + 1);
        int tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
      }
      assertEquals(0, base.compareTo(PdpChecker.deltaOfPostProcessed(f, m, eps, perm)));
    }
  }

  /**
   * A non-injective map (clamp the released value to at most 6) increases delta of a delta > 0
   * PMF: the Thm. 2 PMF for n = 7, muHat = 1, eps = 0.75, delta = 0.1 passes (0.75, 0.1) but the
   * clamped release does not (delta about 0.18). For a delta = 0 PMF any map keeps delta = 0.
   */
  @Test
  void clampingCanIncreaseDelta() {
    NoisePmf f = ClosedForms.theorem2Pmf(7, 1, 0.75, 0.1);
    Neighbourhood m = Neighbourhood.singleDistance(7, 1);
    BigDecimal eps = bd("0.75");
    int[] clamp6 = {0, 1, 2, 3, 4, 5, 6, 6};
    assertTrue(PdpChecker.satisfies(f, m, eps, bd("0.1")));
    BigDecimal after = PdpChecker.deltaOfPostProcessed(f, m, eps, clamp6);
    assertTrue(after.compareTo(bd("0.1")) > 0, after.toString());
    assertEquals(0.1824255, after.doubleValue(), 1e-6);
    NoisePmf pure = ClosedForms.deltaZeroOptimalPmf(Neighbourhood.addRemoveOne(7), 0.75);
    for (int c = 0; c < 8; c++) {
      int[] g = new int[8];
      for (int k = 0; k < 8; k++) {
        g[k] = Math.min(k, c);
      }
      assertEquals(0, PdpChecker.deltaOfPostProcessed(pure, Neighbourhood.addRemoveOne(7), eps, g).signum());
    }
  }

  @Test
  void checkerIsFastEnoughForLargeN() {
    NoisePmf f = Competitors.dataIndependent(100_000, 0.5);
    assertEquals(0, PdpChecker.delta(f, Neighbourhood.addRemoveOne(100_000), bd("20")).signum());
    // f(0) violates against every shifted partner; nothing else does: delta = f(0) exactly.
    assertEquals(
        PdpChecker.toDecimal(f.numeratorLong(0)),
        PdpChecker.delta(f, Neighbourhood.of(100_000, Set.of(1, 5, 100_000)), bd("1")));
    assertEquals(0.5, f.mass(0), 1e-15);
  }
}
