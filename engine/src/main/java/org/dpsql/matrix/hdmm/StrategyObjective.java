package org.dpsql.matrix.hdmm;

import java.util.List;
import java.util.Optional;
import org.dpsql.matrix.ErrorAnalysis;
import org.dpsql.matrix.IdentityStrategy;
import org.dpsql.matrix.Strategy;
import org.dpsql.matrix.Workload;

/**
 * {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)} for the candidate strategies of the selector, by the cheapest
 * exact route: closed forms for the identity, p-Identities and marginals; products of factor
 * objectives for Kronecker strategies on (unions of) Kronecker workloads; otherwise {@link
 * ErrorAnalysis#totalSquaredErrorL1}.
 */
final class StrategyObjective {
  private StrategyObjective() {}

  static double of(Workload w, Strategy a) {
    if (w.cells() != a.cells()) {
      throw new IllegalArgumentException("workload and strategy cells differ");
    }
    List<Strategy> af = a.kroneckerFactors();
    if (af.size() > 1) {
      Optional<ProductTerms> pt = ProductTerms.of(w);
      if (pt.isPresent() && pt.get().factors() == af.size()) {
        boolean match = true;
        for (int i = 0; i < af.size(); i++) {
          match &= pt.get().dims()[i] == af.get(i).cells();
        }
        if (match) {
          double total = 0;
          for (List<Workload> term : pt.get().terms()) {
            double prod = 1;
            for (int i = 0; i < af.size(); i++) {
              prod *= of(term.get(i), af.get(i));
            }
            total += prod;
          }
          return total;
        }
      }
    }
    if (a instanceof IdentityStrategy) {
      return w.frobeniusSquared();
    }
    if (a instanceof PIdentityStrategy pi) {
      return new PIdentityObjective(w, pi.p()).value(pi.theta());
    }
    if (a instanceof MarginalsStrategy ms) {
      Optional<Double> v = MarginalsOptimizer.objective(w, ms);
      if (v.isPresent()) {
        return v.get();
      }
    }
    return dense(w, a);
  }

  /** Dense route: {@link ErrorAnalysis#totalSquaredErrorL1} (sparse Gram, Cholesky, L⁻¹). */
  static double dense(Workload w, Strategy a) {
    return ErrorAnalysis.totalSquaredErrorL1(w, a);
  }
}
