package org.dpsql.discrete;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;

/**
 * Closed-form noise PMFs of seed paper 000 for the modulo mechanism, error-rate (ER) objective.
 * Methods returning {@code double[]} give the real-valued masses {@code f(0..n)} (exact formulas,
 * evaluated in double precision); methods ending in {@code Pmf} return the {@link NoisePmf} that
 * is actually sampled, certified by the exact checker (see below).
 *
 * <p>What each result guarantees (for the neighbourhood named; a one-sided set gives <em>no</em>
 * privacy under a symmetric neighbour relation — spec pitfall P1):
 *
 * <ul>
 *   <li>{@link #lemma3}: {@code (eps, 0)}-PDP and ER-optimal for the one-sided single distance
 *       {@code {muHat}} (any {@code gcd}; non-coprime case with the orbit length {@code N_mu}).
 *   <li>{@link #theorem2}: {@code (eps, delta)}-PDP and ER-optimal for {@code {muHat}} (Thm. 2;
 *       for {@code gcd(muHat, n+1) > 1}, {@code n+1} is replaced by {@code N_mu}, pitfall P6).
 *       Cross-checked against an independent MILP (HiGHS) for every {@code n <= 12}, every
 *       {@code muHat}, {@code eps in {0.5, 0.75, 1.5}} and 41 values of {@code delta}: equal
 *       {@code f(0)} to the solver's tolerance ({@code 2e-6}).
 *   <li>{@link #lemma4}: {@code (eps, 0)}-PDP and ER-optimal for the one-sided bounded difference
 *       {@code {1..muBar}} (staircase).
 *   <li>{@link #theorem3}: {@code (eps, delta)}-PDP for {@code {1..muBar}} where {@link
 *       #isTheorem3Valid} (see there). The paper claims ER-optimality; this is <strong>not</strong>
 *       true everywhere (see {@link #theorem3}).
 *   <li>{@link #deltaZeroOptimal}, {@link #symmetricSingleDistance}, {@link #symmetricBounded}:
 *       {@code (eps, 0)}-PDP and ER-optimal for any neighbourhood, in particular the symmetric ones
 *       to use in production (proof at {@link #deltaZeroOptimal}).
 * </ul>
 *
 * <p>Quantised PMFs ({@code ...Pmf} methods) are <strong>certified</strong>: rounding to numerators
 * over {@code 2^62} moves each mass by less than {@code 2^-62}, which could turn a ratio that is
 * exactly {@code e^eps} in the real solution into a violation; so each {@code ...Pmf} method
 * designs at {@code eps' = eps (1 - margin)}, {@code delta' = delta (1 - margin)} (every tight ratio
 * then keeps a relative slack of about {@code margin eps}), quantises, and runs {@link
 * PdpChecker} at the requested {@code (eps, delta)} for the neighbourhood of the method, trying
 * the margins of {@link #MARGINS} (1e-9 up to 1e-2) in turn. The returned PMF passes that exact check (its
 * {@code f(0)} is below the real optimum by about {@code margin} relative); if no margin works,
 * because the smallest masses are too close to {@code 2^-62} to keep their ratios (large {@code n
 * eps}, pitfall P10), it throws {@link IllegalStateException} instead of returning a PMF that
 * fails.
 */
public final class ClosedForms {

  /** Relative design margins tried in turn by the {@code ...Pmf} methods (smallest first). */
  static final double[] MARGINS = {1e-9, 1e-7, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3, 1e-2};

  private ClosedForms() {}

  // ------------------------------------------------------------------ single distance, delta = 0

  /** {@code N_mu = (n+1) / gcd(n+1, muHat)}: the size of the orbit {@code {h muHat mod (n+1)}}. */
  public static int orbitLength(int n, int muHat) {
    checkNMu(n, muHat, "muHat");
    return (n + 1) / gcd(n + 1, muHat);
  }

