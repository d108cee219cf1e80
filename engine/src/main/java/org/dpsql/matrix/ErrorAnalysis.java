package org.dpsql.matrix;

import java.util.List;
import org.dpsql.support.QuietOjAlgo;
import org.ojalgo.matrix.decomposition.Cholesky;
import org.ojalgo.matrix.decomposition.Eigenvalue;
import org.ojalgo.matrix.store.MatrixStore;
import org.ojalgo.matrix.store.RawStore;

/**
 * The data-independent error of the matrix mechanism (seed 001, Prop. 4) and the singular value
 * lower bound (Thm. 2).
 *
 * <p><b>Convention</b> (stated once, used everywhere in dpsql): errors here are <em>total squared
 * errors summed over the m workload queries at unit noise factor</em>, {@code ||A||² ·
 * trace(WᵀW (AᵀA)⁺)}, i.e. Prop. 4 as printed (no {@code 1/m}; spec pitfall P2). Multiply by the
 * noise factor of the accounting ({@code σ²/||A||₂²} for Gaussian noise, {@code 2·scale²/||A||₁²}
 * for Laplace) to get expected squared error, and divide by {@code m} for the mean per query (Def.
 * 5); {@link #rootMeanSquaredError} does the latter. The pseudo-inverse is used, so rank-deficient
 * strategies are handled; a workload outside the row space of the strategy has infinite error.
 */
public final class ErrorAnalysis {
  /** Relative eigenvalue threshold below which an eigenvalue is treated as zero (pitfall P6). */
  public static final double RANK_TOLERANCE = 1e-10;

  static {
    QuietOjAlgo.ensure();
  }

  private ErrorAnalysis() {}

  /** {@code ||A||₂² · trace(WᵀW (AᵀA)⁺)}: total squared error under Gaussian noise at unit factor. */
  public static double totalSquaredError(Workload w, Strategy a) {
    return total(w, a, Strategy::sensitivityL2);
  }

  /** {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)}: the same under Laplace/geometric noise (L1 sensitivity). */
  public static double totalSquaredErrorL1(Workload w, Strategy a) {
    return total(w, a, Strategy::sensitivityL1);
  }

  /**
   * {@code sensitivity(A)² · trace(WᵀW (AᵀA)⁺)}; a Kronecker workload on a Kronecker strategy of the
   * same factor shapes is the product of its factors' errors (both factors of the formula are).
   */
  private static double total(Workload w, Strategy a,
      java.util.function.ToDoubleFunction<Strategy> sensitivity) {
    requireSameCells(w, a);
    List<Workload> wf = w.kroneckerFactors();
    List<Strategy> af = a.kroneckerFactors();
    if (wf.size() > 1 && matchingFactors(wf, af)) {
      double e = 1;
      for (int i = 0; i < wf.size(); i++) {
        e *= total(wf.get(i), af.get(i), sensitivity);
      }
      return e;
    }
    double s = sensitivity.applyAsDouble(a);
    return s * s * traceGramTimesPseudoInverse(w, a);
  }

  /** {@code sqrt(totalSquaredError / m)}: root mean squared error per query at unit noise factor. */
  public static double rootMeanSquaredError(Workload w, Strategy a) {
    return Math.sqrt(totalSquaredError(w, a) / w.queries());
  }

