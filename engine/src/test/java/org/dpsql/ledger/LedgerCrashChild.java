package org.dpsql.ledger;

import java.math.BigDecimal;
import java.util.Properties;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;

/**
 * Child process of {@link LedgerCrashTest}: charges an analyst's durable budget in a loop and
 * prints {@code ok <sequence>} after each charge returned, i.e. each moment an answer could have
 * been released. It runs until it is killed.
 */
public final class LedgerCrashChild {
  private LedgerCrashChild() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int threads = Integer.parseInt(args[1]);
    LedgerStore store = LedgerStore.open(url, new Properties());
    AnalystAccount account =
        store.account("crash", Accounting.PURE, PrivacyCost.pure(new BigDecimal("1000000")));
    PrivacyCost cost = PrivacyCost.pure(new BigDecimal("0.001"));
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread worker = new Thread(() -> {
        DurableAccountant a = new DurableAccountant(account, account.total(), "t" + thread, null);
        for (int i = 0; ; i++) {
          try {
            LedgerEntry e = a.charge(cost, "q" + i, "laplace");
            synchronized (System.out) {
              System.out.println("ok " + e.sequence());
              System.out.flush();
            }
          } catch (Exception e) {
            e.printStackTrace();
            System.exit(3);
          }
        }
      });
      worker.start();
    }
    System.out.println("started");
    System.out.flush();
  }
}
