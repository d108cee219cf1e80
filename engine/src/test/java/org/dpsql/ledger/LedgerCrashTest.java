package org.dpsql.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills (SIGKILL) a process that is charging a durable ledger for two analysts at once (their
 * charges commit concurrently) at random moments, 20 times under -Plong (5 in the default build:
 * {@link org.dpsql.TestScale}), and checks after each kill that the ledger opens, is consistent, and records at least every charge
 * the process had acknowledged (printed) before it died.
 */
@org.junit.jupiter.api.Order(8) // among the slowest: started first
@Tag("slow")
class LedgerCrashTest {
  /** SIGKILLs of the charging process: 5 in the default build, 20 under -Plong. */
  private static final int KILLS = org.dpsql.TestScale.pick(5, 20);

  @TempDir Path dir;

  @Test
  void everyAcknowledgedChargeSurvivesSigkill() throws Exception {
    // a plain H2 URL: the store itself must make H2 write each commit before returning
    String url = "jdbc:h2:file:" + dir.resolve("ledger").toAbsolutePath();
    SplittableRandom random = new SplittableRandom(20240601L);
    String[] analysts = LedgerCrashChild.ANALYSTS;
    long[] previouslyRecorded = new long[analysts.length];
    long totalAcknowledged = 0;
    for (int round = 0; round < KILLS; round++) {
      Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
          "-cp", System.getProperty("java.class.path"), LedgerCrashChild.class.getName(), url, "4")
          .redirectError(ProcessBuilder.Redirect.DISCARD).start();
      AtomicLongArray acknowledged = new AtomicLongArray(analysts.length);
      AtomicLongArray maxSequence = new AtomicLongArray(analysts.length);
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            if (line.startsWith("ok ")) {
              String[] f = line.split(" ");
              int a = List.of(analysts).indexOf(f[1]);
              acknowledged.incrementAndGet(a);
              long sequence = Long.parseLong(f[2]);
              maxSequence.accumulateAndGet(a, sequence, Math::max);
            }
          }
        } catch (Exception e) {
          // the pipe breaks when the child dies
        }
      });
      reader.start();
      // wait for the first charges, then kill at a random moment in the next 0..400 ms
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (acknowledged.get(0) + acknowledged.get(1) == 0 && System.nanoTime() < deadline
          && child.isAlive()) {
        Thread.sleep(2);
      }
      assertTrue(acknowledged.get(0) + acknowledged.get(1) > 0,
          "the child charged nothing in round " + round);
      Thread.sleep(random.nextInt(400));
      child.destroyForcibly(); // SIGKILL on Linux
      assertTrue(child.waitFor(10, TimeUnit.SECONDS));
      reader.join(10_000);
      try (LedgerStore store = LedgerStore.open(url, new Properties())) {
        assertEquals(List.of(analysts), store.analysts());
        for (int a = 0; a < analysts.length; a++) {
          LedgerAudit audit = store.audit(analysts[a]);
          assertNotNull(audit);
          // the balance equals the sum of the rows: both were written by one transaction, and
          // no other transaction's commit was written half-way beside it
          assertTrue(audit.consistent(), "round " + round + ": " + audit);
          long recordedThisRound = audit.charged() - previouslyRecorded[a];
          assertTrue(recordedThisRound >= acknowledged.get(a), "round " + round + ", "
              + analysts[a] + ": recorded " + recordedThisRound + " < acknowledged "
              + acknowledged.get(a));
          assertTrue(audit.lastSequence() >= maxSequence.get(a));
          assertEquals(0, audit.balance().epsilon().compareTo(
              new BigDecimal("0.001").multiply(BigDecimal.valueOf(audit.charged()))));
          previouslyRecorded[a] = audit.charged();
          totalAcknowledged += acknowledged.get(a);
        }
      }
    }
    System.out.println("LedgerCrashTest: " + KILLS + " kills, " + totalAcknowledged
        + " acknowledged charges of two analysts, " + (previouslyRecorded[0]
        + previouslyRecorded[1]) + " recorded");
  }
}
