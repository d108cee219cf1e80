package org.dpsql.matrix.mechanism;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.SplittableRandom;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.ExplicitStrategy;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Strategies;
import org.dpsql.matrix.Strategy;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

/** Exactness of the lattice strategy: rounding, sensitivities, neighbour shifts, Kronecker form. */
class LatticeStrategyTest {

  static double[][] randomMatrix(int p, int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    double[][] a = new double[p][n];
    for (double[] row : a) {
      for (int j = 0; j < n; j++) {
        row[j] = r.nextGaussian();
      }
    }
    return a;
  }

  /** N_ij = rint(a_ij 2^k), computed independently with BigDecimal (ties to even). */
  static BigInteger[][] referenceNumerators(double[][] a, int k) {
    BigInteger[][] n = new BigInteger[a.length][a[0].length];
    BigDecimal scale = new BigDecimal(BigInteger.ONE.shiftLeft(k));
    for (int i = 0; i < a.length; i++) {
      for (int j = 0; j < a[0].length; j++) {
        n[i][j] = new BigDecimal(a[i][j]).multiply(scale).setScale(0, RoundingMode.HALF_EVEN).toBigIntegerExact();
      }
    }
    return n;
  }

  @Test
  void sensitivitiesAreExactRationals() {
    double[][] a = randomMatrix(9, 6, 1);
    int k = 20;
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("R", a), k);
    BigInteger[][] n = referenceNumerators(a, k);
    BigInteger s2 = BigInteger.ZERO;
    BigInteger s1 = BigInteger.ZERO;
    for (int j = 0; j < 6; j++) {
      BigInteger c2 = BigInteger.ZERO;
      BigInteger c1 = BigInteger.ZERO;
      for (int i = 0; i < 9; i++) {
        c2 = c2.add(n[i][j].pow(2));
        c1 = c1.add(n[i][j].abs());
        assertEquals(n[i][j].longValueExact(), s.factors().get(0).entry(i, j));
      }
      s2 = s2.max(c2);
      s1 = s1.max(c1);
    }
    assertEquals(Rational.of(s2, BigInteger.ONE.shiftLeft(2 * k)), s.sensitivityL2Squared());
    assertEquals(Rational.of(s1, BigInteger.ONE.shiftLeft(k)), s.sensitivityL1());
    // and the rounded sensitivity is within the rounding error of the real one
    double real = new ExplicitStrategy("R", a).sensitivityL2();
    assertEquals(real * real, s.sensitivityL2Squared().doubleValue(), 1e-5 * real * real);
  }

  @Test
  void integerStrategiesKeepTheirKnownSensitivities() {
    // seed 001 §6 item 1: Haar n = 8 and hierarchical n = 8 have ||A||₂ = 2; hierarchical ||A||₁ = 4.
    assertEquals(Rational.of(4), LatticeStrategy.round(Strategies.wavelet(8)).sensitivityL2Squared());
    LatticeStrategy h = LatticeStrategy.round(Strategies.hierarchical(8, 2));
    assertEquals(Rational.of(4), h.sensitivityL2Squared());
    assertEquals(Rational.of(4), h.sensitivityL1());
    assertEquals(Rational.of(1), LatticeStrategy.round(Strategies.identity(5)).sensitivityL2Squared());
  }

  @Test
  void neighbourMovesTheAnswersByExactlyOneColumn() {
    double[][] a = randomMatrix(12, 7, 2);
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("R", a), 20);
    long[][] n = s.factors().get(0).toLongArray();
    SplittableRandom r = new SplittableRandom(3);
    long[] x = new long[7];
    for (int j = 0; j < 7; j++) {
      x[j] = r.nextLong(1_000_000_000L);
    }
    BigInteger[] base = s.numeratorsTimes(x);
    for (int j = 0; j < 7; j++) {
      long[] plus = x.clone();
      plus[j]++;
      BigInteger[] moved = s.numeratorsTimes(plus);
      for (int i = 0; i < 12; i++) {
        assertEquals(BigInteger.valueOf(n[i][j]), moved[i].subtract(base[i]), "row " + i + " col " + j);
      }
    }
  }

  @Test
  void overflowFallsBackToExactBigIntegers() {
    double[][] a = randomMatrix(4, 5, 4);
    for (double[] row : a) {
      for (int j = 0; j < row.length; j++) {
        row[j] *= 1000; // |N| up to ~2^32 with k = 20
      }
    }
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("big", a), 20);
    long[] x = {Long.MAX_VALUE / 4, 1L << 40, 7, 0, Long.MAX_VALUE / 3};
    BigInteger[] got = s.numeratorsTimes(x);
    long[][] n = s.factors().get(0).toLongArray();
    for (int i = 0; i < 4; i++) {
      BigInteger expected = BigInteger.ZERO;
      for (int j = 0; j < 5; j++) {
        expected = expected.add(BigInteger.valueOf(n[i][j]).multiply(BigInteger.valueOf(x[j])));
      }
      assertEquals(expected, got[i]);
    }
  }

  @Test
  void kroneckerStrategyIsExactWithoutFormingTheProduct() {
    double[][] a1 = randomMatrix(3, 2, 5);
    double[][] a2 = randomMatrix(4, 3, 6);
    Strategy prod = Strategies.kronecker(new ExplicitStrategy("a1", a1), new ExplicitStrategy("a2", a2));
    LatticeStrategy k = LatticeStrategy.round(prod, 20);
    assertEquals(2, k.factors().size());
    assertEquals(40, k.bits()); // lattice 2^-(k1 + k2)
    assertEquals(6, k.cells());
    assertEquals(12, k.rows());
    // dense reference: N = N1 ⊗ N2 in BigInteger
    BigInteger[][] n1 = referenceNumerators(a1, 20);
    BigInteger[][] n2 = referenceNumerators(a2, 20);
    BigInteger[][] n = new BigInteger[12][6];
    for (int i1 = 0; i1 < 3; i1++) {
      for (int j1 = 0; j1 < 2; j1++) {
        for (int i2 = 0; i2 < 4; i2++) {
          for (int j2 = 0; j2 < 3; j2++) {
            n[i1 * 4 + i2][j1 * 3 + j2] = n1[i1][j1].multiply(n2[i2][j2]);
          }
        }
      }
    }
    long[] x = {3, 0, 11, 2, 5, 8};
    BigInteger[] got = k.numeratorsTimes(x);
    BigInteger s2 = BigInteger.ZERO;
    BigInteger s1 = BigInteger.ZERO;
    for (int j = 0; j < 6; j++) {
      BigInteger c2 = BigInteger.ZERO;
      BigInteger c1 = BigInteger.ZERO;
      for (int i = 0; i < 12; i++) {
        c2 = c2.add(n[i][j].pow(2));
        c1 = c1.add(n[i][j].abs());
      }
      s2 = s2.max(c2);
      s1 = s1.max(c1);
    }
    for (int i = 0; i < 12; i++) {
      BigInteger e = BigInteger.ZERO;
      for (int j = 0; j < 6; j++) {
        e = e.add(n[i][j].multiply(BigInteger.valueOf(x[j])));
      }
      assertEquals(e, got[i]);
    }
    assertEquals(Rational.of(s2, BigInteger.ONE.shiftLeft(80)), k.sensitivityL2Squared());
    assertEquals(Rational.of(s1, BigInteger.ONE.shiftLeft(40)), k.sensitivityL1());
  }

  @Test
  void roundingChangesTheErrorFormulaNegligibly() {
    // Strategies with irrational entries: Fourier(64) and a random dense 96 x 64 matrix.
    List<Strategy> strategies = List.of(
        Strategies.fourier(64), new ExplicitStrategy("random", randomMatrix(96, 64, 7)));
    for (Strategy a : strategies) {
      for (var w : List.of(new AllRangesWorkload(64), new PrefixWorkload(64))) {
        double exact = ErrorAnalysis.totalSquaredError(w, a);
        double rounded = ErrorAnalysis.totalSquaredError(w, LatticeStrategy.round(a, 20).asStrategy());
        double rel = Math.abs(rounded / exact - 1);
        System.out.printf("lattice rounding k=20: %s on %s: relative change %.2e%n", a.name(), w, rel);
        assertTrue(rel < 1e-6, a.name() + " " + w + ": " + rel);
      }
    }
  }

  @Test
  void identityFactorsAreNotMaterialised() {
    LatticeStrategy s = LatticeStrategy.round(
        Strategies.kronecker(Strategies.identity(256), Strategies.identity(256)), 20);
    assertEquals(65_536, s.cells());
    assertEquals(256, s.factors().get(0).nonZeros());
    assertEquals(Rational.ONE, s.sensitivityL2Squared());
  }

  @Test
  void rejectsBadInput() {
    assertThrows(IllegalArgumentException.class, () -> LatticeStrategy.round(Strategies.identity(3), 63));
    assertThrows(IllegalArgumentException.class,
        () -> LatticeStrategy.round(new ExplicitStrategy("zero", new double[][] {{0, 0}}), 20));
    // tiny entries get extra bits instead of vanishing
    assertEquals(20 + 30, LatticeStrategy.round(new ExplicitStrategy("tiny", new double[][] {{1e-9, 0}}), 20).bits());
    assertThrows(IllegalArgumentException.class,
        () -> LatticeStrategy.round(new ExplicitStrategy("huge", new double[][] {{1e15}}), 50));
    LatticeStrategy s = LatticeStrategy.round(Strategies.identity(3));
    assertThrows(IllegalArgumentException.class, () -> s.numeratorsTimes(new long[2]));
  }

  @Test
  void doubleViewsMatchTheDenseMatrix() {
    double[][] a = randomMatrix(5, 4, 8);
    LatticeStrategy s = LatticeStrategy.round(new ExplicitStrategy("R", a), 20);
    double[][] ahat = s.asStrategy().matrix();
    double[] v = {1.5, -2, 0.25, 3};
    double[] expected = column(Matrices.multiply(ahat, new double[][] {{1.5}, {-2}, {0.25}, {3}}));
    assertArrayEquals(expected, s.realTimes(v), 1e-12);
    double[] u = {1, 2, 3, 4, 5};
    double[] expectedT = column(Matrices.multiply(Matrices.transpose(ahat), new double[][] {{1}, {2}, {3}, {4}, {5}}));
    assertArrayEquals(expectedT, s.realTransposeTimes(u), 1e-12);
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 4; j++) {
        assertTrue(Math.abs(ahat[i][j] - a[i][j]) <= 0x1p-21, "rounding moves an entry by at most 2^-21");
      }
    }
  }

  private static double[] column(double[][] m) {
    double[] c = new double[m.length];
    for (int i = 0; i < m.length; i++) {
      c[i] = m[i][0];
    }
    return c;
  }
}
