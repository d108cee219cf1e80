package org.dpsql.bench;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.dpsql.accounting.Accounting;
import org.dpsql.accounting.PrivacyCost;
import org.dpsql.ledger.AnalystAccount;
import org.dpsql.ledger.AnalystReleases;
import org.dpsql.ledger.DurableAccountant;
import org.dpsql.ledger.LedgerStore;
import org.dpsql.session.ReleaseStore;

/**
 * What the server's durable ledger adds to a query (issue 10): the time of one committed charge
 * ({@link DurableAccountant#charge}, a compare-and-set on the balance and a ledger row in one
 * transaction) and of one committed release row ({@link AnalystReleases#save}) for payloads of the
 * sizes dpsql writes — a small answer (300 bytes), a 1,024-cell least-squares synopsis (about 40 KB)
 * and a large synopsis (1 MB) — in an H2 file ledger with {@code WRITE_DELAY 0}, as the server runs
 * it by default. Prints the median and the 99th percentile.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.LedgerWriteBench [--n 2000]}.
 * Timings on a shared machine are upper bounds; the disk's sync latency dominates.
 */
public final class LedgerWriteBench {
  private LedgerWriteBench() {}

  public static void main(String[] args) throws Exception {
    int n = 2000;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--n")) {
        n = Integer.parseInt(args[++i]);
      } else {
        throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Path dir = Files.createTempDirectory("dpsql-ledger-bench");
    try (LedgerStore store = LedgerStore.open(LedgerStore.h2File(dir.resolve("ledger")), null)) {
      AnalystAccount account = store.account("bench", Accounting.ZCDP,
          PrivacyCost.zcdp(new BigDecimal("1000000")));
      DurableAccountant accountant = new DurableAccountant(account,
          PrivacyCost.zcdp(new BigDecimal("1000000")), "bench-connection", null);
      PrivacyCost cost = PrivacyCost.zcdp(new BigDecimal("0.01"));
      double[] charge = new double[n];
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        accountant.charge(cost, "SELECT COUNT(*) FROM TRIPS WHERE AGE >= " + i, "gaussian", 1.0);
        charge[i] = (System.nanoTime() - t0) / 1e6;
      }
      report("charge (balance + ledger row)", charge);

      AnalystReleases releases = store.releases("bench");
      SplittableRandom random = new SplittableRandom(1);
      for (int size : new int[] {300, 40_000, 1_000_000}) {
        int count = size >= 1_000_000 ? Math.min(n, 200) : n;
        byte[] payload = new byte[size];
        double[] save = new double[count];
        for (int i = 0; i < count; i++) {
          random.nextBytes(payload);
          long t0 = System.nanoTime();
          releases.save("fingerprint", new ReleaseStore.Entry("answer", "statement " + i,
              payload));
          save[i] = (System.nanoTime() - t0) / 1e6;
        }
        report("release row of " + size + " bytes", save);
      }
    }
  }

  private static void report(String what, double[] ms) {
    double[] s = ms.clone();
    Arrays.sort(s);
    System.out.printf("%-36s n=%5d  median %.3f ms  p99 %.3f ms%n", what, s.length,
        s[s.length / 2], s[(int) Math.min(s.length - 1, Math.round(0.99 * (s.length - 1)))]);
  }
}