  /**
   * Lemma 3 (SD, {@code delta = 0}): {@code f(h muHat mod (n+1)) = f(0) e^{-h eps}} for {@code h
   * in [0, N_mu - 1]}, 0 off the orbit, {@code f(0) = (1 - e^-eps) / (1 - e^{-N_mu eps})}. Both
   * cases of the lemma ({@code N_mu = n+1} when coprime). Optimal for the one-sided {@code
   * {muHat}} only (reproduction; P1).
   */
  public static double[] lemma3(int n, int muHat, double eps) {
    checkNMu(n, muHat, "muHat");
    checkEps(eps);
    return sortedToMasses(n, muHat, geometric(orbitLength(n, muHat), eps));
  }

  /** {@code f*(0)} of Lemma 3: {@code (1 - e^-eps) / (1 - e^{-N_mu eps})}. */
  public static double lemma3F0(int n, int muHat, double eps) {
    checkNMu(n, muHat, "muHat");
    checkEps(eps);
    return truncatedGeometricF0(orbitLength(n, muHat), eps);
  }

  /**
   * {@link #lemma3} quantised and certified by the exact checker for the same neighbourhood at the
   * requested parameters (see the class comment).
   *
   * @throws IllegalStateException if no quantisation passes (P10)
   */
  public static NoisePmf lemma3Pmf(int n, int muHat, double eps) {
    checkNMu(n, muHat, "muHat");
    return certified(
        margin -> lemma3(n, muHat, eps * (1 - margin)), Neighbourhood.singleDistance(n, muHat), eps, 0);
  }

  // ------------------------------------------------------------------ single distance, delta > 0

  /**
   * Breakpoint {@code deltaBar_k} of eq. (19) with {@code n} replaced by {@code m = N_mu - 1}
   * (pitfall P6): {@code e^{-(m-k-1) eps} (1 - e^-eps) / (1 - e^{-(m-k+1) eps})} for {@code k in
   * [0, m-1]}, and 1 for {@code k = m}. Flat region {@code k} ends at {@code deltaBar_k}.
   */
  public static double deltaBar(int n, int muHat, double eps, int k) {
    int m = orbitLength(n, muHat) - 1;
    checkEps(eps);
    checkK(k, m);
    if (k == m) {
      return 1;
    }
    return Math.exp(-(m - k - 1) * eps) * -Math.expm1(-eps) / -Math.expm1(-(m - k + 1) * eps);
  }

  /**
   * Breakpoint {@code deltaUnder_k} of eq. (19), {@code m = N_mu - 1}: 0 for {@code k = 0}, else
   * {@code e^{-(m-k) eps} (1 - e^-eps) / (1 - e^{-(m-k+1) eps})}. Flat region {@code k} starts
   * at {@code deltaUnder_k}; linear region {@code k} is {@code (deltaBar_{k-1}, deltaUnder_k)}.
   */
  public static double deltaUnder(int n, int muHat, double eps, int k) {
    int m = orbitLength(n, muHat) - 1;
    checkEps(eps);
    checkK(k, m);
    if (k == 0) {
      return 0;
    }
    return Math.exp(-(m - k) * eps) * -Math.expm1(-eps) / -Math.expm1(-(m - k + 1) * eps);
  }

