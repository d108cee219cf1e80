package org.dpsql.mechanism;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;

/**
 * The buffered secure source: every bit position balanced and {@code uniformBelow} uniform. The
 * source is unpredictable by design (no seed), so the thresholds are set far out: 6 standard
 * deviations per bit (false alarm below {@code 64 · 2e-9}) and chi-square significance {@code 1e-6}.
 */
class SecureRandomBitsTest {
  @Test
  void bitsAreBalancedAndUniformBelowIsUniform() {
    SecureRandomBits r = new SecureRandomBits();
    int words = 20_000; // spans several 4 KiB refills
    long[] ones = new long[64];
    long previous = r.nextLong();
    int repeats = 0;
    for (int i = 0; i < words; i++) {
      long w = r.nextLong();
      repeats += w == previous ? 1 : 0;
      previous = w;
      for (int b = 0; b < 64; b++) {
        ones[b] += (w >>> b) & 1;
      }
    }
    double sd = Math.sqrt(words * 0.25);
    for (int b = 0; b < 64; b++) {
      assertTrue(Math.abs(ones[b] - words / 2.0) < 6 * sd, "bit " + b + ": " + ones[b]);
    }
    assertTrue(repeats == 0, "consecutive equal 64-bit words");
    long[] counts = new long[10];
    int draws = 50_000;
    for (int i = 0; i < draws; i++) {
      counts[(int) r.uniformBelow(10)]++;
    }
    double stat = 0;
    for (long c : counts) {
      stat += (c - draws / 10.0) * (c - draws / 10.0) / (draws / 10.0);
    }
    assertTrue(stat < new ChiSquaredDistribution(9).inverseCumulativeProbability(1 - 1e-6), "chi2 " + stat);
    assertNotEquals(new SecureRandomBits().nextLong(), new SecureRandomBits().nextLong());
  }
}
