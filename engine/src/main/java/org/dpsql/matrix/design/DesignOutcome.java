package org.dpsql.matrix.design;

import org.dpsql.matrix.Strategy;

/**
 * A designed strategy together with its exact error on the workload it was designed for and the
 * singular value bound of that workload (seed 001, Thm. 2). Errors follow the project convention:
 * {@code ||A||₂² trace(WᵀW (AᵀA)⁺)}, the total squared error over all queries at unit noise factor.
 *
 * @param strategy the strategy
 * @param totalSquaredError its error on the workload
 * @param svdb the workload's singular value bound; {@code totalSquaredError ≥ svdb}
 * @param path which design path produced it (for reports)
 */
public record DesignOutcome(Strategy strategy, double totalSquaredError, double svdb, String path) {

  /** {@code totalSquaredError / svdb ≥ 1}. */
  public double errorRatio() {
    return totalSquaredError / svdb;
  }

  /** {@code √(totalSquaredError / svdb)}: the RMSE ratio to the lower bound. */
  public double rmseRatio() {
    return Math.sqrt(errorRatio());
  }
}