  /**
   * Theorem 2 (SD, {@code 0 <= delta <= 1}): the ER-optimal {@code (eps, delta)}-PDP PMF for the
   * one-sided {@code {muHat}}, sorted along the orbit {@code eta_(h) = h muHat mod (n+1)}: flat
   * region {@code k} (eq. 20) {@code f_(h) = f(0) e^{-h eps}}, {@code h <= m-k}, with {@code f(0)
   * = (1 - e^-eps)/(1 - e^{-(m-k+1) eps})}; linear region {@code k} (eq. 21) {@code f_(h) = delta
   * e^{(m-k-h) eps}} for {@code h <= m-k} and {@code e^{(m-h) eps} (e^eps - 1)/(e^{k eps} - 1) (1
   * - delta/deltaUnder_k)} above; {@code m = N_mu - 1}, masses off the orbit are 0. In linear
   * regions the optimum is not unique (only {@code f(0)} is, P9).
   */
  public static double[] theorem2(int n, int muHat, double eps, double delta) {
    checkNMu(n, muHat, "muHat");
    checkEps(eps);
    checkDelta(delta);
    int nOrbit = orbitLength(n, muHat);
    int m = nOrbit - 1;
    double[] sorted = new double[nOrbit];
    for (int k = 0; k <= m; k++) {
      if (k > 0 && delta < deltaUnder(n, muHat, eps, k)) { // linear region k
        double du = deltaUnder(n, muHat, eps, k);
        double logDelta = Math.log(delta);
        for (int h = 0; h <= m - k; h++) {
          sorted[h] = positive(Math.exp(logDelta + (m - k - h) * eps));
        }
        double c = Math.expm1(eps) / -Math.expm1(-k * eps) * (1 - delta / du);
        for (int h = m - k + 1; h <= m; h++) {
          int j = h - (m - k + 1);
          sorted[h] = c * Math.exp(-(j + 1) * eps);
        }
        return sortedToMasses(n, muHat, sorted);
      }
      if (delta <= deltaBar(n, muHat, eps, k)) { // flat region k
        double[] g = geometric(m - k + 1, eps);
        System.arraycopy(g, 0, sorted, 0, g.length);
        return sortedToMasses(n, muHat, sorted);
      }
    }
    throw new IllegalStateException("unreachable: deltaBar_m = 1");
  }

  /** {@code f*(0)} of Theorem 2 (flat: {@code (1-e^-eps)/(1-e^{-(m-k+1)eps})}; linear: {@code delta e^{(m-k)eps}}). */
  public static double theorem2F0(int n, int muHat, double eps, double delta) {
    return theorem2(n, muHat, eps, delta)[0];
  }

  /**
   * {@link #theorem2} quantised and certified by the exact checker for the same neighbourhood at the
   * requested parameters (see the class comment).
   *
   * @throws IllegalStateException if no quantisation passes (P10)
   */
  public static NoisePmf theorem2Pmf(int n, int muHat, double eps, double delta) {
    checkDelta(delta);
    checkNMu(n, muHat, "muHat");
    return certified(
        margin -> theorem2(n, muHat, eps * (1 - margin), delta * (1 - margin)),
        Neighbourhood.singleDistance(n, muHat), eps, delta);
  }

  // ------------------------------------------------------------------ bounded difference

  /**
   * Lemma 4 (BD, {@code delta = 0}): the staircase {@code f(eta) = phi_0 e^{-i eps}} for {@code
   * (i-1) muBar < eta <= min(i muBar, n)}, {@code phi_0 = (1 + muBar sum_{i=1}^b e^{-i eps} + r
   * e^{-(b+1) eps})^-1} (eqs. 28-29), {@code n = b muBar + r}. Optimal for the one-sided {@code
   * {1..muBar}} only (reproduction; P1).
   */
  public static double[] lemma4(int n, int muBar, double eps) {
    checkNMu(n, muBar, "muBar");
    checkEps(eps);
    return staircase(lemma4Lengths(n, muBar), eps);
  }

  /** {@code phi_0} of Lemma 4 (eq. 29). */
  public static double lemma4F0(int n, int muBar, double eps) {
    return lemma4(n, muBar, eps)[0];
  }

  /**
   * {@link #lemma4} quantised and certified by the exact checker for the same neighbourhood at the
   * requested parameters (see the class comment).
   *
   * @throws IllegalStateException if no quantisation passes (P10)
   */
  public static NoisePmf lemma4Pmf(int n, int muBar, double eps) {
    checkNMu(n, muBar, "muBar");
    return certified(
        margin -> lemma4(n, muBar, eps * (1 - margin)), Neighbourhood.boundedDifference(n, muBar), eps, 0);
  }

