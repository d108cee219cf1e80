package org.dpsql.matrix.design;

import java.util.Arrays;
import org.dpsql.matrix.Workload;

/**
 * The Eigen-Design algorithm (seed 001, Program 2, §2.2): eigen-decompose {@code WᵀW = Qᵀ D Q},
 * drop eigenvalues below {@code 1e-10 σ_max} (P6), weight the remaining eigen-queries by Program 1
 * with costs {@code cᵢ = σᵢ} ({@link QueryWeighting}), and complete the columns with the diagonal
 * {@code D'ⱼⱼ = √(maxᵢ mᵢᵢ² − mⱼⱼ²)}, zeroing entries with {@code D'ⱼⱼ² < 1e-8 · max mᵢᵢ²} (P7 clean-up;
 * such entries are Program-1 round-off on columns that should be tight). The result has L2
 * sensitivity 1 and error at least svdb (Thm. 2) and at most {@code (n σ₁/svdb)^{1/2}} times svdb in
 * squared error (Thm. 3).
 *
 * <p>Options (each returns a new immutable designer):
 *
 * <ul>
 *   <li>{@link #withPrincipalVectors(int)}: keep the top {@code k} eigen-queries with their own
 *       weights and give all remaining non-zero ones one common weight (§2.9); Program 1 then has
 *       {@code k + 1} variables. For a complete full-rank basis of more than 4096 cells the remaining
 *       queries are kept implicit (the orthogonal complement), so only {@code k} rows are stored.
 *   <li>{@link #withSeparation(int)}: eigen-query separation (§2.8) — Program 1 per group of {@code
 *       n_g} consecutive eigen-queries, then one factor per group from a second Program-1 problem
 *       with costs {@code C_g = Σ σᵢ/uᵢ⁽ᵍ⁾} and columns {@code S_g = Σ uᵢ⁽ᵍ⁾ qᵢ²}.
 *   <li>{@link #forRelativeError()}: the §2.5 heuristic — design for the workload with every row
 *       scaled to unit L2 norm ({@link RowNormalisedWorkload}); answers are still for the original.
 *       The strategy's {@link EigenStrategy#totalSquaredError()} and {@link EigenStrategy#svdb()}
 *       then refer to the normalised workload; evaluate the original with {@code ErrorAnalysis}.
 *   <li>{@link #withoutCompletion()}: return {@code A'} alone (for analysis).
 * </ul>
 */
public final class EigenDesign {
  private final double eigenTolerance;
  private final double completionTolerance;
  private final int principal;
  private final double principalFraction;
  private final int groupSize;
  private final boolean relative;
  private final boolean completion;
  private final QueryWeighting.Method method;
  private final double gapTolerance;
  private final int implicitAbove;

  private EigenDesign(
      double eigenTolerance,
      double completionTolerance,
      int principal,
      double principalFraction,
      int groupSize,
      boolean relative,
      boolean completion,
      QueryWeighting.Method method,
      double gapTolerance,
      int implicitAbove) {
    this.eigenTolerance = eigenTolerance;
    this.completionTolerance = completionTolerance;
    this.principal = principal;
    this.principalFraction = principalFraction;
    this.groupSize = groupSize;
    this.relative = relative;
    this.completion = completion;
    this.method = method;
    this.gapTolerance = gapTolerance;
    this.implicitAbove = implicitAbove;
  }

  /** Full Eigen-Design with column completion, interior-point Program 1 to a gap of {@code 1e-8}. */
  public static EigenDesign standard() {
    return new EigenDesign(
        EigenBasis.DEFAULT_TOLERANCE, 1e-8, 0, 0, 0, false, true,
        QueryWeighting.Method.INTERIOR_POINT, QueryWeighting.DEFAULT_TOLERANCE, 4096);
  }

