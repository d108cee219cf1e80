package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AccountantConcurrencyTest {

  private static final int THREADS = 16;
  private static final int CHARGES_PER_THREAD = 1000;

  @ParameterizedTest
  @EnumSource(Accounting.class)
  @Timeout(value = 20, unit = TimeUnit.SECONDS)
  void concurrentChargesNeverExceedTheTotal(Accounting accounting) throws Exception {
    Function<BigDecimal, PrivacyCost> cost =
        switch (accounting) {
          case PURE -> PrivacyCost::pure;
          case APPROX -> eps -> PrivacyCost.approx(eps, eps.movePointLeft(9));
          case ZCDP -> PrivacyCost::zcdp;
        };
    PrivacyCost total = cost.apply(new BigDecimal("5.0"));
    PrivacyCost each = cost.apply(new BigDecimal("0.001"));
    Accountant accountant = Accountant.create(accounting, total, new BigDecimal("1e-6"));

    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<int[]>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        final int thread = t;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  int ok = 0;
                  int refused = 0;
                  for (int i = 0; i < CHARGES_PER_THREAD; i++) {
                    try {
                      accountant.charge(each, "q" + thread + "-" + i, "laplace");
                      ok++;
                    } catch (BudgetExceededException e) {
                      refused++;
                    }
                  }
                  return new int[] {ok, refused};
                }));
      }
      start.countDown();
      int succeeded = 0;
      int refused = 0;
      for (Future<int[]> f : results) {
        int[] r = f.get(20, TimeUnit.SECONDS);
        succeeded += r[0];
        refused += r[1];
      }

      assertEquals(5000, succeeded);
      assertEquals(THREADS * CHARGES_PER_THREAD - 5000, refused);
      assertEquals(total, accountant.spent());
      assertTrue(accountant.remaining().isZero());
      PrivacyCost expectedSpent = cost.apply(new BigDecimal("5.000"));
      assertEquals(0, expectedSpent.epsilon().compareTo(accountant.spent().epsilon()));
      assertEquals(0, expectedSpent.delta().compareTo(accountant.spent().delta()));
      assertEquals(0, expectedSpent.rho().compareTo(accountant.spent().rho()));

      List<LedgerEntry> ledger = accountant.ledger();
      assertEquals(5000, ledger.size());
      Set<Long> sequences = new HashSet<>();
      Set<String> statements = new HashSet<>();
      for (int i = 0; i < ledger.size(); i++) {
        LedgerEntry e = ledger.get(i);
        assertTrue(sequences.add(e.sequence()), "repeated sequence " + e.sequence());
        assertTrue(statements.add(e.statement()), "statement charged twice " + e.statement());
        assertEquals(i + 1, e.sequence(), "ledger out of charge order");
      }
    } finally {
      pool.shutdownNow();
      assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }
  }
}
