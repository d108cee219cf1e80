package org.dpsql.server.console;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.Conversions;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.ledger.LedgerReader;
import org.dpsql.server.Analyst;
import org.dpsql.server.UsersFile;

/**
 * One analyst's budget figures as the console shows them: total, spent and remaining in the
 * accounting's own unit (ε for pure and approx, ρ for zCDP), the δ spent and granted (approx, and
 * zCDP's partition selection), the ε they amount to at the policy's δ, and the counts of paid and
 * free answers.
 *
 * <p>Guarantees: {@link #spent()} is the ledger's exact balance; {@link #remaining()} is exactly
 * {@code total − spent} in the unit, never negative; the ε figures are those {@code DPSQL.BUDGET}
 * reports (the same conversion at the same δ: under zCDP the policy's δ less the δ spent). {@code total} is null for an analyst the ledger
 * knows but the users file no longer lists.
 *
 * @param analyst the analyst
 * @param accounting the accounting the ledger keeps the analyst's balance in
 * @param total the budget from the users file, or null
 * @param perConnection the users file's cap per connection, or null
 * @param spent the spent budget
 * @param paid charged answers
 * @param free free answers
 * @param lastActivity the latest ledger entry, or null
 * @param reportingDelta for zCDP, the policy's δ at which ε is reported, or null
 */
public record BudgetFigures(String analyst, Accounting accounting, PrivacyCost total,
    PrivacyCost perConnection, PrivacyCost spent, long paid, long free, Instant lastActivity,
    BigDecimal reportingDelta) {

  /** Checks for nulls. */
  public BudgetFigures {
    Objects.requireNonNull(analyst, "analyst");
    Objects.requireNonNull(accounting, "accounting");
    Objects.requireNonNull(spent, "spent");
  }

  /** The figures of one ledger summary with the analyst's entry of the users file. */
  public static BudgetFigures of(LedgerReader.Summary s, UsersFile users, BigDecimal delta) {
    Analyst a = users.analysts().get(s.analyst());
    return new BudgetFigures(s.analyst(), s.accounting(), a == null ? null : a.total(),
        a == null ? null : a.perConnection(), s.spent(), s.paid(), s.free(), s.lastActivity(),
        s.accounting() == Accounting.ZCDP ? delta : null);
  }

  /** Figures of every analyst in the ledger, in the users file's order, then the others by name. */
  public static List<BudgetFigures> all(List<LedgerReader.Summary> summaries, UsersFile users,
      BigDecimal delta) {
    Map<String, BudgetFigures> byName = new LinkedHashMap<>();
    for (String name : users.analysts().keySet()) {
      byName.put(name, null);
    }
    for (LedgerReader.Summary s : summaries) {
      byName.put(s.analyst(), of(s, users, delta));
    }
    List<BudgetFigures> out = new ArrayList<>();
    byName.values().stream().filter(Objects::nonNull).forEach(out::add);
    return out;
  }

  /** "ρ" under zCDP, else "ε". */
  public String unit() {
    return accounting == Accounting.ZCDP ? "ρ" : "ε";
  }

  private BigDecimal inUnit(PrivacyCost c) {
    return accounting == Accounting.ZCDP ? c.rho() : c.epsilon();
  }

  /** The total in the unit, or null. */
  public BigDecimal totalInUnit() {
    return total == null ? null : inUnit(total);
  }

  /** The spent budget in the unit. */
  public BigDecimal spentInUnit() {
    return inUnit(spent);
  }

  /** {@code total − spent} in the unit (at least 0), or null without a total. */
  public BigDecimal remaining() {
    if (total == null) {
      return null;
    }
    BigDecimal r = inUnit(total).subtract(inUnit(spent));
    return r.signum() < 0 ? BigDecimal.ZERO : r;
  }

  /** The share of the total spent, in [0, 1], or null without a total. */
  public Double share() {
    if (total == null || inUnit(total).signum() == 0) {
      return null;
    }
    return Math.min(1.0, inUnit(spent).doubleValue() / inUnit(total).doubleValue());
  }

  /** The δ the ε figures are at: the reporting δ (zCDP), the total's δ (approx), else null. */
  public BigDecimal delta() {
    return switch (accounting) {
      case ZCDP -> reportingDelta;
      case APPROX -> total == null ? null : total.delta();
      case PURE -> null;
    };
  }

  /** Whether the accounting tracks a δ (approx, and zCDP for partition selection). */
  public boolean usesDelta() {
    return accounting.usesDelta();
  }

  /** The δ spent (exact). */
  public BigDecimal deltaSpent() {
    return spent.delta();
  }

  /** The δ of the total (exact), or null without a total. */
  public BigDecimal deltaTotal() {
    return total == null ? null : total.delta();
  }

  /** ε spent at {@link #delta()}, as {@code DPSQL.BUDGET.EPSILON_SPENT}; null if not defined. */
  public Double epsilonSpent() {
    return epsilonOf(spent);
  }

  /** ε of the total at {@link #delta()}, as {@code DPSQL.BUDGET.EPSILON_TOTAL}; or null. */
  public Double epsilonTotal() {
    return total == null ? null : epsilonOf(total);
  }

  private Double epsilonOf(PrivacyCost c) {
    if (accounting != Accounting.ZCDP) {
      return c.epsilon().doubleValue();
    }
    if (reportingDelta == null) {
      return null;
    }
    // at the reporting δ less the δ spent by partition selection, as DurableAccountant reports it
    BigDecimal left = reportingDelta.subtract(spent.delta());
    return left.signum() <= 0 ? null
        : Conversions.zcdpToEpsilon(c.rho().doubleValue(), left.doubleValue());
  }

  /** The columns the analysts table can be sorted by, with their orders (ascending). */
  public enum SortKey {
    NAME(Comparator.comparing(BudgetFigures::analyst)),
    BUDGET(nullsFirst(BudgetFigures::totalInUnit)),
    SPENT(Comparator.comparing(BudgetFigures::spentInUnit)),
    REMAINING(nullsFirst(BudgetFigures::remaining)),
    SHARE(nullsFirst(BudgetFigures::share)),
    PAID(Comparator.comparingLong(BudgetFigures::paid)),
    FREE(Comparator.comparingLong(BudgetFigures::free)),
    LAST(nullsFirst(BudgetFigures::lastActivity));

    private final Comparator<BudgetFigures> order;

    SortKey(Comparator<BudgetFigures> order) {
      this.order = order.thenComparing(BudgetFigures::analyst);
    }

    /** The ascending order (ties by name). */
    public Comparator<BudgetFigures> order() {
      return order;
    }

    /** The query-parameter value. */
    public String param() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The key named by a query parameter; {@link #NAME} for anything else. */
    public static SortKey parse(String s) {
      for (SortKey k : values()) {
        if (k.param().equals(s)) {
          return k;
        }
      }
      return NAME;
    }

    private static <T extends Comparable<? super T>> Comparator<BudgetFigures> nullsFirst(
        java.util.function.Function<BudgetFigures, T> f) {
      return Comparator.comparing(f, Comparator.nullsFirst(Comparator.naturalOrder()));
    }
  }
}
