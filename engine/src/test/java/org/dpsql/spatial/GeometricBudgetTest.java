package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

class GeometricBudgetTest {

  @Test
  void sharesSumExactlyAndFollowEquation17() {
    Rational total = Rational.parse("0.0924");
    for (int h = 0; h <= 24; h++) {
      List<Rational> shares = GeometricBudget.allocate(total, h);
      assertEquals(h + 1, shares.size());
      Rational sum = Rational.ZERO;
      for (Rational s : shares) {
        sum = sum.add(s);
      }
      assertEquals(total, sum, "exact sum at h = " + h);
      double c = Math.cbrt(2);
      for (int i = 0; i <= h; i++) {
        double eq17 = Math.pow(2, (h - i) / 3.0) * total.doubleValue() * (c - 1)
            / (Math.pow(2, (h + 1) / 3.0) - 1);
        double got = shares.get(i).doubleValue();
        assertEquals(eq17, got, 1e-10 * eq17, "eq. 17 at h = " + h + ", i = " + i);
        if (i < h) {
          assertTrue(shares.get(i).compareTo(shares.get(i + 1)) > 0, "leaves get more");
        }
      }
    }
    assertEquals(List.of(total), GeometricBudget.allocate(total, 0));
    assertThrows(IllegalArgumentException.class, () -> GeometricBudget.allocate(Rational.ZERO, 3));
    assertThrows(IllegalArgumentException.class, () -> GeometricBudget.allocate(total, -1));
  }

  @Test
  void cubeRootFloorIsExact() {
    SplittableRandom rnd = new SplittableRandom(8);
    for (int t = 0; t < 2000; t++) {
      byte[] b = new byte[1 + rnd.nextInt(25)];
      rnd.nextBytes(b);
      BigInteger x = new BigInteger(1, b);
      BigInteger y = GeometricBudget.cubeRootFloor(x);
      assertTrue(y.pow(3).compareTo(x) <= 0);
      assertTrue(y.add(BigInteger.ONE).pow(3).compareTo(x) > 0);
    }
    assertEquals(BigInteger.valueOf(3), GeometricBudget.cubeRootFloor(BigInteger.valueOf(27)));
    assertEquals(BigInteger.valueOf(2), GeometricBudget.cubeRootFloor(BigInteger.valueOf(26)));
  }
}
