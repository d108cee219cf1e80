package org.dpsql.hierarchy;

import java.util.Arrays;

/**
 * The TDA_ℓ2 post-processing (Census TopDown with the Euclidean objective, the paper's baseline):
 * the non-negative least-squares fit with the parent's sum, then rounding and redistribution.
 *
 * <ol>
 *   <li>Real projection: {@code ŷ = argmin ||y − x||₂ s.t. y >= 0, Σy = c}, the Euclidean
 *       projection onto the scaled simplex, computed exactly by the sort-based method (Held, Wolfe
 *       &amp; Crowder 1974; Duchi et al. 2008): with {@code s} the values sorted descending and
 *       {@code P_j} their prefix sums, {@code k = max{j : j·s_j − P_j + c > 0}}, {@code θ = (P_k −
 *       c)/k} and {@code ŷ_i = max(x_i − θ, 0)} — all in exact rational arithmetic ({@code θ} is a
 *       fraction with denominator {@code k}); no solver is needed.
 *   <li>Rounding half up to integers {@code r_i}.
 *   <li>Redistribution as in the authors' published implementation: if {@code Σr < c}, add 1 to the
 *       {@code c − Σr} largest entries; if {@code Σr > c}, subtract 1 from the {@code Σr − c}
 *       smallest non-zero entries (eliminating small values first); ties by index.
 * </ol>
 *
 * <p>Guarantees: the {@link ConsistencyProjection} contract (non-negative integers, sum {@code c});
 * every entry is within 1 of the rounded real projection, hence within 1.5 of {@code ŷ} (rounding
 * changes the sum by at most half the number of non-zero entries, so one round of ±1 suffices).
 * {@code O(b log b)}, exact integer arithmetic.
 */
public final class SimplexL2Projection implements ConsistencyProjection {
  private static final SimplexL2Projection INSTANCE = new SimplexL2Projection();

  private SimplexL2Projection() {}

  /** The projection. */
  public static SimplexL2Projection instance() {
    return INSTANCE;
  }

  @Override
  public String name() {
    return "L2-simplex+round";
  }

  @Override
  public long[] project(long[] x, long c) {
    IntOpt.validate(x, c);
    int b = x.length;
    long[] r = new long[b];
    if (c == 0) {
      return r;
    }
    // Step 1: θ = num/k.
    long[] theta = threshold(x, c);
    long num = theta[0];
    long k = theta[1];
    // Step 2: r_i = round_half_up(max(x_i − num/k, 0)) = floor((2(x_i k − num) + k) / (2k)).
    long sumR = 0;
    for (int i = 0; i < b; i++) {
      long scaled = Math.subtractExact(Math.multiplyExact(x[i], k), num); // k·ŷ_i when positive
      if (scaled > 0) {
        r[i] = Math.floorDiv(Math.addExact(Math.multiplyExact(2, scaled), k), 2 * k);
      }
      sumR = Math.addExact(sumR, r[i]);
    }
    // Step 3: redistribution.
    long diff = c - sumR;
    while (diff != 0) {
      if (diff > 0) {
        int[] idx = IntOpt.order(r, ReductionOrder.DESCENDING);
        for (int q = 0; q < b && diff > 0; q++) {
          r[idx[q]]++;
          diff--;
        }
      } else {
        int[] idx = IntOpt.order(r, ReductionOrder.ASCENDING);
        for (int q = 0; q < b && diff < 0; q++) {
          if (r[idx[q]] > 0) {
            r[idx[q]]--;
            diff++;
          }
        }
      }
    }
    return r;
  }

  /**
   * The exact real projection {@code ŷ} as fractions {@code ŷ_i = num_i / k}: returns {@code k} in
   * slot {@code b} and the numerators in slots {@code 0..b-1} (for tests).
   */
  static long[] realProjectionNumerators(long[] x, long c) {
    IntOpt.validate(x, c);
    int b = x.length;
    long[] out = new long[b + 1];
    if (c == 0) {
      out[b] = 1;
      return out;
    }
    long[] theta = threshold(x, c);
    long num = theta[0];
    long k = theta[1];
    for (int i = 0; i < b; i++) {
      out[i] = Math.max(0, x[i] * k - num);
    }
    out[b] = k;
    return out;
  }

  /**
   * The projection's threshold {@code θ = num/k} for {@code c > 0}, as {@code {num, k}}: {@code k}
   * is the largest {@code j} with {@code j·s_j − P_j + c > 0} over the values sorted descending
   * ({@code P_j} their prefix sums), and {@code num = P_k − c}. {@code k ≥ 1} always: for {@code
   * j = 1} the condition is {@code c > 0}. Exact: overflow throws {@link ArithmeticException}.
   */
  private static long[] threshold(long[] x, long c) {
    int b = x.length;
    long[] s = x.clone();
    Arrays.sort(s);
    long prefix = 0;
    long num = 0;
    long k = 0;
    for (int j = 1; j <= b; j++) {
      long sj = s[b - j];
      prefix = Math.addExact(prefix, sj);
      if (Math.addExact(Math.subtractExact(Math.multiplyExact(j, sj), prefix), c) > 0) {
        k = j;
        num = Math.subtractExact(prefix, c);
      }
    }
    return new long[] {num, k};
  }

  @Override
  public String toString() {
    return name();
  }
}
