package org.dpsql.matrix.design;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dpsql.matrix.AllRangesWorkload;
import org.dpsql.matrix.IdentityWorkload;
import org.dpsql.matrix.KroneckerStrategy;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.TotalWorkload;
import org.dpsql.matrix.Workload;

/**
 * Strategy design for a Kronecker product workload {@code W = W₁ ⊗ … ⊗ W_d} factor by factor (beyond
 * seed 001): each factor gets its own strategy {@code Aₐ} of sensitivity 1 and the result is {@code A
 * = A₁ ⊗ … ⊗ A_d}. Because {@code (⊗Aₐ)ᵀ(⊗Aₐ) = ⊗AₐᵀAₐ}, column norms multiply and the Kronecker
 * Gram's eigenpairs are products of the factors', the error {@code trace(⊗Gₐ (⊗Xₐ)⁺) = Π trace(Gₐ
 * Xₐ⁺)} and the bound {@code svdb(W) = Π svdb(Wₐ)} are products — no {@code n × n} matrix is ever
 * formed. Identical closed-form factors are designed once.
 */
public final class KroneckerDesign {
  private KroneckerDesign() {}

  /** How each factor is designed. */
  public enum FactorMethod {
    /** Eigen-Design (Program 2) per factor. */
    EIGEN,
    /** The exact L2-optimal strategy per factor ({@link OptimalFactorDesign}, ≤ 1024 cells). */
    OPTIMAL,
    /** The lower-error of the two per factor (Eigen-Design alone above 1024 cells). */
    BEST
  }

  /**
   * Above this many cells a factor of ranges or prefixes (or their union) is designed through fast
   * transforms ({@link TransformDesign}; measured on its implicit lattice form, {@code
   * SineLattice}), as one attribute's synopsis is above {@code WorkloadCalibration.MAX_DENSE_CELLS}.
   */
  public static final int TRANSFORM_CELLS = 2048;

  /** Designs {@code w} factor by factor with {@code method} (a single factor is designed directly). */
  public static DesignOutcome design(Workload w, FactorMethod method) {
    List<Workload> factors = w.kroneckerFactors();
    Map<String, DesignOutcome> cache = new HashMap<>();
    List<Strategy> strategies = new ArrayList<>();
    double error = 1;
    double svdb = 1;
    StringBuilder path = new StringBuilder("kronecker[");
    for (Workload f : factors) {
      String key = cacheKey(f);
      DesignOutcome o = key == null ? null : cache.get(key);
      if (o == null) {
        o = designFactor(f, method);
        if (key != null) {
          cache.put(key, o);
        }
      }
      strategies.add(o.strategy());
      error *= o.totalSquaredError();
      svdb *= o.svdb();
      path.append(path.length() > 10 ? " ⊗ " : "").append(o.path());
    }
    Strategy s =
        strategies.size() == 1 ? strategies.get(0) : new KroneckerStrategy("Kron" + namesOf(strategies), strategies);
    return new DesignOutcome(s, error, svdb, path.append(']').toString());
  }

  /** One factor's strategy (sensitivity 1) with its error and bound. */
  public static DesignOutcome designFactor(Workload f, FactorMethod method) {
    if (f.cells() > TRANSFORM_CELLS) {
      // ranges or prefixes over a long axis (hours of a year): the Eigen-Design through fast
      // transforms, O(n log n), nothing n × n (a dense design here is O(n³) and n² memory)
      TransformStrategy t = TransformDesign.forWorkload(f);
      if (t != null) {
        return new DesignOutcome(t, t.totalSquaredError(), t.svdb(), "transform");
      }
    }
    DesignOutcome eigen = null;
    if (method != FactorMethod.OPTIMAL || f.cells() > OptimalFactorDesign.MAX_CELLS) {
      EigenStrategy s = EigenDesign.standard().design(f);
      eigen = new DesignOutcome(s, s.totalSquaredError(), s.svdb(), "eigen");
      if (method == FactorMethod.EIGEN || f.cells() > OptimalFactorDesign.MAX_CELLS) {
        return eigen;
      }
    }
    DesignOutcome opt = OptimalFactorDesign.design(f, 1e-7, 500); // gap 1e-7: ~20 eigensolves
    opt = new DesignOutcome(opt.strategy(), opt.totalSquaredError(), opt.svdb(), "optimal");
    return eigen == null || opt.totalSquaredError() < eigen.totalSquaredError() ? opt : eigen;
  }

  private static String cacheKey(Workload f) {
    if (f instanceof AllRangesWorkload
        || f instanceof PrefixWorkload
        || f instanceof IdentityWorkload
        || f instanceof TotalWorkload) {
      return f.getClass().getSimpleName() + ":" + f.cells();
    }
    return null;
  }

  private static String namesOf(List<Strategy> s) {
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < s.size(); i++) {
      b.append(i == 0 ? "" : " ⊗ ").append(s.get(i).name());
    }
    return b.append(')').toString();
  }
}
