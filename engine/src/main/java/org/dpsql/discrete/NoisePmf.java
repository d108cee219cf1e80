package org.dpsql.discrete;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Objects;
import org.dpsql.mechanism.RandomBits;

/**
 * An immutable noise PMF {@code f} on {@code [0..n]} for the modulo mechanism {@code q~ = (q + eta)
 * mod (n+1)} (seed paper 000), stored <em>exactly as it is sampled</em>: each mass is a
 * non-negative {@code long} numerator over the common denominator {@code 2^62}, and the numerators
 * sum to exactly {@code 2^62}.
 *
 * <p>Guarantees:
 *
 * <ul>
 *   <li>{@link #sample} draws {@code eta} with probability exactly {@code numerator(eta) / 2^62}
 *       (inverse CDF on the integer numerators with one exactly uniform draw {@code
 *       r.uniformBelow(2^62)}; no floating point), provided {@code r} produces uniform bits.
 *   <li>{@link #release} returns {@code (q + eta) mod (n+1)}, so {@code P(q~ = k | q) = f((k - q)
 *       mod (n+1))} exactly. The privacy of a release is the privacy of this exact PMF; verify it
 *       with {@link PdpChecker} (a PMF that fails the check must never be used).
 *   <li>The {@code double} accessors ({@link #mass}, {@link #masses}, {@link #errorRate}, the MSEs)
 *       are for reporting only.
 * </ul>
 *
 * <p>Use {@link #release} with {@code SecureRandomBits} in production; a seeded source makes the
 * noise reproducible and so removes the privacy guarantee against whoever knows the seed.
 */
public final class NoisePmf {

  /** log2 of the common denominator. */
  public static final int DENOMINATOR_BITS = 62;
  /** The common denominator {@code 2^62} as a long. */
  public static final long DENOMINATOR_LONG = 1L << DENOMINATOR_BITS;
  /** The common denominator {@code 2^62}. */
  public static final BigInteger DENOMINATOR = BigInteger.ONE.shiftLeft(DENOMINATOR_BITS);

  /** Tolerance on {@code |sum - 1|} accepted by {@link #quantize}. */
  public static final double SUM_TOLERANCE = 1e-9;

  /** Masses below 2^-70 have targets below 2^-8 and are ranked in double precision. */
  private static final double TINY = 0x1p-70;
  private static final java.math.MathContext WORK =
      new java.math.MathContext(60, RoundingMode.HALF_EVEN);

  private final long[] num;
  private final long[] cdf; // cdf[i] = num[0] + ... + num[i]; cdf[n] = 2^62

  private NoisePmf(long[] num) {
    this.num = num;
    this.cdf = new long[num.length];
    long acc = 0;
    for (int i = 0; i < num.length; i++) {
      acc += num[i];
      cdf[i] = acc;
    }
  }

  /**
   * The PMF with the given numerators over {@code 2^62}.
   *
   * @param numerators {@code n+1} values, {@code 1 <= n <= 100000}, each {@code >= 0}, summing to
   *     exactly {@code 2^62}
   * @throws IllegalArgumentException if any condition fails
   */
  public static NoisePmf ofNumerators(long[] numerators) {
    Objects.requireNonNull(numerators, "numerators");
    Neighbourhood.checkN(numerators.length - 1);
    long sum = 0;
    for (int i = 0; i < numerators.length; i++) {
      long v = numerators[i];
      if (v < 0 || v > DENOMINATOR_LONG) {
        throw new IllegalArgumentException("numerator " + i + " = " + v + " outside [0, 2^62]");
      }
      sum += v; // each <= 2^62 and the running sum is checked below, so no overflow
      if (sum > DENOMINATOR_LONG) {
        throw new IllegalArgumentException("numerators sum to more than 2^62");
      }
    }
    if (sum != DENOMINATOR_LONG) {
      throw new IllegalArgumentException("numerators sum to " + sum + ", not 2^62");
    }
    return new NoisePmf(numerators.clone());
  }

