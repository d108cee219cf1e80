package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Tests of {@link RandomBits}, {@link SeededRandomBits} and {@link SecureRandomBits}. Chi-square
 * checks use significance 0.001 (deterministic with the fixed seeds).
 */
class RandomBitsTest {

  /** Known answers computed independently (Python hashlib) from SHA-256(seed || counter). */
  @Test
  void seededMatchesSha256CounterModeSpecification() {
    assertArrayEquals(
        new long[] {
          3983162290893594069L, -7521353919244742104L, 8029140746188716603L,
          2694043916712032187L, 8952255631054521211L
        },
        take(new SeededRandomBits(0), 5));
    assertArrayEquals(
        new long[] {
          -4657122493506184043L, 6061434093188037638L, -6774519839295459908L,
          5330965905301880996L, 362040032084776300L
        },
        take(new SeededRandomBits(42), 5));
  }

  @Test
  void sameSeedSameSequenceDifferentSeedsDiffer() {
    assertArrayEquals(take(new SeededRandomBits(123), 1000), take(new SeededRandomBits(123), 1000));
    long[] a = take(new SeededRandomBits(123), 1000);
    long[] b = take(new SeededRandomBits(124), 1000);
    int equal = 0;
    for (int i = 0; i < a.length; i++) {
      if (a[i] == b[i]) {
        equal++;
      }
    }
    assertEquals(0, equal);
    assertEquals(123, new SeededRandomBits(123).seed());
  }

  /** Concurrent callers together receive exactly the sequential stream, each word once. */
  @Test
  void seededIsThreadSafe() throws Exception {
    SeededRandomBits shared = new SeededRandomBits(77);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<long[]>> parts = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        parts.add(pool.submit(() -> take(shared, 10_000)));
      }
      long[] all = new long[40_000];
      int i = 0;
      for (Future<long[]> f : parts) {
        for (long x : f.get()) {
          all[i++] = x;
        }
      }
      long[] expected = take(new SeededRandomBits(77), 40_000);
      Arrays.sort(all);
      Arrays.sort(expected);
      assertArrayEquals(expected, all);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void uniformBelowThreeIsUnbiased() {
    RandomBits r = new SeededRandomBits(3);
    long[] counts = new long[3];
    for (int i = 0; i < 30_000; i++) {
      counts[(int) r.uniformBelow(3)]++;
    }
    assertTrue(StatisticalChecks.uniformChiSquarePValue(counts) > 0.001, Arrays.toString(counts));
  }

  /**
   * Large bounds where a modulo reduction would be visibly biased: 16 equal-width bins, 20 000
   * samples each, chi-square at significance 0.001.
   */
  @Test
  void uniformBelowLargeBoundsIsUnbiased() {
    RandomBits r = new SeededRandomBits(4);
    long[] bounds = {(1L << 62) + 1, 3L << 61, Long.MAX_VALUE, (1L << 40) + 12345};
    for (long n : bounds) {
      double p = binnedPValue(n, 20_000, 16, v -> r.uniformBelow(v));
      assertTrue(p > 0.001, "bound " + n + ": p=" + p);
    }
  }

  /** The binned check above does detect modulo bias: it rejects {@code (bits >>> 1) % n}. */
  @Test
  void binnedCheckDetectsModuloBias() {
    RandomBits r = new SeededRandomBits(5);
    double p = binnedPValue(3L << 61, 20_000, 16, v -> (r.nextLong() >>> 1) % v);
    assertTrue(p < 1e-6, "modulo bias not detected: p=" + p);
  }

  @Test
  void uniformBelowBigIntegerIsUnbiased() {
    RandomBits r = new SeededRandomBits(6);
    BigInteger[] bounds = {
      BigInteger.valueOf(3).shiftLeft(100),
      BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE),
      BigInteger.valueOf(1000),
    };
    for (BigInteger n : bounds) {
      long[] counts = new long[16];
      BigInteger k = BigInteger.valueOf(counts.length);
      for (int i = 0; i < 20_000; i++) {
        BigInteger v = r.uniformBelow(n);
        assertTrue(v.signum() >= 0 && v.compareTo(n) < 0, "out of range: " + v);
        counts[v.multiply(k).divide(n).intValueExact()]++;
      }
      // 1000 is not divisible by 16: compare with the exact bin probabilities.
      if (n.equals(BigInteger.valueOf(1000))) {
        long[] sizes = new long[16];
        for (int v = 0; v < 1000; v++) {
          sizes[v * 16 / 1000]++;
        }
        double stat = 0;
        for (int b = 0; b < 16; b++) {
          double e = 20_000.0 * sizes[b] / 1000;
          stat += (counts[b] - e) * (counts[b] - e) / e;
        }
        assertTrue(StatisticalChecks.pValue(stat, 15) > 0.001);
      } else {
        assertTrue(StatisticalChecks.uniformChiSquarePValue(counts) > 0.001, "bound " + n);
      }
    }
  }

  /** Rejection is exact: out-of-range masked values are discarded, never folded back. */
  @Test
  void uniformBelowRejectsRatherThanReduces() {
    long[] script = {3, 7, -1, 2, 5, 0};
    RandomBits scripted =
        new RandomBits() {
          int i;

          @Override
          public long nextLong() {
            return script[i++];
          }
        };
    assertEquals(2, scripted.uniformBelow(3)); // 3, 3, 3 masked to 2 bits are rejected
    assertEquals(1, scripted.uniformBelow(3)); // 5 & 3 = 1
    assertEquals(0, scripted.uniformBelow(1)); // consumes nothing
    assertEquals(0, scripted.uniformBelow(3));
  }

  @Test
  void uniformBelowRejectsNonPositiveBounds() {
    RandomBits r = new SeededRandomBits(1);
    assertThrows(IllegalArgumentException.class, () -> r.uniformBelow(0));
    assertThrows(IllegalArgumentException.class, () -> r.uniformBelow(-5));
    assertThrows(IllegalArgumentException.class, () -> r.uniformBelow(BigInteger.ZERO));
    assertEquals(BigInteger.ZERO, r.uniformBelow(BigInteger.ONE));
  }

  @Test
  void secureRandomBitsProducesVaryingInRangeValues() {
    RandomBits r = new SecureRandomBits();
    long[] a = take(r, 64);
    assertTrue(Arrays.stream(a).distinct().count() > 60);
    for (int i = 0; i < 1000; i++) {
      long v = r.uniformBelow(10);
      assertTrue(v >= 0 && v < 10);
    }
    assertNotEquals(take(new SecureRandomBits(), 1)[0], take(new SecureRandomBits(), 1)[0]);
  }

  private static long[] take(RandomBits r, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = r.nextLong();
    }
    return out;
  }

  /** Chi-square p-value of {@code sampler(n)} over {@code bins} equal-width bins of {@code [0,n)}. */
  private static double binnedPValue(long n, int samples, int bins, LongUnaryOperator sampler) {
    long[] counts = new long[bins];
    BigInteger bn = BigInteger.valueOf(n);
    BigInteger bk = BigInteger.valueOf(bins);
    for (int i = 0; i < samples; i++) {
      long v = sampler.applyAsLong(n);
      assertTrue(v >= 0 && v < n, "out of range: " + v);
      counts[BigInteger.valueOf(v).multiply(bk).divide(bn).intValueExact()]++;
    }
    // Bins differ in size by at most one element out of n/bins >= 2^36: equal probabilities.
    return StatisticalChecks.uniformChiSquarePValue(counts);
  }
}
