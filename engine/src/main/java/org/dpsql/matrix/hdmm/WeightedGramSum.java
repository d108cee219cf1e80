package org.dpsql.matrix.hdmm;

import java.util.List;
import org.dpsql.matrix.Workload;

/**
 * The workload {@code [√c₁ W₁; √c₂ W₂; …]} over common cells, whose Gram is {@code Σ cⱼ WⱼᵀWⱼ}: the
 * effective single-factor workload of one Kronecker factor when the others are held fixed (weights
 * {@code cⱼ ≥ 0} are the other factors' error terms).
 */
final class WeightedGramSum implements Workload {
  private final List<Workload> members;
  private final double[] weights;
  private final int n;

  WeightedGramSum(List<Workload> members, double[] weights) {
    if (members.isEmpty() || members.size() != weights.length) {
      throw new IllegalArgumentException("need one non-negative weight per member");
    }
    this.members = List.copyOf(members);
    this.weights = weights.clone();
    this.n = members.get(0).cells();
    for (int i = 0; i < weights.length; i++) {
      if (!(weights[i] >= 0) || !Double.isFinite(weights[i])) {
        throw new IllegalArgumentException("weights must be finite and non-negative: " + weights[i]);
      }
      if (members.get(i).cells() != n) {
        throw new IllegalArgumentException("members must share their cells");
      }
    }
  }

  @Override
  public int cells() {
    return n;
  }

  @Override
  public long queries() {
    long m = 0;
    for (Workload w : members) {
      m = Math.addExact(m, w.queries());
    }
    return m;
  }

  @Override
  public double[][] gram() {
    double[][] g = new double[n][n];
    for (int k = 0; k < weights.length; k++) {
      if (weights[k] == 0) {
        continue;
      }
      double[][] h = members.get(k).gram();
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          g[i][j] += weights[k] * h[i][j];
        }
      }
    }
    return g;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    for (int k = 0; k < weights.length; k++) {
      double[] e = members.get(k).gramDiagonal();
      for (int i = 0; i < n; i++) {
        d[i] += weights[k] * e[i];
      }
    }
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    int cols = x.length == 0 ? 0 : x[0].length;
    double[][] out = new double[n][cols];
    for (int k = 0; k < weights.length; k++) {
      if (weights[k] == 0) {
        continue;
      }
      double[][] y = members.get(k).gramTimes(x);
      for (int i = 0; i < n; i++) {
        for (int c = 0; c < cols; c++) {
          out[i][c] += weights[k] * y[i][c];
        }
      }
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    double[][] w = new double[Math.toIntExact(queries())][];
    int r = 0;
    for (int k = 0; k < weights.length; k++) {
      double s = Math.sqrt(weights[k]);
      for (double[] row : members.get(k).matrix()) {
        for (int j = 0; j < row.length; j++) {
          row[j] *= s;
        }
        w[r++] = row;
      }
    }
    return w;
  }

  @Override
  public String toString() {
    return "WeightedGramSum" + members;
  }
}
