package org.dpsql.audit;

import java.util.TreeSet;

/**
 * A statistical lower bound on the privacy loss of a mechanism M from samples of M(D) and M(D'):
 * for an output event E fixed in advance, with probability at least {@code 1 - alpha} over the
 * samples, ε ≥ ln((P[E|A] − δ) / P[E|B]) for (A, B) = (D', D) or (D, D'), for every (ε, δ) that
 * M satisfies on this pair. The two probabilities are bounded by {@link ClopperPearson} at
 * {@code alpha / 2} each (a union bound), so the bound is
 * {@code ε_low = ln((lower(P[E|A]) − δ) / upper(P[E|B]))}, or 0 when that is not positive.
 *
 * <p>The event must not depend on the samples it is evaluated on: {@link #chooseEvent} picks it
 * on separate selection samples (the threshold and direction with the largest bound there), and
 * {@link #evaluate} computes the bound on fresh estimation samples.
 */
final class PrivacyLossBound {
  /** Thresholds tried when choosing an event: at most this many pooled order statistics. */
  private static final int MAX_THRESHOLDS = 400;

  /** An event and which side it favours. */
  record Choice(OutputEvent event, boolean withOverWithout) {
    @Override
    public String toString() {
      return "P[" + event + " | " + (withOverWithout ? "D'] / P[. | D]" : "D] / P[. | D']");
    }
  }

  /** The bound on one pair of samples: the event, its counts and ε_low. */
  record Estimate(Choice choice, long hitsWithout, int nWithout, long hitsWith, int nWith,
      double epsilonLow) {}

  private PrivacyLossBound() {}

  /**
   * The event (threshold, direction, orientation) with the largest ε_low on the selection
   * samples {@code without} (from D) and {@code with} (from D').
   */
  static Choice chooseEvent(double[] without, double[] with, double delta, double alpha) {
    double[] a = OutputEvent.sorted(without);
    double[] b = OutputEvent.sorted(with);
    TreeSet<Double> all = new TreeSet<>();
    for (double v : a) {
      all.add(v);
    }
    for (double v : b) {
      all.add(v);
    }
    Double[] distinct = all.toArray(new Double[0]);
    int step = Math.max(1, distinct.length / MAX_THRESHOLDS);
    Choice best = new Choice(new OutputEvent(distinct[0], true), true);
    double bestEps = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < distinct.length; i += step) {
      for (boolean atLeast : new boolean[] {true, false}) {
        OutputEvent e = new OutputEvent(distinct[i], atLeast);
        long ka = e.count(a);
        long kb = e.count(b);
        for (boolean withOverWithout : new boolean[] {true, false}) {
          double eps = withOverWithout ? bound(kb, b.length, ka, a.length, delta, alpha)
              : bound(ka, a.length, kb, b.length, delta, alpha);
          if (eps > bestEps) {
            bestEps = eps;
            best = new Choice(e, withOverWithout);
          }
        }
      }
    }
    return best;
  }

  /** ε_low of {@code choice} on the estimation samples. */
  static Estimate evaluate(Choice choice, double[] without, double[] with, double delta,
      double alpha) {
    long ka = choice.event().count(OutputEvent.sorted(without));
    long kb = choice.event().count(OutputEvent.sorted(with));
    double eps = choice.withOverWithout() ? bound(kb, with.length, ka, without.length, delta, alpha)
        : bound(ka, without.length, kb, with.length, delta, alpha);
    return new Estimate(choice, ka, without.length, kb, with.length, Math.max(0.0, eps));
  }

  /**
   * {@code ln((lower(kNum/nNum) − δ) / upper(kDen/nDen))} with Clopper–Pearson bounds at
   * {@code alpha / 2} each; {@code -∞} when the numerator's lower bound is at most δ.
   */
  static double bound(long kNum, int nNum, long kDen, int nDen, double delta, double alpha) {
    double num = ClopperPearson.lower(kNum, nNum, alpha / 2) - delta;
    if (num <= 0) {
      return Double.NEGATIVE_INFINITY;
    }
    return Math.log(num / ClopperPearson.upper(kDen, nDen, alpha / 2));
  }
}
