package org.dpsql.matrix;

import java.util.List;
import java.util.function.BiFunction;

/** Mode-wise application of per-factor linear maps to a vector laid out as a row-major tensor. */
final class Kron {
  private Kron() {}

  /**
   * {@code (F₁ ⊗ … ⊗ F_d) v}, where {@code op.apply(factor, Y)} computes {@code F Y} for an {@code
   * nᵢ × k} block {@code Y} and each {@code Fᵢ} is square of order {@code factor.cells()}.
   */
  static <T> double[] applyPerMode(
      List<? extends T> factors,
      double[] v,
      BiFunction<T, double[][], double[][]> op,
      java.util.function.ToIntFunction<T> size) {
    double[] cur = v.clone();
    int total = cur.length;
    int right = total;
    int left = 1;
    for (T f : factors) {
      int nf = size.applyAsInt(f);
      right /= nf;
      // block Y[a][left*right]: element (l, a, r) at index (l*nf + a)*right + r
      double[][] y = new double[nf][left * right];
      for (int l = 0; l < left; l++) {
        for (int a = 0; a < nf; a++) {
          int base = (l * nf + a) * right;
          for (int r = 0; r < right; r++) {
            y[a][l * right + r] = cur[base + r];
          }
        }
      }
      double[][] z = op.apply(f, y);
      for (int l = 0; l < left; l++) {
        for (int a = 0; a < nf; a++) {
          int base = (l * nf + a) * right;
          for (int r = 0; r < right; r++) {
            cur[base + r] = z[a][l * right + r];
          }
        }
      }
      left *= nf;
    }
    return cur;
  }

  /** {@link #applyPerMode} for workloads (square Gram operators). */
  static double[] applyPerMode(
      List<Workload> factors, double[] v, BiFunction<Workload, double[][], double[][]> op) {
    return applyPerMode(factors, v, op, Workload::cells);
  }
}