  /**
   * Rounds real masses to numerators over {@code 2^62}.
   *
   * <p>The masses are first normalised (divided by their sum, computed to 60 significant digits,
   * which preserves every ratio {@code f(a)/f(b)} to about {@code 1e-55}); each target {@code t =
   * 2^62 m / sum} is then rounded to {@code floor(t)} or {@code ceil(t)} by the largest-remainder
   * rule so that the numerators sum to exactly {@code 2^62}. So every numerator is within 1 (up to
   * about {@code 1e-20}) of its target, a zero mass stays 0 and, finally, a positive mass whose
   * numerator would be 0 is raised to 1 (taking the unit from the largest numerator): a positive
   * mass rounded to 0 would make a ratio infinite and break a {@code delta = 0} guarantee (pitfall
   * P10). Ratios between masses within a few thousand units of {@code 2^-62} can move noticeably;
   * {@link PdpChecker} decides whether the result is private.
   *
   * @param masses {@code n+1} finite masses, {@code 1 <= n <= 100000}, each {@code >= 0}, not all
   *     zero, summing to 1 within {@link #SUM_TOLERANCE}
   * @throws IllegalArgumentException if any condition fails
   */
  public static NoisePmf quantize(double[] masses) {
    Objects.requireNonNull(masses, "masses");
    Neighbourhood.checkN(masses.length - 1);
    int len = masses.length;
    double plainSum = 0;
    for (int i = 0; i < len; i++) {
      double m = masses[i];
      if (!(m >= 0) || Double.isInfinite(m)) { // also rejects NaN
        throw new IllegalArgumentException("mass " + i + " = " + m + " is not a finite value >= 0");
      }
      plainSum += m;
    }
    // Sum to 60 digits; the terms are non-negative, so this is accurate to ~1e-55 relative.
    BigDecimal sum = BigDecimal.ZERO;
    for (double m : masses) {
      if (m >= TINY) {
        sum = sum.add(new BigDecimal(m), WORK);
      }
    }
    double tinySum = 0;
    for (double m : masses) {
      if (m < TINY) {
        tinySum += m;
      }
    }
    sum = sum.add(new BigDecimal(tinySum), WORK);
    if (!(Math.abs(plainSum - 1) <= 2 * SUM_TOLERANCE)
        || sum.subtract(BigDecimal.ONE).abs().compareTo(new BigDecimal(SUM_TOLERANCE)) > 0) {
      throw new IllegalArgumentException("masses sum to " + sum.doubleValue() + ", not 1");
    }
    BigDecimal scale = new BigDecimal(DENOMINATOR).divide(sum, WORK); // 2^62 / sum
    double scaleDouble = scale.doubleValue();
    long[] num = new long[len];
    double[] frac = new double[len]; // fractional part of the target 2^62 m / sum
    long floors = 0;
    for (int i = 0; i < len; i++) {
      double m = masses[i];
      if (m == 0) {
        continue;
      }
      if (m < TINY) { // target < 2^-8: floor 0, the fraction in double is precise enough to rank
        frac[i] = m * scaleDouble;
        continue;
      }
      BigDecimal t = new BigDecimal(m).multiply(scale, WORK);
      BigDecimal fl = t.setScale(0, RoundingMode.FLOOR);
      num[i] = fl.longValueExact();
      frac[i] = t.subtract(fl).doubleValue();
      floors += num[i];
    }
    long missing = DENOMINATOR_LONG - floors; // = sum of the fractions, up to ~1e-20 each
    Integer[] order = new Integer[len];
    for (int i = 0; i < len; i++) {
      order[i] = i;
    }
    if (missing > 0) { // largest fractions first; only entries with a positive mass qualify
      Arrays.sort(order, (a, b) -> {
        int c = Double.compare(frac[b], frac[a]);
        return c != 0 ? c : Integer.compare(a, b);
      });
      int k = 0;
      for (int pass = 0; missing > 0; pass++) {
        int i = order[k];
        if (masses[i] > 0 && (frac[i] > 0 || pass >= len)) {
          num[i]++;
          missing--;
        }
        k = (k + 1) % len;
      }
    } else if (missing < 0) { // only from rounding of targets within 1e-20 of an integer
      Arrays.sort(order, (a, b) -> {
        int c = Double.compare(frac[a], frac[b]);
        return c != 0 ? c : Integer.compare(a, b);
      });
      for (int k = 0; missing < 0; k = (k + 1) % len) {
        int i = order[k];
        if (num[i] >= 2) {
          num[i]--;
          missing++;
        }
      }
    }
    // A positive mass must stay positive. The largest numerator is >= 2^62/(n+1) > 4e13, far more
    // than the at most n units it can be asked to give.
    int big = 0;
    for (int j = 1; j < len; j++) {
      if (num[j] > num[big]) {
        big = j;
      }
    }
    for (int i = 0; i < len; i++) {
      if (masses[i] > 0 && num[i] == 0) {
        num[big]--;
        num[i] = 1;
      }
    }
    return new NoisePmf(num);
  }