  /**
   * Whether {@link #theorem3} applies: {@code b + r < muBar} (the theorem's own condition, P7)
   * <strong>and</strong> {@code b <= 3}. The second condition is ours: for {@code b >= 4} the
   * printed group lengths (31) of a flat region {@code (h, j)} with {@code j < h - 1} (possible
   * once {@code h >= 3}) contain {@code h - 1} short groups and so {@code h - 1 > j} violating
   * masses, more leakage than the printed {@code deltaUnder_{h,j}} (e.g. {@code n = 20, muBar =
   * 5, eps = 1}, region (3,1), lengths (1,5,4,5,4,2)): the printed theorem is inconsistent there.
   */
  public static boolean isTheorem3Valid(int n, int muBar) {
    checkNMu(n, muBar, "muBar");
    int b = n / muBar;
    int r = n % muBar;
    return b + r < muBar && b <= 3;
  }

  /**
   * Group lengths (31) of flat region {@code (h, j)} of Theorem 3, {@code h in [1, b-1]}, {@code j
   * in [1, h]}; {@code (0, 0)} gives Lemma 4's lengths. Entry {@code i} has mass {@code phi_0
   * e^{-i eps}}.
   */
  public static int[] theorem3FlatLengths(int n, int muBar, int h, int j) {
    checkNMu(n, muBar, "muBar");
    int b = n / muBar;
    int r = n % muBar;
    if (h == 0 && j == 0) {
      return lemma4Lengths(n, muBar);
    }
    if (h < 1 || h > b - 1 || j < 1 || j > h) {
      throw new IllegalArgumentException("(h, j) = (" + h + ", " + j + ") outside the theorem");
    }
    int u = j != h ? 1 : 0;
    int[] l = new int[b + 2];
    l[0] = 1;
    for (int i = 1; i <= b - h; i++) {
      l[i] = muBar;
    }
    for (int i = b - h + 1; i <= b; i++) {
      l[i] = (i == b - h + j + 1 && j != h) ? muBar : muBar - 1;
    }
    l[b + 1] = r + h - u;
    return l;
  }

  /** {@code phi_0^k = 1 / sum_i l_i e^{-i eps}} of flat region {@code (h, j)} (eq. 34, P5). */
  public static double theorem3Phi0(int n, int muBar, double eps, int h, int j) {
    checkEps(eps);
    return staircase(theorem3FlatLengths(n, muBar, h, j), eps)[0];
  }

  /**
   * Upper end {@code deltaBar_{h,j}} of flat region {@code (h, j)} (eq. 37): {@code phi_0^k
   * e^{-(b-h) eps} xi_{j+1}} for {@code j < h}, {@code phi_0^k e^{-(b-h-1) eps}} for {@code j =
   * h}, and {@code phi_0 e^{-(b-1) eps}} for {@code (0, 0)}; {@code xi_a = sum_{i<a} e^{-i eps}}.
   */
  public static double theorem3DeltaBar(int n, int muBar, double eps, int h, int j) {
    int b = n / muBar;
    double phi = theorem3Phi0(n, muBar, eps, h, j);
    if (h == 0) {
      return phi * Math.exp(-(b - 1) * eps);
    }
    if (j < h) {
      return phi * Math.exp(-(b - h) * eps) * xi(j + 1, eps);
    }
    return phi * Math.exp(-(b - h - 1) * eps);
  }

  /** Lower end {@code deltaUnder_{h,j} = phi_0^k e^{-(b-h) eps} xi_j} of flat region {@code (h, j)} (eq. 37c). */
  public static double theorem3DeltaUnder(int n, int muBar, double eps, int h, int j) {
    if (h == 0 && j == 0) {
      return 0;
    }
    int b = n / muBar;
    return theorem3Phi0(n, muBar, eps, h, j) * Math.exp(-(b - h) * eps) * xi(j, eps);
  }

