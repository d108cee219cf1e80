package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

class ExponentialMechanismTest {

  /**
   * P[i] ∝ exp(ε u_i / (2Δ)) exactly: chi-square at significance 0.001 on 30,000 samples (fixed
   * seed), for ε = 1, Δ = 1 and for ε = 3/2, Δ = 2 on utilities spanning several units.
   */
  @Test
  void samplesTheExponentialMechanismDistribution() {
    long[] u = {0, -1, -2, -5, 0, -3, -1};
    for (Object[] c : new Object[][] {{Rational.ONE, 1L}, {Rational.of(3, 2), 2L}}) {
      Rational eps = (Rational) c[0];
      long delta = (Long) c[1];
      SeededRandomBits bits = new SeededRandomBits(31 + delta);
      long[] counts = new long[u.length];
      int n = 30_000;
      for (int s = 0; s < n; s++) {
        counts[ExponentialMechanism.sample(bits, u, eps, delta)]++;
      }
      double[] p = new double[u.length];
      double z = 0;
      for (int i = 0; i < u.length; i++) {
        p[i] = Math.exp(eps.doubleValue() * u[i] / (2.0 * delta));
        z += p[i];
      }
      for (int i = 0; i < u.length; i++) {
        p[i] /= z;
      }
      double pv = SpatialStats.categoricalPValue(counts, p);
      System.out.println("[ExponentialMechanismTest] eps = " + eps + ", sensitivity " + delta + ": chi-square p = " + pv);
      assertTrue(pv > 0.001, "chi-square p = " + pv);
    }
  }

  @Test
  void edgeCases() {
    SeededRandomBits bits = new SeededRandomBits(1);
    assertEquals(0, ExponentialMechanism.sample(bits, new long[] {-7}, Rational.ONE, 1));
    // a candidate 200 units worse is essentially never chosen at ε = 1
    for (int i = 0; i < 200; i++) {
      assertEquals(1, ExponentialMechanism.sample(bits, new long[] {-200, 0}, Rational.ONE, 1));
    }
    assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanism.sample(bits, new long[0], Rational.ONE, 1));
    assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanism.sample(bits, new long[] {1}, Rational.ZERO, 1));
    assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanism.sample(bits, new long[] {1}, Rational.ONE, 0));
  }
}
