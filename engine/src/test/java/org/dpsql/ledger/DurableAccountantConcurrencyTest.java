package org.dpsql.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.BudgetExceededException;
import org.dpsql.accounting.PrivacyCost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableAccountantConcurrencyTest {
  @TempDir Path dir;

  private static BigDecimal d(String s) {
    return new BigDecimal(s);
  }

  /** Outcome counts of a batch of concurrent charges. */
  private record Outcome(int accepted, int refused) {}

  /**
   * {@code threads} threads each charge {@code perThread} times {@code cost} on the accountant
   * chosen round-robin; returns how many charges were accepted and refused.
   */
  private static Outcome hammer(List<DurableAccountant> accountants, int threads, int perThread,
      PrivacyCost cost) throws Exception {
    AtomicInteger accepted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        DurableAccountant a = accountants.get(t % accountants.size());
        int thread = t;
        futures.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            try {
              a.charge(cost, "t" + thread + " q" + i, "laplace");
              accepted.incrementAndGet();
            } catch (BudgetExceededException e) {
              refused.incrementAndGet();
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return new Outcome(accepted.get(), refused.get());
  }

  @Test
  void concurrentConnectionsOfOneAnalystNeverOverspend() throws Exception {
    try (LedgerStore store =
        LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), new Properties())) {
      AnalystAccount a = store.account("alice", Accounting.PURE, PrivacyCost.pure(d("1.5")));
      List<DurableAccountant> connections = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        connections.add(new DurableAccountant(a, PrivacyCost.pure(d("1.5")), "c" + c, null));
      }
      // 8 threads × 40 charges of 0.01 against 1.5: exactly 150 fit, 170 are refused
      Outcome o = hammer(connections, 8, 40, PrivacyCost.pure(d("0.01")));
      assertEquals(150, o.accepted());
      assertEquals(170, o.refused());
      assertEquals(PrivacyCost.pure(d("1.5")), a.spent());
      LedgerAudit audit = store.audit("alice");
      assertTrue(audit.consistent(), audit.toString());
      assertEquals(150, audit.charged());
      BigDecimal perConnection = BigDecimal.ZERO;
      for (DurableAccountant c : connections) {
        perConnection = perConnection.add(c.connectionSpent().epsilon());
      }
      assertEquals(0, perConnection.compareTo(d("1.5")));
    }
  }

  @Test
  void perConnectionCapsHoldUnderConcurrency() throws Exception {
    try (LedgerStore store =
        LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), new Properties())) {
      AnalystAccount a = store.account("bob", Accounting.ZCDP, PrivacyCost.zcdp(d("10")));
      List<DurableAccountant> connections = new ArrayList<>();
      for (int c = 0; c < 3; c++) {
        connections.add(new DurableAccountant(a, PrivacyCost.zcdp(d("0.2")), "c" + c, null));
      }
      // 6 threads (2 per connection) × 30 charges of 0.01; each connection stops at 0.2 = 20
      Outcome o = hammer(connections, 6, 30, PrivacyCost.zcdp(d("0.01")));
      assertEquals(60, o.accepted());
      assertEquals(120, o.refused());
      for (DurableAccountant c : connections) {
        assertEquals(PrivacyCost.zcdp(d("0.2")), c.connectionSpent());
      }
      assertEquals(PrivacyCost.zcdp(d("0.6")), a.spent());
    }
  }

  @Test
  void twoStoresSharingOneDatabaseNeverJointlyOverspend() throws Exception {
    // Two stores on one database stand for two server processes: their locks are separate, so only
    // the compare-and-set on the balance row keeps them from overspending together.
    String url = "jdbc:h2:mem:shared-ledger-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000";
    try (LedgerStore one = LedgerStore.open(url, new Properties());
        LedgerStore two = LedgerStore.open(url, new Properties())) {
      PrivacyCost total = PrivacyCost.approx(d("1"), d("1e-6"));
      AnalystAccount a1 = one.account("carol", Accounting.APPROX, total);
      AnalystAccount a2 = two.account("carol", Accounting.APPROX, total);
      List<DurableAccountant> connections = List.of(
          new DurableAccountant(a1, total, "p1", null), new DurableAccountant(a2, total, "p2", null),
          new DurableAccountant(a1, total, "p1b", null), new DurableAccountant(a2, total, "p2b", null));
      // cost (0.01, 1e-8): both components allow exactly 100 charges
      Outcome o = hammer(connections, 8, 25, PrivacyCost.approx(d("0.01"), d("1e-8")));
      assertEquals(100, o.accepted());
      assertEquals(100, o.refused());
      assertEquals(total, a1.spent());
      assertEquals(total, a2.spent());
      LedgerAudit audit = one.audit("carol");
      assertTrue(audit.consistent(), audit.toString());
      assertEquals(100, audit.charged());
    }
  }

  @Test
  void aBusyAnalystDoesNotBlockAnother() throws Exception {
    CountDownLatch aliceInside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // A clock that stalls alice's charge while it holds alice's lock (the clock is read there).
    Clock clock = new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        if (Thread.currentThread().getName().equals("alice-charger")) {
          aliceInside.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return Instant.EPOCH;
      }
    };
    try (LedgerStore store =
        LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), new Properties(), clock)) {
      PrivacyCost total = PrivacyCost.pure(d("1"));
      DurableAccountant alice =
          new DurableAccountant(store.account("alice", Accounting.PURE, total), total, "a", null);
      DurableAccountant bob =
          new DurableAccountant(store.account("bob", Accounting.PURE, total), total, "b", null);
      Thread t = new Thread(() -> {
        try {
          alice.charge(PrivacyCost.pure(d("0.5")), "slow", "laplace");
        } catch (BudgetExceededException e) {
          throw new AssertionError(e);
        }
      }, "alice-charger");
      t.start();
      assertTrue(aliceInside.await(10, TimeUnit.SECONDS));
      long start = System.nanoTime();
      for (int i = 0; i < 10; i++) {
        bob.charge(PrivacyCost.pure(d("0.1")), "q" + i, "laplace");
      }
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
      assertEquals(PrivacyCost.pure(d("1")), bob.spent());
      assertTrue(t.isAlive(), "alice's charge is still held up");
      release.countDown();
      t.join(10_000);
      assertEquals(PrivacyCost.pure(d("0.5")), alice.spent());
    }
  }
}