  /** Principal vectors (§2.9): the top {@code count ≥ 1} eigen-queries weighted individually. */
  public EigenDesign withPrincipalVectors(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("need at least one principal vector: " + count);
    }
    return new EigenDesign(eigenTolerance, completionTolerance, count, 0, 0, relative, completion, method,
        gapTolerance, implicitAbove);
  }

  /** Principal vectors (§2.9): the top {@code fraction ∈ (0, 1]} of the non-zero eigen-queries. */
  public EigenDesign withPrincipalFraction(double fraction) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction must be in (0, 1]: " + fraction);
    }
    return new EigenDesign(eigenTolerance, completionTolerance, 0, fraction, 0, relative, completion, method,
        gapTolerance, implicitAbove);
  }

  /** Eigen-query separation (§2.8) with groups of {@code groupSize ≥ 1} eigen-queries. */
  public EigenDesign withSeparation(int groupSize) {
    if (groupSize < 1) {
      throw new IllegalArgumentException("group size must be positive: " + groupSize);
    }
    return new EigenDesign(eigenTolerance, completionTolerance, 0, 0, groupSize, relative, completion, method,
        gapTolerance, implicitAbove);
  }

  /** Designs for the row-normalised workload (relative-error heuristic, §2.5). */
  public EigenDesign forRelativeError() {
    return new EigenDesign(eigenTolerance, completionTolerance, principal, principalFraction, groupSize, true,
        completion, method, gapTolerance, implicitAbove);
  }

  /** Skips the column completion {@code D'}. */
  public EigenDesign withoutCompletion() {
    return new EigenDesign(eigenTolerance, completionTolerance, principal, principalFraction, groupSize, relative,
        false, method, gapTolerance, implicitAbove);
  }

  /** Uses {@code method} for Program 1, stopping at relative gap {@code tolerance}. */
  public EigenDesign withSolver(QueryWeighting.Method method, double tolerance) {
    return new EigenDesign(eigenTolerance, completionTolerance, principal, principalFraction, groupSize, relative,
        completion, method, tolerance, implicitAbove);
  }

  /** Keeps the remaining eigen-queries of a principal-vectors design implicit above {@code cells}. */
  EigenDesign withImplicitComplementAbove(int cells) {
    return new EigenDesign(eigenTolerance, completionTolerance, principal, principalFraction, groupSize, relative,
        completion, method, gapTolerance, cells);
  }

  /** Designs a strategy for {@code w} (its eigenbasis from {@link EigenBasis#of(Workload)}). */
  public EigenStrategy design(Workload w) {
    Workload target = relative ? RowNormalisedWorkload.of(w) : w;
    return design(EigenBasis.of(target), target);
  }

  /**
   * Designs a strategy from a precomputed eigenbasis of {@code w}'s Gram ({@code w} is used for the
   * name and, for an implicit principal-vectors complement, to evaluate the error).
   */
  public EigenStrategy design(EigenBasis basis, Workload w) {
    if (basis.cells() != w.cells()) {
      throw new IllegalArgumentException("basis has " + basis.cells() + " cells, workload " + w.cells());
    }
    int n = basis.cells();
    int r = basis.rank(eigenTolerance);
    if (r == 0) {
      throw new IllegalArgumentException("the workload has no non-zero eigenvalue");
    }
    double[] sigma = Arrays.copyOf(basis.eigenvalues(), r);
    double svdb = basis.svdb(eigenTolerance);
    String label = "EigenDesign" + (relative ? "-relative" : "");
    if (principal > 0 || principalFraction > 0) {
      int p = principal > 0 ? Math.min(principal, r) : (int) Math.min(r, Math.ceil(principalFraction * r));
      boolean implicit = p < r && basis.isComplete() && r == n && n > implicitAbove;
      return principalVectors(basis, w, sigma, p, implicit, svdb, label + "-pv" + p + "(" + w + ")");
    }
    if (groupSize > 0) {
      return separation(basis, w, sigma, svdb, label + "-sep" + groupSize + "(" + w + ")");
    }
    SquaredDesign m = basis.squares(0, r);
    WeightingSolution sol = QueryWeighting.solve(sigma, m, method, gapTolerance, 200);
    double[] u = sol.weights();
    double[] d2 = completion(m.times(u));
    return new EigenStrategy(
        label + "(" + w + ")", sigma, basis.eigenQueries(0, r), u, 0, 0, d2, sol, svdb, w);
  }

  private EigenStrategy principalVectors(
      EigenBasis basis, Workload w, double[] sigma, int p, boolean implicit, double svdb, String name) {
    int n = basis.cells();
    int r = sigma.length;
    SquaredDesign top = basis.squares(0, p);
    if (p == r) { // every eigen-query weighted individually: the full design
      WeightingSolution sol = QueryWeighting.solve(sigma, top, method, gapTolerance, 200);
      double[] u = sol.weights();
      return new EigenStrategy(name, sigma, basis.eigenQueries(0, r), u, 0, 0, completion(top.times(u)), sol, svdb, w);
    }
    double[] rest;
    if (implicit) {
      double[] onesP = new double[p];
      Arrays.fill(onesP, 1);
      double[] covered = top.times(onesP);
      rest = new double[n];
      for (int j = 0; j < n; j++) {
        rest[j] = Math.max(0, 1 - covered[j]);
      }
    } else {
      double[] onesR = new double[r - p];
      Arrays.fill(onesR, 1);
      rest = basis.squares(p, r).times(onesR);
    }
    // the lumped column (1 − Σ_{i<p} q²) of the implicit complement is a function of each cell's
    // base row, so a structured basis keeps its closed-form products; otherwise all columns are dense
    SquaredDesign m;
    if (implicit && !(top instanceof DenseSquaredDesign)) {
      m = new AugmentedSquaredDesign(top, new double[][] {rest});
    } else {
      double[][] cols = new double[p + 1][];
      for (int i = 0; i < p; i++) {
        cols[i] = top.column(i);
      }
      cols[p] = rest;
      m = DenseSquaredDesign.wrap(cols);
    }
    double[] c = new double[p + 1];
    System.arraycopy(sigma, 0, c, 0, p);
    double restSigma = 0;
    for (int i = p; i < r; i++) {
      restSigma += sigma[i];
    }
    c[p] = restSigma;
    WeightingSolution sol = QueryWeighting.solve(c, m, method, gapTolerance, 200);
    double[] up = sol.weights();
    double[] d2 = completion(m.times(up));
    if (implicit) {
      return new EigenStrategy(
          name, Arrays.copyOf(sigma, p), basis.eigenQueries(0, p), Arrays.copyOf(up, p), up[p], restSigma, d2,
          sol, svdb, w);
    }
    double[] u = new double[r];
    System.arraycopy(up, 0, u, 0, p);
    Arrays.fill(u, p, r, up[p]);
    return new EigenStrategy(name, sigma, basis.eigenQueries(0, r), u, 0, 0, d2, sol, svdb, w);
  }

  private EigenStrategy separation(EigenBasis basis, Workload w, double[] sigma, double svdb, String name) {
    int r = sigma.length;
    int groups = (r + groupSize - 1) / groupSize;
    double[][] local = new double[groups][];
    double[] cost = new double[groups];
    double[][] cols = new double[groups][];
    int totalIterations = 0;
    for (int g = 0; g < groups; g++) {
      int from = g * groupSize;
      int to = Math.min(r, from + groupSize);
      SquaredDesign mg = basis.squares(from, to);
      WeightingSolution sg =
          QueryWeighting.solve(Arrays.copyOfRange(sigma, from, to), mg, method, gapTolerance, 200);
      local[g] = sg.weights();
      cost[g] = sg.primal();
      cols[g] = mg.times(local[g]);
      totalIterations += sg.iterations();
    }
    SquaredDesign combine = DenseSquaredDesign.wrap(cols);
    WeightingSolution st = QueryWeighting.solve(cost, combine, method, gapTolerance, 200);
    double[] t = st.weights();
    double[] u = new double[r];
    for (int g = 0; g < groups; g++) {
      for (int i = 0; i < local[g].length; i++) {
        u[g * groupSize + i] = t[g] * local[g][i];
      }
    }
    double[] colNorms = combine.times(t);
    double primal = 0;
    for (int i = 0; i < r; i++) {
      primal += sigma[i] / u[i];
    }
    primal *= Dense.max(colNorms);
    // certified against the full Program 1 with uniform multipliers (= svdb for a complete basis)
    double[] uniform = new double[basis.cells()];
    Arrays.fill(uniform, 1);
    double dual = Math.min(primal, QueryWeighting.dual(sigma, basis.squares(0, r), uniform));
    WeightingSolution sol =
        new WeightingSolution(u, primal, dual, (primal - dual) / primal, totalIterations + st.iterations(),
            st.method(), uniform);
    double[] d2 = completion(colNorms);
    return new EigenStrategy(name, sigma, basis.eigenQueries(0, r), u, 0, 0, d2, sol, svdb, w);
  }

  /** Squared completion entries {@code max − colNorm²}, zeroing those below the tolerance (P7). */
  private double[] completion(double[] colNormsSquared) {
    int n = colNormsSquared.length;
    double[] d2 = new double[n];
    if (!completion) {
      return d2;
    }
    double max = Dense.max(colNormsSquared);
    for (int j = 0; j < n; j++) {
      double d = max - colNormsSquared[j];
      d2[j] = d > completionTolerance * max ? d : 0;
    }
    return d2;
  }
}
