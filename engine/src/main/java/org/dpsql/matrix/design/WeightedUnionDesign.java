package org.dpsql.matrix.design;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.Matrices;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * HDMM-style design for a union of Kronecker products {@code W = [W₁; …; W_m]} whose factor Grams do
 * not commute (beyond seed 001): each member gets its own Kronecker strategy {@code Aᵢ}
 * ({@link KroneckerDesign}, sensitivity {@code sᵢ}, error {@code eᵢ = trace(Gᵢ (AᵢᵀAᵢ)⁺)} on its own
 * member), and the strategy is {@code A = [a₁A₁; …; a_mA_m]}. Since {@code AᵀA ⪰ aᵢ²AᵢᵀAᵢ}, the error
 * is at most {@code Σᵢ eᵢ/aᵢ² · Σᵢ aᵢ²sᵢ²}, minimised in closed form by {@code aᵢ² ∝ √eᵢ/sᵢ} to
 * {@code (Σᵢ √eᵢ sᵢ)²}. The true error is then computed exactly ({@link #totalSquaredError}).
 */
public final class WeightedUnionDesign {
  private WeightedUnionDesign() {}

  /** Designs the weighted union for {@code u} with per-factor designs by {@code method}. */
  public static DesignOutcome design(UnionWorkload u, KroneckerDesign.FactorMethod method) {
    List<Strategy> members = new ArrayList<>();
    double[] b = new double[u.members().size()];
    double bound = 0;
    double norm = 0;
    for (int i = 0; i < b.length; i++) {
      DesignOutcome o = KroneckerDesign.design(u.members().get(i), method);
      double s = o.strategy().sensitivityL2();
      double e = o.totalSquaredError() / (s * s); // trace part
      members.add(o.strategy());
      b[i] = Math.sqrt(e) / s;
      bound += Math.sqrt(e) * s;
      norm += b[i] * s * s;
    }
    for (int i = 0; i < b.length; i++) {
      b[i] /= norm;
    }
    WeightedUnionStrategy s = new WeightedUnionStrategy("WeightedUnion(" + u + ")", members, b);
    double error = totalSquaredError(u, s);
    double svdb = EigenBasis.of(u).svdb(EigenBasis.DEFAULT_TOLERANCE);
    return new DesignOutcome(
        s, error, svdb, String.format("weighted union of %d Kronecker designs (upper bound %.6g)", b.length, bound * bound));
  }

  /**
   * {@code ||A||₂² trace(WᵀW (AᵀA)⁺)} for a weighted union of Kronecker strategies: {@code AᵀA = F Fᵀ}
   * with {@code F} the weighted Kronecker products of the factors' Gram eigenpairs; when {@code F}
   * has fewer columns than cells the pseudo-inverse is taken from the small Gram {@code FᵀF} and
   * {@code WᵀW} enters only through its fast products, otherwise {@link ErrorAnalysis} is used.
   * Returns {@code +∞} if the workload is not in the strategy's row space.
   */
  public static double totalSquaredError(Workload w, WeightedUnionStrategy s) {
    int n = w.cells();
    List<double[]> cols = new ArrayList<>();
    double[] weights = s.weights();
    long columns = 0;
    List<List<SymmetricEigen>> factorEigen = new ArrayList<>();
    for (Strategy m : s.members()) {
      List<SymmetricEigen> fe = new ArrayList<>();
      long r = 1;
      for (Strategy f : m.kroneckerFactors()) {
        SymmetricEigen e = SymmetricEigen.of(f.gram());
        fe.add(e);
        r *= rank(e.valuesUnsafe());
      }
      factorEigen.add(fe);
      columns += r;
    }
    double sens = s.sensitivityL2();
    if (columns >= n) {
      return ErrorAnalysis.totalSquaredError(w, s);
    }
    for (int i = 0; i < factorEigen.size(); i++) {
      List<SymmetricEigen> fe = factorEigen.get(i);
      int[] ranks = fe.stream().mapToInt(e -> rank(e.valuesUnsafe())).toArray();
      int[] idx = new int[fe.size()];
      long count = 1;
      for (int r : ranks) {
        count *= r;
      }
      for (long t = 0; t < count; t++) {
        List<double[]> parts = new ArrayList<>();
        double scale = Math.sqrt(weights[i]);
        for (int a = 0; a < idx.length; a++) {
          SymmetricEigen e = fe.get(a);
          scale *= Math.sqrt(e.valuesUnsafe()[idx[a]]);
          parts.add(e.vectorsUnsafe()[idx[a]]);
        }
        double[] col = Matrices.kroneckerOfVectors(parts);
        for (int j = 0; j < col.length; j++) {
          col[j] *= scale;
        }
        cols.add(col);
        for (int a = idx.length - 1; a >= 0; a--) {
          if (++idx[a] < ranks[a]) {
            break;
          }
          idx[a] = 0;
        }
      }
    }
    SymmetricEigen x = SymmetricEigen.ofFactor(cols.toArray(new double[0][]), 1e-12);
    double[][] v = x.vectorsUnsafe();
    double[] lam = x.valuesUnsafe();
    double[][] gv = w.gramTimes(Dense.transpose(v)); // n × r
    double trace = 0;
    double covered = 0;
    for (int t = 0; t < v.length; t++) {
      double q = 0;
      for (int j = 0; j < n; j++) {
        q += v[t][j] * gv[j][t];
      }
      covered += q;
      trace += q / lam[t];
    }
    double total = Dense.sum(w.gramDiagonal());
    if (total - covered > 1e-8 * total) {
      return Double.POSITIVE_INFINITY;
    }
    return sens * sens * trace;
  }

  private static int rank(double[] values) {
    double max = Math.max(values[0], 0);
    int r = 0;
    while (r < values.length && values[r] > 1e-12 * max) {
      r++;
    }
    return r;
  }
}