  /** The largest noise value {@code n}; the support is {@code [0..n]}. */
  public int n() {
    return num.length - 1;
  }

  /** {@code f(eta)} rounded to double (reporting only). */
  public double mass(int eta) {
    return Math.scalb((double) num[check(eta)], -DENOMINATOR_BITS);
  }

  /** The exact numerator of {@code f(eta)} over {@link #DENOMINATOR}. */
  public BigInteger numerator(int eta) {
    return BigInteger.valueOf(num[check(eta)]);
  }

  /** The exact numerator of {@code f(eta)} over {@code 2^62}, as a long. */
  public long numeratorLong(int eta) {
    return num[check(eta)];
  }

  /** A copy of all numerators. */
  public long[] numerators() {
    return num.clone();
  }

  /** All masses rounded to double (reporting only). */
  public double[] masses() {
    double[] m = new double[num.length];
    for (int i = 0; i < m.length; i++) {
      m[i] = Math.scalb((double) num[i], -DENOMINATOR_BITS);
    }
    return m;
  }

  /** The error rate {@code 1 - f(0)} (Def. 3). */
  public double errorRate() {
    return Math.scalb((double) (DENOMINATOR_LONG - num[0]), -DENOMINATOR_BITS);
  }

  /**
   * The circular mean squared error {@code sum_eta min(eta, n+1-eta)^2 f(eta)}: the squared
   * distance on the circle {@code Z_(n+1)} between the released and the true answer, the same for
   * every true answer (spec pitfall P4).
   */
  public double circularMse() {
    int m = num.length;
    double s = 0;
    for (int eta = 1; eta < m; eta++) {
      double d = Math.min(eta, m - eta);
      s += d * d * mass(eta);
    }
    return s;
  }

  /**
   * The paper's MSE {@code sum_eta eta^2 f(eta)} (Def. 4). Reproduction only: with the modulo wrap
   * it is the true MSE only when the true answer is 0 (pitfall P4).
   */
  public double paperMse() {
    double s = 0;
    for (int eta = 1; eta < num.length; eta++) {
      s += (double) eta * eta * mass(eta);
    }
    return s;
  }

  /**
   * Draws {@code eta} with probability exactly {@code numerator(eta) / 2^62}: one draw {@code u =
   * r.uniformBelow(2^62)}, then the smallest {@code eta} with {@code cdf(eta) > u}.
   */
  public int sample(RandomBits r) {
    Objects.requireNonNull(r, "r");
    long u = r.uniformBelow(DENOMINATOR_LONG);
    int lo = 0;
    int hi = cdf.length - 1; // cdf[hi] = 2^62 > u
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (cdf[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /**
   * Releases {@code (trueAnswer + eta) mod (n+1)} with {@code eta ~ f}.
   *
   * @throws IllegalArgumentException if {@code trueAnswer} is outside {@code [0, n]}
   */
  public int release(int trueAnswer, RandomBits r) {
    if (trueAnswer < 0 || trueAnswer > n()) {
      throw new IllegalArgumentException("answer " + trueAnswer + " outside [0, " + n() + "]");
    }
    int eta = sample(r);
    return (int) (((long) trueAnswer + eta) % num.length);
  }

  private int check(int eta) {
    if (eta < 0 || eta >= num.length) {
      throw new IndexOutOfBoundsException("eta " + eta + " outside [0, " + n() + "]");
    }
    return eta;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoisePmf other && Arrays.equals(num, other.num);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(num);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("NoisePmf[n=").append(n()).append(", f=[");
    int shown = Math.min(num.length, 20);
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(String.format(java.util.Locale.ROOT, "%.6g", mass(i)));
    }
    if (shown < num.length) {
      sb.append(", ... (").append(num.length - shown).append(" more)");
    }
    return sb.append("]]").toString();
  }
}
