package org.dpsql.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The per-thread charge meter: exact sums, nesting, threads kept apart, refusals not counted. */
class ChargeMeterTest {

  private static PrivacyCost rho(String r) {
    return PrivacyCost.zcdp(new BigDecimal(r));
  }

  @Test
  void nestedMetersSeeTheirOwnChargesAndTheOuterOneSeesAll() throws Exception {
    Accountant a = ChargeMeter.metered(Accountant.create(Accounting.ZCDP, rho("1"), null));
    assertSame(a, ChargeMeter.metered(a), "wrapping twice meters once");
    a.charge(rho("0.5"), "before any meter", "m"); // recorded nowhere
    ChargeMeter.start();
    a.charge(rho("0.1"), "outer", "m");
    ChargeMeter.start();
    a.charge(rho("0.02"), "inner", "m");
    a.recordFree("free", "synopsis:x", null);
    assertThrows(BudgetExceededException.class, () -> a.charge(rho("0.9"), "refused", "m"));
    assertEquals(rho("0.02"), ChargeMeter.stop());
    ChargeMeter.start();
    assertEquals(PrivacyCost.ZERO, ChargeMeter.stop(), "a meter with no charge");
    a.charge(rho("0.003"), "outer again", "m");
    assertEquals(rho("0.123"), ChargeMeter.stop());
    assertEquals(PrivacyCost.ZERO, ChargeMeter.stop(), "no meter left");
    assertEquals(rho("0.623"), a.spent());
  }

  @Test
  void threadsAreMeteredApart() throws Exception {
    Accountant a = ChargeMeter.metered(Accountant.create(Accounting.ZCDP, rho("100"), null));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<PrivacyCost> one = pool.submit(() -> {
        ChargeMeter.start();
        for (int i = 0; i < 500; i++) {
          a.charge(rho("0.01"), "one", "m");
        }
        return ChargeMeter.stop();
      });
      Future<PrivacyCost> two = pool.submit(() -> {
        ChargeMeter.start();
        for (int i = 0; i < 300; i++) {
          a.charge(rho("0.02"), "two", "m");
        }
        return ChargeMeter.stop();
      });
      assertEquals(0, one.get().rho().compareTo(new BigDecimal("5")));
      assertEquals(0, two.get().rho().compareTo(new BigDecimal("6")));
      assertEquals(0, a.spent().rho().compareTo(new BigDecimal("11")));
    } finally {
      pool.shutdown();
    }
  }
}
