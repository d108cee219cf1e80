package org.dpsql.adaptive;

/**
 * The base noise mechanism Γ of SafeTab (Haney et al., Algorithms 3–5), which fixes how a budget is
 * read and which noise a count receives.
 *
 * <p>Guarantee: a count of sensitivity 1 released by {@link NoisyCount} with budget {@code b}
 * satisfies {@code b}-DP (pure, δ = 0) under {@link #GEOMETRIC} and {@code b}-zCDP under {@link
 * #DISCRETE_GAUSSIAN}.
 */
public enum BaseMechanism {
  /** Two-sided geometric (discrete Laplace) noise of scale 1/ε; the budget is a pure-DP ε. */
  GEOMETRIC("epsilon (pure DP)"),
  /** Discrete Gaussian noise with σ² = 1/(2ρ); the budget is a zCDP ρ. */
  DISCRETE_GAUSSIAN("rho (zCDP)");

  private final String budgetMeaning;

  BaseMechanism(String budgetMeaning) {
    this.budgetMeaning = budgetMeaning;
  }

  /** What a budget means under this mechanism, for messages. */
  public String budgetMeaning() {
    return budgetMeaning;
  }
}
