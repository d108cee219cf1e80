package org.dpsql.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.errors.SqlStates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableAccountantTest {
  @TempDir Path dir;

  private static BigDecimal d(String s) {
    return new BigDecimal(s);
  }

  private LedgerStore store() throws SQLException {
    return LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), new Properties());
  }

  @Test
  void chargesExactDecimalsUpToTheTotalAndRefusesTheNext() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount alice = store.account("alice", Accounting.PURE, PrivacyCost.pure(d("1")));
      DurableAccountant a = new DurableAccountant(alice, PrivacyCost.pure(d("1")), "c1", null);
      for (int i = 0; i < 10; i++) {
        a.charge(PrivacyCost.pure(d("0.1")), "q" + i, "laplace");
      }
      // 10 × 0.1 is exactly 1 (it would not be in binary floating point)
      assertEquals(PrivacyCost.pure(d("1")), a.spent());
      assertEquals(PrivacyCost.ZERO, a.remaining());
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> a.charge(PrivacyCost.pure(d("0.0000001")), "q10", "laplace"));
      assertEquals(SqlStates.BUDGET_EXHAUSTED, e.getSQLState());
      assertEquals(PrivacyCost.ZERO, e.remaining());
      assertEquals(10, a.ledger().size());
      assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L),
          a.ledger().stream().map(LedgerEntry::sequence).toList());
      LedgerAudit audit = store.audit("alice");
      assertTrue(audit.consistent());
      assertEquals(10, audit.charged());
      assertEquals(1.0, a.epsilonSpentAtDelta());
    }
  }

  @Test
  void perConnectionCapLimitsOneConnectionButNotTheAnalystsOthers() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount bob = store.account("bob", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
      PrivacyCost cap = PrivacyCost.zcdp(d("0.3"));
      DurableAccountant c1 = new DurableAccountant(bob, cap, "c1", d("1e-9"));
      DurableAccountant c2 = new DurableAccountant(bob, cap, "c2", d("1e-9"));
      for (int i = 0; i < 3; i++) {
        c1.charge(PrivacyCost.zcdp(d("0.1")), "q" + i, "gaussian");
      }
      assertEquals(PrivacyCost.ZERO, c1.remaining());
      assertFalse(c1.canAfford(PrivacyCost.zcdp(d("0.01"))));
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> c1.charge(PrivacyCost.zcdp(d("0.01")), "q3", "gaussian"));
      assertEquals(PrivacyCost.ZERO, e.remaining());
      // the analyst has 0.7 left; the second connection may spend its own cap of 0.3
      assertEquals(PrivacyCost.zcdp(d("0.3")), c2.remaining());
      c2.charge(PrivacyCost.zcdp(d("0.25")), "q4", "gaussian");
      assertEquals(PrivacyCost.zcdp(d("0.05")), c2.remaining());
      assertEquals(PrivacyCost.zcdp(d("0.55")), c1.spent());
      assertEquals(PrivacyCost.zcdp(d("0.25")), c2.connectionSpent());
      // both connections see the analyst's whole ledger
      assertEquals(4, c1.ledger().size());
      // ε at δ = 1e-9 of ρ = 0.55: ρ + 2√(ρ ln(1/δ))
      double expected = 0.55 + 2 * Math.sqrt(0.55 * Math.log(1e9));
      assertEquals(expected, c2.epsilonSpentAtDelta(), 1e-12);
    }
  }

  @Test
  void analystTotalBindsBeforeTheCap() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount carol = store.account("carol", Accounting.PURE, PrivacyCost.pure(d("0.5")));
      DurableAccountant c1 = new DurableAccountant(carol, PrivacyCost.pure(d("0.4")), "c1", null);
      DurableAccountant c2 = new DurableAccountant(carol, PrivacyCost.pure(d("0.4")), "c2", null);
      c1.charge(PrivacyCost.pure(d("0.4")), "q1", "laplace");
      assertEquals(PrivacyCost.pure(d("0.1")), c2.remaining());
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> c2.charge(PrivacyCost.pure(d("0.2")), "q2", "laplace"));
      assertEquals(PrivacyCost.pure(d("0.1")), e.remaining());
      c2.charge(PrivacyCost.pure(d("0.1")), "q3", "laplace");
      assertEquals(PrivacyCost.pure(d("0.5")), c2.spent());
    }
  }

  @Test
  void approxAccountingRefusesWhenDeltaRunsOutEvenIfEpsilonFits() throws Exception {
    try (LedgerStore store = store()) {
      PrivacyCost total = PrivacyCost.approx(d("1"), d("1e-6"));
      AnalystAccount dave = store.account("dave", Accounting.APPROX, total);
      DurableAccountant a = new DurableAccountant(dave, total, "c", null);
      a.charge(PrivacyCost.approx(d("0.1"), d("6e-7")), "q1", "gaussian");
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> a.charge(PrivacyCost.approx(d("0.1"), d("5e-7")), "q2", "gaussian"));
      assertTrue(e.getMessage().contains("not enough δ"), e.getMessage());
      a.charge(PrivacyCost.approx(d("0.1"), d("4e-7")), "q3", "gaussian");
      a.charge(PrivacyCost.pure(d("0.8")), "q4", "laplace"); // pure costs fit approx accounting
      assertEquals(PrivacyCost.approx(d("1"), d("1e-6")), a.spent());
      assertTrue(store.audit("dave").consistent());
    }
  }

  @Test
  void costsWithComponentsTheAccountingDoesNotUseAreRejected() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount erin = store.account("erin", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
      DurableAccountant a = new DurableAccountant(erin, PrivacyCost.zcdp(d("1")), "c", null);
      assertThrows(IllegalArgumentException.class,
          () -> a.charge(PrivacyCost.pure(d("0.1")), "q", "laplace"));
      assertThrows(IllegalArgumentException.class,
          () -> new DurableAccountant(erin, PrivacyCost.pure(d("1")), "c", null));
      assertThrows(IllegalArgumentException.class,
          () -> store.account("frank", Accounting.PURE, PrivacyCost.zcdp(d("1"))));
      assertEquals(PrivacyCost.ZERO, a.spent());
      assertNull(a.epsilonSpentAtDelta()); // zCDP without a reporting δ reports no ε
    }
  }

  @Test
  void anAnalystsLedgerKeepsItsAccounting() throws Exception {
    try (LedgerStore store = store()) {
      store.account("gina", Accounting.PURE, PrivacyCost.pure(d("1")));
      SQLException e = assertThrows(SQLException.class,
          () -> store.account("gina", Accounting.PURE, PrivacyCost.pure(d("2"))));
      assertEquals(SqlStates.POLICY_ERROR, e.getSQLState());
    }
    try (LedgerStore store = store()) {
      SQLException e = assertThrows(SQLException.class,
          () -> store.account("gina", Accounting.ZCDP, PrivacyCost.zcdp(d("1"))));
      assertEquals(SqlStates.POLICY_ERROR, e.getSQLState());
      assertTrue(e.getMessage().contains("pure"), e.getMessage());
    }
  }

  @Test
  void freeAnswersAreRecordedAtNoCost() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount hal = store.account("hal", Accounting.PURE, PrivacyCost.pure(d("1")));
      DurableAccountant a = new DurableAccountant(hal, PrivacyCost.pure(d("1")), "c", null);
      a.charge(PrivacyCost.pure(d("0.5")), "q1", "laplace", 2.5);
      LedgerEntry free = a.recordFree("q2", "synopsis:eigen", 1.25);
      assertEquals(LedgerEntry.SYNOPSIS, free.source());
      assertEquals(2, free.sequence());
      List<LedgerEntry> ledger = a.ledger();
      assertEquals(List.of(LedgerEntry.MEASURED, LedgerEntry.SYNOPSIS),
          ledger.stream().map(LedgerEntry::source).toList());
      assertEquals(2.5, ledger.get(0).expectedRmse());
      assertEquals(1.25, ledger.get(1).expectedRmse());
      assertEquals(PrivacyCost.pure(d("0.5")), a.spent());
      LedgerAudit audit = store.audit("hal");
      assertTrue(audit.consistent());
      assertEquals(1, audit.charged());
      assertEquals(2, audit.entries());
    }
  }

  @Test
  void spendingSurvivesClosingAndReopeningTheStore() throws Exception {
    List<LedgerEntry> before;
    try (LedgerStore store = store()) {
      AnalystAccount ivy = store.account("ivy", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
      DurableAccountant a = new DurableAccountant(ivy, PrivacyCost.zcdp(d("1")), "c1", null);
      a.charge(PrivacyCost.zcdp(d("0.125")), "SELECT COUNT(*) FROM T", "gaussian", 3.0);
      a.charge(PrivacyCost.zcdp(d("0.3")), "SELECT SUM(X) FROM T", "discrete_gaussian");
      before = a.ledger();
    }
    try (LedgerStore store = store()) {
      AnalystAccount ivy = store.account("ivy", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
      DurableAccountant a = new DurableAccountant(ivy, PrivacyCost.zcdp(d("1")), "c2", null);
      assertEquals(PrivacyCost.zcdp(d("0.425")), a.spent());
      assertEquals(PrivacyCost.zcdp(d("0.575")), a.remaining());
      assertEquals(before, a.ledger()); // same sequence, time, text, mechanism, cost, RMSE
      LedgerEntry next = a.charge(PrivacyCost.zcdp(d("0.575")), "q3", "gaussian");
      assertEquals(3, next.sequence());
      assertThrows(BudgetExceededException.class,
          () -> a.charge(PrivacyCost.zcdp(d("0.001")), "q4", "gaussian"));
      assertEquals(List.of("ivy"), store.analysts());
      assertTrue(store.audit("ivy").consistent());
    }
  }

  @Test
  void costsTooFineOrTooLargeToRecordExactlyAreRefusedBeforeAnyArithmetic() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount kai = store.account("kai", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
      DurableAccountant a = new DurableAccountant(kai, PrivacyCost.zcdp(d("1")), "c", null);
      a.charge(PrivacyCost.zcdp(d("0.02")), "q0", "gaussian");
      long start = System.nanoTime();
      for (String tiny : new String[] {"1e-1001", "1e-999999999", "1e+999999999"}) {
        PrivacyCost cost = PrivacyCost.zcdp(d(tiny));
        assertFalse(a.canAfford(cost), tiny);
        assertThrows(BudgetExceededException.class, () -> a.charge(cost, "q", "gaussian"), tiny);
      }
      // exact sums of such values would need ~10^9 digits; the refusals took no such work
      assertTrue(System.nanoTime() - start < 5_000_000_000L);
      a.charge(PrivacyCost.zcdp(d("1e-1000")), "q1", "gaussian"); // 1000 places are fine
      assertEquals(PrivacyCost.zcdp(d("0.02").add(d("1e-1000"))), a.spent());
      assertTrue(store.audit("kai").consistent());
    }
  }

  @Test
  void badArgumentsAreRejected() throws Exception {
    try (LedgerStore store = store()) {
      assertThrows(IllegalArgumentException.class,
          () -> store.account("", Accounting.PURE, PrivacyCost.pure(d("1"))));
      assertThrows(IllegalArgumentException.class,
          () -> store.account("x".repeat(201), Accounting.PURE, PrivacyCost.pure(d("1"))));
      AnalystAccount jo = store.account("jo", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
      assertThrows(IllegalArgumentException.class,
          () -> new DurableAccountant(jo, PrivacyCost.zcdp(d("1")), "c", d("1")));
      assertNull(store.audit("nobody"));
    }
  }

  @Test
  void zcdpTotalsCarryDeltaAndATotalChangesOnlyToOneThatCoversTheSpending() throws Exception {
    try (LedgerStore store = store()) {
      AnalystAccount mo = store.account("mo", Accounting.ZCDP,
          new PrivacyCost(BigDecimal.ZERO, d("1e-10"), d("1")));
      DurableAccountant c = new DurableAccountant(mo,
          new PrivacyCost(BigDecimal.ZERO, d("5e-10"), d("0.5")), "c1", d("1e-9"));
      // private partition selection: ρ and δ, both exact, both against the total
      c.charge(new PrivacyCost(BigDecimal.ZERO, d("6e-11"), d("0.2")), "q1", "partitions");
      BudgetExceededException e = assertThrows(BudgetExceededException.class, () -> c.charge(
          new PrivacyCost(BigDecimal.ZERO, d("6e-11"), d("0.01")), "q2", "partitions"));
      assertEquals(d("4e-11"), e.remaining().delta());
      assertEquals(1, c.ledger().size());
      // ε reported at the reporting δ less the δ spent
      assertEquals(org.dpsql.accounting.Conversions.zcdpToEpsilon(0.2, 1e-9 - 6e-11),
          c.epsilonSpentAtDelta(), 1e-12);

      // lowered below what is spent (δ): refused, nothing changed
      assertFalse(mo.changeTotal(new PrivacyCost(BigDecimal.ZERO, d("5e-11"), d("1"))));
      assertEquals(new PrivacyCost(BigDecimal.ZERO, d("1e-10"), d("1")), mo.total());
      // lowered below what is spent (ρ): refused too
      assertFalse(mo.changeTotal(new PrivacyCost(BigDecimal.ZERO, d("1e-10"), d("0.1"))));
      // lowered to exactly the spending: accepted, nothing more fits
      assertTrue(mo.changeTotal(new PrivacyCost(BigDecimal.ZERO, d("6e-11"), d("0.2"))));
      assertFalse(c.canAfford(PrivacyCost.zcdp(d("0.001"))));
      // raised: the next charge fits, on every connection, and the store accepts the same total
      assertTrue(mo.changeTotal(new PrivacyCost(BigDecimal.ZERO, d("2e-10"), d("2"))));
      c.charge(new PrivacyCost(BigDecimal.ZERO, d("6e-11"), d("0.01")), "q3", "partitions");
      assertEquals(new PrivacyCost(BigDecimal.ZERO, d("1.2e-10"), d("0.21")), c.spent());
      assertEquals(mo, store.account("mo", Accounting.ZCDP,
          new PrivacyCost(BigDecimal.ZERO, d("2e-10"), d("2"))));
      assertThrows(IllegalArgumentException.class,
          () -> mo.changeTotal(PrivacyCost.pure(d("1"))));
      assertTrue(store.audit("mo").consistent());
      assertTrue(store.reachable(2));
    }
  }
}
