package org.dpsql.hierarchy;

/**
 * The order in which {@link IntOpt} lowers the entries of its starting point (Algorithm 2, line 3):
 * any order gives a Chebyshev-optimal solution; the order decides which optimal solution.
 */
public enum ReductionOrder {
  /**
   * Smallest noisy value first (the paper's choice): small noisy counts are the likely false
   * positives, so they are pushed to 0 first — fewer false positives.
   */
  ASCENDING,
  /** Largest noisy value first: keeps small counts alive — fewer false negatives. */
  DESCENDING,
  /** Index order: no heuristic (a neutral reference for tests and ablations). */
  INDEX
}
