package org.dpsql.discrete;

import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The set {@code M} of answer differences {@code mu = Q(X) - Q(X') mod (n+1)} between neighbouring
 * datasets, for a query whose answers are indexed {@code 0..n} and released by the modulo mechanism
 * {@code (Q(X) + eta) mod (n+1)} (seed paper 000, §1.2 of the spec). Only {@code M} enters the
 * design and the privacy check of a noise PMF.
 *
 * <p>Guarantee: instances are immutable and valid — {@code 1 <= n <= 100000}, {@code M} is a
 * non-empty set of integers in {@code [1, n]} (0 is never a difference), and {@code symmetric ==
 * true} only if {@code M} is closed under negation modulo {@code n+1}. A PMF that passes {@link
 * PdpChecker} for a <em>symmetric</em> neighbourhood is private under the usual symmetric neighbour
 * relation ({@code X ~ X'} iff {@code X' ~ X}). The one-sided sets of the paper ({@link
 * #singleDistance}, {@link #boundedDifference}) are {@code symmetric == false}: they exist to
 * reproduce the paper's numbers only; a PMF checked against them alone is <strong>not</strong>
 * differentially private under the symmetric relation (spec pitfall P1).
 *
 * @param n the largest answer index; answers are {@code 0..n}, arithmetic is modulo {@code n+1}
 * @param differences the differences {@code M}, each in {@code [1, n]}, unmodifiable
 * @param symmetric whether this is the neighbourhood of a symmetric neighbour relation (then {@code
 *     M} is closed under {@code mu -> n+1-mu})
 */
public record Neighbourhood(int n, SortedSet<Integer> differences, boolean symmetric) {

  /** Largest supported {@code n}. */
  public static final int MAX_N = 100_000;

  /**
   * Validates and freezes the components.
   *
   * @throws IllegalArgumentException if {@code n} is outside {@code [1, 100000]}, the set is
   *     empty or has an element outside {@code [1, n]}, or {@code symmetric} is true for a set that
   *     is not closed under negation modulo {@code n+1}
   */
  public Neighbourhood {
    checkN(n);
    Objects.requireNonNull(differences, "differences");
    TreeSet<Integer> copy = new TreeSet<>();
    for (Integer mu : differences) {
      if (mu == null || mu < 1 || mu > n) {
        throw new IllegalArgumentException(
            "difference " + mu + " outside [1, " + n + "] (0 is not a difference; use mod n+1)");
      }
      copy.add(mu);
    }
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("a neighbourhood needs at least one difference");
    }
    if (symmetric && !closedUnderNegation(n, copy)) {
      throw new IllegalArgumentException(
          "differences " + copy + " are not closed under negation mod " + (n + 1)
              + ", so they cannot describe a symmetric neighbour relation");
    }
    differences = Collections.unmodifiableSortedSet(copy);
  }

  /**
   * The paper's single-distance set {@code {mu}} (Def. 5). <strong>Reproduction only</strong>:
   * one-sided, so {@code symmetric == false} (pitfall P1).
   */
  public static Neighbourhood singleDistance(int n, int mu) {
    checkN(n);
    return new Neighbourhood(n, new TreeSet<>(Set.of(mu)), false);
  }

  /**
   * The paper's bounded-difference set {@code {1, ..., muBar}} (Def. 6). <strong>Reproduction
   * only</strong>: one-sided, so {@code symmetric == false} (pitfall P1).
   */
  public static Neighbourhood boundedDifference(int n, int muBar) {
    checkN(n);
    if (muBar < 1 || muBar > n) {
      throw new IllegalArgumentException("muBar " + muBar + " outside [1, " + n + "]");
    }
    TreeSet<Integer> m = new TreeSet<>();
    for (int mu = 1; mu <= muBar; mu++) {
      m.add(mu);
    }
    return new Neighbourhood(n, m, false);
  }

  /** The symmetric single-distance set {@code {mu, n+1-mu}} ({@code = {+-mu} mod n+1}). */
  public static Neighbourhood symmetricSingleDistance(int n, int mu) {
    checkN(n);
    if (mu < 1 || mu > n) {
      throw new IllegalArgumentException("mu " + mu + " outside [1, " + n + "]");
    }
    return new Neighbourhood(n, new TreeSet<>(Set.of(mu, n + 1 - mu)), true);
  }

  /**
   * The symmetric bounded-difference set {@code {1..k} ∪ {n+1-k..n}} ({@code = {+-1, ..., +-k}}
   * mod n+1), e.g. a SUM whose per-record contribution is bounded by {@code k}.
   */
  public static Neighbourhood symmetricBounded(int n, int k) {
    checkN(n);
    if (k < 1 || k > n) {
      throw new IllegalArgumentException("k " + k + " outside [1, " + n + "]");
    }
    TreeSet<Integer> m = new TreeSet<>();
    for (int mu = 1; mu <= k; mu++) {
      m.add(mu);
      m.add(n + 1 - mu);
    }
    return new Neighbourhood(n, m, true);
  }

  /** {@code {1, n}} ({@code = {+1, -1}} mod n+1): a COUNT under add/remove-one neighbours. */
  public static Neighbourhood addRemoveOne(int n) {
    return symmetricSingleDistance(n, 1);
  }

  /**
   * The set {@code m} as given; {@code symmetric} is true exactly when {@code m} happens to be
   * closed under negation modulo {@code n+1}.
   */
  public static Neighbourhood of(int n, Set<Integer> m) {
    return of(n, m, false);
  }

  /**
   * The set {@code m}, closed under negation modulo {@code n+1} first when {@code
   * closeUnderNegation} (then the result is symmetric).
   */
  public static Neighbourhood of(int n, Set<Integer> m, boolean closeUnderNegation) {
    checkN(n);
    Objects.requireNonNull(m, "m");
    TreeSet<Integer> set = new TreeSet<>();
    for (Integer mu : m) {
      if (mu == null || mu < 1 || mu > n) {
        throw new IllegalArgumentException("difference " + mu + " outside [1, " + n + "]");
      }
      set.add(mu);
      if (closeUnderNegation) {
        set.add(n + 1 - mu);
      }
    }
    return new Neighbourhood(n, set, closedUnderNegation(n, set));
  }

  /** The symmetric closure {@code M ∪ (-M)} of this set. */
  public Neighbourhood symmetricClosure() {
    return of(n, differences, true);
  }

  /** Whether {@code mu} (taken modulo {@code n+1}) is a difference of this neighbourhood. */
  public boolean contains(int mu) {
    int m = Math.floorMod(mu, n + 1);
    return m != 0 && differences.contains(m);
  }

  /** Whether {@code M} is closed under {@code mu -> n+1-mu}. */
  public boolean isClosedUnderNegation() {
    return closedUnderNegation(n, differences);
  }

  /** The differences as an int array in increasing order. */
  public int[] toArray() {
    return differences.stream().mapToInt(Integer::intValue).toArray();
  }

  private static boolean closedUnderNegation(int n, Set<Integer> m) {
    for (int mu : m) {
      if (!m.contains(n + 1 - mu)) {
        return false;
      }
    }
    return true;
  }

  static void checkN(int n) {
    if (n < 1 || n > MAX_N) {
      throw new IllegalArgumentException("n " + n + " outside [1, " + MAX_N + "]");
    }
  }
}
