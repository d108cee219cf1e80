package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class NoisePmfTest {

  private static final long D = NoisePmf.DENOMINATOR_LONG;

  private static long sum(NoisePmf f) {
    long s = 0;
    for (long v : f.numerators()) {
      s += v;
    }
    return s;
  }

  @Test
  void quantizeSumsExactlyAndStaysWithinOneUnit() {
    double[] m = ClosedForms.lemma3(7, 3, 0.75);
    NoisePmf f = NoisePmf.quantize(m);
    assertEquals(D, sum(f));
    BigDecimal total = BigDecimal.ZERO;
    for (double v : m) {
      total = total.add(new BigDecimal(v));
    }
    for (int i = 0; i < m.length; i++) {
      BigDecimal target =
          new BigDecimal(NoisePmf.DENOMINATOR).multiply(new BigDecimal(m[i])).divide(total, MathContext.DECIMAL128);
      BigDecimal err = new BigDecimal(f.numeratorLong(i)).subtract(target).abs();
      assertTrue(err.compareTo(BigDecimal.ONE) < 0, "numerator " + i + " off by " + err);
      assertEquals(m[i], f.mass(i), 1e-15);
    }
    assertEquals(BigInteger.valueOf(f.numeratorLong(3)), f.numerator(3));
  }

  @Test
  void positiveMassesStayPositiveAndZerosStayZero() {
    double[] m = {1 - 3e-25, 1e-25, 0, 2e-25, 0};
    NoisePmf f = NoisePmf.quantize(m);
    assertEquals(D, sum(f));
    assertTrue(f.numeratorLong(1) >= 1);
    assertTrue(f.numeratorLong(3) >= 1);
    assertEquals(0, f.numeratorLong(2));
    assertEquals(0, f.numeratorLong(4));
    // The Lemma 3 PMF with a non-coprime muHat keeps its exact zeros.
    NoisePmf g = NoisePmf.quantize(ClosedForms.lemma3(7, 2, 0.75));
    for (int eta = 1; eta < 8; eta += 2) {
      assertEquals(0, g.numeratorLong(eta));
    }
  }

  @Test
  void quantizeRenormalisesWithinTolerance() {
    NoisePmf f = NoisePmf.quantize(new double[] {0.5 + 4e-10, 0.5});
    assertEquals(D, sum(f));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.quantize(new double[] {0.5, 0.49}));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.quantize(new double[] {1.5, -0.5}));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.quantize(new double[] {Double.NaN, 1}));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.quantize(new double[] {1}));
  }

  @Test
  void ofNumeratorsValidates() {
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, D / 4, D / 4});
    assertEquals(0.5, f.mass(0));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.ofNumerators(new long[] {D / 2, D / 4}));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.ofNumerators(new long[] {D, D, -D}));
    assertThrows(IllegalArgumentException.class, () -> NoisePmf.ofNumerators(new long[] {D}));
    assertThrows(IndexOutOfBoundsException.class, () -> f.mass(3));
  }

  @Test
  void metrics() {
    // n = 4: f = [1/2, 1/4, 0, 1/8, 1/8]
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, D / 4, 0, D / 8, D / 8});
    assertEquals(0.5, f.errorRate(), 0);
    // circular distances 0,1,2,2,1
    assertEquals(0.25 * 1 + 0.125 * 4 + 0.125 * 1, f.circularMse(), 1e-15);
    assertEquals(0.25 * 1 + 0.125 * 9 + 0.125 * 16, f.paperMse(), 1e-15);
    assertArrayEquals(new double[] {0.5, 0.25, 0, 0.125, 0.125}, f.masses(), 0);
  }

  @Test
  void equalsHashCodeToString() {
    NoisePmf a = NoisePmf.quantize(ClosedForms.lemma3(7, 3, 0.75));
    NoisePmf b = NoisePmf.ofNumerators(a.numerators());
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, NoisePmf.quantize(ClosedForms.lemma3(7, 2, 0.75)));
    assertTrue(a.toString().startsWith("NoisePmf[n=7, f=[0.528945"));
  }

  /** A RandomBits that returns fixed words, to test the inverse-CDF boundaries exactly. */
  private static RandomBits fixed(long word) {
    return () -> word;
  }

  @Test
  void inverseCdfBoundariesAreExact() {
    // f = [1/2, 0, 1/4, 1/4]; uniformBelow(2^62) returns nextLong() & (2^62 - 1).
    NoisePmf f = NoisePmf.ofNumerators(new long[] {D / 2, 0, D / 4, D / 4});
    assertEquals(0, f.sample(fixed(0)));
    assertEquals(0, f.sample(fixed(D / 2 - 1)));
    assertEquals(2, f.sample(fixed(D / 2))); // the zero mass at 1 is never drawn
    assertEquals(2, f.sample(fixed(3 * D / 4 - 1)));
    assertEquals(3, f.sample(fixed(3 * D / 4)));
    assertEquals(3, f.sample(fixed(D - 1)));
    assertEquals(1, f.release(3, fixed(D / 2))); // (3 + 2) mod 4
    assertThrows(IllegalArgumentException.class, () -> f.release(4, fixed(0)));
    assertThrows(IllegalArgumentException.class, () -> f.release(-1, fixed(0)));
  }

  /**
   * Modulo release, spec §4 item 1: 10^6 draws (4 true answers x 250 000) with SeededRandomBits; a
   * chi-square goodness-of-fit test per true answer that P(q~ = k | q) = f((k - q) mod (n+1)),
   * rejecting at significance 1e-3 (so a correct implementation fails with probability < 0.4%;
   * the seed is fixed, so the outcome is deterministic).
   */
  @Test
  void moduloReleaseMatchesShiftedPmfChiSquare() {
    int n = 7;
    NoisePmf f = ClosedForms.lemma3Pmf(n, 3, 0.75);
    RandomBits r = new SeededRandomBits(20240607L);
    int draws = 250_000;
    for (int q : new int[] {0, 3, 6, 7}) {
      long[] counts = new long[n + 1];
      for (int i = 0; i < draws; i++) {
        int k = f.release(q, r);
        assertTrue(k >= 0 && k <= n);
        counts[k]++;
      }
      double stat = 0;
      for (int k = 0; k <= n; k++) {
        double expected = draws * f.mass(Math.floorMod(k - q, n + 1));
        assertTrue(expected >= 5, "bin too small for chi-square");
        double d = counts[k] - expected;
        stat += d * d / expected;
      }
      double p = 1 - new ChiSquaredDistribution(n).cumulativeProbability(stat);
      assertTrue(p > 1e-3, "q=" + q + ": chi-square p-value " + p);
    }
  }

  @Test
  void zeroMassesAreNeverReleased() {
    NoisePmf f = ClosedForms.lemma3Pmf(7, 2, 0.75); // zeros at odd eta
    RandomBits r = new SeededRandomBits(7);
    for (int i = 0; i < 20_000; i++) {
      int k = f.release(1, r);
      assertEquals(1, k % 2, "released " + k); // 1 + even
    }
  }
}
