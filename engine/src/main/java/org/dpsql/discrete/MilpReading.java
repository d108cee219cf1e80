package org.dpsql.discrete;

/**
 * How the MILP of the paper (eqs. 12–13) encodes the {@code (eps, delta)}-PDP leakage constraint
 * when the neighbourhood has several differences {@code M = {mu_1, ..., mu_m}} (spec §2.1, P2).
 *
 * <p>For the additive modulo mechanism, {@code (eps, delta)}-PDP (Def. 2) is: for <em>every</em>
 * {@code mu in M}, {@code sum_{eta : f(eta) > e^eps f(eta + mu)} f(eta) <= delta}. The paper
 * linearises {@code u(eta) f(eta)} with {@code y(eta)} and big-M constraints (13c)–(13g).
 *
 * <ul>
 *   <li>{@link #PER_DIFFERENCE} — reading B, <b>production</b>. One binary indicator {@code
 *       u_mu(eta)} and one {@code y_mu(eta) = u_mu(eta) f(eta)} per pair {@code (mu, eta)} ({@code
 *       |M|(n+1)} binaries), constraints (13c)–(13f) per {@code mu}, and {@code sum_eta y_mu(eta)
 *       <= delta} separately for each {@code mu}. This is exactly Def. 2, so its optimum is the
 *       true optimal PDP mechanism. (13g) is omitted: it only forces {@code u} to be an exact
 *       indicator, and a minimiser never sets {@code u = 1} needlessly. Never worse than reading A
 *       and often strictly better for {@code delta > 0}, {@code |M| > 1} (n = 8, M = {1,2,3}, eps =
 *       1.5, delta = 0.1212: {@code f(0) = 0.549828} vs {@code 0.543192}).
 *   <li>{@link #SHARED_INDICATOR} — reading A, <b>reproduction only</b>. The paper's literal
 *       "3(n+1) variables" model: one {@code u(eta)}, {@code y(eta)} per {@code eta} shared by all
 *       {@code mu}, (13f) and (13g) imposed for every {@code mu}, and a single {@code sum_eta
 *       y(eta) <= delta}. Each {@code eta} is then violating for all {@code mu} or for none. Sound
 *       (every {@code mu} leaks at most {@code delta}) but more restrictive than Def. 2; it
 *       reproduces Theorem 3 and Fig. 10 of the paper.
 * </ul>
 *
 * <p>For a single difference (SD neighbourhood) both readings coincide.
 */
public enum MilpReading {
  /** Reading B: indicator and leakage budget per difference {@code mu} (true PDP optimum). */
  PER_DIFFERENCE,
  /** Reading A: the paper's shared indicator {@code u(eta)} with (13g) (reproduction only). */
  SHARED_INDICATOR
}
