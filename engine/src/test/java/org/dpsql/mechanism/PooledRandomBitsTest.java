package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.List;
import org.junit.jupiter.api.Test;

class PooledRandomBitsTest {
  /** A source that hands out the given words in order, and counts them. */
  private static final class Scripted implements RandomBits {
    final ArrayDeque<Long> words;
    int used;

    Scripted(List<Long> words) {
      this.words = new ArrayDeque<>(words);
    }

    @Override
    public long nextLong() {
      used++;
      return words.removeFirst();
    }
  }

  @Test
  void drawsTakeTheLowBitsOfAWordInTurnAndNeverReuseABit() {
    // uniformBelow(8) needs 3 bits: 21 draws per word, the 64th bit is dropped
    long word = 0L;
    for (int i = 0; i < 21; i++) {
      word |= (long) (i % 8) << (3 * i);
    }
    word |= 1L << 63; // the dropped bit
    Scripted source = new Scripted(List.of(word, 5L));
    PooledRandomBits pool = new PooledRandomBits(source);
    for (int i = 0; i < 21; i++) {
      assertEquals(i % 8, pool.uniformBelow(8), "draw " + i);
    }
    assertEquals(1, source.used);
    assertEquals(5, pool.uniformBelow(8)); // a new word, not the dropped bit
    assertEquals(2, source.used);
  }

  @Test
  void aValueOutsideTheBoundIsRejectedAndItsBitsAreNotReused() {
    // uniformBelow(5) takes 3 bits: 7, then 6, are rejected; 4 is returned
    Scripted source = new Scripted(List.of(7L | 6L << 3 | 4L << 6));
    assertEquals(4, new PooledRandomBits(source).uniformBelow(5));
  }

  @Test
  void nextLongIsAWholeWordOfTheSourceOutsideThePool() {
    Scripted source = new Scripted(List.of(3L, 42L, 1L));
    PooledRandomBits pool = new PooledRandomBits(source);
    assertEquals(3, pool.uniformBelow(4)); // pool = word 3, its 2 low bits
    assertEquals(42L, pool.nextLong());
    assertEquals(0, pool.uniformBelow(4)); // the rest of word 3 (its next 2 bits are 0)
    assertEquals(2, source.used);
  }

  @Test
  void boundsAreChecked() {
    PooledRandomBits pool = new PooledRandomBits(new SeededRandomBits(1));
    assertThrows(IllegalArgumentException.class, () -> pool.uniformBelow(0));
    assertEquals(0, pool.uniformBelow(1));
  }

  /**
   * Uniformity on [0, n) for the bounds reservoir sampling draws (n = 6, 7, 100, and 2^40 + 3,
   * whose draws span words), 60,000 seeded draws each: chi-square at significance 0.001.
   */
  @Test
  void drawsAreUniform() {
    PooledRandomBits pool = new PooledRandomBits(new SeededRandomBits(20261128));
    for (int n : new int[] {6, 7, 100}) {
      long[] counts = new long[n];
      for (int i = 0; i < 60_000; i++) {
        counts[(int) pool.uniformBelow(n)]++;
      }
      double p = StatisticalChecks.uniformChiSquarePValue(counts);
      assertTrue(p > 0.001, "n = " + n + ": p = " + p);
    }
    long big = (1L << 40) + 3;
    long[] buckets = new long[16];
    for (int i = 0; i < 60_000; i++) {
      long v = pool.uniformBelow(big);
      assertTrue(v >= 0 && v < big);
      buckets[(int) (v * 16 / big)]++; // 16 equal-width buckets, exact up to 1 part in 2^36
    }
    assertTrue(StatisticalChecks.uniformChiSquarePValue(buckets) > 0.001);
  }
}
