package org.dpsql.discrete;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Spec §4 items 9 and 10 (vector queries, §2.6) with {@link VectorDesigner}. */
class VectorDesignerTest {

  /** All non-zero vectors with components in {@code comps[i]} per coordinate. */
  static List<int[]> product(int[]... comps) {
    List<int[]> out = new ArrayList<>();
    build(comps, 0, new int[comps.length], out);
    return out;
  }

  private static void build(int[][] comps, int i, int[] cur, List<int[]> out) {
    if (i == comps.length) {
      boolean zero = true;
      for (int v : cur) {
        zero &= v == 0;
      }
      if (!zero) {
        out.add(cur.clone());
      }
      return;
    }
    for (int v : comps[i]) {
      cur[i] = v;
      build(comps, i + 1, cur, out);
    }
  }

  /** Independent 2-D leakage check in doubles. */
  static double leakage2d(double[] joint, int n, List<int[]> mus, double eps) {
    int b = n + 1;
    double e = Math.exp(eps);
    double max = 0;
    for (int[] mu : mus) {
      double s = 0;
      for (int a = 0; a < b; a++) {
        for (int c = 0; c < b; c++) {
          double fa = joint[a * b + c];
          double fb = joint[((a + mu[0]) % b) * b + (c + mu[1]) % b];
          if (fa > e * fb) {
            s += fa;
          }
        }
      }
      max = Math.max(max, s);
    }
    return max;
  }

  @Test
  void item9_jointPmfOfThePaper() {
    int n = 4;
    List<int[]> mus = product(new int[] {0, 1, 2}, new int[] {0, 1, 2});
    assertEquals(8, mus.size());
    double[] joint = VectorDesigner.lp(n, 2, mus, 3.0, DesignObjective.ERROR_RATE);
    assertEquals(25, joint.length);
    assertEquals(0.0, leakage2d(joint, n, mus, 3.0));
    double[] expected = {
      0.6954, 0.0346, 0.0346, 0.0017, 0.0017,
      0.0346, 0.0346, 0.0346, 0.0017, 0.0017,
      0.0346, 0.0346, 0.0346, 0.0017, 0.0017,
      0.0017, 0.0017, 0.0017, 0.0017, 0.0017,
      0.0017, 0.0017, 0.0017, 0.0017, 0.0017
    };
    assertArrayEquals(expected, joint, 5e-5);

    double[] m0 = VectorDesigner.marginal(joint, n, 2, 0);
    double[] m1 = VectorDesigner.marginal(joint, n, 2, 1);
    double[] marg = {0.7681, 0.1073, 0.1073, 0.0086, 0.0086};
    assertArrayEquals(marg, m0, 5e-5);
    assertArrayEquals(marg, m1, 5e-5);

    // joint != product of marginals (Remark 4)
    double maxDiff = 0;
    for (int a = 0; a <= n; a++) {
      for (int c = 0; c <= n; c++) {
        maxDiff = Math.max(maxDiff, Math.abs(joint[VectorDesigner.index(n, a, c)] - m0[a] * m1[c]));
      }
    }
    assertTrue(maxDiff > 0.05, "joint should differ from the product, max diff " + maxDiff);

    // the per-coordinate optimum at eps/2 = 1.5 (paper L617), for comparison
    double[] scalar = PmfDesigner.lp(n, Set.of(1, 2), 1.5, DesignObjective.ERROR_RATE);
    assertArrayEquals(new double[] {0.6469, 0.1443, 0.1443, 0.0322, 0.0322}, scalar, 5e-5);
    // the joint design beats the product of the per-coordinate designs on f(0,0)
    assertTrue(joint[0] > scalar[0] * scalar[0]);
  }

