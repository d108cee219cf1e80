package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

class HeightEstimatorTest {

  /** Section 5.4: 3.5 million points give heights 15, 16, 17 for ε_tot = 0.1, 0.3, 0.5. */
  @Test
  void reproducesThePaperHeightsForLosAngeles() {
    Rational c0 = HeightEstimator.PAPER_CONSTANT;
    assertEquals(15, HeightEstimator.height(3_500_000, Rational.parse("0.1"), c0, 1024, 1024));
    assertEquals(16, HeightEstimator.height(3_500_000, Rational.parse("0.3"), c0, 1024, 1024));
    assertEquals(17, HeightEstimator.height(3_500_000, Rational.parse("0.5"), c0, 1024, 1024));
  }

  @Test
  void clampsToZeroAndToTheGridDepth() {
    Rational c0 = HeightEstimator.PAPER_CONSTANT;
    assertEquals(0, HeightEstimator.height(-500, Rational.ONE, c0, 64, 64));
    assertEquals(0, HeightEstimator.height(0, Rational.ONE, c0, 64, 64));
    assertEquals(0, HeightEstimator.height(19, Rational.ONE, c0, 64, 64)); // 1.9 -> floor 0
    assertEquals(1, HeightEstimator.height(20, Rational.ONE, c0, 64, 64));
    assertEquals(12, HeightEstimator.maxHeight(64, 64));
    assertEquals(12, HeightEstimator.height(Long.MAX_VALUE / 2, Rational.ONE, c0, 64, 64));
    assertEquals(3, HeightEstimator.maxHeight(3, 2)); // ceil(log2 3) + ceil(log2 2)
    assertEquals(0, HeightEstimator.maxHeight(1, 1));
  }

  @Test
  void floorLog2IsExactAtPowersOfTwo() {
    for (int j = 0; j < 80; j++) {
      BigInteger p = BigInteger.ONE.shiftLeft(j);
      assertEquals(j, HeightEstimator.floorLog2(Rational.of(p, BigInteger.ONE)));
      assertEquals(j, HeightEstimator.floorLog2(
          Rational.of(p.multiply(BigInteger.valueOf(3)).add(BigInteger.ONE), BigInteger.valueOf(3))));
      if (j > 0) {
        assertEquals(j - 1, HeightEstimator.floorLog2(
            Rational.of(p.multiply(BigInteger.valueOf(7)).subtract(BigInteger.ONE), BigInteger.valueOf(7))));
      }
    }
    assertThrows(IllegalArgumentException.class, () -> HeightEstimator.floorLog2(Rational.of(1, 2)));
  }
}
