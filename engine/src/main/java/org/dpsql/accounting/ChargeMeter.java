package org.dpsql.accounting;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

/**
 * What the code running on the current thread has charged: a session meters each release (to
 * know whether an answer was paid for), a server each remote call (for its audit log). {@link
 * #start} and {@link #stop} nest; every connection's accountant is wrapped by {@link #metered} so
 * that its successful charges add to the innermost meter of the thread that charges.
 *
 * <p>Guarantees: between {@link #start} and the matching {@link #stop} on one thread, {@link #stop}
 * returns the exact sum of the charges that returned on that thread (refused or failed charges add
 * nothing), including those of meters nested inside (a stopped meter adds its sum to the one
 * enclosing it); a thread without a started meter records nothing; the wrapped accountant behaves
 * exactly as the one it wraps, and wrapping twice meters once.
 */
public final class ChargeMeter {
  private static final ThreadLocal<Deque<PrivacyCost[]>> ACTIVE =
      ThreadLocal.withInitial(ArrayDeque::new);

  private ChargeMeter() {}

  /** Starts a meter on the current thread, from zero, inside any already started. */
  public static void start() {
    ACTIVE.get().push(new PrivacyCost[] {PrivacyCost.ZERO});
  }

  /**
   * Stops the innermost meter of the current thread: returns what was charged since its {@link
   * #start} (zero if none was started) and adds it to the enclosing meter, if any.
   */
  public static PrivacyCost stop() {
    Deque<PrivacyCost[]> active = ACTIVE.get();
    PrivacyCost[] c = active.poll();
    if (active.isEmpty()) {
      ACTIVE.remove();
    }
    if (c == null) {
      return PrivacyCost.ZERO;
    }
    add(c[0]);
    return c[0];
  }

  private static void add(PrivacyCost cost) {
    PrivacyCost[] c = ACTIVE.get().peek();
    if (c != null) {
      c[0] = c[0].plus(cost);
    } else {
      ACTIVE.remove();
    }
  }

  /** The accountant behind {@link #metered}: each charge that returns adds to the meter. */
  private static final class Metered extends ForwardingAccountant {
    Metered(Accountant accountant) {
      super(accountant);
    }

    @Override
    public LedgerEntry charge(PrivacyCost cost, String statement, String mechanism,
        Double expectedRmse) throws BudgetExceededException {
      LedgerEntry e = delegate().charge(cost, statement, mechanism, expectedRmse);
      add(e.cost());
      return e;
    }
  }

  /**
   * {@code accountant}, adding every charge that returns to the charging thread's innermost meter
   * ({@code accountant} itself if it is metered already).
   */
  public static Accountant metered(Accountant accountant) {
    Objects.requireNonNull(accountant, "accountant");
    if (accountant instanceof Metered) {
      return accountant;
    }
    return new Metered(accountant);
  }
}
