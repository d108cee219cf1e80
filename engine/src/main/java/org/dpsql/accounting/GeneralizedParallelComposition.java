package org.dpsql.accounting;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * Generalized parallel composition (Haney et al., SafeTab, Appendix B.2, Lemmas 9, 10, 12): let
 * {@code F = {S_1, …, S_k}} be subsets of the record domain in which every record lies in at most
 * {@code z} sets (the <em>degree</em> of F, the <em>stability</em> of the grouping), and run a
 * mechanism {@code M_j} on {@code x ∩ S_j} for each j. If every {@code M_j} is ε-DP (resp. ρ-zCDP,
 * resp. satisfies the RDP curve ε(α)), the joint release is {@code z·ε}-DP (resp. {@code z·ρ}-zCDP,
 * resp. satisfies {@code z·ε(α)}).
 *
 * <p>Guarantees: the pure and zCDP forms are exact decimal arithmetic; the {@code z = 1} case is
 * ordinary parallel composition. The degree must be a bound that holds for <em>every</em> possible
 * record — enforce it (e.g. by truncating each record's group list to z, {@code
 * org.dpsql.adaptive.StabilityTruncation}) rather than observe it on the data.
 */
public final class GeneralizedParallelComposition {
  private GeneralizedParallelComposition() {}

  /**
   * The ε of the joint release: {@code degree · epsilonPerSet} (Lemma 9).
   *
   * @param epsilonPerSet the ε of each per-set mechanism, ≥ 0
   * @param degree the maximum number of sets containing one record, ≥ 1
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static BigDecimal pureEpsilon(BigDecimal epsilonPerSet, int degree) {
    return scaled(epsilonPerSet, degree, "epsilonPerSet");
  }

  /**
   * The ρ of the joint release: {@code degree · rhoPerSet} (Lemma 10).
   *
   * @param rhoPerSet the ρ of each per-set mechanism, ≥ 0
   * @param degree the maximum number of sets containing one record, ≥ 1
   * @throws IllegalArgumentException if an argument is out of range
   */
  public static BigDecimal zcdpRho(BigDecimal rhoPerSet, int degree) {
    return scaled(rhoPerSet, degree, "rhoPerSet");
  }

  /**
   * The RDP curve of the joint release: {@code α ↦ degree · curvePerSet(α)} (Lemma 12).
   *
   * @param curvePerSet a curve every per-set mechanism satisfies
   * @param degree the maximum number of sets containing one record, ≥ 1
   * @throws IllegalArgumentException if the degree is below 1
   */
  public static RenyiCurve renyi(RenyiCurve curvePerSet, int degree) {
    Objects.requireNonNull(curvePerSet, "curvePerSet");
    requireDegree(degree);
    return curvePerSet.times(degree);
  }

  private static BigDecimal scaled(BigDecimal perSet, int degree, String name) {
    Objects.requireNonNull(perSet, name);
    if (perSet.signum() < 0) {
      throw new IllegalArgumentException(name + " must be >= 0, got " + perSet.toPlainString());
    }
    requireDegree(degree);
    return perSet.multiply(BigDecimal.valueOf(degree));
  }

  private static void requireDegree(int degree) {
    if (degree < 1) {
      throw new IllegalArgumentException(
          "degree (stability) must be >= 1: every record may lie in at most that many sets, got "
              + degree);
    }
  }
}