  /**
   * Theorem 3 (BD, {@code 0 <= delta <= 1}, only where {@link #isTheorem3Valid}): an {@code (eps,
   * delta)}-PDP PMF for the one-sided {@code {1..muBar}} (reading A of the MILP: the violating
   * masses together are at most {@code delta}, so also per {@code mu}).
   *
   * <ul>
   *   <li>{@code delta <= deltaBar_{0,0}}: Lemma 4.
   *   <li>flat region {@code (h, j)}: staircase with lengths (31) and {@code phi_0^k} of (34).
   *   <li>linear region {@code (deltaBar_{h,j-1}, deltaUnder_{h,j})}: {@code f(0) = delta
   *       e^{(b-h) eps}/xi_j} as in (39). The group lengths (38) as extracted do not sum to {@code
   *       n+1} for {@code j < h} and, completed, leak more than {@code delta} (e.g. {@code (16, 5,
   *       1)}, region (2,1)); we use instead the flat-region {@code (h, j)} staircase with its
   *       groups {@code i < b-h+j} scaled to that {@code f(0)} and the remaining groups scaled up
   *       to normalise: same {@code f(0)}, leakage at most {@code delta} (checked exactly in the
   *       tests for every valid {@code n <= 40}).
   *   <li>{@code delta > deltaBar_{b-1,b-1}}: {@code f(0) = delta}, {@code f(eta) = (1-delta)/n}
   *       (eqs. 40-41).
   * </ul>
   *
   * <p>Optimality caveat: the paper states these PMFs are ER-optimal. An independent MILP (reading
   * A, HiGHS) agrees on part of the range (e.g. all regions with {@code h = 1} of {@code (16, 5,
   * 1)}, {@code (9, 4, 1)} for {@code delta <= 0.23}) but finds better PMFs elsewhere, typically
   * staircases truncated by zeros: for {@code (n, muBar, eps) = (4, 3, 1.5)} and {@code delta in
   * [0.401, 0.58]} the PMF {@code (0.599021, 0.133660 x3, 0)} is {@code (1.5, 0.401)}-PDP with a
   * larger {@code f(0)} than this theorem's {@code 0.581673}. Use the MILP designer for optimal
   * PMFs; use this for reproduction and as a private fallback.
   *
   * @throws IllegalArgumentException if {@code !isTheorem3Valid(n, muBar)} (P7; use the MILP)
   */
  public static double[] theorem3(int n, int muBar, double eps, double delta) {
    checkNMu(n, muBar, "muBar");
    checkEps(eps);
    checkDelta(delta);
    if (!isTheorem3Valid(n, muBar)) {
      throw new IllegalArgumentException(
          "Theorem 3 needs b + r < muBar (and b <= 3, see isTheorem3Valid); n=" + n + ", muBar="
              + muBar + " gives b=" + (n / muBar) + ", r=" + (n % muBar) + "; use the MILP");
    }
    int b = n / muBar;
    if (delta <= theorem3DeltaBar(n, muBar, eps, 0, 0)) {
      return lemma4(n, muBar, eps);
    }
    for (int h = 1; h <= b - 1; h++) {
      for (int j = 1; j <= h; j++) {
        int[] l = theorem3FlatLengths(n, muBar, h, j);
        if (delta < theorem3DeltaUnder(n, muBar, eps, h, j)) { // linear region (h, j)
          double f0 = delta * Math.exp((b - h) * eps) / xi(j, eps);
          int cut = b - h + j; // groups 0..cut-1 keep f0 e^{-i eps}; the rest absorb the slack
          double top = 0;
          double bottom = 0;
          for (int i = 0; i < l.length; i++) {
            double w = l[i] * Math.exp(-i * eps);
            if (i < cut) {
              top += w;
            } else {
              bottom += w;
            }
          }
          double scale = (1 - f0 * top) / bottom;
          double[] f = new double[n + 1];
          int eta = 0;
          for (int i = 0; i < l.length; i++) {
            double v = positive((i < cut ? f0 : scale) * Math.exp(-i * eps));
            for (int c = 0; c < l[i]; c++) {
              f[eta++] = v;
            }
          }
          return f;
        }
        if (delta <= theorem3DeltaBar(n, muBar, eps, h, j)) { // flat region (h, j)
          return staircase(l, eps);
        }
      }
    }
    double[] f = new double[n + 1];
    Arrays.fill(f, (1 - delta) / n);
    f[0] = delta;
    return f;
  }

