package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.junit.jupiter.api.Test;

class AccountantTest {

  private static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  private static BigDecimal d(String s) {
    return new BigDecimal(s);
  }

  private static void assertExactly(String expected, BigDecimal actual) {
    assertEquals(
        0, d(expected).compareTo(actual), () -> expected + " != " + actual.toPlainString());
  }

  // ---- composition ------------------------------------------------------------------------------

  @Test
  void pureEpsilonAddsExactly() throws SQLException {
    Accountant a = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("0.3")), null);
    a.charge(PrivacyCost.pure(d("0.1")), "SELECT 1", "laplace");
    a.charge(PrivacyCost.pure(d("0.2")), "SELECT 2", "laplace");
    assertExactly("0.3", a.spent().epsilon());
    assertTrue(a.remaining().isZero());
    assertThrows(
        BudgetExceededException.class,
        () -> a.charge(PrivacyCost.pure(d("1e-12")), "SELECT 3", "laplace"));
    assertExactly("0.3", a.spent().epsilon());
    assertEquals(2, a.ledger().size());
  }

  @Test
  void doublesWouldHaveRefusedTheSecondCharge() {
    // The reason for BigDecimal: in binary floating point 0.1 + 0.2 > 0.3.
    assertTrue(0.1 + 0.2 > 0.3);
  }

  @Test
  void approxEpsilonAndDeltaBothAdd() throws SQLException {
    Accountant a =
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("0.3"), d("1e-6")), null);
    a.charge(PrivacyCost.approx(d("0.1"), d("3e-7")), "q1", "gaussian");
    a.charge(PrivacyCost.approx(d("0.2"), d("7e-7")), "q2", "gaussian");
    assertEquals(PrivacyCost.approx(d("0.3"), d("1e-6")), a.spent());
    assertTrue(a.remaining().isZero());
    assertThrows(
        BudgetExceededException.class,
        () -> a.charge(PrivacyCost.pure(d("1e-12")), "q3", "laplace"));
    assertEquals(PrivacyCost.approx(d("0.3"), d("1e-6")), a.spent());
  }

  @Test
  void approxRefusesWhenOnlyDeltaIsShort() throws SQLException {
    Accountant a =
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("10"), d("1e-6")), null);
    a.charge(PrivacyCost.approx(d("0.1"), d("6e-7")), "q1", "gaussian");
    BudgetExceededException e =
        assertThrows(
            BudgetExceededException.class,
            () -> a.charge(PrivacyCost.approx(d("0.1"), d("5e-7")), "q2", "gaussian"));
    assertTrue(e.getMessage().contains("not enough δ"), e.getMessage());
    assertEquals(PrivacyCost.approx(d("0.1"), d("6e-7")), a.spent());
    // Pure-ε charges still fit: δ adds zero.
    a.charge(PrivacyCost.pure(d("9.9")), "q3", "laplace");
    assertEquals(PrivacyCost.approx(d("10"), d("6e-7")), a.spent());
  }

  @Test
  void approxDeltaSumAtOrAboveOneIsABudgetRefusalNotAnArgumentError() throws SQLException {
    Accountant a =
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("10"), d("0.9")), null);
    a.charge(PrivacyCost.approx(d("1"), d("0.6")), "q1", "m");
    assertThrows(
        BudgetExceededException.class,
        () -> a.charge(PrivacyCost.approx(d("1"), d("0.6")), "q2", "m"));
  }

  @Test
  void zcdpRhoAddsExactly() throws SQLException {
    Accountant a = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("0.3")), d("1e-6"));
    a.charge(PrivacyCost.zcdp(d("0.1")), "q1", "gaussian");
    a.charge(PrivacyCost.zcdp(d("0.2")), "q2", "gaussian");
    assertEquals(PrivacyCost.zcdp(d("0.3")), a.spent());
    assertThrows(
        BudgetExceededException.class,
        () -> a.charge(PrivacyCost.zcdp(d("1e-12")), "q3", "gaussian"));
    assertEquals(PrivacyCost.zcdp(d("0.3")), a.spent());
    assertTrue(a.remaining().isZero());
  }

  // ---- ledger -----------------------------------------------------------------------------------

  @Test
  void ledgerRecordsChargesInOrder() throws SQLException {
    Accountant a =
        Accountant.create(Accounting.PURE, PrivacyCost.pure(d("1")), null, CLOCK);
    LedgerEntry first = a.charge(PrivacyCost.pure(d("0.1")), "SELECT COUNT(*) FROM t", "laplace");
    LedgerEntry second = a.charge(PrivacyCost.pure(d("0.2")), "SELECT SUM(x) FROM t", "laplace");
    assertEquals(
        new LedgerEntry(1, NOW, "SELECT COUNT(*) FROM t", "laplace", PrivacyCost.pure(d("0.1"))),
        first);
    assertEquals(2, second.sequence());
    assertEquals(List.of(first, second), a.ledger());
  }

  @Test
  void ledgerIsAnImmutableSnapshot() throws SQLException {
    Accountant a = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("1")), null);
    a.charge(PrivacyCost.pure(d("0.1")), "q1", "laplace");
    List<LedgerEntry> snapshot = a.ledger();
    assertThrows(UnsupportedOperationException.class, () -> snapshot.add(snapshot.get(0)));
    assertThrows(UnsupportedOperationException.class, snapshot::clear);
    a.charge(PrivacyCost.pure(d("0.1")), "q2", "laplace");
    assertEquals(1, snapshot.size());
    assertEquals(2, a.ledger().size());
  }

  @Test
  void zeroCostChargeIsRecorded() throws SQLException {
    Accountant a = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("0")), null);
    assertTrue(a.canAfford(PrivacyCost.ZERO));
    a.charge(PrivacyCost.ZERO, "SELECT * FROM public_table", "none");
    assertEquals(1, a.ledger().size());
    assertTrue(a.spent().isZero());
  }

  // ---- exhaustion -------------------------------------------------------------------------------

  @Test
  void refusalHasXdp01ChargesNothingAndExplains() throws SQLException {
    Accountant a = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("1")), null);
    a.charge(PrivacyCost.pure(d("0.75")), "q1", "laplace");
    PrivacyCost spentBefore = a.spent();
    List<LedgerEntry> ledgerBefore = a.ledger();

    BudgetExceededException e =
        assertThrows(
            BudgetExceededException.class,
            () -> a.charge(PrivacyCost.pure(d("0.5")), "q2", "laplace"));

    assertInstanceOf(SQLException.class, e);
    assertEquals(SqlStates.BUDGET_EXHAUSTED, e.getSQLState());
    assertEquals("XDP01", e.getSQLState());
    assertEquals(spentBefore, a.spent());
    assertEquals(ledgerBefore, a.ledger());
    assertEquals(PrivacyCost.pure(d("0.25")), a.remaining());
    assertEquals(PrivacyCost.pure(d("0.5")), e.requested());
    assertEquals(PrivacyCost.pure(d("0.25")), e.remaining());
    assertSame(Accounting.PURE, e.accounting());
    String m = e.getMessage();
    assertTrue(m.contains("requests ε=0.5"), m);
    assertTrue(m.contains("remaining budget is ε=0.25"), m);
    assertTrue(m.contains("Nothing was charged"), m);
    assertTrue(m.contains("smaller cost with the DP hint"), m);

    // A cost that fits is still accepted afterwards.
    a.charge(PrivacyCost.pure(d("0.25")), "q3", "laplace");
    assertTrue(a.remaining().isZero());
  }

  @Test
  void refusalMessageShowsTheAccountingsComponents() throws SQLException {
    Accountant z = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("0.05")), null);
    z.charge(PrivacyCost.zcdp(d("0.05")), "q", "gaussian");
    BudgetExceededException e =
        assertThrows(
            BudgetExceededException.class,
            () -> z.charge(PrivacyCost.zcdp(d("0.01")), "q", "gaussian"));
    assertTrue(e.getMessage().contains("requests ρ=0.01"), e.getMessage());
    assertTrue(e.getMessage().contains("remaining budget is ρ=0"), e.getMessage());

    Accountant ap =
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("1"), d("1e-6")), null);
    e =
        assertThrows(
            BudgetExceededException.class,
            () -> ap.charge(PrivacyCost.approx(d("2"), d("1e-7")), "q", "gaussian"));
    assertTrue(e.getMessage().contains("requests ε=2, δ=1e-7"), e.getMessage());
    assertTrue(e.getMessage().contains("remaining budget is ε=1, δ=1e-6"), e.getMessage());
    assertTrue(e.getMessage().contains("not enough ε"), e.getMessage());
  }

  @Test
  void canAffordIsAdvisoryAndDoesNotCharge() throws SQLException {
    Accountant a = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("0.3")), null);
    assertTrue(a.canAfford(PrivacyCost.pure(d("0.3"))));
    assertFalse(a.canAfford(PrivacyCost.pure(d("0.300000000001"))));
    assertTrue(a.spent().isZero());
    assertTrue(a.ledger().isEmpty());
    a.charge(PrivacyCost.pure(d("0.1")), "q", "laplace");
    assertTrue(a.canAfford(PrivacyCost.pure(d("0.2"))));
    assertFalse(a.canAfford(PrivacyCost.pure(d("0.2000001"))));
  }

  // ---- reporting --------------------------------------------------------------------------------

  @Test
  void zcdpReportsTheTightestEpsilonAtTheReportingDelta() throws SQLException {
    Accountant a = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("0.5")), d("1e-6"));
    double total = a.epsilonTotalAtDelta();
    // the optimised Rényi conversion beats the analytic 5.7565 at ρ = 0.5, δ = 1e-6
    assertTrue(total < Conversions.zcdpToEpsilon(0.5, 1e-6) - 0.1, "got " + total);
    assertEquals(bruteForceZcdpEpsilon(0.5, 1e-6), total, 1e-6);
    assertTrue(total >= bruteForceZcdpEpsilon(0.5, 1e-6) - 1e-8, "never below the grid minimum");
    assertEquals(0.0, a.epsilonSpentAtDelta());
    a.charge(PrivacyCost.zcdp(d("0.125")), "q", "gaussian");
    double spent = a.epsilonSpentAtDelta();
    assertTrue(spent < Conversions.zcdpToEpsilon(0.125, 1e-6), "got " + spent);
    assertEquals(bruteForceZcdpEpsilon(0.125, 1e-6), spent, 1e-6);
  }

  @Test
  void zcdpReportsTheAnalyticFormWhenItIsSmaller() throws SQLException {
    // for a large δ and a tiny ρ the two forms are close; whatever is reported is at most the
    // analytic bound and at least the exact infimum of the Rényi conversion
    for (String rho : new String[] {"1e-8", "0.001", "0.3", "4", "50"}) {
      for (String delta : new String[] {"0.5", "1e-3", "1e-10", "1e-30"}) {
        Accountant a = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d(rho)), d(delta));
        double r = Double.parseDouble(rho);
        double dl = Double.parseDouble(delta);
        double reported = a.epsilonTotalAtDelta();
        double analytic = Conversions.zcdpToEpsilon(r, dl);
        assertTrue(reported <= analytic, rho + "/" + delta);
        double inf = Math.min(analytic, bruteForceZcdpEpsilon(r, dl, 100_000));
        assertEquals(inf, reported, 1e-5 * Math.max(1, inf), rho + "/" + delta);
      }
    }
  }

  /** min over α ∈ (1, 10^6] on a fine log grid of ρα + (ln(1/δ) + (α−1)ln(1−1/α) − ln α)/(α−1). */
  private static double bruteForceZcdpEpsilon(double rho, double delta) {
    return bruteForceZcdpEpsilon(rho, delta, 1_000_000);
  }

  private static double bruteForceZcdpEpsilon(double rho, double delta, int points) {
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= points; i++) {
      double alpha = 1 + Math.pow(10, -3 + 9.0 * i / points);
      double am1 = alpha - 1;
      double e = rho * alpha
          + (-Math.log(delta) + am1 * Math.log1p(-1 / alpha) - Math.log(alpha)) / am1;
      best = Math.min(best, e);
    }
    return Math.max(0, best);
  }

  @Test
  void zcdpWithoutReportingDeltaReportsNull() throws SQLException {
    Accountant a = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("0.5")), null);
    a.charge(PrivacyCost.zcdp(d("0.1")), "q", "gaussian");
    assertNull(a.epsilonSpentAtDelta());
    assertNull(a.epsilonTotalAtDelta());
  }

  @Test
  void pureAndApproxReportTheirEpsilon() throws SQLException {
    Accountant p = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("2")), null);
    p.charge(PrivacyCost.pure(d("0.5")), "q", "laplace");
    assertEquals(0.5, p.epsilonSpentAtDelta());
    assertEquals(2.0, p.epsilonTotalAtDelta());

    Accountant ap =
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("3"), d("1e-6")), d("1e-9"));
    ap.charge(PrivacyCost.approx(d("1.5"), d("1e-7")), "q", "gaussian");
    assertEquals(1.5, ap.epsilonSpentAtDelta());
    assertEquals(3.0, ap.epsilonTotalAtDelta());
  }

  @Test
  void createPicksTheImplementation() {
    assertInstanceOf(
        PureDpAccountant.class, Accountant.create(Accounting.PURE, PrivacyCost.pure(d("1")), null));
    assertInstanceOf(
        ApproxDpAccountant.class,
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("1"), d("1e-6")), null));
    Accountant z = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("1")), d("1e-6"));
    assertInstanceOf(ZcdpAccountant.class, z);
    assertEquals(Accounting.ZCDP, z.accounting());
    assertEquals(PrivacyCost.zcdp(d("1")), z.total());
    assertEquals(PrivacyCost.zcdp(d("1")), z.remaining());
  }

  // ---- invalid inputs ---------------------------------------------------------------------------

  @Test
  void mismatchedCostComponentsAreRejected() {
    Accountant pure = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("1")), null);
    Accountant approx =
        Accountant.create(Accounting.APPROX, PrivacyCost.approx(d("1"), d("1e-6")), null);
    Accountant zcdp = Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("1")), null);

    assertThrows(
        IllegalArgumentException.class, () -> pure.charge(PrivacyCost.zcdp(d("0.1")), "q", "m"));
    assertThrows(
        IllegalArgumentException.class,
        () -> pure.charge(PrivacyCost.approx(d("0.1"), d("1e-9")), "q", "m"));
    assertThrows(
        IllegalArgumentException.class, () -> approx.charge(PrivacyCost.zcdp(d("0.1")), "q", "m"));
    assertThrows(
        IllegalArgumentException.class, () -> zcdp.charge(PrivacyCost.pure(d("0.1")), "q", "m"));
    // a zCDP total without δ cannot pay the δ of an approximately zCDP release
    assertThrows(
        BudgetExceededException.class,
        () -> zcdp.charge(new PrivacyCost(d("0"), d("1e-9"), d("0.1")), "q", "m"));
    assertThrows(IllegalArgumentException.class, () -> pure.canAfford(PrivacyCost.zcdp(d("0.1"))));

    for (Accountant a : List.of(pure, approx, zcdp)) {
      assertTrue(a.spent().isZero());
      assertTrue(a.ledger().isEmpty());
    }
  }

  @Test
  void mismatchedTotalsAreRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> Accountant.create(Accounting.PURE, PrivacyCost.approx(d("1"), d("1e-6")), null));
    assertThrows(
        IllegalArgumentException.class,
        () -> Accountant.create(Accounting.PURE, PrivacyCost.zcdp(d("1")), null));
    assertThrows(
        IllegalArgumentException.class,
        () -> Accountant.create(Accounting.APPROX, PrivacyCost.zcdp(d("1")), null));
    assertThrows(
        IllegalArgumentException.class,
        () -> Accountant.create(Accounting.ZCDP, PrivacyCost.pure(d("1")), d("1e-6")));
  }

  @Test
  void invalidReportingDeltaIsRejected() {
    for (String delta : new String[] {"0", "1", "1.5", "-1e-6"}) {
      assertThrows(
          IllegalArgumentException.class,
          () -> Accountant.create(Accounting.ZCDP, PrivacyCost.zcdp(d("1")), d(delta)),
          delta);
    }
  }

  @Test
  void nullsAreRejected() {
    Accountant a = Accountant.create(Accounting.PURE, PrivacyCost.pure(d("1")), null);
    assertThrows(NullPointerException.class, () -> a.charge(null, "q", "m"));
    assertThrows(NullPointerException.class, () -> a.charge(PrivacyCost.ZERO, null, "m"));
    assertThrows(NullPointerException.class, () -> a.charge(PrivacyCost.ZERO, "q", null));
    assertThrows(
        NullPointerException.class, () -> Accountant.create(null, PrivacyCost.ZERO, null));
    assertThrows(
        NullPointerException.class, () -> Accountant.create(Accounting.PURE, null, null));
  }

  @Test
  void ledgerEntryValidates() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new LedgerEntry(0, NOW, "q", "m", PrivacyCost.ZERO));
    assertThrows(
        NullPointerException.class, () -> new LedgerEntry(1, null, "q", "m", PrivacyCost.ZERO));
  }

  @Test
  void zcdpTracksTheDeltaOfApproximateZcdpAndReportsEpsilonAtTheDeltaLeft() throws Exception {
    Accountant a = Accountant.create(Accounting.ZCDP,
        new PrivacyCost(d("0"), d("5e-7"), d("1")), d("1e-6"));
    double before = a.epsilonTotalAtDelta();
    assertEquals(ZcdpAccountant.epsilonAt(1, 1e-6, Math.log(1e6)), before, 1e-12);
    a.charge(new PrivacyCost(d("0"), d("2e-7"), d("0.1")), "q", "partition_selection");
    assertEquals(0, d("2e-7").compareTo(a.spent().delta()));
    // (ρ, δ_a)-approximate zCDP is (ε(ρ, δ'), δ' + δ_a)-DP: reported at δ' = 1e-6 − 2e-7
    assertEquals(ZcdpAccountant.epsilonAt(1, 8e-7, Math.log(1 / 8e-7)), a.epsilonTotalAtDelta(),
        1e-9);
    assertEquals(ZcdpAccountant.epsilonAt(0.1, 8e-7, Math.log(1 / 8e-7)),
        a.epsilonSpentAtDelta(), 1e-9);
    assertTrue(a.epsilonTotalAtDelta() > before);
    // 2e-7 + 4e-7 exceeds the 5e-7 of δ the total allows
    assertThrows(BudgetExceededException.class,
        () -> a.charge(new PrivacyCost(d("0"), d("4e-7"), d("0.1")), "q", "m"));
    assertEquals(0, d("0.1").compareTo(a.spent().rho()), "nothing charged by the refusal");
  }
}