  /**
   * {@code trace(WᵀW (AᵀA)⁺)}, or {@code +∞} when the workload is not in the row space of {@code A}.
   * A well-conditioned {@code AᵀA = LLᵀ} gives {@code trace(L⁻¹ WᵀW L⁻ᵀ)} with {@code WᵀW L⁻ᵀ} from
   * {@link Workload#gramTimes} (about {@code n³/2} flops, no dense {@code WᵀW}); other strategies
   * use the eigen-decomposition of {@code AᵀA} (pseudo-inverse, pitfall P7).
   */
  public static double traceGramTimesPseudoInverse(Workload w, Strategy a) {
    requireSameCells(w, a);
    if (a instanceof IdentityStrategy) {
      return w.frobeniusSquared();
    }
    double[][] x = a.gram();
    int n = x.length;
    Cholesky<Double> chol = Cholesky.R064.make();
    RawStore xs = RawStore.wrap(x);
    if (chol.decompose(xs) && chol.isSPD() && wellConditioned(chol)) {
      MatrixStore<Double> lStore = chol.getL();
      double[][] z = lowerInverse(lStore, n);
      double[][] zt = new double[n][n];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
          zt[j][i] = z[i][j];
        }
      }
      double[][] gzt = w.gramTimes(zt); // WᵀW L⁻ᵀ
      double t = 0;
      for (int i = 0; i < n; i++) {
        double[] zi = z[i];
        for (int j = 0; j <= i; j++) {
          t += zi[j] * gzt[j][i];
        }
      }
      return t;
    }
    double[][] g = w.gram();
    Eigenvalue<Double> eig = Eigenvalue.R064.make(xs, true);
    eig.decompose(xs);
    MatrixStore<Double> v = eig.getV();
    MatrixStore<Double> d = eig.getD();
    double max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, d.doubleValue(i, i));
    }
    MatrixStore<Double> gv = RawStore.wrap(g).multiply(v);
    double trace = 0;
    double outside = 0;
    double total = 0;
    for (int i = 0; i < n; i++) {
      double q = 0;
      for (int r = 0; r < n; r++) {
        q += v.doubleValue(r, i) * gv.doubleValue(r, i);
      }
      total += q;
      double lambda = d.doubleValue(i, i);
      if (lambda > RANK_TOLERANCE * max) {
        trace += q / lambda;
      } else {
        outside += q;
      }
    }
    if (outside > 1e-8 * Math.max(total, Double.MIN_NORMAL)) {
      return Double.POSITIVE_INFINITY;
    }
    return trace;
  }

  /** {@code L⁻¹} of a lower-triangular factor, row by row: {@code Zᵢ = (eᵢ − Σ_{k<i} Lᵢₖ Zₖ)/Lᵢᵢ}. */
  private static double[][] lowerInverse(MatrixStore<Double> lStore, int n) {
    double[][] l = Matrices.toArray(lStore);
    double[][] z = new double[n][n];
    for (int i = 0; i < n; i++) {
      double[] zi = z[i];
      zi[i] = 1;
      double[] li = l[i];
      for (int k = 0; k < i; k++) {
        double c = li[k];
        if (c == 0) {
          continue;
        }
        double[] zk = z[k];
        for (int j = 0; j <= k; j++) {
          zi[j] -= c * zk[j];
        }
      }
      double dd = li[i];
      for (int j = 0; j <= i; j++) {
        zi[j] /= dd;
      }
    }
    return z;
  }

  /**
   * The singular value bound {@code svdb(W) = (Σ √σᵢ)² / n}, {@code σᵢ} the eigenvalues of {@code
   * WᵀW} (seed 001, Thm. 2): no strategy has {@link #totalSquaredError} below it. Kronecker
   * workloads multiply their factors' bounds; all-range workloads use their closed-form spectrum.
   */
  public static double svdb(Workload w) {
    List<Workload> f = w.kroneckerFactors();
    if (f.size() > 1) {
      double b = 1;
      for (Workload x : f) {
        b *= svdb(x);
      }
      return b;
    }
    return svdb(eigenvalues(w), w.cells());
  }

  /** {@code (Σ √σᵢ)² / n} from the eigenvalues, with those below {@link #RANK_TOLERANCE} zeroed. */
  public static double svdb(double[] eigenvalues, int n) {
    double max = 0;
    for (double e : eigenvalues) {
      max = Math.max(max, e);
    }
    double s = 0;
    for (double e : eigenvalues) {
      if (e > RANK_TOLERANCE * max) {
        s += Math.sqrt(e);
      }
    }
    return s * s / n;
  }

  /**
   * The eigenvalues of {@code WᵀW} (any order); closed form for {@link AllRangesWorkload} ({@code
   * WᵀW = (n+1)·T⁻¹}, {@code T = tridiag(−1, 2, −1)}), a dense symmetric eigen-solve otherwise.
   */
  public static double[] eigenvalues(Workload w) {
    if (w instanceof AllRangesWorkload) {
      int n = w.cells();
      double[] e = new double[n];
      for (int k = 1; k <= n; k++) {
        e[k - 1] = (n + 1) / (2 - 2 * Math.cos(Math.PI * k / (n + 1)));
      }
      return e;
    }
    RawStore g = RawStore.wrap(w.gram());
    Eigenvalue<Double> eig = Eigenvalue.R064.make(g, true);
    eig.decompose(g);
    MatrixStore<Double> d = eig.getD();
    double[] e = new double[w.cells()];
    for (int i = 0; i < e.length; i++) {
      e[i] = Math.max(0, d.doubleValue(i, i));
    }
    return e;
  }

  /**
   * Per-query variances at unit noise factor, {@code ||A||₂² · wᵢ (AᵀA)⁺ wᵢᵀ}, for a workload with
   * explicit rows; {@code +∞} for a query outside the row space of {@code A}.
   */
  public static double[] perQueryVariances(Workload w, Strategy a) {
    double[][] rows = w.matrix();
    double[] out = new double[rows.length];
    double s2 = a.sensitivityL2() * a.sensitivityL2();
    for (int i = 0; i < rows.length; i++) {
      out[i] = s2 * traceGramTimesPseudoInverse(new ExplicitWorkload(new double[][] {rows[i]}), a);
    }
    return out;
  }

  private static boolean wellConditioned(Cholesky<Double> chol) {
    MatrixStore<Double> l = chol.getL();
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    long n = l.countRows();
    for (int i = 0; i < n; i++) {
      double v = Math.abs(l.doubleValue(i, i));
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    // cond(AᵀA) ≈ (max/min)²; beyond ~1e12 the solve loses the digits the error needs (pitfall P7)
    return min > 0 && max / min < 1e6;
  }

  private static boolean matchingFactors(List<Workload> wf, List<Strategy> af) {
    if (wf.size() != af.size()) {
      return false;
    }
    for (int i = 0; i < wf.size(); i++) {
      if (wf.get(i).cells() != af.get(i).cells()) {
        return false;
      }
    }
    return true;
  }

  private static void requireSameCells(Workload w, Strategy a) {
    if (w.cells() != a.cells()) {
      throw new IllegalArgumentException(
          "workload has " + w.cells() + " cells but strategy " + a.name() + " has " + a.cells());
    }
  }
}
