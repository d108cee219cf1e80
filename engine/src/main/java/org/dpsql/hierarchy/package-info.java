/**
 * Differentially private release of hierarchical counts with a TopDown approach (seed 003:
 * Boninsegna &amp; Silvestri, "Differentially Private Release of Hierarchical Origin/Destination Data
 * with a TopDown Approach").
 *
 * <p>Input: an already aggregated tree — the public domain ({@link org.dpsql.hierarchy.TreeDomain}:
 * a {@link org.dpsql.hierarchy.Hierarchy}, or an origin/destination tree {@link
 * org.dpsql.hierarchy.OdTreeDomain}) and the sparse leaf counts of a pushed-down {@code GROUP BY}
 * ({@link org.dpsql.hierarchy.HierarchicalCounts#fromLeafCounts}); never raw rows.
 *
 * <p>Mechanisms: {@link org.dpsql.hierarchy.TopDownMechanism} — InfTDA (Algorithm 1/3, ρ-zCDP,
 * discrete Gaussian, {@link org.dpsql.hierarchy.IntOpt} projection) and the TDA_ℓ2 / TDA_ℓ∞
 * baselines; {@link org.dpsql.hierarchy.VanillaGauss} (ρ-zCDP); {@link
 * org.dpsql.hierarchy.StabilityHistogram} ((ε, δ)-DP). Budget: {@link
 * org.dpsql.hierarchy.TopDownBudget}, {@link org.dpsql.hierarchy.BudgetSplit}, sensitivity from
 * {@link org.dpsql.hierarchy.Contribution} and {@link org.dpsql.hierarchy.Neighbouring}.
 * Evaluation: {@link org.dpsql.hierarchy.ReleaseMetrics}, {@link
 * org.dpsql.hierarchy.TopDownErrorBound}, {@link org.dpsql.hierarchy.SyntheticOdData}.
 */
package org.dpsql.hierarchy;
