package org.dpsql.hierarchy;

import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/** Independent references for the Chebyshev projection: an ojAlgo MILP and brute force. */
final class ChebyshevMilp {
  static {
    // Loading LpChebyshevProjection silences ojAlgo's banner (its static initialiser).
    LpChebyshevProjection.instance();
  }

  private ChebyshevMilp() {}

  /** The MILP optimum {@code min α} (ojAlgo branch and bound), rounded to the nearest integer. */
  static long optimum(long[] x, long c) {
    ExpressionsBasedModel model = new ExpressionsBasedModel();
    Variable alpha = model.addVariable("alpha").lower(0).weight(1);
    Expression total = model.addExpression("total").level(c);
    for (int i = 0; i < x.length; i++) {
      Variable y = model.addVariable("y" + i).lower(0).integer(true);
      total.set(y, 1);
      model.addExpression().set(y, 1).set(alpha, -1).upper(x[i]);
      model.addExpression().set(y, 1).set(alpha, 1).lower(x[i]);
    }
    Optimisation.Result r = model.minimise();
    if (!r.getState().isOptimal()) {
      throw new IllegalStateException("MILP not optimal: " + r.getState());
    }
    double v = r.getValue();
    long a = Math.round(v);
    if (Math.abs(v - a) > 1e-6) {
      throw new IllegalStateException("fractional MILP optimum " + v);
    }
    return a;
  }

  /** Brute force over all {@code y ∈ ℕ₀^b} with {@code Σy = c} (tiny instances only). */
  static long bruteForce(long[] x, long c) {
    return brute(x, c, 0, new long[x.length]);
  }

  private static long brute(long[] x, long left, int i, long[] y) {
    if (i == x.length - 1) {
      y[i] = left;
      return IntOpt.chebyshevDistance(x, y);
    }
    long best = Long.MAX_VALUE;
    for (long v = 0; v <= left; v++) {
      y[i] = v;
      best = Math.min(best, brute(x, left - v, i + 1, y));
    }
    return best;
  }

  /** Algorithm 2 exactly as printed (the literal loop; slow when the optimum is far from t₀). */
  static long[] algorithm2(long[] x, long c, ReductionOrder order) {
    int b = x.length;
    long sx = 0;
    for (long v : x) {
      sx += v;
    }
    long d = c - sx;
    long r0 = -Math.floorDiv(-d, b);
    long[] z = new long[b];
    long t = 0;
    long sz = 0;
    for (int i = 0; i < b; i++) {
      z[i] = Math.max(r0, -x[i]);
      t = Math.max(t, Math.abs(z[i]));
      sz += z[i];
    }
    int[] idx = IntOpt.order(x, order);
    int j = 0;
    while (sz > d) {
      long delta = sz - d;
      int i = idx[j];
      long nz = Math.max(z[i] - delta, Math.max(-x[i], -t));
      sz -= z[i] - nz;
      z[i] = nz;
      j = (j + 1) % b;
      if (j == 0) {
        t++;
      }
    }
    long[] y = new long[b];
    for (int i = 0; i < b; i++) {
      y[i] = x[i] + z[i];
    }
    return y;
  }
}
