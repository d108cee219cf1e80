package org.dpsql.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.dpsql.mechanism.Rational;
import org.junit.jupiter.api.Test;

class TreeInferenceTest {

  /**
   * A random tree on a strip of cells, with random fan-out (2–4), some inner nodes unmeasured,
   * some leaves measured twice, and unequal budgets.
   */
  private static MeasuredNode randomTree(SplittableRandom rnd, int from, int to, int depth) {
    GridRectangle region = new GridRectangle(0, 1, from, to);
    List<Measurement> ms = new ArrayList<>();
    int width = to - from;
    if (depth == 0 || width < 2) {
      int k = 1 + rnd.nextInt(2);
      for (int i = 0; i < k; i++) {
        ms.add(new Measurement(rnd.nextInt(200) - 20, Rational.of(1 + rnd.nextInt(9), 10)));
      }
      return MeasuredNode.leaf(region, 0, ms);
    }
    if (rnd.nextInt(3) > 0) {
      ms.add(new Measurement(rnd.nextInt(800), Rational.of(1 + rnd.nextInt(9), 10)));
    }
    int fan = Math.min(width, 2 + rnd.nextInt(3));
    List<MeasuredNode> kids = new ArrayList<>();
    for (int i = 0; i < fan; i++) {
      int a = from + i * width / fan;
      int b = from + (i + 1) * width / fan;
      kids.add(randomTree(rnd, a, b, depth - 1));
    }
    return new MeasuredNode(region, depth, ms, Rational.ZERO, kids);
  }

  /**
   * Least squares equals the brute-force GLS solution: unknowns are the leaf counts x, each
   * measurement y of node v has residual y − Σ_{leaves under v} x with weight 1/Var; solve the
   * normal equations by Gaussian elimination and compare every node's estimate.
   */
  @Test
  void leastSquaresMatchesBruteForceGls() {
    SplittableRandom rnd = new SplittableRandom(21);
    for (int trial = 0; trial < 25; trial++) {
      MeasuredNode root = randomTree(rnd, 0, 12 + rnd.nextInt(20), 3);
      List<MeasuredNode> leaves = root.leaves();
      Map<MeasuredNode, Integer> index = new IdentityHashMap<>();
      for (int i = 0; i < leaves.size(); i++) {
        index.put(leaves.get(i), i);
      }
      int n = leaves.size();
      double[][] a = new double[n][n + 1];
      List<MeasuredNode> all = new ArrayList<>();
      collect(root, all);
      for (MeasuredNode v : all) {
        List<Integer> under = new ArrayList<>();
        for (MeasuredNode l : v.leaves()) {
          under.add(index.get(l));
        }
        for (Measurement m : v.measurements()) {
          double w = 1 / m.variance();
          for (int i : under) {
            for (int j : under) {
              a[i][j] += w;
            }
            a[i][n] += w * m.noisyCount();
          }
        }
      }
      double[] x = solve(a);
      SpatialSynopsis s = TreeInference.synopsis(root, Inference.LEAST_SQUARES);
      for (MeasuredNode v : all) {
        double expected = 0;
        for (MeasuredNode l : v.leaves()) {
          expected += x[index.get(l)];
        }
        assertEquals(expected, s.answer(v.region()), 1e-6 * Math.max(1, Math.abs(expected)),
            "trial " + trial + " node " + v.region());
      }
    }
  }

  @Test
  void inverseVarianceCombinesOnlyLeafMeasurements() {
    GridRectangle r = new GridRectangle(0, 1, 0, 2);
    Measurement a = new Measurement(10, Rational.of(1, 2));
    Measurement b = new Measurement(40, Rational.ONE);
    MeasuredNode leaf = MeasuredNode.leaf(r, 0, List.of(a, b));
    double wa = 1 / a.variance();
    double wb = 1 / b.variance();
    assertEquals((10 * wa + 40 * wb) / (wa + wb),
        TreeInference.synopsis(leaf, Inference.LEAF_INVERSE_VARIANCE).totalEstimate(), 1e-9);
    assertEquals(40, TreeInference.synopsis(leaf, Inference.LEAF_LAST_MEASUREMENT).totalEstimate(), 0);
    // the parent's own measurement is ignored by the leaf rules
    MeasuredNode parent = new MeasuredNode(GridRectangle.ofSize(1, 4), 1,
        List.of(new Measurement(1000, Rational.ONE)), Rational.ZERO,
        List.of(leaf, MeasuredNode.leaf(new GridRectangle(0, 1, 2, 4), 0, List.of(b))));
    assertEquals(80, TreeInference.synopsis(parent, Inference.LEAF_LAST_MEASUREMENT).totalEstimate(), 0);
  }

  @Test
  void leafWithoutMeasurementIsRejected() {
    MeasuredNode bare = MeasuredNode.leaf(GridRectangle.ofSize(1, 1), 0, List.of());
    assertThrows(IllegalArgumentException.class,
        () -> TreeInference.synopsis(bare, Inference.LEAST_SQUARES));
  }

  @Test
  void childrenMustTileTheParent() {
    MeasuredNode a = MeasuredNode.leaf(new GridRectangle(0, 1, 0, 2), 0, List.of());
    MeasuredNode b = MeasuredNode.leaf(new GridRectangle(0, 1, 1, 3), 0, List.of());
    assertThrows(IllegalArgumentException.class, () -> new MeasuredNode(GridRectangle.ofSize(1, 3),
        1, List.of(), Rational.ZERO, List.of(a, b)));
  }

  private static void collect(MeasuredNode n, List<MeasuredNode> out) {
    out.add(n);
    for (MeasuredNode c : n.children()) {
      collect(c, out);
    }
  }

  /** Gaussian elimination with partial pivoting on an augmented n x (n+1) matrix. */
  private static double[] solve(double[][] a) {
    int n = a.length;
    for (int c = 0; c < n; c++) {
      int p = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[p][c])) {
          p = r;
        }
      }
      double[] t = a[c];
      a[c] = a[p];
      a[p] = t;
      for (int r = c + 1; r < n; r++) {
        double f = a[r][c] / a[c][c];
        for (int k = c; k <= n; k++) {
          a[r][k] -= f * a[c][k];
        }
      }
    }
    double[] x = new double[n];
    for (int r = n - 1; r >= 0; r--) {
      double s = a[r][n];
      for (int k = r + 1; k < n; k++) {
        s -= a[r][k] * x[k];
      }
      x[r] = s / a[r][r];
    }
    return x;
  }
}
