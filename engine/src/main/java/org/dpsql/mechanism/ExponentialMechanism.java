package org.dpsql.mechanism;

import java.util.Objects;

/**
 * The exponential mechanism (McSherry and Talwar, 2007) over a finite list of candidates, sampled
 * exactly: candidate {@code i} is returned with probability exactly {@code exp(-eta * s_i) / sum_j
 * exp(-eta * s_j)}, for rational scores {@code s_i >= 0} (the negated utility: 0 is best) and a
 * rational {@code eta > 0}.
 *
 * <p>Sampling is by rejection from the uniform distribution: draw {@code i} uniformly from the
 * candidates ({@link RandomBits#uniformBelow(long)}, exact), accept it with probability {@code
 * exp(-eta * (s_i - min_j s_j))} ({@link ExactSamplers#bernoulliExpMinus}, exact rational
 * arithmetic, no floating point), else draw again. The accepted index has exactly the target
 * distribution, since a draw is accepted with probability proportional to its target weight. A
 * minimiser is accepted with probability 1, so the expected number of draws is at most the number
 * of candidates divided by the number of minimisers. Running time is random; callers must not
 * expose it (timing side channels are out of scope, as for every sampler of this package).
 *
 * <p>Privacy: if no score moves by more than Δ between neighbouring databases, {@code eta =
 * ε/(2Δ)} makes the release ε-DP (McSherry–Talwar Thm. 6); it is then ε-bounded-range, hence
 * ε²/8-zCDP (Cesar and Rogers, "Bounding, Concentrating, and Truncating: Unifying Privacy Loss
 * Composition for Data Analytics", ALT 2021, Lemma 3.2 with Durfee–Rogers 2019).
 */
public final class ExponentialMechanism {
  private ExponentialMechanism() {}

  /**
   * An index {@code i} with probability exactly proportional to {@code exp(-eta * scores[i])}.
   *
   * @param scores at least one score, each {@code >= 0}
   * @param eta {@code > 0}
   * @throws IllegalArgumentException for no scores, a negative score or {@code eta <= 0}
   */
  public static int sample(RandomBits random, Rational[] scores, Rational eta) {
    return prepare(scores, eta).sample(random);
  }

  /**
   * The mechanism over fixed scores, with {@code eta * (s_i − min s)} computed once, for drawing
   * many independent samples (as JointExp's proposals do).
   *
   * @throws IllegalArgumentException for no scores, a negative score or {@code eta <= 0}
   */
  public static Prepared prepare(Rational[] scores, Rational eta) {
    return new Prepared(gammas(scores, eta));
  }

  /** The exponential mechanism over fixed scores; each {@link #sample} is independent and exact. */
  public static final class Prepared {
    private final Rational[] gammas;

    private Prepared(Rational[] gammas) {
      this.gammas = gammas;
    }

    /** An index {@code i} with probability exactly proportional to {@code exp(-eta * s_i)}. */
    public int sample(RandomBits random) {
      Objects.requireNonNull(random, "random");
      while (true) {
        int i = (int) random.uniformBelow(gammas.length);
        if (ExactSamplers.bernoulliExpMinus(random, gammas[i])) {
          return i;
        }
      }
    }
  }

  /** {@code eta * (s_i - min s)} for every candidate, after checking the arguments. */
  private static Rational[] gammas(Rational[] scores, Rational eta) {
    Objects.requireNonNull(scores, "scores");
    Objects.requireNonNull(eta, "eta");
    if (scores.length == 0) {
      throw new IllegalArgumentException("the exponential mechanism needs a candidate");
    }
    if (eta.signum() <= 0) {
      throw new IllegalArgumentException("eta must be positive: " + eta);
    }
    Rational min = null;
    for (Rational s : scores) {
      if (s.signum() < 0) {
        throw new IllegalArgumentException("scores must be non-negative: " + s);
      }
      min = min == null || s.compareTo(min) < 0 ? s : min;
    }
    Rational[] gammas = new Rational[scores.length];
    for (int i = 0; i < scores.length; i++) {
      gammas[i] = scores[i].subtract(min).multiply(eta);
    }
    return gammas;
  }
}
