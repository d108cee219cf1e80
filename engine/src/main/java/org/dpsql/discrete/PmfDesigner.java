package org.dpsql.discrete;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.dpsql.support.QuietOjAlgo;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * Designs optimal additive noise PMFs {@code f} on {@code [n] = {0..n}} for the modulo mechanism
 * {@code q~ = Q(X) + eta (mod n+1)} of seed paper 000, by linear programming ({@code delta = 0},
 * eq. 14) and mixed-integer linear programming ({@code delta > 0}, eqs. 12–13 and 15), solved with
 * ojAlgo's pure-Java {@link ExpressionsBasedModel}.
 *
 * <p><b>Neighbourhood.</b> {@code differences} is the set {@code M} of differences {@code mu =
 * Q(X) - Q(X') (mod n+1)} between neighbouring answers, each in {@code [1, n]}. It is taken
 * literally: for the usual symmetric neighbour relation the caller must close it under negation
 * (pitfall P1; e.g. a COUNT with add/remove-one has {@code M = {1, n}}).
 *
 * <p><b>Privacy constraint</b> ({@code (eps, delta)}-PDP, Def. 2): for every {@code mu in M},
 * {@code sum_{eta : f(eta) > e^eps f(eta+mu)} f(eta) <= delta}. With {@code delta = 0} this is the
 * LP {@code f(eta) <= e^eps f(eta+mu)}; with {@code delta > 0} the indicator of the strict
 * inequality is a binary variable, see {@link MilpReading} for the two encodings.
 *
 * <p><b>Numerical safeguards</b> (pitfalls P3, P10).
 *
 * <ul>
 *   <li>{@code eps} must lie in {@code [MIN_EPSILON, MAX_EPSILON] = [1e-4, 50]}: beyond 50 the
 *       coefficient {@code e^eps} (and the masses {@code e^{-k eps}}) are outside what a double LP
 *       can resolve; below {@code 1e-4} the safety margin below is lost in rounding.
 *   <li>Strict inequality margin: every non-violating pair is designed as {@code f(eta) <=
 *       e^{eps'} f(eta+mu)} with {@code eps' = eps (1 - 1e-9)}, and the leakage budget as {@code
 *       delta' = delta (1 - 1e-9)} (and a cost budget {@code maxCost (1 - 1e-9)} in {@link
 *       #minDelta}), so that an exact checker at {@code eps} and {@code delta} passes. Constraints
 *       are written in the scaled form {@code e^{-eps'} f(eta) - f(eta+mu) <= 0} (coefficients in
 *       {@code (0, 1]}).
 *   <li>The MILP only decides the <em>pattern</em> of violating pairs; the masses are then
 *       re-optimised by an LP with that pattern fixed (no integrality tolerance left), then
 *       <em>repaired</em>: negatives and solver noise below {@code 1e-13} are set to 0, every
 *       non-violating pair is enforced exactly in doubles by raising {@code f(eta+mu)} to at least
 *       {@code e^{-eps'} f(eta)} (a Bellman–Ford style fix-point, which also restores masses such
 *       as {@code e^{-k eps} f(0)} that the solver cannot resolve), and the vector is renormalised
 *       to sum 1 (scaling preserves every ratio).
 *   <li>The result is verified in doubles before it is returned (every non-violating pair holds
 *       for both {@code f(a) <= e^eps f(b)} and {@code f(a) e^-eps <= f(b)}, leakage per {@code mu}
 *       {@code <= delta}); a failure, including a mass that underflows to 0 where it must be
 *       positive, throws {@link IllegalStateException} — use the closed forms or exact arithmetic
 *       there.
 * </ul>
 *
 * <p>The returned masses are non-negative doubles summing to 1 (to rounding). They are a design,
 * not a certificate: the engine re-verifies every PMF with the exact PDP checker at {@code eps}
 * with a small safety margin on {@code delta} before using it (P3), and never trusts solver output
 * blindly.
 *
 * <p><b>Optimality.</b> Results are optimal up to the solver's tolerances (ojAlgo's relative MIP
 * gap is about 1e-7). In linear regions of {@code rho*(delta)} the optimal PMF is not unique (P9):
 * compare {@code f(0)} / the cost and the privacy, not full vectors. A MILP that reaches its time
 * limit (system property {@value #TIME_LIMIT_PROPERTY}, seconds, default 600) with a feasible but
 * unproven incumbent returns that incumbent (it is still verified private).
 *
 * <p>Problem size (P15): the MILP has {@code |M|(n+1)} binaries for {@link
 * MilpReading#PER_DIFFERENCE}; pure-Java branch and bound is meant for small {@code n} (see the
 * performance notes in the tests). Designs are meant to be computed offline and tabulated.
 *
 * <p>Stateless and thread-safe.
 */
public final class PmfDesigner {
  static {
    QuietOjAlgo.ensure();
  }

  /** Largest accepted privacy parameter (P10). */
  public static final double MAX_EPSILON = 50.0;
  /** Smallest accepted privacy parameter (the eps margin must survive double rounding). */
  public static final double MIN_EPSILON = 1e-4;
  /** Relative safety margin on eps for the non-violating pairs (strict inequality, P3). */
  static final double EPS_MARGIN = 1e-9;
  /** Relative safety margin on the delta budget. */
  static final double DELTA_MARGIN = 1e-9;
  /** Relative safety margin on the cost budget of {@link #minDelta}. */
  static final double COST_MARGIN = 1e-9;
  /** Solver output below this is treated as an exact zero before the repair. */
  static final double ZERO = 1e-13;
  /** Largest support size {@code n+1} accepted by the LP. */
  static final int MAX_LP_POINTS = 16_384;
  /** Largest number of ratio constraints {@code (n+1)|M|} accepted by the LP. */
  static final long MAX_LP_CONSTRAINTS = 1_000_000L;
  /** Largest number of binary variables accepted by the MILP. */
  static final int MAX_BINARIES = 4_096;
  /** System property: MILP time limit in seconds. */
  static final String TIME_LIMIT_PROPERTY = "dpsql.discrete.milpTimeLimitSeconds";

  private static final double DEFAULT_TIME_LIMIT_SECONDS = 600;

  private PmfDesigner() {}

  // ------------------------------------------------------------------------------------------
  // Public API
  // ------------------------------------------------------------------------------------------

  /**
   * Optimal {@code (eps, 0)}-PDP noise PMF (LP, eq. 14): minimises {@code sum_eta rho_eta
   * f(eta)} s.t. {@code sum f = 1} and {@code f(eta) <= e^eps f(eta + mu mod n+1)} for all {@code
   * eta in [n]}, {@code mu in M}.
   *
   * @param n the domain is {@code [0..n]}, {@code n >= 1}
   * @param differences the neighbourhood differences {@code M}, non-empty, each in {@code [1, n]}
   * @param eps privacy parameter in {@code [1e-4, 50]}
   * @param objective the cost {@code rho}
   * @return {@code f(0..n)}, non-negative, summing to 1
   * @throws IllegalArgumentException on invalid inputs
   * @throws IllegalStateException if the solver fails or the design cannot be represented in
   *     doubles
   */
  public static double[] lp(
      int n, Set<Integer> differences, double eps, DesignObjective objective) {
    int[] mus = checkScalar(n, differences, eps, objective);
    checkLpSize(n + 1, mus.length);
    return designMinCost(scalarSuccessors(n, mus), scalarCosts(n, objective), eps, 0.0, null);
  }

  /**
   * Optimal {@code (eps, delta)}-PDP noise PMF (MILP, eqs. 12–13 for {@link
   * MilpReading#SHARED_INDICATOR}, the per-{@code mu} version for {@link
   * MilpReading#PER_DIFFERENCE}). With {@code delta = 0} it delegates to {@link #lp}.
   *
   * @param delta the leakage budget in {@code [0, 1]}
   * @param reading the MILP encoding; {@link MilpReading#PER_DIFFERENCE} in production
   * @return {@code f(0..n)}, non-negative, summing to 1, with PDP leakage {@code <= delta} for
   *     every {@code mu} (verified in doubles)
   * @throws IllegalArgumentException on invalid inputs
   * @throws IllegalStateException if the solver fails or the design cannot be verified
   */
  public static double[] milp(
      int n,
      Set<Integer> differences,
      double eps,
      double delta,
      DesignObjective objective,
      MilpReading reading) {
    int[] mus = checkScalar(n, differences, eps, objective);
    checkDelta(delta);
    Objects.requireNonNull(reading, "reading");
    if (delta == 0.0) {
      return lp(n, differences, eps, objective);
    }
    checkMilpSize(n + 1, mus.length, reading);
    return designMinCost(
        scalarSuccessors(n, mus), scalarCosts(n, objective), eps, delta, reading);
  }

  /**
   * Smallest {@code delta} for which a PMF of expected cost {@code <= maxCost} exists (eq. 15):
   * minimise {@code delta} s.t. {@code sum rho_eta f(eta) <= maxCost} and (13b)–(13h), {@code
   * delta} a continuous variable. Same as {@code minDeltaDesign(...).delta()}; use {@link
   * #minDeltaDesign} when the PMF is needed too (two separate solves may return different optimal
   * PMFs when the optimum is not unique).
   *
   * @param maxCost the distortion budget {@code rho-bar >= 0} (finite)
   */
  public static double minDelta(
      int n,
      Set<Integer> differences,
      double eps,
      DesignObjective objective,
      double maxCost,
      MilpReading reading) {
    return minDeltaDesign(n, differences, eps, objective, maxCost, reading).delta();
  }

  /** The PMF attaining {@link #minDelta}: same as {@code minDeltaDesign(...).pmf()}. */
  public static double[] minDeltaPmf(
      int n,
      Set<Integer> differences,
      double eps,
      DesignObjective objective,
      double maxCost,
      MilpReading reading) {
    return minDeltaDesign(n, differences, eps, objective, maxCost, reading).pmf();
  }

  /**
   * Solves eq. 15 once and returns the minimal {@code delta} together with the PMF attaining it.
   *
   * <p>The reported {@code delta} is evaluated on the returned (repaired) PMF: {@code max_mu sum_{eta
   * in V_mu} f(eta)} over the designed violation sets {@code V_mu}, rounded up by a relative
   * {@code 1e-12} so that any summation order of an exact checker stays below it. For {@link
   * MilpReading#PER_DIFFERENCE} this is (up to that rounding) the true PDP {@code delta} of the PMF;
   * for {@link MilpReading#SHARED_INDICATOR} it is the paper's shared bound {@code
   * sum_{u(eta)=1} f(eta)}, an upper bound of it. The PMF's cost is at most {@code maxCost}.
   */
  public static MinDeltaDesign minDeltaDesign(
      int n,
      Set<Integer> differences,
      double eps,
      DesignObjective objective,
      double maxCost,
      MilpReading reading) {
    int[] mus = checkScalar(n, differences, eps, objective);
    Objects.requireNonNull(reading, "reading");
    if (!(maxCost >= 0.0) || Double.isInfinite(maxCost)) {
      throw new IllegalArgumentException("maxCost must be finite and >= 0, got " + maxCost);
    }
    checkMilpSize(n + 1, mus.length, reading);
    Problem p =
        new Problem(
            scalarSuccessors(n, mus), scalarCosts(n, objective), eps, Mode.MIN_DELTA, reading);
    p.maxCost = maxCost;
    Design d = solve(p);
    double reported = Math.min(1.0, d.delta * (1.0 + 1e-12));
    return new MinDeltaDesign(reported, d.pmf);
  }

  /**
   * Result of {@link #minDeltaDesign}: the minimal leakage {@code delta} and a PMF attaining it.
   *
   * @param delta the minimal {@code delta} (see {@link #minDeltaDesign})
   * @param pmf {@code f(0..n)}, non-negative, summing to 1
   */
  public record MinDeltaDesign(double delta, double[] pmf) {
    /** Defensive copy. */
    public MinDeltaDesign {
      pmf = pmf.clone();
    }

    /** A copy of the masses. */
    @Override
    public double[] pmf() {
      return pmf.clone();
    }
  }

  // ------------------------------------------------------------------------------------------
  // Validation and scalar set-up
  // ------------------------------------------------------------------------------------------

  private static int[] checkScalar(
      int n, Set<Integer> differences, double eps, DesignObjective objective) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    Objects.requireNonNull(differences, "differences");
    Objects.requireNonNull(objective, "objective");
    checkEps(eps);
    if (differences.isEmpty()) {
      throw new IllegalArgumentException("differences must not be empty");
    }
    TreeSet<Integer> sorted = new TreeSet<>();
    for (Integer mu : differences) {
      if (mu == null) {
        throw new IllegalArgumentException("differences must not contain null");
      }
      if (mu < 1 || mu > n) {
        throw new IllegalArgumentException(
            "every difference must be in [1, n] = [1, " + n + "] (taken modulo n+1), got " + mu);
      }
      sorted.add(mu);
    }
    return sorted.stream().mapToInt(Integer::intValue).toArray();
  }

  static void checkEps(double eps) {
    if (!(eps >= MIN_EPSILON)) {
      throw new IllegalArgumentException(
          "eps must be >= " + MIN_EPSILON + " (finite, positive), got " + eps);
    }
    if (!(eps <= MAX_EPSILON)) {
      throw new IllegalArgumentException(
          "eps = "
              + eps
              + " > "
              + MAX_EPSILON
              + ": e^eps would overflow the LP coefficients / underflow the masses (P10); use"
              + " the closed forms with exact arithmetic");
    }
  }

  private static void checkDelta(double delta) {
    if (!(delta >= 0.0 && delta <= 1.0)) {
      throw new IllegalArgumentException("delta must be in [0, 1], got " + delta);
    }
  }

  static void checkLpSize(int size, int m) {
    if (size > MAX_LP_POINTS || (long) size * m > MAX_LP_CONSTRAINTS) {
      throw new IllegalArgumentException(
          "LP too large: "
              + size
              + " masses (max "
              + MAX_LP_POINTS
              + "), "
              + (long) size * m
              + " ratio constraints (max "
              + MAX_LP_CONSTRAINTS
              + ") (P15); use the closed forms");
    }
  }

  private static void checkMilpSize(int size, int m, MilpReading reading) {
    long binaries = reading == MilpReading.PER_DIFFERENCE ? (long) size * m : size;
    if (binaries > MAX_BINARIES) {
      throw new IllegalArgumentException(
          "MILP too large: "
              + binaries
              + " binaries > "
              + MAX_BINARIES
              + " (P15); use the closed forms or Lemma 1's BD bound");
    }
  }

  private static int[][] scalarSuccessors(int n, int[] mus) {
    int size = n + 1;
    int[][] succ = new int[mus.length][size];
    for (int k = 0; k < mus.length; k++) {
      for (int eta = 0; eta < size; eta++) {
        succ[k][eta] = (eta + mus[k]) % size;
      }
    }
    return succ;
  }

  private static double[] scalarCosts(int n, DesignObjective objective) {
    double[] cost = new double[n + 1];
    for (int eta = 0; eta <= n; eta++) {
      cost[eta] = objective.cost(eta, n);
    }
    return cost;
  }

  // ------------------------------------------------------------------------------------------
  // Generic core (also used by VectorDesigner): a support of `size` points, and for every
  // difference k a successor map succ[k][i] = index of (point i + mu_k).
  // ------------------------------------------------------------------------------------------

  /** What is minimised. */
  private enum Mode {
    MIN_COST,
    MIN_DELTA
  }

  /** A design problem on an abstract support. */
  private static final class Problem {
    final int size;
    final int[][] succ;
    final double[] cost;
    final double eps;
    final Mode mode;
    final MilpReading reading; // null for the pure LP
    double delta; // MIN_COST
    double maxCost; // MIN_DELTA

    Problem(int[][] succ, double[] cost, double eps, Mode mode, MilpReading reading) {
      this.size = cost.length;
      this.succ = succ;
      this.cost = cost;
      this.eps = eps;
      this.mode = mode;
      this.reading = reading;
    }

    int m() {
      return succ.length;
    }

    double epsDesign() {
      return eps * (1.0 - EPS_MARGIN);
    }
  }

  /** A verified design: the PMF and its leakage bound (max over mu of the designed pattern). */
  static final class Design {
    final double[] pmf;
    final double delta;

    Design(double[] pmf, double delta) {
      this.pmf = pmf;
      this.delta = delta;
    }
  }

  /**
   * Minimum-cost design on an abstract support; {@code delta = 0} is the LP, otherwise the MILP
   * in the given reading.
   */
  static double[] designMinCost(
      int[][] succ, double[] cost, double eps, double delta, MilpReading reading) {
    Problem p = new Problem(succ, cost, eps, Mode.MIN_COST, delta == 0.0 ? null : reading);
    p.delta = delta;
    return solve(p).pmf;
  }

  private static Design solve(Problem p) {
    boolean[][] pattern;
    double[] fallback = null;
    if (p.reading == null) {
      pattern = new boolean[p.m()][p.size]; // delta = 0: no pair may violate
    } else {
      MilpSolution s = solveMilp(p);
      pattern = s.pattern;
      fallback = s.f;
    }
    double[] f = solveFixedPattern(p, pattern);
    if (f == null) {
      if (fallback == null) {
        throw new IllegalStateException("LP solver failed for the delta = 0 design (see above)");
      }
      f = fallback; // the MILP's own masses; the repair below makes them exact
    }
    f = repair(f, pattern, p.succ, p.epsDesign());
    double bound = patternLeakage(f, pattern);
    double deltaLimit = p.mode == Mode.MIN_COST ? p.delta : bound;
    verify(f, pattern, p.succ, p.eps, deltaLimit);
    if (p.mode == Mode.MIN_DELTA) {
      double c = expectedCost(f, p.cost);
      if (c > p.maxCost + 1e-9 * Math.max(1.0, p.maxCost)) {
        throw new IllegalStateException(
            "designed PMF has cost " + c + " > maxCost " + p.maxCost + " (solver tolerance)");
      }
    }
    return new Design(f, bound);
  }

  private static final class MilpSolution {
    final boolean[][] pattern;
    final double[] f;

    MilpSolution(boolean[][] pattern, double[] f) {
      this.pattern = pattern;
      this.f = f;
    }
  }

  /**
   * Builds and solves the MILP. Variables: {@code f(i)} in [0,1]; per reading, binaries {@code
   * u} and continuous {@code y} in [0,1] (per (k, i) for reading B, per i for reading A).
   * Constraints: (13b) {@code sum f = 1}; (13c) {@code sum y <= delta'} (per k for B) and {@code y
   * <= u}; (13d) {@code u + f - y <= 1}; (13e) {@code u - f + y <= 1}; (13f) in its tightened,
   * equivalent form {@code e^{-eps'} f(i) - f(succ) - e^{-eps'} y <= 0} (i.e. {@code f(i) -
   * e^{eps'} f(succ) <= y}, which implies (13f) because {@code y <= u} and has the same integer
   * feasible set, but a much stronger LP relaxation); (13g), reading A only, {@code f(succ) -
   * e^{-eps} f(i) + u <= 1}.
   */
  private static MilpSolution solveMilp(Problem p) {
    final int size = p.size;
    final int m = p.m();
    final boolean shared = p.reading == MilpReading.SHARED_INDICATOR;
    final double c = Math.exp(-p.epsDesign());
    final double cExact = Math.exp(-p.eps);

    ExpressionsBasedModel model = new ExpressionsBasedModel();
    double limitSeconds = timeLimitSeconds();
    model.options.time_abort = (long) (limitSeconds * 1000.0);
    model.options.time_suffice = model.options.time_abort;

    Variable[] f = massVariables(model, p);
    Variable d = deltaVariable(model, f, p);

    int groups = shared ? 1 : m;
    Variable[][] u = new Variable[groups][size];
    Variable[][] y = new Variable[groups][size];
    for (int g = 0; g < groups; g++) {
      Expression leak = model.addExpression("leak" + g);
      if (d == null) {
        leak.upper(p.delta * (1.0 - DELTA_MARGIN));
      } else {
        leak.set(d, -1.0).upper(0.0);
      }
      for (int i = 0; i < size; i++) {
        u[g][i] = model.addVariable("u" + g + "_" + i).binary();
        y[g][i] = model.addVariable("y" + g + "_" + i).lower(0.0).upper(1.0);
        leak.set(y[g][i], 1.0);
        model.addExpression().set(y[g][i], 1.0).set(u[g][i], -1.0).upper(0.0); // (13c)
        model
            .addExpression()
            .set(u[g][i], 1.0)
            .set(f[i], 1.0)
            .set(y[g][i], -1.0)
            .upper(1.0); // (13d)
        model
            .addExpression()
            .set(u[g][i], 1.0)
            .set(f[i], -1.0)
            .set(y[g][i], 1.0)
            .upper(1.0); // (13e)
      }
    }
    for (int k = 0; k < m; k++) {
      int g = shared ? 0 : k;
      for (int i = 0; i < size; i++) {
        int j = p.succ[k][i];
        model
            .addExpression()
            .set(f[i], c)
            .set(f[j], -1.0)
            .set(y[g][i], -c)
            .upper(0.0); // (13f), tightened
        if (shared) {
          model
              .addExpression()
              .set(f[j], 1.0)
              .set(f[i], -cExact)
              .set(u[0][i], 1.0)
              .upper(1.0); // (13g)
        }
      }
    }

    Optimisation.Result r = model.minimise();
    Optimisation.State state = r.getState();
    if (!acceptable(state)) {
      throw new IllegalStateException(
          "MILP solver (ojAlgo) did not find a feasible solution: state "
              + state
              + " (size "
              + size
              + ", |M| "
              + m
              + ", reading "
              + p.reading
              + ", time limit "
              + limitSeconds
              + " s)");
    }
    boolean[][] pattern = new boolean[m][size];
    for (int g = 0; g < groups; g++) {
      for (int i = 0; i < size; i++) {
        double v = r.doubleValue(model.indexOf(u[g][i]));
        if (Math.abs(v - Math.rint(v)) > 1e-3) {
          throw new IllegalStateException("MILP returned a fractional indicator u = " + v);
        }
        boolean on = v > 0.5;
        if (shared) {
          for (int k = 0; k < m; k++) {
            pattern[k][i] = on;
          }
        } else {
          pattern[g][i] = on;
        }
      }
    }
    double[] fv = new double[size];
    for (int i = 0; i < size; i++) {
      fv[i] = r.doubleValue(model.indexOf(f[i]));
    }
    return new MilpSolution(pattern, fv);
  }

  /**
   * LP with the violation pattern fixed: pairs outside the pattern satisfy {@code e^{-eps'} f(i)
   * <= f(succ)}, pattern masses respect the budget ({@code sum_{i in V_k} f(i) <= delta'} per k),
   * and for reading A the (13g) direction {@code f(succ) <= e^{-eps} f(i)} holds on the pattern.
   * Returns {@code null} if the solver does not report a feasible solution.
   */
  /**
   * The masses f(0..n) as variables in [0, 1] summing to 1, weighted by their cost when the
   * objective is the cost.
   */
  private static Variable[] massVariables(ExpressionsBasedModel model, Problem p) {
    Variable[] f = new Variable[p.size];
    for (int i = 0; i < p.size; i++) {
      f[i] = model.addVariable("f" + i).lower(0.0).upper(1.0);
      if (p.mode == Mode.MIN_COST && p.cost[i] != 0.0) {
        f[i].weight(p.cost[i]);
      }
    }
    Expression norm = model.addExpression("norm").level(1.0);
    for (int i = 0; i < p.size; i++) {
      norm.set(f[i], 1.0);
    }
    return f;
  }

  /** For the minimum-delta design (eq. 15): delta as the objective, under the cost budget. */
  private static Variable deltaVariable(ExpressionsBasedModel model, Variable[] f, Problem p) {
    if (p.mode != Mode.MIN_DELTA) {
      return null;
    }
    Variable d = model.addVariable("delta").lower(0.0).upper(1.0).weight(1.0);
    addCostBudget(model, f, p);
    return d;
  }

  private static double[] solveFixedPattern(Problem p, boolean[][] pattern) {
    final int size = p.size;
    final int m = p.m();
    final double c = Math.exp(-p.epsDesign());
    final double cExact = Math.exp(-p.eps);
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable[] f = massVariables(model, p);
    Variable d = deltaVariable(model, f, p);
    boolean shared = p.reading == MilpReading.SHARED_INDICATOR;
    for (int k = 0; k < m; k++) {
      if (shared && k > 0) {
        break; // one shared budget
      }
      Expression leak = null;
      for (int i = 0; i < size; i++) {
        if (pattern[k][i]) {
          if (leak == null) {
            leak = model.addExpression("leak" + k);
          }
          leak.set(f[i], 1.0);
        }
      }
      if (leak != null) {
        if (d == null) {
          leak.upper(p.delta * (1.0 - DELTA_MARGIN));
        } else {
          leak.set(d, -1.0).upper(0.0);
        }
      }
    }
    for (int k = 0; k < m; k++) {
      for (int i = 0; i < size; i++) {
        int j = p.succ[k][i];
        if (!pattern[k][i]) {
          model.addExpression().set(f[i], c).set(f[j], -1.0).upper(0.0);
        } else if (shared) {
          model.addExpression().set(f[j], 1.0).set(f[i], -cExact).upper(0.0); // (13g)
        }
      }
    }
    Optimisation.Result r = model.minimise();
    if (!acceptable(r.getState())) {
      if (p.reading == null) {
        throw new IllegalStateException(
            "LP solver (ojAlgo) failed: state "
                + r.getState()
                + " (size "
                + size
                + ", |M| "
                + m
                + ")");
      }
      return null;
    }
    double[] out = new double[size];
    for (int i = 0; i < size; i++) {
      out[i] = r.doubleValue(model.indexOf(f[i]));
    }
    return out;
  }

  private static void addCostBudget(ExpressionsBasedModel model, Variable[] f, Problem p) {
    Expression budget = model.addExpression("cost");
    for (int i = 0; i < p.size; i++) {
      if (p.cost[i] != 0.0) {
        budget.set(f[i], p.cost[i]);
      }
    }
    budget.upper(p.maxCost * (1.0 - COST_MARGIN));
  }

  private static boolean acceptable(Optimisation.State state) {
    return state == Optimisation.State.OPTIMAL
        || state == Optimisation.State.DISTINCT
        || state == Optimisation.State.FEASIBLE;
  }

  private static double timeLimitSeconds() {
    String s = System.getProperty(TIME_LIMIT_PROPERTY);
    if (s == null || s.isBlank()) {
      return DEFAULT_TIME_LIMIT_SECONDS;
    }
    try {
      double v = Double.parseDouble(s.trim());
      if (v > 0 && v < 1e7) {
        return v;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new IllegalArgumentException(TIME_LIMIT_PROPERTY + " must be a positive number: " + s);
  }

  // ------------------------------------------------------------------------------------------
  // Repair and verification (doubles)
  // ------------------------------------------------------------------------------------------

  /**
   * Cleans solver noise and enforces every non-pattern pair exactly: {@code f(succ) >=
   * e^{-epsDesign} f(i)}, by raising masses to a fix-point, then renormalises.
   */
  static double[] repair(double[] raw, boolean[][] pattern, int[][] succ, double epsDesign) {
    int size = raw.length;
    double[] f = new double[size];
    for (int i = 0; i < size; i++) {
      double v = raw[i];
      if (Double.isNaN(v)) {
        throw new IllegalStateException("solver returned NaN mass at index " + i);
      }
      f[i] = v > ZERO ? Math.min(v, 1.0) : 0.0;
    }
    double c = Math.exp(-epsDesign);
    int maxPasses = size + 2;
    boolean changed = true;
    for (int pass = 0; pass < maxPasses && changed; pass++) {
      changed = false;
      for (int k = 0; k < succ.length; k++) {
        int[] s = succ[k];
        boolean[] v = pattern[k];
        for (int i = 0; i < size; i++) {
          if (!v[i] && f[i] > 0.0) {
            double need = f[i] * c;
            int j = s[i];
            if (f[j] < need) {
              f[j] = need;
              changed = true;
            }
          }
        }
      }
    }
    if (changed) {
      throw new IllegalStateException("repair of the designed PMF did not converge");
    }
    double sum = 0.0;
    for (double v : f) {
      sum += v;
    }
    if (!(sum > 0.5 && sum < 1.5)) {
      throw new IllegalStateException("solver returned masses summing to " + sum);
    }
    for (int i = 0; i < size; i++) {
      f[i] /= sum;
    }
    return f;
  }

  /** {@code max_k sum_{i in V_k} f(i)}: the designed leakage bound. */
  static double patternLeakage(double[] f, boolean[][] pattern) {
    double max = 0.0;
    for (boolean[] v : pattern) {
      double s = 0.0;
      for (int i = 0; i < f.length; i++) {
        if (v[i]) {
          s += f[i];
        }
      }
      max = Math.max(max, s);
    }
    return max;
  }

  /** Verifies the design in doubles; throws {@link IllegalStateException} on any failure. */
  static void verify(
      double[] f, boolean[][] pattern, int[][] succ, double eps, double deltaLimit) {
    double sum = 0.0;
    for (int i = 0; i < f.length; i++) {
      if (!(f[i] >= 0.0) || Double.isInfinite(f[i])) {
        throw new IllegalStateException("invalid mass f(" + i + ") = " + f[i]);
      }
      sum += f[i];
    }
    if (Math.abs(sum - 1.0) > 1e-12) {
      throw new IllegalStateException("designed masses sum to " + sum);
    }
    double e = Math.exp(eps);
    double ie = Math.exp(-eps);
    for (int k = 0; k < succ.length; k++) {
      double leak = 0.0;
      for (int i = 0; i < f.length; i++) {
        int j = succ[k][i];
        boolean violates = f[i] > e * f[j] || f[i] * ie > f[j];
        if (violates) {
          if (!pattern[k][i]) {
            throw new IllegalStateException(
                f[j] == 0.0
                    ? "mass at index "
                        + j
                        + " underflows to 0 but must be >= e^-eps * "
                        + f[i]
                        + " (P10): use the closed forms / exact arithmetic"
                    : "designed PMF violates f(a) <= e^eps f(b) at a = " + i + ", b = " + j);
          }
          leak += f[i];
        }
      }
      if (leak > deltaLimit) {
        throw new IllegalStateException(
            "designed PMF leaks " + leak + " > delta = " + deltaLimit + " for difference #" + k);
      }
    }
  }

  static double expectedCost(double[] f, double[] cost) {
    double s = 0.0;
    for (int i = 0; i < f.length; i++) {
      s += cost[i] * f[i];
    }
    return s;
  }
}
