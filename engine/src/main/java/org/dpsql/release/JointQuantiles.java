package org.dpsql.release;

import java.math.BigDecimal;
import org.dpsql.mechanism.ExactSamplers;
import org.dpsql.mechanism.ExponentialMechanism;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.mechanism.Rational;

/**
 * JointExp (Gillenwater, Joseph and Kulesza, "Differentially Private Quantiles", ICML 2021) on a
 * public grid: m fractions {@code 0 < p_1 ≤ ... ≤ p_m < 1} of one column in one group, released
 * together as non-decreasing grid points {@code o_1 ≤ ... ≤ o_m} by one exponential mechanism,
 * sampled exactly.
 *
 * <p><b>Utility.</b> With {@code L(o)} ({@code R(o)}) the number of the group's n values below (at
 * or below) point {@code o}, {@code P_j = p_j·n}, {@code P_0 = r_0 = 0} and {@code P_{m+1} =
 * r_{m+1} = n}, the paper's utility is {@code −Σ_{j=1}^{m+1} |c_j − (P_j − P_{j−1})|} with {@code
 * c_j} the number of values between consecutive outputs. On a grid many values are tied at a
 * point and may count on either side of an output there, so the counts are {@code c_j = r_j −
 * r_{j−1}} for the best split of the ties: {@code U(o) = min Σ_{j=1}^{m+1} |(r_j − r_{j−1}) − (P_j
 * − P_{j−1})|} over real {@code r_1 ≤ ... ≤ r_m} with {@code r_j ∈ [L(o_j), R(o_j)]}, and the
 * utility is {@code −U(o)}. {@code U = 0} exactly when some split makes every {@code o_j} an exact
 * {@code p_j}-quantile. The constraint {@code r_1 ≤ ... ≤ r_m} never binds (replacing r by its
 * running maximum stays in the boxes, whose ends are non-decreasing in j, and does not increase the
 * sum: on a stretch where r stays below its running maximum M from index s to t−1, r's own steps
 * cost at least {@code Σ w_j + (M − r_{t−1})}, {@code w_j = P_j − P_{j−1} ≥ 0}, and {@code
 * (M − r_{t−1}) + |r_t − r_{t−1} − w_t| ≥ |r_t − M − w_t|}); without it, {@code x_j = r_j − P_j}
 * is a path from 0 to 0 through the intervals {@code [L(o_j) − P_j, R(o_j) − P_j]} and U its least
 * total variation, computed exactly in O(m): the least cost of reaching step j is the previous
 * cost plus the distance from interval j to the interval of optimal previous positions.
 *
 * <p><b>Sensitivity 2 per row.</b> Add a value at point v; let {@code α_j = [v < o_j]}, {@code β_j
 * = [v ≤ o_j]} (non-decreasing in j, {@code α_j ≤ β_j}): {@code L(o_j)} grows by {@code α_j},
 * {@code R(o_j)} by {@code β_j}, {@code P_j} by {@code p_j}. (i) From an optimal r of the smaller
 * data set, {@code r_j + β_j} is feasible for the larger one and the sum grows by at most the total
 * variation of {@code (β_j − p_j)_{j=0..m+1}} ({@code β_0 = p_0 = 0}, {@code β_{m+1} = p_{m+1} =
 * 1}), at most {@code TV(β) + TV(p) = 1 + 1 = 2}. (ii) From an optimal non-decreasing r' of the
 * larger one, {@code r_j = r'_j − δ_j} with {@code δ_j = max(δ_{j−1}, r'_j − R(o_j), 0)} (R of the
 * smaller set): δ is non-decreasing in [0, 1] ({@code r'_j ≤ R + 1}), {@code r_j ≤ R(o_j)} by
 * construction, {@code r_j ≥ L(o_j)} because {@code r'_i − R(o_i) ≤ r'_j − L(o_j)} for i ≤ j
 * (when {@code o_i < o_j}, {@code R(o_i) ≤ L(o_j)}, {@code r'_i ≤ R(o_i) + β_i}, {@code r'_j ≥
 * L(o_j) + α_j} and {@code β_i ≤ α_j}; when {@code o_i = o_j}, {@code r'_i ≤ r'_j}), and r stays
 * non-decreasing (where δ rises, {@code r_j − r_{j−1} ≥ R(o_j) − R(o_{j−1}) ≥ 0}); the sum grows
 * by at most {@code TV(δ − p) ≤ 2}. So a unit's {@code m_g} rows in the group move U by at most
 * {@code 2m_g}: with {@code η = ε/(4k)} the group's release is {@code ε·m_g/k}-DP, all groups
 * together ε-DP, and ε-bounded-range, hence ε²/8-zCDP.
 *
 * <p><b>Exact sampling, by rejection.</b> A path from 0 to 0 through interval j varies by at least
 * twice the distance {@code d_j} from {@code P_j} to {@code [L(o_j), R(o_j)]}, so {@code U ≥ 2·max_j
 * d_j ≥ (2/m)·Σ d_j}: the target weight {@code exp(−η·U)} is at most {@code Π_j exp(−(2η/m)·d_j)},
 * the product of m independent single-quantile exponential mechanisms, which {@link
 * ExponentialMechanism} samples exactly. A proposal is accepted if it is non-decreasing, with
 * probability {@code exp(−η·(U − (2/m)·Σ d_j))} ({@link ExactSamplers#bernoulliExpMinus}, exact
 * rationals); an accepted tuple has exactly the JointExp distribution. The expected number of
 * proposals is the ratio of the two normalisers, which grows roughly like {@code (m/2)^m} (and is
 * at most about m! when η is small), so the engine uses this for at most {@link #MAX_FRACTIONS}
 * fractions of a column. Running time is random and must not be exposed.
 *
 * <p><b>Accuracy.</b> With g grid points there are {@code C(g+m−1, m)} non-decreasing tuples; the
 * released tuple's U exceeds {@code (4k/ε)(ln C(g+m−1, m) + ln(1/β))} with probability at most β,
 * and each quantile's rank error {@code d_j} is at most U/2.
 */
