package org.dpsql.matrix.design;

import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * Test helper: fast exact errors of the wavelet and binary hierarchical strategies on {@code n =
 * 2^L} cells. Both Grams {@code AᵀA} are diagonalised by the normalised Haar basis {@code ψᵢ} (the
 * wavelet rows are orthogonal; a binary tree's node sums of a Haar function are constant on each half
 * of its support), so {@code trace(G (AᵀA)⁻¹) = Σᵢ ψᵢ G ψᵢᵀ / λᵢ} with {@code λᵢ = ||A ψᵢ||²}, computed
 * from the strategy's explicit rows one Haar vector at a time with the workload's fast Gram product.
 * Verified against the dense {@code ErrorAnalysis} in {@link Table2SlowTest#haarShortcutMatchesDense}.
 */
final class HaarDiagonalErrors {
  private HaarDiagonalErrors() {}

  /** {@code ||A||₂² trace(G (AᵀA)⁻¹)} for a strategy diagonalised by the Haar basis. */
  static double totalSquaredError(Workload w, Strategy a) {
    int n = w.cells();
    double[][] psi = normalisedHaar(n);
    double[][] rows = a.matrix();
    // λᵢ = Σ_rows (row · ψᵢ)², each row split into runs of equal entries: row · ψ = Σ value · (prefix sums)
    double[][][] runs = new double[rows.length][][];
    for (int r = 0; r < rows.length; r++) {
      runs[r] = runs(rows[r]);
    }
    double[] lambda = new double[n];
    for (int i = 0; i < n; i++) {
      double[] prefix = new double[n + 1];
      for (int j = 0; j < n; j++) {
        prefix[j + 1] = prefix[j] + psi[i][j];
      }
      double l = 0;
      for (double[][] rr : runs) {
        double v = 0;
        for (double[] run : rr) {
          v += run[0] * (prefix[(int) run[2]] - prefix[(int) run[1]]);
        }
        l += v * v;
      }
      lambda[i] = l;
    }
    double[][] gpsi = w.gramTimes(Dense.transpose(psi)); // n × n, column i = G ψᵢ
    double t = 0;
    for (int i = 0; i < n; i++) {
      double q = 0;
      for (int j = 0; j < n; j++) {
        q += psi[i][j] * gpsi[j][i];
      }
      t += q / lambda[i];
    }
    double s = a.sensitivityL2();
    return s * s * t;
  }

  /** Maximal runs {@code {value, from, to}} of equal non-zero entries of a row. */
  private static double[][] runs(double[] row) {
    java.util.List<double[]> out = new java.util.ArrayList<>();
    int j = 0;
    while (j < row.length) {
      if (row[j] == 0) {
        j++;
        continue;
      }
      int from = j;
      double v = row[j];
      while (j < row.length && row[j] == v) {
        j++;
      }
      out.add(new double[] {v, from, j});
    }
    return out.toArray(new double[0][]);
  }

  /** The orthonormal Haar basis: the constant, then ±1/√s on the halves of every dyadic node. */
  static double[][] normalisedHaar(int n) {
    if (Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException("n must be a power of two");
    }
    double[][] psi = new double[n][n];
    java.util.Arrays.fill(psi[0], 1 / Math.sqrt(n));
    int r = 1;
    for (int size = n; size >= 2; size /= 2) {
      for (int start = 0; start < n; start += size) {
        double c = 1 / Math.sqrt(size);
        for (int j = start; j < start + size / 2; j++) {
          psi[r][j] = c;
        }
        for (int j = start + size / 2; j < start + size; j++) {
          psi[r][j] = -c;
        }
        r++;
      }
    }
    return psi;
  }
}
