package org.dpsql.spatial;

/**
 * How a released tree of noisy counts is turned into one estimate per node (all post-processing of
 * the private measurements, so free of privacy cost).
 */
public enum Inference {
  /**
   * The paper's release: each leaf is estimated by its last measurement only (for a pruned HTF
   * node, the re-measurement with the remaining budget; the earlier noisy count is discarded);
   * inner nodes are the sums of their leaves.
   */
  LEAF_LAST_MEASUREMENT,
  /**
   * Each leaf combines all of its own measurements by inverse-variance weighting (for a pruned HTF
   * node both noisy counts, the spec's "Beyond"); inner nodes are the sums of their leaves.
   */
  LEAF_INVERSE_VARIANCE,
  /**
   * Hierarchical generalised least squares over every measurement in the tree (Hay et al. 2010
   * constrained inference, generalised to unequal variances and fan-outs as in Cormode et al. 2012):
   * the minimum-variance linear unbiased estimates subject to "each parent equals the sum of its
   * children". On an HTF tree the measurements that decided pruning are selected by the threshold
   * (an inner node's count is above it, a pruned node's first count below), so they are biased and
   * least squares is not uniformly better there; on data-independent trees (quadtree, AG) it is
   * the standard constrained inference.
   */
  LEAST_SQUARES
}