  /** {@code f(0)} of {@link #theorem3}. */
  public static double theorem3F0(int n, int muBar, double eps, double delta) {
    return theorem3(n, muBar, eps, delta)[0];
  }

  /**
   * {@link #theorem3} quantised and certified by the exact checker for the same neighbourhood at the
   * requested parameters (see the class comment).
   *
   * @throws IllegalStateException if no quantisation passes (P10)
   */
  public static NoisePmf theorem3Pmf(int n, int muBar, double eps, double delta) {
    checkDelta(delta);
    checkNMu(n, muBar, "muBar");
    return certified(
        margin -> theorem3(n, muBar, eps * (1 - margin), delta * (1 - margin)),
        Neighbourhood.boundedDifference(n, muBar), eps, delta);
  }

  // ------------------------------------------------------------------ any neighbourhood, delta = 0

  /**
   * The ER-optimal {@code (eps, 0)}-PDP PMF for any neighbourhood {@code M}: {@code f(eta) = f(0)
   * e^{-eps d(eta)}}, where {@code d(eta)} is the least number of steps from 0 to {@code eta} with
   * steps in {@code M} (mod {@code n+1}), and {@code f(eta) = 0} if {@code eta} is unreachable.
   *
   * <p>Proof. The constraints are {@code f(x + mu) >= e^-eps f(x)} for all {@code x}, {@code mu in
   * M}; along a shortest path they give {@code f(eta) >= f(0) e^{-eps d(eta)}} for every feasible
   * {@code f}. Conversely the PMF above is feasible: if {@code x} is unreachable {@code f(x) = 0};
   * otherwise {@code d(x + mu) <= d(x) + 1}, so {@code f(x) <= e^eps f(x + mu)}. It is therefore
   * the pointwise smallest feasible shape for a given {@code f(0)}, so normalising it gives the
   * largest {@code f(0)}, i.e. the least error rate. For {@code {muHat}} this is Lemma 3, for
   * {@code {1..muBar}} Lemma 4, for {@code {+-1}} the circular geometric {@code e^{-eps min(k,
   * n+1-k)}} (P1), for {@code {+-1..+-k}} the symmetric staircase {@code e^{-eps ceil(min(k',
   * n+1-k')/k)}}. Cost {@code O(n |M|)}.
   */
  public static double[] deltaZeroOptimal(Neighbourhood m, double eps) {
    Objects.requireNonNull(m, "m");
    checkEps(eps);
    int len = m.n() + 1;
    int[] dist = new int[len];
    Arrays.fill(dist, -1);
    dist[0] = 0;
    int[] steps = m.toArray();
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(0);
    while (!queue.isEmpty()) {
      int x = queue.poll();
      for (int mu : steps) {
        int y = x + mu;
        if (y >= len) {
          y -= len;
        }
        if (dist[y] < 0) {
          dist[y] = dist[x] + 1;
          queue.add(y);
        }
      }
    }
    int maxD = 0;
    for (int d : dist) {
      maxD = Math.max(maxD, d);
    }
    long[] count = new long[maxD + 1];
    for (int d : dist) {
      if (d >= 0) {
        count[d]++;
      }
    }
    double z = 0; // sum_d count_d e^{-eps d}, summed from the small terms up
    for (int d = maxD; d >= 0; d--) {
      z += count[d] * Math.exp(-eps * d);
    }
    double logZ = Math.log(z);
    double[] f = new double[len];
    for (int x = 0; x < len; x++) {
      if (dist[x] >= 0) {
        f[x] = positive(Math.exp(-eps * dist[x] - logZ));
      }
    }
    return f;
  }

