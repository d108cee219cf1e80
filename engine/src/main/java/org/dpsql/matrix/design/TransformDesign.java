package org.dpsql.matrix.design;

/**
 * Eigen-Design (seed 001, Program 2) for all ranges over {@code n} cells without any {@code n × n}
 * array: the eigenpairs are in closed form ({@link EigenBasis#allRanges}), and Program 1 ({@link
 * QueryWeighting}) is solved by multiplicative dual updates {@code μ ← μ ∘ M u(μ)}, {@code u(μ) =
 * √(σ / Mᵀμ)}, whose two products are cosine sums computed by one fast transform each ({@code
 * (Mu)ⱼ = (Σu − Σₖ uₖ cos(2πkj/(n+1)))/(n+1)}, and {@code Mᵀ} has the same form): {@code O(n log n)}
 * per iteration, {@code O(n)} memory. Every iterate is certified: the primal value {@code max(Mu) Σ
 * σ/u} of the rescaled weights is an achieved error, the dual {@code (Σ √(σ Mᵀμ))² / Σμ} a lower
 * bound on Program 1; it stops at a relative gap of {@link #DEFAULT_GAP} or after {@link
 * #DEFAULT_ITERATIONS} iterations and returns the best primal point.
 */
public final class TransformDesign {
  private TransformDesign() {}

  /** The relative Program-1 gap at which the updates stop. */
  public static final double DEFAULT_GAP = 1e-3;

  /** The most multiplicative updates. */
  public static final int DEFAULT_ITERATIONS = 400;

  /** The Eigen-Design of all ranges over {@code n} cells, to {@link #DEFAULT_GAP}. */
  public static TransformStrategy allRanges(int n) {
    return allRanges(n, DEFAULT_GAP, DEFAULT_ITERATIONS);
  }

  /** As {@link #allRanges(int)} with the given gap and iteration limit. */
  public static TransformStrategy allRanges(int n, double gap, int maxIterations) {
    if (n < 1) {
      throw new IllegalArgumentException("need at least one cell: " + n);
    }
    EigenBasis basis = EigenBasis.allRanges(n);
    double[] sigma = new double[n];
    for (int k = 0; k < n; k++) {
      sigma[k] = basis.eigenvalue(k);
    }
    double[] mu = new double[n];
    java.util.Arrays.fill(mu, 1.0 / n);
    double[] best = null;
    double bestPrimal = Double.POSITIVE_INFINITY;
    double bestDual = 0;
    double[] u = new double[n];
    for (int it = 0; it < maxIterations; it++) {
      double[] s = squaredColumnNorms(mu); // Mᵀμ: M is symmetric in form
      double muSum = 0;
      double root = 0;
      for (int k = 0; k < n; k++) {
        u[k] = Math.sqrt(sigma[k] / s[k]);
        muSum += mu[k];
        root += Math.sqrt(sigma[k] * s[k]);
      }
      double[] r = squaredColumnNorms(u);
      double max = 0;
      for (double v : r) {
        max = Math.max(max, v);
      }
      double primal = 0;
      for (int k = 0; k < n; k++) {
        primal += sigma[k] / u[k];
      }
      primal *= max;
      bestDual = Math.max(bestDual, root * root / muSum);
      if (primal < bestPrimal) {
        bestPrimal = primal;
        best = new double[n];
        for (int k = 0; k < n; k++) {
          best[k] = u[k] / max;
        }
      }
      if ((bestPrimal - bestDual) / bestPrimal < gap) {
        break;
      }
      QueryWeighting.reweight(mu, r);
    }
    return new TransformStrategy(best, sigma);
  }

  /**
   * {@code (Mu)ⱼ = Σₖ uₖ Q_kj² = (Σu − Σₖ uₖ cos(2πkj/(n+1)))/(n+1)}: the squared column norms of
   * {@code diag(√u) Q} for the DST-I basis {@code Q}, by one fast transform.
   */
  static double[] squaredColumnNorms(double[] u) {
    int n = u.length;
    double total = 0;
    for (double v : u) {
      total += v;
    }
    double[] c = SineTransform.cosineSums(u);
    for (int j = 0; j < n; j++) {
      c[j] = (total - c[j]) / (n + 1);
    }
    return c;
  }
}