  @Test
  void item10_fig13b_secondLargestPeaks() {
    int n = 6;
    List<int[]> mus = new ArrayList<>();
    for (int a : new int[] {1, 3}) {
      for (int c : new int[] {2, 5}) {
        mus.add(new int[] {a, c});
      }
    }
    double[] joint = VectorDesigner.lp(n, 2, mus, 3.0, DesignObjective.ERROR_RATE);
    assertEquals(0.0, leakage2d(joint, n, mus, 3.0));
    int b = n + 1;
    double top = joint[0];
    double second = 0;
    for (int i = 1; i < joint.length; i++) {
      assertTrue(joint[i] < top);
      second = Math.max(second, joint[i]);
    }
    Set<Integer> peaks =
        Set.of(
            VectorDesigner.index(n, 1, 2),
            VectorDesigner.index(n, 1, 5),
            VectorDesigner.index(n, 3, 2),
            VectorDesigner.index(n, 3, 5));
    for (int i = 1; i < joint.length; i++) {
      if (peaks.contains(i)) {
        assertEquals(second, joint[i], 1e-9, "peak at (" + i / b + "," + i % b + ")");
      } else {
        assertTrue(
            joint[i] < second * 0.5, "(" + i / b + "," + i % b + ") = " + joint[i] + " too large");
      }
    }
    // "mass e^-eps f*(0) at eta = mu" (spec §2.6)
    assertEquals(Math.exp(-3.0) * joint[0], second, 1e-9);
  }

  @Test
  void bdTwoDimensionalStaircaseWithCircularMse() {
    int n = 4;
    List<int[]> mus = product(new int[] {0, 1, 2}, new int[] {0, 1, 2});
    double[] joint = VectorDesigner.lp(n, 2, mus, 3.0, DesignObjective.CIRCULAR_MSE);
    assertEquals(0.0, leakage2d(joint, n, mus, 3.0));
    double sum = 0;
    for (double v : joint) {
      assertTrue(v >= 0);
      sum += v;
    }
    assertEquals(1.0, sum, 1e-12);
  }

  @Test
  void oneDimensionalVectorMatchesScalarDesigner() {
    List<int[]> mus = List.of(new int[] {1}, new int[] {2}, new int[] {3});
    double[] v = VectorDesigner.lp(8, 1, mus, 1.5, DesignObjective.ERROR_RATE);
    double[] s = PmfDesigner.lp(8, Set.of(1, 2, 3), 1.5, DesignObjective.ERROR_RATE);
    assertArrayEquals(s, v, 1e-9);
    // negative components are reduced modulo n+1
    double[] w =
        VectorDesigner.lp(
            8, 1, List.of(new int[] {-8}, new int[] {-7}, new int[] {3}), 1.5,
            DesignObjective.ERROR_RATE);
    assertArrayEquals(s, w, 1e-9);
  }

  @Test
  void marginalAndIndex() {
    double[] joint = new double[9];
    joint[VectorDesigner.index(2, 1, 2)] = 0.25;
    joint[VectorDesigner.index(2, 0, 0)] = 0.75;
    assertEquals(5, VectorDesigner.index(2, 1, 2));
    assertArrayEquals(new double[] {0.75, 0.25, 0}, VectorDesigner.marginal(joint, 2, 2, 0));
    assertArrayEquals(new double[] {0.75, 0, 0.25}, VectorDesigner.marginal(joint, 2, 2, 1));
    assertThrows(IllegalArgumentException.class, () -> VectorDesigner.marginal(joint, 2, 2, 2));
    assertThrows(IllegalArgumentException.class, () -> VectorDesigner.marginal(joint, 3, 2, 0));
  }

  @Test
  void rejectsInvalidInputs() {
    DesignObjective er = DesignObjective.ERROR_RATE;
    assertThrows(
        IllegalArgumentException.class,
        () -> VectorDesigner.lp(4, 2, List.of(new int[] {0, 5}), 1, er));
    assertThrows(
        IllegalArgumentException.class,
        () -> VectorDesigner.lp(4, 2, List.of(new int[] {1}), 1, er));
    assertThrows(IllegalArgumentException.class, () -> VectorDesigner.lp(4, 2, List.of(), 1, er));
    assertThrows(
        IllegalArgumentException.class,
        () -> VectorDesigner.lp(4, 2, List.of(new int[] {1, 1}), 60, er));
    assertThrows(
        IllegalArgumentException.class,
        () -> VectorDesigner.lp(9, 4, List.of(new int[] {1, 0, 0, 0}), 1, er));
  }
}
