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
    return design(new org.dpsql.matrix.AllRangesWorkload(n), gap, maxIterations);
  }

  /**
   * Program 1 over the DST-I basis for any workload {@code W} whose {@link #sineGramDiagonal} is
   * known: the weights minimising {@code max(Mu) Σ g_k/u_k}, {@code g_k = q_kᵀ WᵀW q_k}, which is
   * the exact total squared error of {@code diag(√u) Q} on {@code W} at unit noise ({@code (AᵀA)⁻¹
   * = Qᵀ diag(1/u) Q}). For all ranges {@code g} are the eigenvalues and this is the Eigen-Design;
   * for prefixes (whose eigenbasis is a cosine basis) it is the best re-weighting of the sine
   * eigen-queries, scored exactly against the prefix singular value bound.
   *
   * @return the strategy, or null when {@code w} is not one whose diagonal is known
   */
  public static TransformStrategy forWorkload(org.dpsql.matrix.Workload w) {
    return sineGramDiagonal(w) == null ? null : design(w, DEFAULT_GAP, DEFAULT_ITERATIONS);
  }

  private static TransformStrategy design(org.dpsql.matrix.Workload w, double gap,
      int maxIterations) {
    int n = w.cells();
    double[] sigma = sineGramDiagonal(w);
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
    return new TransformStrategy(label(w), best, sigma, svdb(w));
  }

  /**
   * The diagonal {@code g_k = q_kᵀ WᵀW q_k} of a one-attribute workload's Gram in the DST-I basis
   * {@code q_k = √(2/(n+1)) sin(π k j/(n+1))}, in closed form: all ranges {@code (n+1)/(4
   * sin²(θ/2))} (the eigenvalues), prefixes {@code (cos²(θ/2) + 1/2)/(2 sin²(θ/2))}, single cells
   * {@code 1}, the total {@code (Σ_j q_kj)²} ({@code θ = πk/(n+1)}); a union sums its members'.
   * Null for any other workload.
   */
  public static double[] sineGramDiagonal(org.dpsql.matrix.Workload w) {
    int n = w.cells();
    if (w instanceof org.dpsql.matrix.UnionWorkload u) {
      double[] sum = new double[n];
      for (org.dpsql.matrix.Workload m : u.members()) {
        double[] g = sineGramDiagonal(m);
        if (g == null) {
          return null;
        }
        for (int k = 0; k < n; k++) {
          sum[k] += g[k];
        }
      }
      return sum;
    }
    double[] g = new double[n];
    for (int k = 0; k < n; k++) {
      double half = Math.PI * (k + 1) / (2.0 * (n + 1));
      double s = Math.sin(half);
      double c = Math.cos(half);
      if (w instanceof org.dpsql.matrix.AllRangesWorkload) {
        g[k] = (n + 1) / (4 * s * s);
      } else if (w instanceof org.dpsql.matrix.PrefixWorkload) {
        g[k] = (c * c + 0.5) / (2 * s * s);
      } else if (w instanceof org.dpsql.matrix.IdentityWorkload) {
        g[k] = 1;
      } else if (w instanceof org.dpsql.matrix.TotalWorkload) {
        // Σ_j sin(jθ) = sin(nθ/2) sin((n+1)θ/2)/sin(θ/2), and (n+1)θ/2 = πk/2
        double sum = (k % 2 == 0) ? c / s : 0; // k+1 odd: sin(nθ/2) = cos(θ/2); even: 0
        g[k] = 2.0 / (n + 1) * sum * sum;
      } else {
        return null;
      }
    }
    return g;
  }

  /** The singular value bound {@code (Σ √λ)²/n} of a workload with closed-form eigenvalues. */
  private static double svdb(org.dpsql.matrix.Workload w) {
    int n = w.cells();
    EigenBasis basis;
    if (w instanceof org.dpsql.matrix.AllRangesWorkload) {
      basis = EigenBasis.allRanges(n);
    } else if (w instanceof org.dpsql.matrix.PrefixWorkload) {
      basis = EigenBasis.prefix(n);
    } else if (w instanceof org.dpsql.matrix.IdentityWorkload) {
      return n;
    } else {
      return Double.NaN;
    }
    double root = 0;
    for (int k = 0; k < n; k++) {
      root += Math.sqrt(basis.eigenvalue(k));
    }
    return root * root / n;
  }

  private static String label(org.dpsql.matrix.Workload w) {
    if (w instanceof org.dpsql.matrix.AllRangesWorkload) {
      return "AllRanges(" + w.cells() + ")";
    }
    if (w instanceof org.dpsql.matrix.PrefixWorkload) {
      return "Prefix(" + w.cells() + ")";
    }
    return w.getClass().getSimpleName().replace("Workload", "") + "(" + w.cells() + ")";
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
