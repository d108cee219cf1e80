package org.dpsql.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.dpsql.mechanism.Rational;
import org.dpsql.mechanism.SeededRandomBits;
import org.junit.jupiter.api.Test;

/**
 * JointExp on a grid: its utility against a brute-force minimum, its sensitivity on random
 * neighbours, its exact sampler against the enumerated distribution (chi-square at significance
 * 0.001, fixed seed), and its rank errors against the mechanism's guarantee.
 */
class JointQuantilesTest {

  private static BigDecimal[] fractions(String... p) {
    return Arrays.stream(p).map(BigDecimal::new).toArray(BigDecimal[]::new);
  }

  /** Every non-decreasing m-tuple of points in [0, g). */
  private static List<int[]> tuples(int g, int m) {
    List<int[]> out = new ArrayList<>();
    int[] o = new int[m];
    while (true) {
      out.add(o.clone());
      int i = m - 1;
      while (i >= 0 && o[i] == g - 1) {
        i--;
      }
      if (i < 0) {
        return out;
      }
      o[i]++;
      for (int j = i + 1; j < m; j++) {
        o[j] = o[i];
      }
    }
  }

  /**
   * min Σ |(r_j − r_{j−1}) − (P_j − P_{j−1})| over non-decreasing r_j ∈ [L(o_j), R(o_j)] in
   * quarters (the fractions are quarters, so an optimum lies on that lattice).
   */
  private static double bruteForce(long[] h, int[] o, double[] p) {
    long n = Arrays.stream(h).sum();
    long[] below = new long[h.length + 1];
    for (int j = 0; j < h.length; j++) {
      below[j + 1] = below[j] + h[j];
    }
    return search(below, o, p, n, 0, 0.0, 0.0);
  }

  private static double search(long[] below, int[] o, double[] p, long n, int j, double prevR,
      double prevP) {
    if (j == o.length) {
      return Math.abs((n - prevR) - (n - prevP));
    }
    double best = Double.POSITIVE_INFINITY;
    double target = p[j] * n;
    for (double r = below[o[j]]; r <= below[o[j] + 1] + 1e-9; r += 0.25) {
      if (j > 0 && r < prevR - 1e-9) {
        continue;
      }
      double step = Math.abs((r - prevR) - (target - prevP));
      best = Math.min(best, step + search(below, o, p, n, j + 1, r, target));
    }
    return best;
  }

  @Test
  void utilityIsTheLeastCostOfAnySplitOfTheTies() {
    Random r = new Random(11);
    String[][] sets = {{"0.5"}, {"0.25", "0.75"}, {"0.25", "0.5", "0.75"}, {"0.5", "0.5"},
        {"0.25", "0.25", "0.75"}};
    for (int trial = 0; trial < 400; trial++) {
      int g = 1 + r.nextInt(5);
      long[] h = new long[g];
      for (int j = 0; j < g; j++) {
        h[j] = r.nextInt(3) == 0 ? 0 : r.nextInt(5);
      }
      String[] set = sets[r.nextInt(sets.length)];
      double[] p = Arrays.stream(set).mapToDouble(Double::parseDouble).toArray();
      for (int[] o : tuples(g, set.length)) {
        Rational u = JointQuantiles.utility(h, o, fractions(set));
        assertEquals(bruteForce(h, o, p), u.doubleValue(), 1e-9,
            Arrays.toString(h) + " " + Arrays.toString(o) + " " + Arrays.toString(set));
      }
    }
  }

  /** Adding one row moves U(o) by at most 2, for every non-decreasing o. */
  @Test
  void oneRowMovesTheUtilityByAtMostTwo() {
    Random r = new Random(23);
    String[][] sets = {{"0.1", "0.9"}, {"0.25", "0.5", "0.75"}, {"0.2", "0.2", "0.6", "0.95"},
        {"0.5", "0.51"}};
    for (int trial = 0; trial < 600; trial++) {
      int g = 1 + r.nextInt(6);
      long[] h = new long[g];
      for (int j = 0; j < g; j++) {
        h[j] = r.nextInt(3) == 0 ? 0 : r.nextInt(6);
      }
      long[] more = h.clone();
      more[r.nextInt(g)]++;
      String[] set = sets[r.nextInt(sets.length)];
      for (int[] o : tuples(g, set.length)) {
        Rational a = JointQuantiles.utility(h, o, fractions(set));
        Rational b = JointQuantiles.utility(more, o, fractions(set));
        assertTrue(a.subtract(b).abs().compareTo(Rational.of(2)) <= 0,
            Arrays.toString(h) + " -> " + Arrays.toString(more) + " at " + Arrays.toString(o)
                + ": " + a + " vs " + b);
      }
    }
  }