  /**
   * {@link #deltaZeroOptimal} quantised and certified by the exact checker for the same neighbourhood at the
   * requested parameters (see the class comment).
   *
   * @throws IllegalStateException if no quantisation passes (P10)
   */
  public static NoisePmf deltaZeroOptimalPmf(Neighbourhood m, double eps) {
    Objects.requireNonNull(m, "m");
    return certified(margin -> deltaZeroOptimal(m, eps * (1 - margin)), m, eps, 0);
  }

  /**
   * The ER-optimal {@code (eps, 0)}-PDP PMF for the symmetric single distance {@code M = {+-1} =
   * {1, n}} (a COUNT with add/remove-one neighbours): {@code f(k) = f(0) e^{-eps min(k, n+1-k)}}
   * (P1; proof at {@link #deltaZeroOptimal}).
   */
  public static double[] symmetricSingleDistance(int n, double eps) {
    return deltaZeroOptimal(Neighbourhood.addRemoveOne(n), eps);
  }

  /**
   * The ER-optimal {@code (eps, 0)}-PDP PMF for the symmetric bounded difference {@code M = {+-1,
   * ..., +-k}}: the symmetric staircase {@code f(x) = f(0) e^{-eps ceil(min(x, n+1-x) / k)}}
   * (proof at {@link #deltaZeroOptimal}: on the circle, {@code d(x) = ceil(min(x, n+1-x)/k)}).
   */
  public static double[] symmetricBounded(int n, int k, double eps) {
    return deltaZeroOptimal(Neighbourhood.symmetricBounded(n, k), eps);
  }

  // ------------------------------------------------------------------ helpers and limits

  /**
   * The staircase with the given group lengths: group {@code i} (the next {@code lengths[i]}
   * values of {@code eta}, starting at 0) has mass {@code phi_0 e^{-i eps}}, normalised. Used for
   * Lemma 4, Theorem 3's flat regions and Fig. 10's patterns. Zero-length groups are allowed.
   */
  public static double[] staircase(int[] lengths, double eps) {
    Objects.requireNonNull(lengths, "lengths");
    checkEps(eps);
    int total = 0;
    for (int l : lengths) {
      if (l < 0) {
        throw new IllegalArgumentException("negative group length");
      }
      total += l;
    }
    Neighbourhood.checkN(total - 1);
    double z = 0;
    for (int i = lengths.length - 1; i >= 0; i--) {
      z += lengths[i] * Math.exp(-i * eps);
    }
    double logZ = Math.log(z);
    double[] f = new double[total];
    int eta = 0;
    for (int i = 0; i < lengths.length; i++) {
      double v = positive(Math.exp(-i * eps - logZ));
      for (int c = 0; c < lengths[i]; c++) {
        f[eta++] = v;
      }
    }
    return f;
  }

  /** Limit of Lemma 3's {@code f*(0)} as {@code n -> infinity}: {@code 1 - e^-eps} (item 11). */
  public static double sdLimitF0(double eps) {
    checkEps(eps);
    return -Math.expm1(-eps);
  }

  /** Limit of Lemma 4's {@code phi_0} as {@code n -> infinity} (eq. 46): {@code (1 + muBar e^-eps/(1 - e^-eps))^-1}. */
  public static double bdLimitF0(int muBar, double eps) {
    checkEps(eps);
    if (muBar < 1) {
      throw new IllegalArgumentException("muBar must be >= 1");
    }
    return 1 / (1 + muBar * Math.exp(-eps) / -Math.expm1(-eps));
  }

  static int[] lemma4Lengths(int n, int muBar) {
    int b = n / muBar;
    int r = n % muBar;
    int[] l = new int[b + 2];
    l[0] = 1;
    for (int i = 1; i <= b; i++) {
      l[i] = muBar;
    }
    l[b + 1] = r;
    return l;
  }

  /** {@code xi_a = sum_{i=0}^{a-1} e^{-i eps}}. */
  static double xi(int a, double eps) {
    double s = 0;
    for (int i = a - 1; i >= 0; i--) {
      s += Math.exp(-i * eps);
    }
    return s;
  }

