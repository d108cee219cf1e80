package org.dpsql.accounting;

import java.util.Locale;

/**
 * How privacy losses compose, as named by a policy's {@code budget.accounting}.
 *
 * <p>Guarantees: each accounting uses a fixed set of {@link PrivacyCost} components and composes
 * them by exact addition (basic composition):
 *
 * <ul>
 *   <li>{@link #PURE} — ε-DP; uses ε only.
 *   <li>{@link #APPROX} — (ε,δ)-DP; uses ε and δ, both add.
 *   <li>{@link #ZCDP} — ρ-zCDP; uses ρ, and δ for the mechanisms that are only δ-approximately
 *       ρ-zCDP (Bun and Steinke 2016, Def. 1.8: private partition selection); both add. A
 *       connection that spent ρ and δ is δ-approximately ρ-zCDP, hence (ε, δ + δ')-DP at the ε of
 *       ρ at δ' (see {@link Conversions#zcdpToEpsilon(double, double)}).
 * </ul>
 */
public enum Accounting {
  /** Pure ε-differential privacy with basic composition: ε adds. */
  PURE("pure", true, false, false),
  /** Approximate (ε,δ)-differential privacy with basic composition: ε adds and δ adds. */
  APPROX("approx", true, true, false),
  /** ρ-zero-concentrated differential privacy: ρ adds, and the δ of approximate zCDP adds. */
  ZCDP("zcdp", false, true, true);

  private final String policyName;
  private final boolean usesEpsilon;
  private final boolean usesDelta;
  private final boolean usesRho;

  Accounting(String policyName, boolean usesEpsilon, boolean usesDelta, boolean usesRho) {
    this.policyName = policyName;
    this.usesEpsilon = usesEpsilon;
    this.usesDelta = usesDelta;
    this.usesRho = usesRho;
  }

  /**
   * Parses a policy's {@code budget.accounting} value: {@code pure}, {@code approx} or {@code
   * zcdp}, case-insensitively and ignoring surrounding whitespace.
   *
   * @throws IllegalArgumentException if {@code s} is null or names none of the three
   */
  public static Accounting parse(String s) {
    if (s != null) {
      String key = s.trim().toLowerCase(Locale.ROOT);
      for (Accounting a : values()) {
        if (a.policyName.equals(key)) {
          return a;
        }
      }
    }
    throw new IllegalArgumentException(
        "Unknown accounting '" + s + "': expected one of 'pure', 'approx', 'zcdp'");
  }

  /** The policy-file name: {@code pure}, {@code approx} or {@code zcdp}. */
  public String policyName() {
    return policyName;
  }

  /** Whether this accounting tracks ε. */
  public boolean usesEpsilon() {
    return usesEpsilon;
  }

  /** Whether this accounting tracks δ. */
  public boolean usesDelta() {
    return usesDelta;
  }

  /** Whether this accounting tracks ρ. */
  public boolean usesRho() {
    return usesRho;
  }

  /**
   * Checks that {@code cost} has no non-zero component this accounting does not track.
   *
   * @param what how to name the value in the error message (e.g. "cost", "total budget")
   * @throws IllegalArgumentException if it does
   */
  void requireOnlyUsedComponents(PrivacyCost cost, String what) {
    StringBuilder unused = new StringBuilder();
    if (!usesEpsilon && cost.epsilon().signum() != 0) {
      unused.append("ε");
    }
    if (!usesDelta && cost.delta().signum() != 0) {
      unused.append(unused.length() == 0 ? "" : ", ").append("δ");
    }
    if (!usesRho && cost.rho().signum() != 0) {
      unused.append(unused.length() == 0 ? "" : ", ").append("ρ");
    }
    if (unused.length() != 0) {
      throw new IllegalArgumentException(
          "The "
              + what
              + " "
              + cost
              + " has a component ("
              + unused
              + ") that "
              + policyName
              + " accounting does not use; convert it to "
              + describeComponents()
              + " first");
    }
  }

  /** Formats {@code cost} showing exactly the components this accounting tracks, zeros included. */
  String describe(PrivacyCost cost) {
    return switch (this) {
      case PURE -> "ε=" + PrivacyCost.format(cost.epsilon());
      case APPROX ->
          "ε=" + PrivacyCost.format(cost.epsilon()) + ", δ=" + PrivacyCost.format(cost.delta());
      case ZCDP -> "ρ=" + PrivacyCost.format(cost.rho())
          + (cost.delta().signum() == 0 ? "" : ", δ=" + PrivacyCost.format(cost.delta()));
    };
  }

  private String describeComponents() {
    return switch (this) {
      case PURE -> "ε";
      case APPROX -> "(ε, δ)";
      case ZCDP -> "ρ";
    };
  }
}