  /** The sampler's output frequencies against exp(−η U(o)) / Z enumerated over all tuples. */
  @Test
  void samplesExactlyTheJointExpDistribution() {
    long[] h = {3, 0, 4, 2, 5, 1};
    BigDecimal[] f = fractions("0.25", "0.75");
    List<int[]> all = tuples(h.length, 2);
    for (Rational eta : new Rational[] {Rational.of(1, 3), Rational.of(1, 1)}) {
      double[] p = new double[all.size()];
      double z = 0;
      for (int i = 0; i < p.length; i++) {
        p[i] = Math.exp(-eta.doubleValue() * JointQuantiles.utility(h, all.get(i), f).doubleValue());
        z += p[i];
      }
      for (int i = 0; i < p.length; i++) {
        p[i] /= z;
      }
      SeededRandomBits bits = new SeededRandomBits(20261126L);
      long[] counts = new long[all.size()];
      int n = 40_000;
      for (int s = 0; s < n; s++) {
        int[] o = JointQuantiles.sample(bits, h, f, eta);
        assertTrue(o[0] <= o[1], "monotone");
        counts[o[0] * h.length + o[1] - o[0] * (o[0] + 1) / 2]++;
      }
      double pv = chiSquare(counts, p);
      System.out.println("[JointQuantilesTest] eta = " + eta + ": chi-square p = " + pv);
      assertTrue(pv > 0.001, "eta " + eta + ": p = " + pv);
      // the check has power: the same samples are far from the distribution of η·1.5
      double[] wrong = new double[all.size()];
      double zw = 0;
      for (int i = 0; i < wrong.length; i++) {
        wrong[i] = Math.pow(p[i], 1.5);
        zw += wrong[i];
      }
      for (int i = 0; i < wrong.length; i++) {
        wrong[i] /= zw;
      }
      double rejected = chiSquare(counts, wrong);
      assertTrue(rejected < 1e-6, "η·1.5 should be rejected: p = " + rejected);
    }
  }

  private static double chiSquare(long[] counts, double[] p) {
    long n = Arrays.stream(counts).sum();
    double stat = 0;
    int cells = 0;
    double pooledE = 0;
    double pooledO = 0;
    for (int i = 0; i < p.length; i++) {
      if (n * p[i] >= 5) {
        stat += (counts[i] - n * p[i]) * (counts[i] - n * p[i]) / (n * p[i]);
        cells++;
      } else {
        pooledE += n * p[i];
        pooledO += counts[i];
      }
    }
    if (pooledE > 0) {
      stat += (pooledO - pooledE) * (pooledO - pooledE) / pooledE;
      cells++;
    }
    return 1 - new ChiSquaredDistribution(cells - 1).cumulativeProbability(stat);
  }

  /**
   * Accuracy: quartiles of 3,000 skewed values on 101 points, ε = 1 for the joint release, k = 2,
   * 500 seeded runs: each quantile's rank error exceeds the guarantee (2k/ε)(ln C(g+m−1, m) +
   * ln(1/β)) at β = 0.05 in at most 5% of the runs (plus three binomial standard deviations).
   */
  @Test
  void rankErrorsStayWithinTheGuarantee() {
    int g = 101;
    long[] h = new long[g];
    Random data = new Random(3);
    for (int i = 0; i < 3000; i++) {
      h[(int) Math.min(g - 1, Math.floor(-Math.log(1 - data.nextDouble()) * 18))]++;
    }
    BigDecimal[] f = fractions("0.25", "0.5", "0.75");
    int k = 2;
    Rational eps = Rational.ONE;
    double bound = 2.0 * k / eps.doubleValue()
        * (JointQuantiles.logTuples(g, 3) + Math.log(1 / 0.05));
    SeededRandomBits bits = new SeededRandomBits(7);
    int runs = 500;
    int[] over = new int[3];
    double[] sum = new double[3];
    for (int run = 0; run < runs; run++) {
      int[] o = JointQuantiles.sample(bits, h, f, JointQuantiles.eta(eps, k));
      for (int j = 0; j < 3; j++) {
        double err = JointQuantiles.distances(h, Rational.of(f[j]).multiply(3000))[o[j]]
            .doubleValue();
        sum[j] += err;
        over[j] += err > bound ? 1 : 0;
      }
    }
    // for comparison (printed only): the budget split, each quartile alone at ε/3
    double[] split = new double[3];
    Rational splitEta = QuantileRelease.eta(eps.divide(3), k);
    for (int run = 0; run < runs; run++) {
      for (int j = 0; j < 3; j++) {
        Rational[] s = JointQuantiles.distances(h, Rational.of(f[j]).multiply(3000));
        split[j] += s[org.dpsql.mechanism.ExponentialMechanism.sample(bits, s, splitEta)]
            .doubleValue();
      }
    }
    for (int j = 0; j < 3; j++) {
      System.out.printf("[JointQuantilesTest] p=%s: mean rank error %.2f (budget split: %.2f), "
          + "bound at beta=0.05 %.1f, runs over it %d of %d%n", f[j], sum[j] / runs,
          split[j] / runs, bound, over[j], runs);
      assertTrue(over[j] <= 0.05 * runs + 3 * Math.sqrt(runs * 0.05 * 0.95), f[j] + ": " + over[j]);
    }
  }
}
