/**
 * Strategy selection for the matrix mechanism under pure ε-DP (Laplace/geometric noise of scale
 * {@code ||A||₁/ε}, L1 sensitivity {@code ||A||₁ = max_j ||A_{:,j}||₁} under add/remove-one
 * neighbours), following HDMM (McKenna, Miklau, Hay, Machanavajjhala, VLDB 2018) and the ε-DP
 * variant of seed 001 §3.5.
 *
 * <p>Every class here minimises, or evaluates, {@code ||A||₁² · trace(WᵀW (AᵀA)⁺)}: the expected
 * squared error summed over the workload at unit Laplace variance factor (multiply by {@code 2/ε²};
 * see {@link org.dpsql.matrix.hdmm.ScoredStrategy}). Strategy selection reads only the workload,
 * never the data, so it consumes no privacy budget; the privacy of the release rests on the
 * mechanism calibrating its noise to the returned strategy's {@link
 * org.dpsql.matrix.Strategy#sensitivityL1()}, which is 1 for p-Identities, their Kronecker
 * products, normalised marginals and normalised weighted designs (tested).
 *
 * <ul>
 *   <li>{@link org.dpsql.matrix.hdmm.PIdentityOptimizer}: p-Identity strategies {@code [I; Θ]D}
 *       ({@link org.dpsql.matrix.hdmm.PIdentityObjective}: Woodbury value and gradient), solved by
 *       {@link org.dpsql.matrix.hdmm.BoundedLbfgs};
 *   <li>{@link org.dpsql.matrix.hdmm.KroneckerPIdentityOptimizer}: products of p-Identities for
 *       Kronecker workloads and unions of them;
 *   <li>{@link org.dpsql.matrix.hdmm.MarginalsOptimizer}: weighted marginals for unions of
 *       identity/total products, in closed form;
 *   <li>{@link org.dpsql.matrix.hdmm.WeightedBasisOptimizer}: L1 row weighting of a fixed design;
 *   <li>{@link org.dpsql.matrix.hdmm.PureDpStrategySelector}: the best of all of these and the
 *       identity, hierarchical and wavelet baselines.
 * </ul>
 */
package org.dpsql.matrix.hdmm;
