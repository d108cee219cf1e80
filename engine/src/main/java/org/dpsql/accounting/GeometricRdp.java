package org.dpsql.accounting;

/**
 * The exact Rényi DP curve of the geometric mechanism: an integer query of L1 sensitivity {@code Δ}
 * (an integer) released with two-sided geometric (discrete Laplace) noise of scale {@code b}, i.e.
 * {@code P[Z = z] ∝ e^{−|z|/b}} on ℤ — the noise of {@code org.dpsql.mechanism.GeometricMechanism}
 * and of SafeTab[Geometric] (Haney et al., Appendix B.1).
 *
 * <p>Guarantee: {@link #epsilon(double)} is the exact value of {@code max_{|k| ≤ Δ} D_α(L_ℤ(b) ‖
 * L_ℤ(b) + k)} (the divergence grows with the shift and is symmetric in its sign), evaluated in
 * double precision in log space. With {@code t = 1/b} and {@code Δ = 1} it is
 *
 * <pre>
 *   ε(α) = 1/(α−1) · ln[ (e^{(α−1)t} + e^{−αt}) / (1 + e^{−t}) ],
 * </pre>
 *
 * obtained by summing {@code p(x)^α q(x)^{1−α}} over the integers x ≤ 0 and x ≥ 1. For Δ &gt; 1 the
 * sum has a third, finite geometric part over {@code 0 < x < Δ}. The curve never exceeds the pure
 * bound {@code Δt} nor the zCDP bound {@code α(Δt)²/2}.
 *
 * <p>Note on the paper: its Lemma 8 / Corollary 1 (eq. 11, 17) integrates the probability mass
 * function over the reals instead of summing it over the integers; that expression is strictly
 * <em>smaller</em> than the true divergence of the discrete distribution computed here (e.g. at t =
 * 0.427, α = 7.36 it gives 0.3271 against the true 0.3485), so it is not used. Immutable.
 */
public final class GeometricRdp implements RenyiCurve {
  private final double inverseScale; // t = 1/b
  private final long sensitivity;

  /**
   * The curve of discrete Laplace noise with {@code 1/b = inverseScale} on a query of L1
   * sensitivity {@code sensitivity}; for Δ = 1 the mechanism is {@code inverseScale}-DP.
   *
   * @param inverseScale t = 1/b &gt; 0, finite
   * @param sensitivity Δ ≥ 1
   * @throws IllegalArgumentException if an argument is out of range
   */
  public GeometricRdp(double inverseScale, long sensitivity) {
    if (!(inverseScale > 0) || Double.isInfinite(inverseScale)) {
      throw new IllegalArgumentException(
          "inverse scale 1/b must be finite and > 0, got " + inverseScale);
    }
    if (sensitivity < 1) {
      throw new IllegalArgumentException("sensitivity must be >= 1, got " + sensitivity);
    }
    this.inverseScale = inverseScale;
    this.sensitivity = sensitivity;
  }

  /**
   * The curve of the ε-DP geometric mechanism on a counting query (Δ = 1, scale b = 1/ε), as called
   * by SafeTab's NoisyCount.
   *
   * @param epsilon ε &gt; 0
   */
  public static GeometricRdp ofEpsilon(double epsilon) {
    return new GeometricRdp(epsilon, 1);
  }

  /** 1/b. */
  public double inverseScale() {
    return inverseScale;
  }

  /** Δ. */
  public long sensitivity() {
    return sensitivity;
  }

  /** The pure DP ε of the mechanism, Δ/b. */
  public double pureEpsilon() {
    return sensitivity * inverseScale;
  }

  @Override
  public double epsilon(double alpha) {
    RenyiCurve.requireOrder(alpha);
    double t = inverseScale;
    double k = sensitivity;
    // (1 + e^{-t}) · Σ_x p(x)^α q(x)^{1-α} = T1 + T2 + T3 with
    // T1 = e^{(α-1)tk} (x ≤ 0), T2 = e^{-αtk} (x ≥ k),
    // T3 = (1 - e^{-t}) e^{(α-1)tk} Σ_{x=1}^{k-1} e^{-u x}, u = (2α-1)t (0 < x < k).
    double log1 = (alpha - 1) * t * k;
    double log2 = -alpha * t * k;
    double log3 = Double.NEGATIVE_INFINITY;
    if (sensitivity > 1) {
      double u = (2 * alpha - 1) * t;
      // Σ_{x=1}^{k-1} e^{-ux} = e^{-u} (1 - e^{-u(k-1)}) / (1 - e^{-u})
      log3 =
          Math.log(-Math.expm1(-t))
              + log1
              - u
              + Math.log(-Math.expm1(-u * (k - 1)))
              - Math.log(-Math.expm1(-u));
    }
    double m = Math.max(log1, Math.max(log2, log3));
    double sum = Math.exp(log1 - m) + Math.exp(log2 - m) + Math.exp(log3 - m);
    double logTotal = m + Math.log(sum) - Math.log1p(Math.exp(-t));
    double value = logTotal / (alpha - 1);
    return Math.max(0.0, value);
  }

  @Override
  public String toString() {
    return "GeometricRdp[1/b=" + inverseScale + ", sensitivity=" + sensitivity + "]";
  }
}
