package org.dpsql.bench;

import org.dpsql.matrix.design.EigenBasis;
import org.dpsql.matrix.design.SineTransform;
import org.dpsql.matrix.design.TransformDesign;
import org.dpsql.matrix.design.TransformStrategy;
import org.ojalgo.matrix.decomposition.Cholesky;
import org.ojalgo.matrix.store.MatrixStore;
import org.ojalgo.matrix.store.RawStore;

/**
 * Issue 33: would seed 001's column completion close the gap between the transform Eigen-Design
 * of all ranges and the singular value bound? Completing the {@code r} columns with the largest
 * deficit {@code d_j = max(Mu) − (Mu)_j} adds the rows {@code √d_j e_j} (sensitivity unchanged);
 * the exact error is {@code max(Mu) · tr(G (QᵀUQ + E D Eᵀ)⁻¹)}, computed by Woodbury from {@code
 * 2r} fast transforms and one {@code r × r} Cholesky factor: {@code tr(GH) − tr(K⁻¹ Eᵀ HGH E)} with
 * {@code H = QᵀU⁻¹Q}, {@code K = D⁻¹ + EᵀHE}. Prints the squared-error and RMSE ratios to svdb
 * for each {@code r}; {@code r = n} is the full completion (checked against the dense
 * computation at 512 cells).
 *
 * <p>Run: {@code mvn -B -q -DskipTests package -pl bench -am && java -Xmx4g -cp
 * bench/target/benchmarks.jar org.dpsql.bench.TransformCompletionProbe}
 */
public final class TransformCompletionProbe {
  private TransformCompletionProbe() {}

  public static void main(String[] args) {
    for (int n : new int[] {512, 8192, 65536}) {
      probe(n, new int[] {128, 512, 1024, n});
    }
  }

  private static void probe(int n, int[] rs) {
    TransformStrategy a = TransformDesign.allRanges(n);
    double[] u = a.weights();
    double[] mu = a.columnNormsSquared();
    double max = java.util.Arrays.stream(mu).max().orElseThrow();
    EigenBasis q = EigenBasis.allRanges(n);
    double trGH = 0;
    double[] hw = new double[n];
    double[] pw = new double[n];
    for (int k = 0; k < n; k++) {
      double sigma = q.eigenvalue(k);
      trGH += sigma / u[k];
      hw[k] = 1 / u[k];
      pw[k] = sigma / (u[k] * u[k]);
    }
    double[] d = new double[n];
    Integer[] order = new Integer[n];
    for (int j = 0; j < n; j++) {
      d[j] = max - mu[j];
      order[j] = j;
    }
    java.util.Arrays.sort(order, (x, y) -> Double.compare(d[y], d[x]));
    System.out.printf("%d cells: no completion err/svdb %.5f (RMSE %.5f)%n", n,
        max * trGH / a.svdb(), Math.sqrt(max * trGH / a.svdb()));
    for (int r : rs) {
      if (r > n || (r == n && n > 2048)) {
        continue;
      }
      long t0 = System.nanoTime();
      int used = 0;
      while (used < r && d[order[used]] > 0) {
        used++;
      }
      double[][] k = new double[used][used];
      double[][] p = new double[used][used];
      for (int b = 0; b < used; b++) {
        double[] hc = qdq(hw, order[b], n);
        double[] pc = qdq(pw, order[b], n);
        for (int c = 0; c < used; c++) {
          k[c][b] = hc[order[c]];
          p[c][b] = pc[order[c]];
        }
        k[b][b] += 1 / d[order[b]];
      }
      RawStore ks = RawStore.wrap(k);
      Cholesky<Double> chol = Cholesky.R064.make(ks);
      chol.decompose(ks);
      MatrixStore<Double> inv = chol.getInverse();
      double corr = 0;
      for (int i = 0; i < used; i++) {
        for (int j = 0; j < used; j++) {
          corr += inv.doubleValue(i, j) * p[j][i];
        }
      }
      double ratio = max * (trGH - corr) / a.svdb();
      System.out.printf("  completing %5d columns: err/svdb %.5f (RMSE %.5f), %.1f s%n", r, ratio,
          Math.sqrt(ratio), (System.nanoTime() - t0) / 1e9);
    }
  }

  /** Column {@code l} of {@code Q diag(w) Q}: two DST-I. */
  private static double[] qdq(double[] w, int l, int n) {
    double c = Math.sqrt(2.0 / (n + 1));
    double[] e = new double[n];
    e[l] = 1;
    double[] t = SineTransform.dstI(e);
    for (int k = 0; k < n; k++) {
      t[k] *= c * w[k];
    }
    double[] out = SineTransform.dstI(t);
    for (int j = 0; j < n; j++) {
      out[j] *= c;
    }
    return out;
  }
}
