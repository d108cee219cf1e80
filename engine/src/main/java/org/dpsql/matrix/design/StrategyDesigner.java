package org.dpsql.matrix.design;

import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;

/**
 * The single entry point for strategy design: picks the path by the workload's structure.
 *
 * <ul>
 *   <li>A Kronecker product of two or more factors → {@link KroneckerDesign} (each factor by the
 *       better of Eigen-Design and the exact optimal design; error and svdb are products).
 *   <li>A union of Kronecker products whose factor Grams commute attribute by attribute (marginals,
 *       range-marginals over disjoint attributes…) → {@link SharedBasisDesign}.
 *   <li>Any other union of at most {@value #DENSE_LIMIT} cells, and every other workload → {@link
 *       EigenDesign} (closed-form, low-rank or dense eigenbasis).
 *   <li>A larger non-commuting union of Kronecker products → {@link WeightedUnionDesign}.
 * </ul>
 *
 * <p>Every outcome carries its exact error ({@code ||A||₂² trace(WᵀW (AᵀA)⁺)}) and svdb.
 */
public final class StrategyDesigner {
  private StrategyDesigner() {}

  /** Unions up to this many cells use Eigen-Design on the (factored or dense) eigenbasis. */
  public static final int DENSE_LIMIT = 4096;

  /** Designs a strategy for {@code w}. */
  public static DesignOutcome design(Workload w) {
    if (w.kroneckerFactors().size() > 1) {
      return KroneckerDesign.design(w, KroneckerDesign.FactorMethod.BEST);
    }
    if (w instanceof UnionWorkload u) {
      EigenStrategy shared = SharedBasisDesign.design(u, EigenDesign.standard());
      if (shared != null) {
        return outcome(shared, "eigen-design on the shared Kronecker eigenbasis");
      }
      if (w.cells() > DENSE_LIMIT && u.members().stream().allMatch(m -> m.cells() == w.cells())) {
        return WeightedUnionDesign.design(u, KroneckerDesign.FactorMethod.BEST);
      }
    }
    EigenBasis basis = EigenBasis.of(w);
    return outcome(EigenDesign.standard().design(basis, w), "eigen-design on " + basis.kind());
  }

  static DesignOutcome outcome(EigenStrategy s, String path) {
    return new DesignOutcome(s, s.totalSquaredError(), s.svdb(), path);
  }
}
