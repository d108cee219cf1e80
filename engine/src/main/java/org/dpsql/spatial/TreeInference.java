package org.dpsql.spatial;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Computes node estimates for a released {@link MeasuredNode} tree according to an {@link
 * Inference} rule, and packs the tree into a {@link SpatialSynopsis}.
 *
 * <p>Guarantee: pure post-processing of the measurements (no access to data, no randomness). For
 * every rule the estimates are consistent — each inner node's estimate equals the sum of its
 * children's — so answering from inner nodes or from leaves gives the same result. {@link
 * Inference#LEAST_SQUARES} is exact GLS for independent measurement errors: a bottom-up pass
 * computes, for each node, the best linear unbiased estimate from its own subtree, {@code z_v =
 * (y_v/σ_v² + Σz_c / Σ V_c) / (1/σ_v² + 1/Σ V_c)} with variance {@code V_v}; a top-down pass splits
 * the difference between a parent's final estimate and {@code Σ z_c} among the children in
 * proportion to {@code V_c}. Nodes without a measurement contribute {@code σ² = ∞}.
 */
public final class TreeInference {
  private TreeInference() {}

  /**
   * The synopsis of {@code root} under {@code rule}.
   *
   * @throws IllegalArgumentException if some leaf has no measurement
   */
  public static SpatialSynopsis synopsis(MeasuredNode root, Inference rule) {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(rule, "rule");
    // breadth-first order: the children of every node are contiguous
    List<MeasuredNode> order = new ArrayList<>();
    order.add(root);
    int n0 = root.size();
    int[] first = new int[n0];
    int[] count = new int[n0];
    for (int v = 0; v < order.size(); v++) {
      MeasuredNode node = order.get(v);
      first[v] = order.size();
      count[v] = node.children().size();
      order.addAll(node.children());
      if (node.isLeaf() && node.measurements().isEmpty()) {
        throw new IllegalArgumentException("leaf " + node.region() + " has no measurement");
      }
    }
    int n = order.size();
    double[] estimate = new double[n];
    switch (rule) {
      case LEAF_LAST_MEASUREMENT, LEAF_INVERSE_VARIANCE -> {
        for (int v = n - 1; v >= 0; v--) {
          if (count[v] == 0) {
            List<Measurement> ms = order.get(v).measurements();
            estimate[v] = rule == Inference.LEAF_LAST_MEASUREMENT
                ? ms.get(ms.size() - 1).noisyCount()
                : inverseVarianceMean(ms)[0];
          } else {
            double s = 0;
            for (int c = first[v]; c < first[v] + count[v]; c++) {
              s += estimate[c];
            }
            estimate[v] = s;
          }
        }
      }
      case LEAST_SQUARES -> leastSquares(order, first, count, estimate);
      default -> throw new AssertionError(rule);
    }
    int[] bounds = new int[4 * n];
    for (int v = 0; v < n; v++) {
      GridRectangle r = order.get(v).region();
      bounds[4 * v] = r.rowFrom();
      bounds[4 * v + 1] = r.rowTo();
      bounds[4 * v + 2] = r.colFrom();
      bounds[4 * v + 3] = r.colTo();
    }
    return new SpatialSynopsis(bounds, first, count, estimate);
  }

  private static void leastSquares(List<MeasuredNode> order, int[] first, int[] count, double[] z) {
    int n = order.size();
    double[] var = new double[n];
    for (int v = n - 1; v >= 0; v--) {
      List<Measurement> ms = order.get(v).measurements();
      double[] own = ms.isEmpty() ? null : inverseVarianceMean(ms);
      if (count[v] == 0) {
        z[v] = own[0];
        var[v] = own[1];
        continue;
      }
      double zc = 0;
      double vc = 0;
      for (int c = first[v]; c < first[v] + count[v]; c++) {
        zc += z[c];
        vc += var[c];
      }
      if (own == null) {
        z[v] = zc;
        var[v] = vc;
      } else {
        double wOwn = 1 / own[1];
        double wKids = 1 / vc;
        z[v] = (own[0] * wOwn + zc * wKids) / (wOwn + wKids);
        var[v] = 1 / (wOwn + wKids);
      }
    }
    // top-down: z[0] is final; distribute each parent's residual among its children
    for (int v = 0; v < n; v++) {
      if (count[v] == 0) {
        continue;
      }
      double zc = 0;
      double vc = 0;
      for (int c = first[v]; c < first[v] + count[v]; c++) {
        zc += z[c];
        vc += var[c];
      }
      double residual = z[v] - zc;
      for (int c = first[v]; c < first[v] + count[v]; c++) {
        z[c] += residual * var[c] / vc;
      }
    }
  }

  /** {mean, variance} of the inverse-variance weighted combination. */
  static double[] inverseVarianceMean(List<Measurement> ms) {
    if (ms.size() == 1) {
      return new double[] {ms.get(0).noisyCount(), ms.get(0).variance()};
    }
    double w = 0;
    double s = 0;
    for (Measurement m : ms) {
      double wi = 1 / m.variance();
      w += wi;
      s += wi * m.noisyCount();
    }
    return new double[] {s / w, 1 / w};
  }
}
