package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ExplicitWorkload;
import org.dpsql.matrix.PermutedWorkload;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The strategy cache: memory and disk hits, corrupt and mismatched files, signatures. */
class StrategyCacheTest {
  @TempDir Path dir;

  private static Supplier<Strategy> counting(AtomicInteger calls, Supplier<Strategy> s) {
    return () -> {
      calls.incrementAndGet();
      return s.get();
    };
  }

  @Test
  void memoryHitReturnsTheSamePreparedMechanism() {
    StrategyCache cache = new StrategyCache(dir, 20);
    AtomicInteger calls = new AtomicInteger();
    String sig = StrategyCache.signature(new AllRangesWorkload(64), "fourier");
    MatrixMechanism first = cache.get(sig, counting(calls, () -> Strategies.fourier(64)));
    first.inference(); // factorised once
    MatrixMechanism again = cache.get(sig, counting(calls, () -> Strategies.fourier(64)));
    long start = System.nanoTime();
    for (int i = 0; i < 10_000; i++) {
      assertSame(first, cache.get(sig, counting(calls, () -> Strategies.fourier(64))));
    }
    double micros = (System.nanoTime() - start) / 1e3 / 10_000;
    System.out.printf("strategy cache memory hit: %.2f µs on average over 10^4 look-ups%n", micros);
    assertSame(first, again);
    assertSame(first.inference(), again.inference());
    assertEquals(1, calls.get());
    assertEquals(10_001, cache.memoryHits());
    assertEquals(1, cache.designs());
  }

