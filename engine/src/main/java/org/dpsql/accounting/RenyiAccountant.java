package org.dpsql.accounting;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Tracks a privacy budget (ε, δ) under Rényi DP composition: every charge is an RDP curve, the
 * curves add order by order (adaptive sequential composition), and the spent budget is the
 * optimised conversion of the composed curve to (ε, δ) at the budget's δ ({@link
 * TightConversion#optimalEpsilon}).
 *
 * <p>Guarantees: a charge is accepted only if, with it, the composed curve converts to an ε at most
 * the budget's ε at the budget's δ; so at any time the composition of all accepted charges is
 * (ε_budget, δ)-DP. A refused charge changes nothing. Methods are synchronized, so concurrent
 * charges cannot together exceed the budget. Mechanisms with several guarantees should be charged
 * with their tightest curve (e.g. {@link GeometricRdp} rather than {@link RenyiCurve#pureDp}).
 */
public final class RenyiAccountant {

  /** One accepted charge. */
  public record Charge(String label, RenyiCurve curve, double epsilonAfter) {}

  private final double epsilonBudget;
  private final double delta;
  private RenyiCurve spent = RenyiCurve.zero();
  private double spentEpsilon = 0.0;
  private final List<Charge> ledger = new ArrayList<>();

  /**
   * An empty accountant with total budget (ε, δ).
   *
   * @param epsilonBudget ε ≥ 0, finite
   * @param delta δ ∈ (0, 1)
   * @throws IllegalArgumentException if an argument is out of range
   */
  public RenyiAccountant(double epsilonBudget, double delta) {
    if (!(epsilonBudget >= 0) || Double.isInfinite(epsilonBudget)) {
      throw new IllegalArgumentException(
          "epsilon budget must be finite and >= 0, got " + epsilonBudget);
    }
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
    }
    this.epsilonBudget = epsilonBudget;
    this.delta = delta;
  }

  /** The budget's ε. */
  public double epsilonBudget() {
    return epsilonBudget;
  }

  /** The budget's δ. */
  public double delta() {
    return delta;
  }

  /** The composed curve of all accepted charges. */
  public synchronized RenyiCurve spentCurve() {
    return spent;
  }

  /** The ε at the budget's δ of the composition of all accepted charges (0 if none). */
  public synchronized double spentEpsilon() {
    return spentEpsilon;
  }

  /** The accepted charges in order. */
  public synchronized List<Charge> ledger() {
    return List.copyOf(ledger);
  }

  /** Whether the charge would fit now (advisory: {@link #charge} is the authority). */
  public synchronized boolean canAfford(RenyiCurve curve) {
    Objects.requireNonNull(curve, "curve");
    return epsilonWith(curve) <= epsilonBudget;
  }

  /**
   * Charges a mechanism satisfying {@code curve}, if the composition still fits the budget.
   *
   * @param curve the mechanism's RDP curve
   * @param label what is charged, for the ledger
   * @return the ledger entry
   * @throws BudgetExceededException if the composed ε at δ would exceed the budget; nothing is
   *     charged. Its costs are expressed as (ε, δ): the requested increase of the composed ε and
   *     the ε left.
   */
  public synchronized Charge charge(RenyiCurve curve, String label) throws BudgetExceededException {
    Objects.requireNonNull(curve, "curve");
    Objects.requireNonNull(label, "label");
    double after = epsilonWith(curve);
    if (!(after <= epsilonBudget)) {
      throw new BudgetExceededException(
          Accounting.APPROX,
          PrivacyCost.approx(up(after - spentEpsilon), BigDecimal.ZERO),
          PrivacyCost.approx(down(epsilonBudget - spentEpsilon), BigDecimal.ZERO));
    }
    spent = spent.plus(curve);
    spentEpsilon = after;
    Charge c = new Charge(label, curve, after);
    ledger.add(c);
    return c;
  }

  private double epsilonWith(RenyiCurve curve) {
    return TightConversion.optimalEpsilon(spent.plus(curve), delta).epsilon();
  }

  private static BigDecimal up(double x) {
    return new BigDecimal(Math.max(0, x)).setScale(6, RoundingMode.UP);
  }

  private static BigDecimal down(double x) {
    return new BigDecimal(Math.max(0, x)).setScale(6, RoundingMode.DOWN);
  }
}
