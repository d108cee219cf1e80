package org.dpsql.adaptive;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.dpsql.accounting.GeneralizedParallelComposition;
import org.dpsql.accounting.GeometricRdp;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.accounting.RenyiCurve;
import org.dpsql.mechanism.Rational;

/**
 * The data owner's declaration of a SafeTab adaptive tabulation (Haney et al., Algorithms 1–3): the
 * base mechanism Γ, the population group levels with their budgets and stabilities, the step-1
 * fraction γ, the thresholds θ1 &lt; θ2 &lt; θ3, the sex categories and the three age binnings
 * (coarse → fine, e.g. Age4, Age9, Age23) over common finest age categories. Policy, not analyst
 * input.
 *
 * <p>Guarantees: immutable and validated with messages naming the offending value. With {@link
 * AdaptiveTabulation}, level i costs exactly its budget — ε_i-DP ({@link BaseMechanism#GEOMETRIC})
 * or ρ_i-zCDP ({@link BaseMechanism#DISCRETE_GAUSSIAN}) — and levels compose sequentially, so the
 * whole tabulation is {@link #totalCost()} (Theorems 1 and 3), and it satisfies the Rényi curve
 * {@link #renyiCurve()} (Theorem 2 for the geometric case, with the exact geometric curve). These
 * hold when every person is counted in at most {@code stability} groups of each level.
 *
 * @param mechanism Γ
 * @param levels the population group levels, with distinct names, at least one
 * @param gamma γ ∈ (0, 1), the fraction of a group's budget spent on the step-1 total
 * @param theta1 θ1
 * @param theta2 θ2 &gt; θ1
 * @param theta3 θ3 &gt; θ2
 * @param sexes the sex category labels, distinct, at least one
 * @param ageBinnings exactly three binnings over the same finest age categories
 */
