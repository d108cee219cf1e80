package org.dpsql.matrix;

import java.util.List;

/**
 * The union (vertical stack) of workloads over the same cells, {@code W = [W₁; W₂; …]}: its Gram is
 * the sum {@code Σ WᵢᵀWᵢ}. Examples: all 2-way marginals, a set of range-marginals.
 */
public final class UnionWorkload implements Workload {
  private final List<Workload> members;
  private final int n;

  /** The union of {@code members}, which must all have the same number of cells. */
  public UnionWorkload(List<? extends Workload> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("a union needs at least one workload");
    }
    this.members = List.copyOf(members);
    this.n = members.get(0).cells();
    for (Workload w : members) {
      if (w.cells() != n) {
        throw new IllegalArgumentException(
            "all members of a union need the same cells: " + w + " has " + w.cells() + ", not " + n);
      }
    }
  }

  /** The stacked workloads. */
  public List<Workload> members() {
    return members;
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
    Matrices.requireDense(n);
    double[][] g = members.get(0).gram();
    for (int i = 1; i < members.size(); i++) {
      double[][] h = members.get(i).gram();
      for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
          g[r][c] += h[r][c];
        }
      }
    }
    return g;
  }

  @Override
  public double[] gramDiagonal() {
    double[] d = new double[n];
    for (Workload w : members) {
      double[] e = w.gramDiagonal();
      for (int i = 0; i < n; i++) {
        d[i] += e[i];
      }
    }
    return d;
  }

  @Override
  public double[][] gramTimes(double[][] x) {
    double[][] out = members.get(0).gramTimes(x);
    for (int i = 1; i < members.size(); i++) {
      double[][] y = members.get(i).gramTimes(x);
      for (int r = 0; r < out.length; r++) {
        for (int c = 0; c < out[r].length; c++) {
          out[r][c] += y[r][c];
        }
      }
    }
    return out;
  }

  @Override
  public double[][] matrix() {
    Matrices.requireExplicit(queries(), n);
    double[][] w = new double[(int) queries()][];
    int r = 0;
    for (Workload m : members) {
      for (double[] row : m.matrix()) {
        w[r++] = row;
      }
    }
    return w;
  }

  @Override
  public double[] answer(double[] x) {
    Matrices.requireLength(x, n);
    Matrices.requireExplicit(queries(), 1);
    double[] out = new double[(int) queries()];
    int r = 0;
    for (Workload m : members) {
      double[] a = m.answer(x);
      System.arraycopy(a, 0, out, r, a.length);
      r += a.length;
    }
    return out;
  }

  @Override
  public String toString() {
    return "Union" + members;
  }
}
