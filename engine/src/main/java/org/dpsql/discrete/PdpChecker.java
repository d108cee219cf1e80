package org.dpsql.discrete;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * Exact check of {@code (epsilon, delta)}-probabilistic differential privacy (PDP, Def. 2 of seed
 * paper 000) for the modulo mechanism {@code q~ = (q + eta) mod (n+1)}, {@code eta ~ f}.
 *
 * <p>For the additive mechanism the PDP loss of a neighbour pair with difference {@code mu} is
 * {@code sum_eta f(eta) 1[f(eta) > e^eps f((eta + mu) mod (n+1))]} (eqs. 5, 7; spec §1.3). {@link
 * #delta} returns its maximum over {@code mu in M}. PDP with that {@code delta} implies {@code
 * (epsilon, delta)}-DP (Thm. 1).
 *
 * <p>Guarantee — exactness: the masses are the exact rationals {@code numerator / 2^62} of the
 * {@link NoisePmf} that is sampled, and each comparison {@code a > e^eps b} of two numerators is
 * decided rigorously: first in double precision, but only when the two sides differ by a relative
 * margin of {@code 1e-9}, which is more than a thousand times the worst rounding error of that
 * computation (at most {@code 1e-13} for {@code eps <= 500}); otherwise with a rigorous interval
 * {@code [lo, hi]} containing {@code e^eps} (Taylor series of {@code e^(eps/2^s)} with directed
 * rounding and a bound on the remainder, then {@code s} squarings with directed rounding), refined
 * from 40 up to 320 significant digits. If even 320 digits cannot decide (never observed: {@code
 * e^eps} is irrational for rational {@code eps > 0}), the pair is counted as a violation. So the
 * returned {@code delta} is never below the true one: the checker can reject a private PMF only in
 * that undecidable case and can never accept a PMF that violates {@code (epsilon, delta)}.
 */
public final class PdpChecker {

  private static final int FIRST_DIGITS = 40;
  private static final int MAX_DIGITS = 320;
  private static final double FAST_MARGIN = 1e-9;
  private static final double FAST_MAX_EPS = 500;
  private static final BigDecimal DEN = new BigDecimal(NoisePmf.DENOMINATOR);

  private PdpChecker() {}

  /**
   * The exact PDP {@code delta} of {@code f} at {@code epsilon}: {@code max_{mu in M} sum_eta
   * f(eta) 1[f(eta) > e^eps f((eta+mu) mod (n+1))]}, an exact multiple of {@code 2^-62} (or
   * conservatively larger, see the class comment).
   *
   * @throws IllegalArgumentException if {@code epsilon < 0} or {@code f} and {@code m} have
   *     different {@code n}
   */
  public static BigDecimal delta(NoisePmf f, Neighbourhood m, BigDecimal epsilon) {
    check(f, m, epsilon);
    return toDecimal(maxLeak(f.numerators(), m, new Exp(epsilon)));
  }

  /** Whether {@code f} is {@code (epsilon, delta)}-PDP for {@code m}: {@code delta(f, m, eps) <= delta}. */
  public static boolean satisfies(
      NoisePmf f, Neighbourhood m, BigDecimal epsilon, BigDecimal delta) {
    Objects.requireNonNull(delta, "delta");
    return delta(f, m, epsilon).compareTo(delta) <= 0;
  }

  /**
   * Throws unless {@code f} is {@code (epsilon, delta)}-PDP for {@code m}. The engine calls this
   * before using any PMF, so a PMF that fails is never used.
   *
   * @throws IllegalStateException with the achieved and required {@code delta} if the check fails
   */
  public static void require(NoisePmf f, Neighbourhood m, BigDecimal epsilon, BigDecimal delta) {
    Objects.requireNonNull(delta, "delta");
    BigDecimal achieved = delta(f, m, epsilon);
    if (achieved.compareTo(delta) > 0) {
      throw new IllegalStateException(
          "noise PMF fails the exact privacy check: at epsilon=" + epsilon.toPlainString()
              + " its delta is " + achieved.round(new MathContext(6, RoundingMode.CEILING))
              + " > required " + delta.toPlainString() + " for differences " + m.differences()
              + " mod " + (m.n() + 1) + "; the PMF must not be used");
    }
  }

