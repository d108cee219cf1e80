package org.dpsql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.dpsql.accounting.LedgerEntry;
import org.junit.jupiter.api.Test;

/** Budgets through JDBC: each accounting's charges, concurrent statements on one connection, DataSource. */
class AccountingEndToEndTest {

  @Test
  void concurrentStatementsOnOneConnectionNeverOverspend() throws Exception {
    try (TestDatabase db = TestDatabase.create(500, TestDatabase.ZCDP, null);
        Connection c = db.connect()) {
      int threads = 8;
      int perThread = 6; // 48 distinct queries of rho 0.1 against a budget of 1.0
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      AtomicInteger ok = new AtomicInteger();
      AtomicInteger exhausted = new AtomicInteger();
      List<Future<?>> fs = new java.util.ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        fs.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            try (Statement st = c.createStatement()) {
              st.executeQuery("SELECT COUNT(*) FROM TRIPS WHERE AGE > " + (thread * 100 + i)).close();
              ok.incrementAndGet();
            } catch (SQLException e) {
              assertEquals("XDP01", e.getSQLState(), e.getMessage());
              exhausted.incrementAndGet();
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : fs) {
        f.get();
      }
      pool.shutdown();
      assertEquals(10, ok.get(), "exactly budget / cost queries succeed");
      assertEquals(38, exhausted.get());
      assertEquals(0, BigDecimal.ONE.compareTo(TestDatabase.session(c).accountant().spent().rho()));
      assertEquals(10, TestDatabase.session(c).accountant().ledger().size());
    }
  }

  @Test
  void pureAccountingChargesEpsilon() throws Exception {
    try (TestDatabase db = TestDatabase.create(500, TestDatabase.PURE, null);
        Connection c = db.connect(); Statement st = c.createStatement()) {
      st.executeQuery("SELECT REGION, COUNT(*), SUM(FARE) FROM TRIPS GROUP BY REGION").close();
      st.executeQuery("SELECT /*+ DP(epsilon='0.25') */ COUNT(*) FROM TRIPS").close();
      List<LedgerEntry> ledger = TestDatabase.session(c).accountant().ledger();
      assertEquals(2, ledger.size());
      assertEquals(0, new BigDecimal("0.1").compareTo(ledger.get(0).cost().epsilon()));
      assertEquals("geometric", ledger.get(0).mechanism());
      assertEquals(0, new BigDecimal("0.35").compareTo(TestDatabase.session(c).accountant().spent().epsilon()));
      SQLException e = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT /*+ DP(epsilon='0.7') */ AGE, COUNT(*) FROM TRIPS GROUP BY AGE"));
      assertEquals("XDP01", e.getSQLState());
      SQLException g = assertThrows(SQLException.class,
          () -> st.executeQuery("SELECT /*+ DP(mechanism='gaussian') */ COUNT(*) FROM TRIPS"));
      assertEquals("XDP05", g.getSQLState(), "a Gaussian cannot be pure DP");
    }
  }

  @Test
  void approxAccountingChargesEpsilonAndDelta() throws Exception {
    try (TestDatabase db = TestDatabase.create(500, TestDatabase.APPROX, null);
        Connection c = db.connect(); Statement st = c.createStatement()) {
      st.executeQuery("SELECT REGION, COUNT(*) FROM TRIPS GROUP BY REGION").close();
      st.executeQuery("SELECT /*+ DP(epsilon='0.5', mechanism='geometric') */ PAYMENT, COUNT(*) FROM TRIPS GROUP BY PAYMENT").close();
      var spent = TestDatabase.session(c).accountant().spent();
      assertEquals(0, BigDecimal.ONE.compareTo(spent.epsilon()));
      assertEquals(0, new BigDecimal("1e-7").compareTo(spent.delta()), "the geometric mechanism spends no delta");
      assertEquals("discrete_gaussian", TestDatabase.session(c).accountant().ledger().get(0).mechanism());
    }
  }

  @Test
  void dataSourceConnectionsHaveTheirOwnBudgets() throws Exception {
    try (TestDatabase db = TestDatabase.create(200, TestDatabase.ZCDP, null)) {
      DpsqlDataSource ds = new DpsqlDataSource();
      ds.setUrl(db.dpsqlUrl());
      ds.setPolicy(db.policyFile.toString());
      ds.setSeed("11");
      try (Connection a = ds.getConnection(); Connection b = ds.getConnection();
          Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
        sa.executeQuery("SELECT /*+ DP(rho='0.9') */ COUNT(*) FROM TRIPS").close();
        sb.executeQuery("SELECT /*+ DP(rho='0.9') */ COUNT(*) FROM TRIPS").close();
        assertTrue(TestDatabase.session(a) != TestDatabase.session(b));
        assertEquals(0, new BigDecimal("0.9").compareTo(TestDatabase.session(b).accountant().spent().rho()));
      }
      DpsqlDataSource bad = new DpsqlDataSource();
      bad.setUrl("jdbc:h2:mem:x");
      assertThrows(SQLException.class, bad::getConnection);
    }
  }
}
