package org.dpsql.hierarchy;

import java.util.Arrays;
import java.util.Objects;

/**
 * IntOpt (Boninsegna &amp; Silvestri, Algorithm 2; polynomial variant Algorithm 4 of Appendix C):
 * the integer Chebyshev-distance projection onto the non-negative integer vectors with a given sum,
 * {@code P(x, c) = argmin_y ||x − y||_∞ s.t. y ∈ ℕ₀^b, Σ y = c} (eq. 6), with the paper's
 * false-positive heuristic choosing among the optimal solutions.
 *
 * <p><b>Guarantees.</b> Every method returns {@code y} with {@code y_i >= 0}, {@code Σ y = c} and
 * {@code ||x − y||_∞ = } {@link #minimumDistance(long[], long)} (Chebyshev-optimal); it reads only
 * its arguments and uses exact integer arithmetic ({@link ArithmeticException} on {@code long}
 * overflow, which needs values beyond ±2^62).
 *
 * <p><b>{@link #solve(long[], long, ReductionOrder)}</b> returns exactly the output of Algorithm 2
 * (with the requested order in line 3) in {@code O(b log b)} time, independent of the values:
 * Algorithm 2 starts from {@code z⁰ = max(⌈(c − Σx)/b⌉, −x)} (sum {@code ≥ D = c − Σx}) with
 * {@code t = t₀ = ||z⁰||_∞} and sweeps the entries in the given order, lowering each to {@code
 * max(z_i − E, −x_i, −t)} ({@code E} the current excess), incrementing {@code t} after each full
 * sweep. A sweep at level {@code t} that does not exhaust the excess leaves every entry at {@code
 * max(−x_i, −t)} (if any entry stopped above that bound, the excess would be 0), so the sweeps
 * before the last one are summarised by the final level {@code t* = } the smallest {@code t >= t₀}
 * with {@code Σ max(−x_i, −t) <= D}, i.e. with {@code Σ max(0, x_i − t) <= c}, found by binary
 * search; the state before the last sweep is {@code z⁰} if {@code t* = t₀} and {@code max(−x_i,
 * −(t* − 1))} otherwise, and the last sweep is run literally. {@code t*} is the optimum: any
 * feasible {@code y} at distance {@code α} needs {@code α >= −min x}, {@code α >= (c − Σx)/b} and
 * {@code Σ max(0, x_i − α) <= c}, hence {@code α >= t₀} (see Lemma 5 and eq. 14) and {@code α >=
 * t*}; and the returned vector lies in the box {@code [max(−x_i, −t*), t₀]} around {@code x}.
 *
 * <p><b>{@link #projectAppendixC}</b> is Algorithm 4 as printed (only still-reducible indices are
 * swept; {@code t} jumps by {@code max(1, ⌊E/|I|⌋)}); it is also optimal but may pick a different
 * optimal vector.
 *
 * <p>The worked example of Section 4.2: {@code x = (0, −1, 1)}, {@code c = 2} has the optimal
 * solutions {@code (1, 0, 1)} and {@code (0, 0, 2)} at distance 1; with the ascending order IntOpt
 * returns {@code (0, 0, 2)} (the smallest noisy entry, {@code x_1 = −1}, cannot move below its
 * bound, so {@code x_0 = 0} is lowered and stays 0), with the descending order {@code (1, 0, 1)}.
 */
public final class IntOpt implements ConsistencyProjection {
  private static final IntOpt ASCENDING = new IntOpt(ReductionOrder.ASCENDING);
  private static final IntOpt DESCENDING = new IntOpt(ReductionOrder.DESCENDING);
  private static final IntOpt INDEX = new IntOpt(ReductionOrder.INDEX);

  private final ReductionOrder order;

  private IntOpt(ReductionOrder order) {
    this.order = order;
  }

  /** IntOpt with the given reduction order, as a {@link ConsistencyProjection}. */
  public static IntOpt withOrder(ReductionOrder order) {
    switch (Objects.requireNonNull(order, "order")) {
      case ASCENDING:
        return ASCENDING;
      case DESCENDING:
        return DESCENDING;
      default:
        return INDEX;
    }
  }

  /** The paper's IntOpt: ascending order (false-positive heuristic). */
  public static IntOpt paper() {
    return ASCENDING;
  }

  /** The reduction order of this projection. */
  public ReductionOrder order() {
    return order;
  }

