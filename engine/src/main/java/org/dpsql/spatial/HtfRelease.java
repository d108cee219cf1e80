package org.dpsql.spatial;

import java.util.Objects;

/**
 * One HTF release: the budget decomposition, the noisy record count that fixed the height, and the
 * released tree of noisy counts.
 *
 * <p>Guarantee: everything here is the output of an {@code ε_tot}-DP mechanism ({@link
 * HtfMechanism}) or data-independent, so it may be published whole; {@link #synopsis(Inference)}
 * is post-processing and may be called with every rule without further privacy cost. Immutable.
 *
 * @param parameters the parameters used
 * @param budget the exact budget decomposition
 * @param noisyTotal the released {@code |D|‾}
 * @param root the released tree
 */
public record HtfRelease(
    HtfParameters parameters, HtfBudget budget, long noisyTotal, MeasuredNode root) {

  /** Validates non-null components. */
  public HtfRelease {
    Objects.requireNonNull(parameters, "parameters");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(root, "root");
  }

  /** The synopsis under the parameters' inference rule. */
  public SpatialSynopsis synopsis() {
    return synopsis(parameters.inference());
  }

  /** The synopsis under {@code rule}. */
  public SpatialSynopsis synopsis(Inference rule) {
    return TreeInference.synopsis(root, rule);
  }
}