  /** {@code (1 - e^-eps) / (1 - e^{-len eps})}. */
  private static double truncatedGeometricF0(int len, double eps) {
    return -Math.expm1(-eps) / -Math.expm1(-len * eps);
  }

  /** {@code g(h) = f0 e^{-h eps}}, {@code h < len}, normalised. */
  private static double[] geometric(int len, double eps) {
    double logF0 = Math.log(truncatedGeometricF0(len, eps));
    double[] g = new double[len];
    for (int h = 0; h < len; h++) {
      g[h] = positive(Math.exp(logF0 - h * eps));
    }
    return g;
  }

  /** Places sorted orbit masses at {@code eta = h muHat mod (n+1)}. */
  private static double[] sortedToMasses(int n, int muHat, double[] sorted) {
    double[] f = new double[n + 1];
    for (int h = 0; h < sorted.length; h++) {
      f[(int) ((long) h * muHat % (n + 1))] = sorted[h];
    }
    return f;
  }

  /**
   * A mass that is positive in exact arithmetic but underflowed to 0 becomes {@link
   * Double#MIN_NORMAL}: an underflowed zero would be kept as an intended zero by {@link
   * NoisePmf#quantize} and break a {@code delta = 0} guarantee (P10). (Such a PMF still fails the
   * exact check, as every mass below about {@code 2^-62} does, but it fails visibly.)
   */
  private static double positive(double v) {
    return v > 0 ? v : Double.MIN_NORMAL;
  }

  /**
   * Designs with the smallest margin in {@link #MARGINS} whose quantised PMF passes the exact
   * check at {@code (eps, delta)} for {@code m}.
   */
  private static NoisePmf certified(
      java.util.function.DoubleFunction<double[]> design, Neighbourhood m, double eps, double delta) {
    checkEps(eps);
    checkDelta(delta);
    // the exact values of the doubles
    return certified(design, m, new BigDecimal(eps), new BigDecimal(delta));
  }

  /**
   * As above at exact decimal (ε, δ): the smallest margin whose quantised design is exactly
   * (ε, δ)-PDP for {@code m}. Shared with {@link OptimalPmfLibrary}'s solver designs.
   */
  static NoisePmf certified(java.util.function.DoubleFunction<double[]> design, Neighbourhood m,
      BigDecimal e, BigDecimal d) {
    double eps = e.doubleValue();
    double delta = d.doubleValue();
    BigDecimal achieved = null;
    for (double margin : MARGINS) {
      NoisePmf f = NoisePmf.quantize(design.apply(margin));
      achieved = PdpChecker.delta(f, m, e);
      if (achieved.compareTo(d) <= 0) {
        return f;
      }
    }
    throw new IllegalStateException(
        "no quantisation to 2^-62 of this PMF is (" + eps + ", " + delta + ")-private for "
            + m.differences() + " mod " + (m.n() + 1) + " (delta " + achieved.doubleValue()
            + " even with margin " + MARGINS[MARGINS.length - 1]
            + "): its smallest masses are too small to keep their ratios (P10)");
  }

  private static int gcd(int a, int b) {
    while (b != 0) {
      int t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  private static void checkNMu(int n, int mu, String name) {
    Neighbourhood.checkN(n);
    if (mu < 1 || mu > n) {
      throw new IllegalArgumentException(name + " " + mu + " outside [1, " + n + "]");
    }
  }

  private static void checkK(int k, int m) {
    if (k < 0 || k > m) {
      throw new IllegalArgumentException("k " + k + " outside [0, " + m + "]");
    }
  }

  static void checkEps(double eps) {
    if (!(eps > 0) || Double.isInfinite(eps)) {
      throw new IllegalArgumentException("epsilon must be finite and > 0: " + eps);
    }
  }

  static void checkDelta(double delta) {
    if (!(delta >= 0 && delta <= 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1]: " + delta);
    }
  }
}