  @Override
  public long[] project(long[] x, long c) {
    return solve(x, c, order);
  }

  @Override
  public String name() {
    return "IntOpt(" + order.name().toLowerCase(java.util.Locale.ROOT) + ")";
  }

  /** Algorithm 2 with the paper's ascending order (the false-positive heuristic). */
  public static long[] solve(long[] x, long c) {
    return solve(x, c, ReductionOrder.ASCENDING);
  }

  /** Algorithm 2 with the given reduction order (line 3). */
  public static long[] solve(long[] x, long c, ReductionOrder order) {
    validate(x, c);
    Objects.requireNonNull(order, "order");
    int b = x.length;
    long d = Math.subtractExact(c, sum(x)); // required Σz
    long r0 = ceilDiv(d, b);
    long[] z = new long[b];
    long sumZ = 0;
    long t0 = 0;
    for (int i = 0; i < b; i++) {
      z[i] = Math.max(r0, Math.negateExact(x[i]));
      sumZ = Math.addExact(sumZ, z[i]);
      t0 = Math.max(t0, Math.abs(z[i]));
    }
    if (sumZ == d) {
      return plus(x, z);
    }
    long tStar = smallestFeasibleLevel(x, c, t0);
    if (tStar > t0) {
      long prev = tStar - 1;
      sumZ = 0;
      for (int i = 0; i < b; i++) {
        z[i] = Math.max(-x[i], -prev);
        sumZ = Math.addExact(sumZ, z[i]);
      }
    }
    int[] idx = order(x, order);
    long excess = sumZ - d;
    for (int k = 0; k < b && excess > 0; k++) {
      int i = idx[k];
      long lowered = Math.max(z[i] - excess, Math.max(-x[i], -tStar));
      excess -= z[i] - lowered;
      z[i] = lowered;
    }
    if (excess != 0) {
      throw new AssertionError("IntOpt left an excess of " + excess);
    }
    return plus(x, z);
  }

  /**
   * Algorithm 4 (Appendix C) as printed, with the ascending order: sweeps only indices that can
   * still be lowered and raises {@code t} by {@code max(1, ⌊E / |I|⌋)} after each sweep.
   */
  public static long[] projectAppendixC(long[] x, long c) {
    validate(x, c);
    int b = x.length;
    long d = Math.subtractExact(c, sum(x));
    long r0 = ceilDiv(d, b);
    long[] z = new long[b];
    long sumZ = 0;
    long t = 0;
    for (int i = 0; i < b; i++) {
      z[i] = Math.max(r0, Math.negateExact(x[i]));
      sumZ = Math.addExact(sumZ, z[i]);
      t = Math.max(t, Math.abs(z[i]));
    }
    int[] sorted = order(x, ReductionOrder.ASCENDING);
    int[] live = filterReducible(sorted, sorted.length, x, z);
    int liveCount = live.length;
    int j = 0;
    while (sumZ > d && liveCount > 0) {
      long delta = sumZ - d;
      int i = live[j];
      long lowered = Math.max(z[i] - delta, Math.max(-x[i], -t));
      sumZ -= z[i] - lowered;
      z[i] = lowered;
      j = (j + 1) % liveCount;
      if (j == 0) {
        live = filterReducible(live, liveCount, x, z);
        liveCount = live.length;
        if (liveCount == 0) {
          break;
        }
        long r = Math.floorDiv(sumZ - d, liveCount);
        t = Math.addExact(t, Math.max(1, r));
      }
    }
    if (sumZ != d) {
      throw new AssertionError("Algorithm 4 left an excess of " + (sumZ - d));
    }
    return plus(x, z);
  }

  /**
   * The optimal Chebyshev distance {@code α* = min ||x − y||_∞} over {@code y ∈ ℕ₀^b, Σy = c}:
   * the smallest integer {@code α >= max(0, −min x, ⌈(c − Σx)/b⌉)} with {@code Σ max(0, x_i − α)
   * <= c} (for integer {@code α} the box {@code [max(0, x_i − α), x_i + α]} holds an integer
   * point with sum {@code c} iff its bounds bracket {@code c}).
   */
  public static long minimumDistance(long[] x, long c) {
    validate(x, c);
    long lo = 0;
    for (long v : x) {
      lo = Math.max(lo, Math.negateExact(v));
    }
    lo = Math.max(lo, ceilDiv(Math.subtractExact(c, sum(x)), x.length));
    return smallestFeasibleLevel(x, c, lo);
  }

