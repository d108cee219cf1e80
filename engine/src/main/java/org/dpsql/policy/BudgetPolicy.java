package org.dpsql.policy;

import java.util.List;
import java.util.Objects;

/**
 * The budget section of a policy: which accounting is used, what one connection may spend in total
 * and what a query spends when it names no budget.
 *
 * <p>Guarantees: {@code accounting} is one of {@link #PURE}, {@link #APPROX}, {@link #ZCDP}; both
 * amounts carry exactly the components that accounting requires (pure: epsilon; approx: epsilon
 * and delta; zcdp: rho, plus an optional delta used only to report epsilon); and {@code
 * defaultQuery} does not exceed {@code perConnection} in any component.
 */
public record BudgetPolicy(
    String accounting, BudgetAmount perConnection, BudgetAmount defaultQuery) {
  /** Pure epsilon-differential privacy; amounts are {@code {epsilon}}. */
  public static final String PURE = "pure";
  /** Approximate (epsilon, delta)-differential privacy; amounts are {@code {epsilon, delta}}. */
  public static final String APPROX = "approx";
  /** Zero-concentrated differential privacy; amounts are {@code {rho}}. */
  public static final String ZCDP = "zcdp";
  /** The accounting names a policy may use, in documentation order. */
  public static final List<String> ACCOUNTINGS = List.of(PURE, APPROX, ZCDP);

  /** Checks the invariants; the loader reports friendlier messages before this can fail. */
  public BudgetPolicy {
    Objects.requireNonNull(accounting, "accounting");
    Objects.requireNonNull(perConnection, "perConnection");
    Objects.requireNonNull(defaultQuery, "defaultQuery");
    if (!ACCOUNTINGS.contains(accounting)) {
      throw new IllegalArgumentException("unknown accounting " + accounting);
    }
    checkComponents(accounting, perConnection);
    checkComponents(accounting, defaultQuery);
    if (!defaultQuery.fitsWithin(perConnection)) {
      throw new IllegalArgumentException("defaultQuery exceeds perConnection");
    }
  }

  private static void checkComponents(String accounting, BudgetAmount a) {
    boolean ok;
    switch (accounting) {
      case PURE:
        ok = a.epsilon() != null && a.delta() == null && a.rho() == null;
        break;
      case APPROX:
        ok = a.epsilon() != null && a.delta() != null && a.rho() == null;
        break;
      default:
        ok = a.rho() != null && a.epsilon() == null;
        break;
    }
    if (!ok) {
      throw new IllegalArgumentException(a + " does not fit accounting " + accounting);
    }
  }
}