  @Test
  void diskHitReturnsAnEqualStrategyWithoutRedesign() throws IOException {
    String sig = StrategyCache.signature(new AllRangesWorkload(32), "fourier+hier");
    Strategy designed = Strategies.kronecker(Strategies.fourier(4), Strategies.hierarchical(8, 2));
    AtomicInteger calls = new AtomicInteger();
    MatrixMechanism first = new StrategyCache(dir, 20).get(sig, counting(calls, () -> designed));
    assertTrue(Files.isRegularFile(new StrategyCache(dir, 20).fileFor(sig)));
    StrategyCache fresh = new StrategyCache(dir, 20); // a new process, same directory
    MatrixMechanism second = fresh.get(sig, counting(calls, () -> designed));
    assertEquals(1, calls.get());
    assertEquals(1, fresh.diskHits());
    assertEquals(first.strategy(), second.strategy());
    assertEquals(2, second.strategy().factors().size());
    assertEquals(first.strategy().sensitivityL2Squared(), second.strategy().sensitivityL2Squared());
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(p -> p.toString().endsWith(".tmp")), "no temporary file left behind");
    }
  }

  @Test
  void corruptTruncatedOrForeignFilesAreIgnoredAndRecomputed() throws IOException {
    String sig = StrategyCache.signature(new AllRangesWorkload(16), "hier");
    String other = StrategyCache.signature(new AllRangesWorkload(16), "wavelet");
    AtomicInteger calls = new AtomicInteger();
    Supplier<Strategy> hier = counting(calls, () -> Strategies.hierarchical(16, 2));
    MatrixMechanism reference = new StrategyCache(dir, 20).get(sig, hier);
    Path file = new StrategyCache(dir, 20).fileFor(sig);
    byte[] good = Files.readAllBytes(file);

    // 1. one flipped byte in the payload (CRC mismatch)
    byte[] flipped = good.clone();
    flipped[flipped.length / 2] ^= 0x10;
    Files.write(file, flipped);
    StrategyCache c1 = new StrategyCache(dir, 20);
    assertEquals(reference.strategy(), c1.get(sig, hier).strategy());
    assertEquals(1, c1.designs());
    assertEquals(0, c1.diskHits());

    // the recomputed strategy was written back: a fresh cache now hits the disk
    StrategyCache c2 = new StrategyCache(dir, 20);
    c2.get(sig, hier);
    assertEquals(1, c2.diskHits());

    // 2. truncated file
    Files.write(file, java.util.Arrays.copyOf(good, good.length - 9));
    StrategyCache c3 = new StrategyCache(dir, 20);
    assertEquals(reference.strategy(), c3.get(sig, hier).strategy());
    assertEquals(1, c3.designs());

    // 3. garbage
    Files.write(file, "not a strategy".getBytes());
    StrategyCache c4 = new StrategyCache(dir, 20);
    assertEquals(reference.strategy(), c4.get(sig, hier).strategy());
    assertEquals(1, c4.designs());

    // 4. a valid file made for another key, copied under this key's name
    new StrategyCache(dir, 20).get(other, () -> Strategies.wavelet(16));
    Files.copy(new StrategyCache(dir, 20).fileFor(other), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    StrategyCache c5 = new StrategyCache(dir, 20);
    assertEquals(reference.strategy(), c5.get(sig, hier).strategy());
    assertEquals(1, c5.designs());
    assertEquals(5, calls.get()); // initial design + cases 1, 2, 3, 4 (the disk hit did not design)
  }

  /** The identity (and products with it) is rebuilt in O(n), never stored as a dense n × n file. */
  @Test
  void theIdentityIsNotWrittenToDisk() throws IOException {
    String sig = StrategyCache.signature(new AllRangesWorkload(64), "identity");
    StrategyCache cache = new StrategyCache(dir, 20);
    assertEquals(64, cache.get(sig, () -> Strategies.identity(64)).strategy().cells());
    assertFalse(Files.exists(cache.fileFor(sig)));
    String product = StrategyCache.signature(new AllRangesWorkload(64), "identity x hier");
    cache.get(product, () -> Strategies.kronecker(Strategies.identity(8),
        Strategies.hierarchical(8, 2)));
    assertFalse(Files.exists(cache.fileFor(product)));
    StrategyCache fresh = new StrategyCache(dir, 20);
    fresh.get(sig, () -> Strategies.identity(64));
    assertEquals(0, fresh.diskHits());
    assertEquals(1, fresh.designs());
  }

  @Test
  void aFailedDesignIsNotCached() {
    StrategyCache cache = new StrategyCache(null, 20); // memory only
    String sig = StrategyCache.signature(new AllRangesWorkload(8), "flaky");
    org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> cache.get(sig, () -> {
          throw new IllegalStateException("solver failed");
        }));
    assertEquals(8, cache.get(sig, () -> Strategies.identity(8)).strategy().cells());
    assertEquals(2, cache.designs());
  }

  @Test
  void latticeBitsArePartOfTheKey() {
    String sig = StrategyCache.signature(new AllRangesWorkload(8), "fourier");
    assertNotEquals(new StrategyCache(dir, 20).fileFor(sig), new StrategyCache(dir, 24).fileFor(sig));
    MatrixMechanism m24 = new StrategyCache(dir, 24).get(sig, () -> Strategies.fourier(8));
    assertEquals(24 + 1, m24.strategy().bits()); // largest entry of Fourier(8) is 1/2: one extra bit
  }

  @Test
  void signaturesAreStableAndSeparateDifferentWorkloads() {
    String a = StrategyCache.signature(new AllRangesWorkload(64), "eig");
    assertEquals(a, StrategyCache.signature(new AllRangesWorkload(64), "eig"));
    assertNotEquals(a, StrategyCache.signature(new AllRangesWorkload(64), "eig,principal=0.1"));
    assertNotEquals(a, StrategyCache.signature(new AllRangesWorkload(63), "eig"));
    // same description, different permutation
    String p1 = StrategyCache.signature(
        new PermutedWorkload(new AllRangesWorkload(64), PermutedWorkload.randomPermutation(64, 1)), "eig");
    String p2 = StrategyCache.signature(
        new PermutedWorkload(new AllRangesWorkload(64), PermutedWorkload.randomPermutation(64, 2)), "eig");
    assertNotEquals(p1, p2);
    // same shape, different entries
    String e1 = StrategyCache.signature(new ExplicitWorkload(new double[][] {{1, 0, 1}, {0, 1, 1}}), "eig");
    String e2 = StrategyCache.signature(new ExplicitWorkload(new double[][] {{1, 1, 0}, {0, 1, 1}}), "eig");
    assertNotEquals(e1, e2);
    assertEquals(e1, StrategyCache.signature(new ExplicitWorkload(new double[][] {{1, 0, 1}, {0, 1, 1}}), "eig"));
  }
}