  /** {@code ||x − y||_∞}. */
  public static long chebyshevDistance(long[] x, long[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException("lengths differ: " + x.length + " vs " + y.length);
    }
    long m = 0;
    for (int i = 0; i < x.length; i++) {
      m = Math.max(m, Math.abs(Math.subtractExact(x[i], y[i])));
    }
    return m;
  }

  /** Smallest {@code t >= lo} with {@code Σ max(0, x_i − t) <= c} (binary search). */
  private static long smallestFeasibleLevel(long[] x, long c, long lo) {
    if (excessAbove(x, lo) <= c) {
      return lo;
    }
    long hi = lo;
    for (long v : x) {
      hi = Math.max(hi, v); // excessAbove(x, max x) = 0 <= c
    }
    // invariant: excessAbove(lo) > c, excessAbove(hi) <= c
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (excessAbove(x, mid) <= c) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /** {@code Σ max(0, x_i − t)}, saturating at {@code Long.MAX_VALUE}. */
  private static long excessAbove(long[] x, long t) {
    long s = 0;
    for (long v : x) {
      if (v > t) {
        long e = v - t;
        s = s > Long.MAX_VALUE - e ? Long.MAX_VALUE : s + e;
      }
    }
    return s;
  }

  private static int[] filterReducible(int[] idx, int n, long[] x, long[] z) {
    int w = 0;
    int[] out = new int[n];
    for (int k = 0; k < n; k++) {
      int i = idx[k];
      if (z[i] > -x[i]) {
        out[w++] = i;
      }
    }
    return Arrays.copyOf(out, w);
  }

  /** Indices of {@code x} in the given order, ties broken by index (a stable sort). */
  static int[] order(long[] x, ReductionOrder order) {
    int b = x.length;
    int[] idx = new int[b];
    for (int i = 0; i < b; i++) {
      idx[i] = i;
    }
    if (order == ReductionOrder.INDEX || b == 1) {
      return idx;
    }
    boolean asc = order == ReductionOrder.ASCENDING;
    if (b <= 32) {
      for (int i = 1; i < b; i++) {
        int cur = idx[i];
        long key = x[cur];
        int j = i - 1;
        while (j >= 0 && (asc ? x[idx[j]] > key : x[idx[j]] < key)) {
          idx[j + 1] = idx[j];
          j--;
        }
        idx[j + 1] = cur;
      }
      return idx;
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long v : x) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    int bits = 32 - Integer.numberOfLeadingZeros(b - 1);
    long range = max - min; // may overflow for extreme inputs: then range < 0 and we fall back
    if (range >= 0 && range < (1L << (62 - bits))) {
      long[] keys = new long[b];
      for (int i = 0; i < b; i++) {
        long rank = asc ? x[i] - min : max - x[i];
        keys[i] = (rank << bits) | i;
      }
      Arrays.sort(keys);
      long mask = (1L << bits) - 1;
      for (int k = 0; k < b; k++) {
        idx[k] = (int) (keys[k] & mask);
      }
      return idx;
    }
    Integer[] boxed = new Integer[b];
    for (int i = 0; i < b; i++) {
      boxed[i] = i;
    }
    Arrays.sort(
        boxed,
        (p, q) -> {
          int cmp = Long.compare(x[p], x[q]);
          return cmp != 0 ? (asc ? cmp : -cmp) : Integer.compare(p, q);
        });
    for (int i = 0; i < b; i++) {
      idx[i] = boxed[i];
    }
    return idx;
  }

  static void validate(long[] x, long c) {
    Objects.requireNonNull(x, "x");
    if (x.length == 0) {
      throw new IllegalArgumentException("x must have at least one entry");
    }
    if (c < 0) {
      throw new IllegalArgumentException("the total c must be non-negative: " + c);
    }
  }

  static long sum(long[] x) {
    long s = 0;
    for (long v : x) {
      s = Math.addExact(s, v);
    }
    return s;
  }

  /** {@code ⌈a / b⌉} for {@code b > 0}. */
  static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  private static long[] plus(long[] x, long[] z) {
    long[] y = new long[x.length];
    for (int i = 0; i < x.length; i++) {
      y[i] = Math.addExact(x[i], z[i]);
    }
    return y;
  }

  @Override
  public String toString() {
    return name();
  }
}
