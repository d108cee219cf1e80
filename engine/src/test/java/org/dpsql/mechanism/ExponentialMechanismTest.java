package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exact exponential mechanism over rational scores: its samples follow exp(−η·s_i)/Z,
 * computed here independently in floating point, by a chi-square test at significance 0.001 on
 * 60,000 samples at a fixed seed; and the same test rejects a sampler with the wrong η.
 */
class ExponentialMechanismTest {

  /** Scores of a median over a 12-point histogram (n = 23, target 11.5): fractional, with ties. */
  private static final Rational[] SCORES = scores(new long[] {2, 0, 3, 1, 4, 0, 2, 5, 1, 0, 3, 2},
      Rational.of(23, 2));

  private static Rational[] scores(long[] h, Rational target) {
    Rational[] s = new Rational[h.length];
    long below = 0;
    for (int j = 0; j < h.length; j++) {
      Rational l = Rational.of(below).subtract(target);
      Rational r = target.subtract(Rational.of(below + h[j]));
      s[j] = l.signum() > 0 ? l : r.signum() > 0 ? r : Rational.ZERO;
      below += h[j];
    }
    return s;
  }

  /** P[i] = exp(−η s_i) / Σ exp(−η s_j), in floating point (the test's own formula). */
  private static double[] expected(Rational[] scores, double eta) {
    double[] p = new double[scores.length];
    double z = 0;
    for (int i = 0; i < p.length; i++) {
      p[i] = Math.exp(-eta * scores[i].doubleValue());
      z += p[i];
    }
    for (int i = 0; i < p.length; i++) {
      p[i] /= z;
    }
    return p;
  }

  /** Chi-square p-value of counts against probabilities; bins expecting < 5 are pooled. */
  static double chiSquare(long[] counts, double[] p) {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    List<double[]> cells = new ArrayList<>();
    double[] pooled = {0, 0};
    for (int i = 0; i < p.length; i++) {
      if (n * p[i] >= 5) {
        cells.add(new double[] {n * p[i], counts[i]});
      } else {
        pooled[0] += n * p[i];
        pooled[1] += counts[i];
      }
    }
    if (pooled[0] >= 5 || cells.isEmpty()) {
      cells.add(pooled);
    } else {
      cells.get(cells.size() - 1)[0] += pooled[0];
      cells.get(cells.size() - 1)[1] += pooled[1];
    }
    double stat = 0;
    for (double[] c : cells) {
      stat += (c[1] - c[0]) * (c[1] - c[0]) / c[0];
    }
    return StatisticalChecks.pValue(stat, cells.size() - 1);
  }

  private static long[] sample(Rational eta, long seed, int n) {
    SeededRandomBits bits = new SeededRandomBits(seed);
    long[] counts = new long[SCORES.length];
    for (int s = 0; s < n; s++) {
      counts[ExponentialMechanism.sample(bits, SCORES, eta)]++;
    }
    return counts;
  }

  @Test
  void samplesExactlyTheExponentialMechanism() {
    for (Rational eta : new Rational[] {Rational.of(1, 4), Rational.of(3, 5)}) {
      long[] counts = sample(eta, 20261126L, 60_000);
      double p = chiSquare(counts, expected(SCORES, eta.doubleValue()));
      System.out.println("[ExponentialMechanismTest] eta = " + eta + ": chi-square p = " + p);
      assertTrue(p > 0.001, "eta " + eta + ": chi-square p = " + p);
      // the check has power: the same samples are far from the distribution of η·1.25
      double wrong = chiSquare(counts, expected(SCORES, eta.doubleValue() * 1.25));
      assertTrue(wrong < 1e-6, "η·1.25 should be rejected: p = " + wrong);
    }
  }

  @Test
  void aHugeEtaReturnsAMinimiser() {
    Rational[] s = {Rational.of(3), Rational.of(1, 2), Rational.ZERO, Rational.of(5, 2)};
    SeededRandomBits bits = new SeededRandomBits(5);
    for (int i = 0; i < 200; i++) {
      assertEquals(2, ExponentialMechanism.sample(bits, s, Rational.of(200)));
    }
  }

  @Test
  void refusesBadArguments() {
    SeededRandomBits bits = new SeededRandomBits(1);
    assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanism.sample(bits, new Rational[0], Rational.ONE));
    assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanism.sample(bits, SCORES, Rational.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> ExponentialMechanism.sample(bits, new Rational[] {Rational.of(-1)}, Rational.ONE));
  }
}