public record AdaptiveTabulationSpec(
    BaseMechanism mechanism,
    List<PopulationLevel> levels,
    BigDecimal gamma,
    long theta1,
    long theta2,
    long theta3,
    List<String> sexes,
    List<AgeBinning> ageBinnings) {

  /**
   * Validates and copies the components.
   *
   * @throws IllegalArgumentException with a message naming the offending value
   */
  public AdaptiveTabulationSpec {
    Objects.requireNonNull(mechanism, "mechanism");
    levels = List.copyOf(levels);
    if (levels.isEmpty()) {
      throw new IllegalArgumentException(
          "an adaptive tabulation needs at least one population level");
    }
    Set<String> names = new HashSet<>();
    for (PopulationLevel l : levels) {
      if (!names.add(l.name())) {
        throw new IllegalArgumentException("population level " + l.name() + " is declared twice");
      }
    }
    Objects.requireNonNull(gamma, "gamma");
    if (gamma.signum() <= 0 || gamma.compareTo(BigDecimal.ONE) >= 0) {
      throw new IllegalArgumentException(
          "gamma (step-1 budget fraction) must be in (0, 1), got " + gamma.toPlainString());
    }
    if (!(theta1 < theta2 && theta2 < theta3)) {
      throw new IllegalArgumentException(
          "thresholds must satisfy theta1 < theta2 < theta3, got "
              + theta1
              + ", "
              + theta2
              + ", "
              + theta3);
    }
    sexes = List.copyOf(sexes);
    if (sexes.isEmpty() || new HashSet<>(sexes).size() != sexes.size()) {
      throw new IllegalArgumentException(
          "sex categories must be non-empty and distinct, got " + sexes);
    }
    ageBinnings = List.copyOf(ageBinnings);
    if (ageBinnings.size() != 3) {
      throw new IllegalArgumentException(
          "exactly three age binnings (for theta1..theta2, theta2..theta3, >= theta3) are needed,"
              + " got "
              + ageBinnings.size());
    }
    int finest = ageBinnings.get(0).finestCount();
    for (AgeBinning b : ageBinnings) {
      if (b.finestCount() != finest) {
        throw new IllegalArgumentException(
            "all age binnings must be over the same finest age categories: "
                + ageBinnings.get(0).name()
                + " has "
                + finest
                + ", "
                + b.name()
                + " has "
                + b.finestCount());
      }
    }
  }

  /** The number of finest age categories. */
  public int finestAgeCount() {
    return ageBinnings.get(0).finestCount();
  }

  /** The number of Sex × finest-Age cells of a group's exact counts. */
  public int cellCount() {
    return sexes.size() * finestAgeCount();
  }

  /**
   * The level with this name.
   *
   * @throws IllegalArgumentException if there is none
   */
  public PopulationLevel level(String name) {
    for (PopulationLevel l : levels) {
      if (l.name().equals(name)) {
        return l;
      }
    }
    throw new IllegalArgumentException("no population level named " + name);
  }

  /** The budget of one group of the level, budget/s, exactly. */
  public static Rational groupBudget(PopulationLevel level) {
    return Rational.of(level.budget()).divide(level.stability());
  }

  /** The step-1 (noisy total) budget of a non-TotalOnly group, γ·budget/s, exactly. */
  public Rational stepOneBudget(PopulationLevel level) {
    return groupBudget(level).multiply(Rational.of(gamma));
  }

  /** The step-2 budget of each count of a non-TotalOnly group, (1−γ)·budget/s, exactly. */
  public Rational stepTwoBudget(PopulationLevel level) {
    return groupBudget(level).multiply(Rational.ONE.subtract(Rational.of(gamma)));
  }

  /**
   * The cost of one level: s × (cost of one group) = its budget (generalized parallel composition,
   * exact), as ε (pure) or ρ (zCDP).
   */
  public PrivacyCost levelCost(PopulationLevel level) {
    // Each group spends γ·b + (1−γ)·b = b (or b if TotalOnly) with b = budget/s, and a person is
    // in at most s groups: s · b = budget (checked exactly, in rationals, by groupBudget · s).
    if (!groupBudget(level).multiply(level.stability()).equals(Rational.of(level.budget()))) {
      throw new IllegalStateException(
          "budget arithmetic is inconsistent for level " + level.name());
    }
    BigDecimal composed = level.budget();
    return mechanism == BaseMechanism.GEOMETRIC
        ? PrivacyCost.pure(composed)
        : PrivacyCost.zcdp(composed);
  }

  /** The whole tabulation's cost, the exact sum of the level costs (sequential composition). */
  public PrivacyCost totalCost() {
    PrivacyCost total = PrivacyCost.ZERO;
    for (PopulationLevel l : levels) {
      total = total.plus(levelCost(l));
    }
    return total;
  }

  /**
   * A Rényi curve the whole tabulation satisfies: Σ_i s_i · max(τ(γb_i) + τ((1−γ)b_i), τ(b_i)), b_i
   * = budget_i/s_i, with τ the exact geometric curve ({@link GeometricRdp}) under {@link
   * BaseMechanism#GEOMETRIC} (the paper's eq. 30 with the exact τ); the zCDP curve (Σρ_i)·α under
   * {@link BaseMechanism#DISCRETE_GAUSSIAN}.
   */
  public RenyiCurve renyiCurve() {
    RenyiCurve total = RenyiCurve.zero();
    for (PopulationLevel l : levels) {
      total = total.plus(levelRenyiCurve(l));
    }
    return total;
  }

  /** The Rényi curve of one level (see {@link #renyiCurve()}). */
  public RenyiCurve levelRenyiCurve(PopulationLevel level) {
    if (mechanism == BaseMechanism.DISCRETE_GAUSSIAN) {
      return RenyiCurve.zcdp(level.budget().doubleValue());
    }
    RenyiCurve adaptive =
        GeometricRdp.ofEpsilon(stepOneBudget(level).doubleValue())
            .plus(GeometricRdp.ofEpsilon(stepTwoBudget(level).doubleValue()));
    RenyiCurve totalOnly = GeometricRdp.ofEpsilon(groupBudget(level).doubleValue());
    return GeneralizedParallelComposition.renyi(
        RenyiCurve.max(adaptive, totalOnly), level.stability());
  }
}
