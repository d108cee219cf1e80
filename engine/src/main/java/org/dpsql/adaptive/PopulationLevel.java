package org.dpsql.adaptive;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A population group level 𝒫_i of SafeTab (e.g. (County, Detailed)): the declared universe of its
 * groups — every geographic entity × every characteristic iteration listed — with its own privacy
 * budget ρ_i and stability s = Δ(g_i), plus the iterations tabulated TotalOnly at this level.
 *
 * <p>Guarantees: immutable and validated; the group universe is declared by the data owner, never
 * read from the data, so empty groups are tabulated like any other (their absence from a GROUP BY
 * result reveals nothing). The budget is an ε (pure DP) or a ρ (zCDP) according to the spec's
 * {@link BaseMechanism}; each group of the level receives {@code budget / stability}, and by
 * generalized parallel composition the level costs exactly {@code budget} — provided every person
 * is counted in at most {@code stability} groups of the level (enforce it with {@link
 * StabilityTruncation} before aggregating).
 *
 * @param name the level's name, unique in a spec
 * @param budget ρ_i (or ε_i) &gt; 0
 * @param stability s ≥ 1, the maximum number of groups of this level a person is counted in
 * @param geographies the geographic entities, distinct, non-empty
 * @param iterations the characteristic iteration codes, distinct, non-empty
 * @param totalOnlyIterations the iterations whose groups at this level are TotalOnly; a subset of
 *     {@code iterations}
 */
public record PopulationLevel(
    String name,
    BigDecimal budget,
    int stability,
    List<String> geographies,
    List<String> iterations,
    Set<String> totalOnlyIterations) {

  /**
   * Validates and copies the components.
   *
   * @throws IllegalArgumentException with the offending value when a component is invalid
   */
  public PopulationLevel {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("population level name must not be blank");
    }
    Objects.requireNonNull(budget, "budget");
    if (budget.signum() <= 0) {
      throw new IllegalArgumentException(
          "budget of level " + name + " must be > 0, got " + budget.toPlainString());
    }
    if (stability < 1) {
      throw new IllegalArgumentException(
          "stability of level " + name + " must be >= 1, got " + stability);
    }
    geographies = List.copyOf(geographies);
    iterations = List.copyOf(iterations);
    // sorted: the same iteration order (and toString) in every JVM, unlike Set.copyOf's
    totalOnlyIterations = java.util.Collections.unmodifiableSet(
        new java.util.TreeSet<>(totalOnlyIterations));
    requireDistinctNonEmpty(geographies, "geographies", name);
    requireDistinctNonEmpty(iterations, "iterations", name);
    for (String c : totalOnlyIterations) {
      if (!iterations.contains(c)) {
        throw new IllegalArgumentException(
            "TotalOnly iteration " + c + " of level " + name + " is not one of its iterations");
      }
    }
    if ((long) geographies.size() * iterations.size() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("level " + name + " has too many groups");
    }
  }

  /** A level with no TotalOnly iterations. */
  public static PopulationLevel of(
      String name,
      BigDecimal budget,
      int stability,
      List<String> geographies,
      List<String> iterations) {
    return new PopulationLevel(name, budget, stability, geographies, iterations, Set.of());
  }

  /** The number of groups, |geographies| × |iterations|. */
  public int groupCount() {
    return geographies.size() * iterations.size();
  }

  /** The group (geography index, iteration index). */
  public PopulationGroup group(int geography, int iteration) {
    return new PopulationGroup(name, geographies.get(geography), iterations.get(iteration));
  }

  /** Whether the iteration (by index) is TotalOnly at this level. */
  public boolean isTotalOnly(int iteration) {
    return totalOnlyIterations.contains(iterations.get(iteration));
  }

  /** geography id → index. */
  Map<String, Integer> geographyIndex() {
    return index(geographies);
  }

  /** iteration code → index. */
  Map<String, Integer> iterationIndex() {
    return index(iterations);
  }

  private static Map<String, Integer> index(List<String> values) {
    Map<String, Integer> m = new HashMap<>(values.size() * 2);
    for (int i = 0; i < values.size(); i++) {
      m.put(values.get(i), i);
    }
    return m;
  }

  private static void requireDistinctNonEmpty(List<String> values, String what, String level) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("level " + level + " declares no " + what);
    }
    Set<String> seen = new HashSet<>();
    for (String v : values) {
      if (!seen.add(v)) {
        throw new IllegalArgumentException(
            "level " + level + " lists " + what + " " + v + " twice");
      }
    }
  }
}
