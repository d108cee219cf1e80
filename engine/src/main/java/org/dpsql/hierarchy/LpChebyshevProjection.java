package org.dpsql.hierarchy;

import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * The TDA_ℓ∞ post-processing (the paper's black-box baseline): the Chebyshev problem (eq. 6/12)
 * {@code min α s.t. −α <= y_i − x_i <= α, y_i >= 0 integer, Σy = c} handed to a general
 * mixed-integer LP solver (ojAlgo's {@link ExpressionsBasedModel}, as the paper used GLPK_MI),
 * which returns <em>some</em> optimal vertex — no false-positive heuristic.
 *
 * <p>Guarantees: the {@link ConsistencyProjection} contract — the solver's values are accepted only
 * if each is within {@code 1e-6 + 1e-9·|y|} of an integer, non-negative, and the rounded values sum to {@code
 * c}; otherwise {@link IllegalStateException}. Optimality is the solver's (its MIP gap tolerance);
 * the tests compare it with {@link IntOpt#minimumDistance}. Slow (a solver call per node): meant
 * for the paper's comparison, not for production. A single child ({@code b = 1}) has the single
 * feasible point {@code (c)} and is returned without a solver call.
 */
public final class LpChebyshevProjection implements ConsistencyProjection {
  static {
    // ojAlgo prints a hardware-profile notice on stdout when it first loads (unless told not to),
    // and its MIP search writes diagnostics to the stderr it captured when its logger class was
    // initialised. A JDBC driver must not write to the application's console, so the logger is
    // initialised here against discarding streams; the application's streams are restored at
    // once. (Same pattern as org.dpsql.discrete.PmfDesigner.)
    if (System.getProperty("shut.up.ojAlgo") == null) {
      System.setProperty("shut.up.ojAlgo", "true");
    }
    java.io.PrintStream out = System.out;
    java.io.PrintStream err = System.err;
    java.io.PrintStream discard = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
    try {
      System.setOut(discard);
      System.setErr(discard);
      Class.forName(
          "org.ojalgo.netio.BasicLogger", true, LpChebyshevProjection.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ExceptionInInitializerError(e);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }

  private static final double INTEGRALITY_TOLERANCE = 1e-6;
  private static final LpChebyshevProjection INSTANCE = new LpChebyshevProjection();

  private LpChebyshevProjection() {}

  /** The projection. */
  public static LpChebyshevProjection instance() {
    return INSTANCE;
  }

  @Override
  public String name() {
    return "Linf-MILP(ojAlgo)";
  }

  @Override
  public long[] project(long[] x, long c) {
    IntOpt.validate(x, c);
    int b = x.length;
    if (b == 1) {
      return new long[] {c};
    }
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable alpha = model.addVariable("alpha").lower(0).weight(1);
    Variable[] y = new Variable[b];
    Expression total = model.addExpression("total").level(c);
    for (int i = 0; i < b; i++) {
      y[i] = model.addVariable("y" + i).lower(0).integer(true);
      total.set(y[i], 1);
      model.addExpression("up" + i).set(y[i], 1).set(alpha, -1).upper(x[i]);
      model.addExpression("down" + i).set(y[i], 1).set(alpha, 1).lower(x[i]);
    }
    Optimisation.Result result = model.minimise();
    Optimisation.State state = result.getState();
    if (!state.isFeasible()) {
      throw new IllegalStateException(
          "MILP solver (ojAlgo) found no feasible point: state " + state + ", b = " + b + ", c = "
              + c);
    }
    long[] out = new long[b];
    long sum = 0;
    for (int i = 0; i < b; i++) {
      double v = result.doubleValue(model.indexOf(y[i]));
      long r = Math.round(v);
      if (Math.abs(v - r) > INTEGRALITY_TOLERANCE + 1e-9 * Math.abs(v) || r < 0) {
        throw new IllegalStateException("MILP solver (ojAlgo) returned a non-integral or negative y = " + v);
      }
      out[i] = r;
      sum += r;
    }
    if (sum != c) {
      throw new IllegalStateException("MILP solver (ojAlgo) returned a sum of " + sum + " != " + c);
    }
    return out;
  }

  @Override
  public String toString() {
    return name();
  }
}