public final class JointQuantiles {
  /** The most fractions of one column released jointly (more are split, see QuantileRelease). */
  public static final int MAX_FRACTIONS = 4;

  private JointQuantiles() {}

  /** {@code η = ε/(4k)}: the joint utility moves by at most 2 per row, 2k per unit. */
  public static Rational eta(Rational epsilon, int k) {
    return epsilon.divide(4L * k);
  }

  /**
   * Samples non-decreasing points for {@code fractions} (non-decreasing, each in (0, 1)) from the
   * JointExp distribution {@code exp(−η·U(o)) / Z} over the histogram's grid.
   */
  public static int[] sample(RandomBits random, long[] histogram, BigDecimal[] fractions,
      Rational eta) {
    int m = fractions.length;
    long n = total(histogram);
    Rational[][] distances = new Rational[m][];
    for (int j = 0; j < m; j++) {
      distances[j] = distances(histogram, Rational.of(fractions[j]).multiply(n));
    }
    Rational proposalEta = eta.multiply(2).divide(m);
    ExponentialMechanism.Prepared[] proposals = new ExponentialMechanism.Prepared[m];
    for (int j = 0; j < m; j++) {
      proposals[j] = ExponentialMechanism.prepare(distances[j], proposalEta);
    }
    int[] o = new int[m];
    while (true) {
      Rational sum = Rational.ZERO;
      boolean ordered = true;
      for (int j = 0; j < m; j++) {
        o[j] = proposals[j].sample(random);
        sum = sum.add(distances[j][o[j]]);
        ordered &= j == 0 || o[j - 1] <= o[j];
      }
      if (!ordered) {
        continue;
      }
      Rational gamma = eta.multiply(utility(histogram, o, fractions)
          .subtract(sum.multiply(2).divide(m)));
      if (ExactSamplers.bernoulliExpMinus(random, gamma)) {
        return o.clone();
      }
    }
  }

  /**
   * {@code U(o)}, exactly: the least total variation of a path from 0 to 0 through the intervals
   * {@code [L(o_j) − p_j·n, R(o_j) − p_j·n]} (see the class comment); {@code points}
   * non-decreasing, {@code fractions} non-decreasing.
   */
  public static Rational utility(long[] histogram, int[] points, BigDecimal[] fractions) {
    long n = total(histogram);
    long[] below = new long[histogram.length + 1];
    for (int j = 0; j < histogram.length; j++) {
      below[j + 1] = below[j] + histogram[j];
    }
    // the least cost so far, and the interval of positions that achieve it
    Rational cost = Rational.ZERO;
    Rational lo = Rational.ZERO;
    Rational hi = Rational.ZERO;
    for (int j = 0; j <= points.length; j++) {
      Rational a = Rational.ZERO; // the last step returns to 0: r_{m+1} = n = P_{m+1}
      Rational b = Rational.ZERO;
      if (j < points.length) {
        Rational target = Rational.of(fractions[j]).multiply(n);
        a = Rational.of(below[points[j]]).subtract(target);
        b = Rational.of(below[points[j] + 1]).subtract(target);
      }
      if (b.compareTo(lo) < 0) { // interval j lies below the optimal positions
        cost = cost.add(lo.subtract(b));
        lo = b;
        hi = b;
      } else if (a.compareTo(hi) > 0) { // above them
        cost = cost.add(a.subtract(hi));
        lo = a;
        hi = a;
      } else { // they overlap: the overlap is reached at no extra cost
        lo = a.compareTo(lo) > 0 ? a : lo;
        hi = b.compareTo(hi) < 0 ? b : hi;
      }
    }
    return cost;
  }

  /** For each point, the distance from {@code target} to its ranks {@code [L, R]}. */
  static Rational[] distances(long[] histogram, Rational target) {
    Rational[] d = new Rational[histogram.length];
    long below = 0;
    for (int j = 0; j < histogram.length; j++) {
      long atOrBelow = below + histogram[j];
      Rational over = Rational.of(below).subtract(target);
      Rational under = target.subtract(Rational.of(atOrBelow));
      d[j] = over.signum() > 0 ? over : under.signum() > 0 ? under : Rational.ZERO;
      below = atOrBelow;
    }
    return d;
  }

  /** {@code ln C(g+m−1, m)}: the log of the number of non-decreasing m-tuples of g points. */
  public static double logTuples(int g, int m) {
    double s = 0;
    for (int i = 1; i <= m; i++) {
      s += Math.log(g - 1.0 + i) - Math.log(i);
    }
    return s;
  }

  private static long total(long[] histogram) {
    long n = 0;
    for (long h : histogram) {
      n += h;
    }
    return n;
  }
}
