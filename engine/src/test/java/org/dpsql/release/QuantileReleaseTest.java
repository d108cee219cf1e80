package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Random;
import org.dpsql.mechanism.ExponentialMechanism;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * The quantiles' scores (rank errors), their sensitivity, and the accuracy the exponential
 * mechanism claims for them.
 */
class QuantileReleaseTest {

  private static Rational[] scores(long[] h, String p) {
    return QuantileRelease.scores(h, new BigDecimal(p));
  }

  @Test
  void scoresAreTheDistanceFromTheTargetRankToEachPointsRanks() {
    // values at points 1, 1, 3, 4, 4, 4 (n = 6): median target 3
    long[] h = {0, 2, 0, 1, 3, 0};
    assertEquals(Arrays.asList(Rational.of(3), Rational.of(1), Rational.of(1), Rational.ZERO,
        Rational.ZERO, Rational.of(3)), Arrays.asList(scores(h, "0.5")));
    // p = 0.25: target 1.5, inside point 1's ranks [0, 2]
    assertEquals(Arrays.asList(Rational.of(3, 2), Rational.ZERO, Rational.of(1, 2),
        Rational.of(1, 2), Rational.of(3, 2), Rational.of(9, 2)), Arrays.asList(scores(h, "0.25")));
    // MIN and MAX aim at ranks 1/2 and n − 1/2: only the smallest and largest value score 0
    assertEquals(Arrays.asList(Rational.of(1, 2), Rational.ZERO, Rational.of(3, 2),
        Rational.of(3, 2), Rational.of(5, 2), Rational.of(11, 2)), Arrays.asList(scores(h, "0")));
    assertEquals(Arrays.asList(Rational.of(11, 2), Rational.of(7, 2), Rational.of(7, 2),
        Rational.of(5, 2), Rational.ZERO, Rational.of(1, 2)), Arrays.asList(scores(h, "1")));
    // an empty group: every point scores 0 (a uniform choice)
    for (Rational s : scores(new long[] {0, 0, 0}, "0.5")) {
      assertEquals(Rational.ZERO, s);
    }
  }

  /**
   * Sensitivity k: adding or removing up to k values (one unit's bounded rows) moves every score
   * by at most the number of values added or removed, for random histograms and fractions.
   */
  @Test
  void aUnitMovesEveryScoreByAtMostItsRows() {
    Random r = new Random(17);
    String[] fractions = {"0", "0.1", "0.25", "0.5", "0.5", "0.9", "1", "0.333"};
    for (int trial = 0; trial < 3000; trial++) {
      int g = 1 + r.nextInt(12);
      long[] h = new long[g];
      for (int j = 0; j < g; j++) {
        h[j] = r.nextInt(4) == 0 ? 0 : r.nextInt(6);
      }
      int m = 1 + r.nextInt(4);
      long[] neighbour = h.clone();
      for (int i = 0; i < m; i++) {
        neighbour[r.nextInt(g)]++;
      }
      String p = fractions[r.nextInt(fractions.length)];
      Rational[] a = scores(h, p);
      Rational[] b = scores(neighbour, p);
      for (int j = 0; j < g; j++) {
        assertTrue(a[j].subtract(b[j]).abs().compareTo(Rational.of(m)) <= 0,
            Arrays.toString(h) + " + " + m + " rows, p " + p + ", point " + j);
      }
    }
  }

  /**
   * Accuracy: over 2,000 seeded runs per fraction (n = 3,000 values on 101 points, ε = 0.5, k =
   * 2), the rank error of the released point, recounted from the raw values, exceeds the
   * mechanism's bound (2k/ε)(ln g + ln(1/β)) at β = 0.05 in at most 5% of the runs (plus three
   * binomial standard deviations), and its mean is within four standard errors of the exact
   * expectation Σ P[j]·score(j).
   */
  @Test
  void rankErrorsStayWithinTheExponentialMechanismsGuarantee() {
    int g = 101;
    int n = 3000;
    long[] values = new long[n];
    Random data = new Random(3);
    long[] h = new long[g];
    for (int i = 0; i < n; i++) {
      // skewed: most values low, a long tail, a spike at the top (clamped)
      double x = Math.min(g - 1, Math.floor(-Math.log(1 - data.nextDouble()) * 18));
      values[i] = (long) x;
      h[(int) x]++;
    }
    Arrays.sort(values);
    Rational eps = Rational.of(1, 2);
    int k = 2;
    Rational eta = QuantileRelease.eta(eps, k);
    double bound = 2.0 * k / eps.doubleValue() * (Math.log(g) + Math.log(1 / 0.05));
    SeededRandomBits bits = new SeededRandomBits(20261126L);
    int runs = 2000;
    for (String p : new String[] {"0", "0.1", "0.5", "0.9", "1"}) {
      Rational[] s = QuantileRelease.scores(h, new BigDecimal(p));
      double[] prob = new double[g]; // exp(−η s_j) / Z, in floating point (the test's own)
      double z = 0;
      for (int j = 0; j < g; j++) {
        prob[j] = Math.exp(-eta.doubleValue() * s[j].doubleValue());
        z += prob[j];
      }
      for (int j = 0; j < g; j++) {
        prob[j] /= z;
      }
      double mean = 0;
      double second = 0;
      for (int j = 0; j < g; j++) {
        mean += prob[j] * s[j].doubleValue();
        second += prob[j] * s[j].doubleValue() * s[j].doubleValue();
      }
      double sd = Math.sqrt(Math.max(0, second - mean * mean));
      double sum = 0;
      int over = 0;
      double[] errors = new double[runs];
      for (int run = 0; run < runs; run++) {
        int j = ExponentialMechanism.sample(bits, s, eta);
        double err = rankError(values, j, Double.parseDouble(p));
        assertEquals(s[j].doubleValue(), err, 1e-9, "the score is the rank error");
        errors[run] = err;
        sum += err;
        over += err > bound ? 1 : 0;
      }
      Arrays.sort(errors);
      double observed = sum / runs;
      System.out.printf("[QuantileReleaseTest] p=%s: mean rank error %.2f (exact %.2f), 95th "
          + "percentile %.1f, bound at beta=0.05 %.1f, runs over it %d of %d%n", p, observed, mean,
          errors[(int) (0.95 * runs)], bound, over, runs);
      assertTrue(over <= 0.05 * runs + 3 * Math.sqrt(runs * 0.05 * 0.95), p + ": " + over);
      assertTrue(Math.abs(observed - mean) <= 4 * sd / Math.sqrt(runs) + 1e-9,
          p + ": mean " + observed + " vs " + mean);
    }
  }

  /** dist(t, [#{x < j}, #{x ≤ j}]) with t = p·n clamped into [1/2, n − 1/2], from raw values. */
  private static double rankError(long[] sorted, int point, double p) {
    long below = Arrays.stream(sorted).filter(x -> x < point).count();
    long atOrBelow = Arrays.stream(sorted).filter(x -> x <= point).count();
    int n = sorted.length;
    double t = Math.min(Math.max(p * n, 0.5), n - 0.5);
    return Math.max(0, Math.max(below - t, t - atOrBelow));
  }
}