  /**
   * The smallest {@code epsilon}, on the grid of multiples of {@code 1e-9} (so rounded up), at
   * which {@code f} is {@code (epsilon, delta)}-PDP for {@code m}, found by bisection on exact
   * checks; the result itself passes {@link #satisfies}. Used for the {@code (epsilon, delta)}
   * curves of the competitors.
   *
   * @throws IllegalArgumentException if {@code delta} is outside {@code [0, 1]}, or if no finite
   *     {@code epsilon} works (a positive mass next to a zero mass leaks more than {@code delta}
   *     for every {@code epsilon})
   */
  public static BigDecimal epsilonFor(NoisePmf f, Neighbourhood m, BigDecimal delta) {
    Objects.requireNonNull(delta, "delta");
    check(f, m, BigDecimal.ZERO);
    if (delta.signum() < 0 || delta.compareTo(BigDecimal.ONE) > 0) {
      throw new IllegalArgumentException("delta " + delta + " outside [0, 1]");
    }
    long[] num = f.numerators();
    int len = num.length;
    // Leak that remains for every epsilon: positive masses whose shifted partner is 0.
    long atInfinity = 0;
    double maxLogRatio = 0;
    for (int mu : m.differences()) {
      long s = 0;
      for (int eta = 0; eta < len; eta++) {
        long a = num[eta];
        long b = num[(eta + mu) % len];
        if (a > 0 && b == 0) {
          s += a;
        } else if (a > b) {
          maxLogRatio = Math.max(maxLogRatio, Math.log((double) a / (double) b));
        }
      }
      atInfinity = Math.max(atInfinity, s);
    }
    if (toDecimal(atInfinity).compareTo(delta) > 0) {
      throw new IllegalArgumentException(
          "no finite epsilon gives delta <= " + delta + ": masses next to zero masses leak "
              + toDecimal(atInfinity).round(new MathContext(6, RoundingMode.CEILING)));
    }
    BigDecimal step = new BigDecimal("1e-9");
    if (toDecimal(maxLeak(num, m, new Exp(BigDecimal.ZERO))).compareTo(delta) <= 0) {
      return BigDecimal.ZERO.setScale(9);
    }
    long hi = (long) Math.ceil((maxLogRatio + 1e-6) * 1e9);
    while (toDecimal(maxLeak(num, m, new Exp(step.multiply(BigDecimal.valueOf(hi)))))
            .compareTo(delta) > 0) {
      hi *= 2; // only if the double estimate of the largest log-ratio was too low
    }
    long lo = 0; // fails
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      BigDecimal eps = step.multiply(BigDecimal.valueOf(mid));
      if (toDecimal(maxLeak(num, m, new Exp(eps))).compareTo(delta) <= 0) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return step.multiply(BigDecimal.valueOf(hi)).setScale(9, RoundingMode.UNNECESSARY);
  }

  /**
   * The exact PDP {@code delta} at {@code epsilon} of the modulo mechanism followed by the output
   * map {@code g} (released value {@code g((q + eta) mod (n+1))}): {@code max} over {@code q} and
   * {@code mu in M} of {@code sum_j P(j|q) 1[P(j|q) > e^eps P(j|q - mu)]} with {@code P(j|q) =
   * sum_{k: g(k) = j} f((k - q) mod (n+1))}. With the identity map this equals {@link #delta}; a
   * permutation leaves it unchanged and a non-injective map (e.g. a clamp) can increase it (Prop.
   * 1 of the paper: for {@code delta > 0} only invertible post-processing is safe). Costs {@code
   * O(n^2 |M|)} exact comparisons.
   *
   * @param outputMap {@code n+1} non-negative output labels, {@code outputMap[k] = g(k)}
   */
  public static BigDecimal deltaOfPostProcessed(
      NoisePmf f, Neighbourhood m, BigDecimal epsilon, int[] outputMap) {
    check(f, m, epsilon);
    Objects.requireNonNull(outputMap, "outputMap");
    long[] num = f.numerators();
    int len = num.length;
    if (outputMap.length != len) {
      throw new IllegalArgumentException("outputMap needs " + len + " entries");
    }
    int labels = 0;
    for (int g : outputMap) {
      if (g < 0) {
        throw new IllegalArgumentException("output labels must be >= 0");
      }
      labels = Math.max(labels, g + 1);
    }
    long[][] rows = new long[len][labels];
    for (int q = 0; q < len; q++) {
      for (int k = 0; k < len; k++) {
        rows[q][outputMap[k]] += num[Math.floorMod(k - q, len)]; // subset sums <= 2^62
      }
    }
    Exp e = new Exp(epsilon);
    long best = 0;
    for (int q = 0; q < len; q++) {
      for (int mu : m.differences()) {
        long[] p = rows[q];
        long[] p2 = rows[Math.floorMod(q - mu, len)];
        long s = 0;
        for (int j = 0; j < labels; j++) {
          if (e.violates(p[j], p2[j])) {
            s += p[j];
          }
        }
        best = Math.max(best, s);
      }
    }
    return toDecimal(best);
  }

  // ---------------------------------------------------------------------------------------------

  private static void check(NoisePmf f, Neighbourhood m, BigDecimal epsilon) {
    Objects.requireNonNull(f, "f");
    Objects.requireNonNull(m, "m");
    Objects.requireNonNull(epsilon, "epsilon");
    if (epsilon.signum() < 0) {
      throw new IllegalArgumentException("epsilon must be >= 0: " + epsilon);
    }
    if (f.n() != m.n()) {
      throw new IllegalArgumentException(
          "PMF has n=" + f.n() + " but the neighbourhood has n=" + m.n());
    }
  }

  /** Max over mu of the sum of the numerators of the violating eta. */
  private static long maxLeak(long[] num, Neighbourhood m, Exp e) {
    int len = num.length;
    long best = 0;
    for (int mu : m.differences()) {
      long s = 0;
      for (int eta = 0; eta < len; eta++) {
        int partner = eta + mu;
        if (partner >= len) {
          partner -= len;
        }
        if (e.violates(num[eta], num[partner])) {
          s += num[eta];
        }
      }
      best = Math.max(best, s);
    }
    return best;
  }

