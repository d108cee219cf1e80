package org.dpsql.release;

import java.math.BigDecimal;
import org.dpsql.discrete.Neighbourhood;
import org.dpsql.discrete.NoisePmf;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.AnswerRange;

/**
 * Noise from an optimal PMF (seed 000), released modulo the answer range: the exact answer is
 * clamped into {@code [lo, hi]} (1-Lipschitz, so sensitivity does not grow), shifted to
 * {@code q ∈ [0..n]}, and released as {@code lo + ((q + η) mod (n+1))} with η drawn exactly from
 * the PMF. The PMF passed the exact (ε,δ)-PDP check for the neighbourhood before it got here
 * ({@link org.dpsql.discrete.OptimalPmfLibrary}). The error is measured circularly: a released
 * value may wrap around the range.
 */
final class OptimalPmfNoise implements NoiseMechanism {
  private final NoisePmf pmf;
  private final AnswerRange range;
  private final Neighbourhood neighbourhood;
  private final BigDecimal epsilon;
  private final BigDecimal delta;

  OptimalPmfNoise(NoisePmf pmf, AnswerRange range, Neighbourhood neighbourhood, BigDecimal epsilon,
      BigDecimal delta) {
    this.pmf = pmf;
    this.range = range;
    this.neighbourhood = neighbourhood;
    this.epsilon = epsilon;
    this.delta = delta;
  }

  @Override
  public long release(long exact, RandomBits random) {
    long q = Math.min(range.hi(), Math.max(range.lo(), exact)) - range.lo();
    int eta = pmf.sample(random);
    return range.lo() + (q + eta) % (range.n() + 1L);
  }

  /** The circular mean squared error, Σ min(η, n+1−η)² f(η). */
  @Override
  public double variance() {
    return pmf.circularMse();
  }

  /** Smallest m with P[circular |η| ≤ m] ≥ confidence. */
  @Override
  public long marginAbs(double confidence) {
    int n = range.n();
    double covered = pmf.mass(0);
    for (int m = 1; m <= (n + 1) / 2; m++) {
      if (covered >= confidence) {
        return m - 1;
      }
      covered += pmf.mass(m);
      if (n + 1 - m != m) {
        covered += pmf.mass(n + 1 - m);
      }
    }
    return (n + 1) / 2;
  }

  @Override
  public String describe() {
    return "optimal_pmf(n=" + range.n() + ", M=±1.." + maxStep() + ", ε="
        + epsilon.stripTrailingZeros().toPlainString()
        + (delta.signum() > 0 ? ", δ=" + delta.stripTrailingZeros().toPlainString() : "")
        + ", f(0)=" + String.format("%.4f", pmf.mass(0)) + ")";
  }

  private int maxStep() {
    int max = 0;
    for (int d : neighbourhood.differences()) {
      max = Math.max(max, Math.min(d, range.n() + 1 - d));
    }
    return max;
  }
}
