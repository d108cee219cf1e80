package org.dpsql.discrete;

/**
 * Linear distortion cost {@code rho_eta} minimised by {@link PmfDesigner} (paper eq. 9: {@code
 * E[rho] = sum_eta rho_eta f(eta)}). The noise {@code eta} lives on {@code [n] = {0..n}} and is
 * added modulo {@code n+1}; every cost has {@code rho_0 = 0}.
 *
 * <ul>
 *   <li>{@link #ERROR_RATE}: {@code rho_eta = 1[eta > 0]} (Def. 3), so {@code E[rho] = 1 - f(0)}.
 *       The paper's default objective; right for categorical answers.
 *   <li>{@link #CIRCULAR_MSE}: {@code rho_eta = min(eta, n+1-eta)^2}, the squared circular distance.
 *       The production choice for ordered answers (pitfall P4): noise {@code n} is "-1", not "+n".
 *   <li>{@link #PAPER_MSE}: {@code rho_eta = eta^2} (Def. 4). Ignores the modulo wrap: with a
 *       symmetric neighbourhood it yields a biased PMF (e.g. n = 8, eps = 1, M = {1, n}: mode at
 *       {@code eta = 2}). Kept only to reproduce the paper.
 * </ul>
 */
public enum DesignObjective {
  /** {@code rho_eta = 1[eta > 0]}: error rate. */
  ERROR_RATE,
  /** {@code rho_eta = min(eta, n+1-eta)^2}: circular squared error (production MSE, P4). */
  CIRCULAR_MSE,
  /** {@code rho_eta = eta^2}: the paper's non-circular MSE (reproduction only, P4). */
  PAPER_MSE;

  /**
   * The cost {@code rho_eta} of releasing noise {@code eta} on the domain {@code [0..n]}.
   *
   * @throws IllegalArgumentException if {@code n < 1} or {@code eta} is outside {@code [0, n]}
   */
  public double cost(int eta, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("n must be >= 1, got " + n);
    }
    if (eta < 0 || eta > n) {
      throw new IllegalArgumentException("eta must be in [0, " + n + "], got " + eta);
    }
    switch (this) {
      case ERROR_RATE:
        return eta == 0 ? 0.0 : 1.0;
      case CIRCULAR_MSE:
        {
          double d = Math.min(eta, n + 1 - eta);
          return d * d;
        }
      case PAPER_MSE:
        return (double) eta * (double) eta;
      default:
        throw new AssertionError(this);
    }
  }
}