  /** {@code numerator / 2^62} exactly. */
  static BigDecimal toDecimal(long numerator) {
    if (numerator == 0) {
      return BigDecimal.ZERO;
    }
    return new BigDecimal(numerator).divide(DEN).stripTrailingZeros(); // terminating: exact
  }

  /** Decides {@code a > e^eps b} for numerators, exactly (conservatively true if undecidable). */
  static final class Exp {
    private final BigDecimal eps;
    private final int maxDigits;
    private final boolean zero;
    private final boolean fast;
    private final double expDouble;
    private int digits; // digits of the current bounds, 0 = none computed yet
    private BigDecimal lo;
    private BigDecimal hi;

    Exp(BigDecimal eps) {
      this(eps, MAX_DIGITS);
    }

    /** With a smaller digit cap, to exercise the conservative branch in tests. */
    Exp(BigDecimal eps, int maxDigits) {
      this.eps = eps;
      this.maxDigits = maxDigits;
      this.zero = eps.signum() == 0;
      double d = eps.doubleValue();
      this.fast = d <= FAST_MAX_EPS;
      this.expDouble = fast ? Math.exp(d) : Double.NaN;
    }

    boolean violates(long a, long b) {
      if (a == 0) {
        return false;
      }
      if (b == 0) {
        return true;
      }
      if (zero) {
        return a > b;
      }
      if (fast) {
        double r = (double) a / (double) b;
        if (r > expDouble * (1 + FAST_MARGIN)) {
          return true;
        }
        if (r < expDouble * (1 - FAST_MARGIN)) {
          return false;
        }
      }
      BigDecimal ba = BigDecimal.valueOf(a);
      BigDecimal bb = BigDecimal.valueOf(b);
      for (int d = Math.min(FIRST_DIGITS, maxDigits); d <= maxDigits; d *= 2) {
        if (digits < d) {
          BigDecimal[] iv = expBounds(eps, d);
          lo = iv[0];
          hi = iv[1];
          digits = d;
        }
        if (ba.compareTo(hi.multiply(bb)) > 0) {
          return true; // a > hi b >= e^eps b
        }
        if (ba.compareTo(lo.multiply(bb)) <= 0) {
          return false; // a <= lo b <= e^eps b
        }
      }
      return true; // undecidable at maxDigits digits: count it as a violation (conservative)
    }
  }

  /**
   * A rigorous enclosure {@code [lo, hi]} of {@code e^x}, {@code x >= 0}, with about {@code
   * digits} correct significant digits: Taylor series of {@code e^y}, {@code y = x / 2^s < 1/2},
   * summed with floor (for {@code lo}, a truncated series of positive terms is below {@code e^y})
   * and ceiling (for {@code hi}) rounding; {@code hi} also gets the last computed term once more,
   * which bounds the whole tail because each further term is at most a quarter of the previous
   * one ({@code y/(i+1) < 1/4} for {@code i >= 1}). Then {@code s} squarings with the same directed
   * rounding ({@code e^x = (e^y)^(2^s)}).
   */
  static BigDecimal[] expBounds(BigDecimal x, int digits) {
    if (x.signum() < 0) {
      throw new IllegalArgumentException("x must be >= 0");
    }
    if (x.signum() == 0) {
      return new BigDecimal[] {BigDecimal.ONE, BigDecimal.ONE};
    }
    BigInteger ceil = x.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
    int s = ceil.bitLength() + 1; // 2^s >= 2 ceil(x) > 2x, so y < 1/2
    int work = digits + 10 + s;
    MathContext down = new MathContext(work, RoundingMode.FLOOR);
    MathContext up = new MathContext(work, RoundingMode.CEILING);
    BigDecimal pow = new BigDecimal(BigInteger.ONE.shiftLeft(s));
    BigDecimal yLo = x.divide(pow, down);
    BigDecimal yHi = x.divide(pow, up);
    BigDecimal termLo = BigDecimal.ONE;
    BigDecimal termHi = BigDecimal.ONE;
    BigDecimal sumLo = BigDecimal.ONE;
    BigDecimal sumHi = BigDecimal.ONE;
    BigDecimal stop = BigDecimal.ONE.movePointLeft(work + 2);
    for (int i = 1; ; i++) {
      BigDecimal bi = BigDecimal.valueOf(i);
      termLo = termLo.multiply(yLo, down).divide(bi, down);
      termHi = termHi.multiply(yHi, up).divide(bi, up);
      sumLo = sumLo.add(termLo, down);
      sumHi = sumHi.add(termHi, up);
      if (termHi.compareTo(stop) < 0) {
        // Remaining terms: each at most half the previous one, so their sum is < termHi.
        sumHi = sumHi.add(termHi, up);
        break;
      }
    }
    BigDecimal lo = sumLo;
    BigDecimal hi = sumHi;
    for (int k = 0; k < s; k++) {
      lo = lo.multiply(lo, down);
      hi = hi.multiply(hi, up);
    }
    return new BigDecimal[] {lo, hi};
  }
}
