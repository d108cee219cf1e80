package org.dpsql.matrix.design;

import java.util.List;
import org.dpsql.matrix.Strategy;

/**
 * A stack of weighted strategies {@code A = [√b₁ A₁; √b₂ A₂; …]} over the same cells, so that {@code
 * AᵀA = Σ bᵢ AᵢᵀAᵢ} and every squared column norm is {@code Σ bᵢ ||Aᵢ[:,j]||²}. Used for unions of
 * Kronecker products (one Kronecker strategy per workload member). Immutable.
 */
public final class WeightedUnionStrategy implements Strategy {
  private final List<Strategy> members;
  private final double[] weights;
  private final String name;

  /**
   * The union of {@code members} with Gram weights {@code weights} (row scale {@code √bᵢ}).
   *
   * @throws IllegalArgumentException on mismatched sizes, cells or non-positive weights
   */
  public WeightedUnionStrategy(String name, List<? extends Strategy> members, double[] weights) {
    if (members.isEmpty() || members.size() != weights.length) {
      throw new IllegalArgumentException("need one positive weight per member strategy");
    }
    int n = members.get(0).cells();
    for (int i = 0; i < weights.length; i++) {
      if (!(weights[i] > 0) || !Double.isFinite(weights[i])) {
        throw new IllegalArgumentException("weights must be positive and finite: " + weights[i]);
      }
      if (members.get(i).cells() != n) {
        throw new IllegalArgumentException("member " + i + " has " + members.get(i).cells() + " cells, not " + n);
      }
    }
    this.members = List.copyOf(members);
    this.weights = weights.clone();
    this.name = name;
  }

  /** The member strategies. */
  public List<Strategy> members() {
    return members;
  }

  /** The Gram weights {@code bᵢ} (a copy). */
  public double[] weights() {
    return weights.clone();
  }

  @Override
  public int cells() {
    return members.get(0).cells();
  }

  @Override
  public long rows() {
    long r = 0;
    for (Strategy s : members) {
      r = Math.addExact(r, s.rows());
    }
    return r;
  }

  @Override
  public double[][] matrix() {
    double[][] out = new double[Math.toIntExact(rows())][];
    int r = 0;
    for (int i = 0; i < members.size(); i++) {
      double f = Math.sqrt(weights[i]);
      for (double[] row : members.get(i).matrix()) {
        for (int j = 0; j < row.length; j++) {
          row[j] *= f;
        }
        out[r++] = row;
      }
    }
    return out;
  }

  @Override
  public double[][] gram() {
    int n = cells();
    double[][] g = new double[n][n];
    for (int i = 0; i < members.size(); i++) {
      double[][] h = members.get(i).gram();
      for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
          g[a][b] += weights[i] * h[a][b];
        }
      }
    }
    return g;
  }

  @Override
  public double[] columnNormsSquared() {
    double[] c = new double[cells()];
    for (int i = 0; i < members.size(); i++) {
      double[] m = members.get(i).columnNormsSquared();
      for (int j = 0; j < c.length; j++) {
        c[j] += weights[i] * m[j];
      }
    }
    return c;
  }

  @Override
  public double[] columnNormsL1() {
    double[] c = new double[cells()];
    for (int i = 0; i < members.size(); i++) {
      double f = Math.sqrt(weights[i]);
      double[] m = members.get(i).columnNormsL1();
      for (int j = 0; j < c.length; j++) {
        c[j] += f * m[j];
      }
    }
    return c;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return name;
  }
}
