package org.dpsql.ledger;

import java.math.BigDecimal;
import java.util.Properties;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.LedgerEntry;
import org.dpsql.accounting.PrivacyCost;

/**
 * Child process of {@link LedgerCrashTest}: charges the durable budgets of two analysts ({@link
 * #ANALYSTS}, the threads taking turns) in a loop and prints {@code ok <analyst> <sequence>} after
 * each charge returned, i.e. each moment an answer could have been released. Charges of the two
 * commit concurrently, and after each charge the answer is saved in the release store (a BLOB
 * row), as the server does. It runs until it is killed.
 */
public final class LedgerCrashChild {
  private LedgerCrashChild() {}

  /** The analysts charged. */
  static final String[] ANALYSTS = {"crash", "crash2"};

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int threads = Integer.parseInt(args[1]);
    LedgerStore store = LedgerStore.open(url, new Properties());
    AnalystAccount[] accounts = new AnalystAccount[ANALYSTS.length];
    for (int i = 0; i < ANALYSTS.length; i++) {
      accounts[i] = store.account(ANALYSTS[i], Accounting.PURE,
          PrivacyCost.pure(new BigDecimal("1000000")));
    }
    PrivacyCost cost = PrivacyCost.pure(new BigDecimal("0.001"));
    for (int t = 0; t < threads; t++) {
      int thread = t;
      AnalystAccount account = accounts[t % accounts.length];
      AnalystReleases releases = store.releases(account.analyst());
      byte[] payload = new byte[2048];
      Thread worker = new Thread(() -> {
        DurableAccountant a = new DurableAccountant(account, account.total(), "t" + thread, null);
        for (int i = 0; ; i++) {
          try {
            LedgerEntry e = a.charge(cost, "q" + i, "laplace");
            payload[i % payload.length]++;
            releases.save("fingerprint", new org.dpsql.session.ReleaseStore.Entry("answer",
                "t" + thread + " q" + i, payload.clone()));
            synchronized (System.out) {
              System.out.println("ok " + account.analyst() + " " + e.sequence());
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
