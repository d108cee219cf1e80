package org.dpsql.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.session.ReleaseStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The owner's read-only view of the ledger: snapshots that agree, and no waiting for charges. */
class LedgerReaderTest {
  @TempDir Path dir;

  private static BigDecimal d(String s) {
    return new BigDecimal(s);
  }

  @Test
  void summariesAndHistoriesAgreeWithTheAccounts() throws Exception {
    try (LedgerStore store =
        LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), new Properties())) {
      summariesAndHistoriesAgree(store);
    }
  }

  @Test
  void aChargeCompletesWhileTheReadersSnapshotIsOpenAndTheSnapshotStaysConsistent()
      throws Exception {
    try (LedgerStore store =
        LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), new Properties())) {
      chargeCompletesDuringASnapshot(store);
    }
  }

  /** On a fresh store: what the reader reports equals what the accounts hold. */
  static void summariesAndHistoriesAgree(LedgerStore store) throws Exception {
    AnalystAccount alice = store.account("alice", Accounting.ZCDP, PrivacyCost.zcdp(d("2")));
    store.account("bob", Accounting.ZCDP, PrivacyCost.zcdp(d("1")));
    DurableAccountant a = new DurableAccountant(alice, PrivacyCost.zcdp(d("1")), "c1", null);
    for (int i = 0; i < 5; i++) {
      a.charge(PrivacyCost.zcdp(d("0.03")), "q" + i, "gaussian", 1.5);
    }
    a.recordFree("q0", "synopsis:answer", null);
    store.releases("alice").save("fp", new ReleaseStore.Entry("answer", "q0", new byte[] {1}));
    LedgerReader reader = store.reader();
    List<LedgerReader.Summary> all = reader.summaries();
    assertEquals(List.of("alice", "bob"), all.stream().map(LedgerReader.Summary::analyst).toList());
    LedgerReader.Summary s = all.get(0);
    assertEquals(PrivacyCost.zcdp(d("0.15")), s.spent());
    assertEquals(5, s.paid());
    assertEquals(1, s.free());
    assertEquals(alice.ledger().get(5).time(), s.lastActivity());
    assertEquals(0, all.get(1).paid());
    assertNull(all.get(1).lastActivity());

    LedgerReader.History h = reader.history("alice", 3, 2, 10);
    assertEquals(List.of(4L, 5L, 6L),
        h.charges().stream().map(LedgerReader.Charge::sequence).toList());
    assertEquals(List.of(true, true, false),
        h.charges().stream().map(LedgerReader.Charge::paid).toList());
    assertEquals(3, h.omitted());
    assertEquals(alice.ledger().subList(4, 6), h.entries());
    // the spend before the series plus the series is the balance, exactly
    PrivacyCost window = h.charges().stream().map(LedgerReader.Charge::cost)
        .reduce(PrivacyCost.ZERO, PrivacyCost::plus);
    assertEquals(PrivacyCost.zcdp(d("0.09")), h.spentBefore());
    assertEquals(s.spent(), h.spentBefore().plus(window));
    assertEquals(5, h.summary().paid());
    assertEquals(1, h.summary().free());
    assertEquals(1, h.releases().size());
    assertEquals("q0", h.releases().get(0).key());
    assertEquals("fp", h.releases().get(0).policyFingerprint());
    assertNull(reader.history("nobody", 10, 10, 10));
    // counted again after more entries: only the new ones are read, the totals are exact
    a.recordFree("q1", "synopsis:answer", null);
    a.charge(PrivacyCost.zcdp(d("0.01")), "q9", "gaussian", null);
    LedgerReader.Summary again = reader.summaries().get(0);
    assertEquals(6, again.paid());
    assertEquals(2, again.free());
    assertEquals(PrivacyCost.zcdp(d("0.16")), again.spent());
    assertEquals(again.free(), store.reader().summaries().get(0).free(), "a fresh reader agrees");
  }

  /** On a fresh store: a charge from another thread completes inside the reader's snapshot. */
  static void chargeCompletesDuringASnapshot(LedgerStore store) throws Exception {
    AnalystAccount alice = store.account("alice", Accounting.PURE, PrivacyCost.pure(d("1")));
    DurableAccountant a = new DurableAccountant(alice, PrivacyCost.pure(d("1")), "c1", null);
    a.charge(PrivacyCost.pure(d("0.1")), "first", "laplace");
    LedgerReader reader = store.reader();
    String[] seen = reader.read(c -> {
      String before = spent(c);
      // a charge from another thread, while this snapshot transaction is open
      CompletableFuture<LedgerEntry> charge = CompletableFuture.supplyAsync(() -> {
        try {
          return a.charge(PrivacyCost.pure(d("0.2")), "second", "laplace");
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      LedgerEntry done;
      try {
        done = charge.get(10, TimeUnit.SECONDS); // would time out if the reader blocked it
      } catch (Exception e) {
        throw new AssertionError("the charge waited for the reader", e);
      }
      assertEquals(2, done.sequence());
      return new String[] {before, spent(c)};
    });
    // the snapshot did not move while it was open
    assertEquals(0, new BigDecimal(seen[0]).compareTo(d("0.1")));
    assertEquals(0, new BigDecimal(seen[1]).compareTo(d("0.1")));
    assertEquals(PrivacyCost.pure(d("0.3")), reader.summaries().get(0).spent());
    assertTrue(store.audit("alice").consistent());
  }

  private static String spent(java.sql.Connection c) throws java.sql.SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT SPENT_EPSILON FROM DPSQL_BALANCE WHERE ANALYST = 'alice'");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getString(1);
    }
  }
}
