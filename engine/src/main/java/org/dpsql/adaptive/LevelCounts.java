package org.dpsql.adaptive;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The exact counts of the groups of one {@link PopulationLevel}, looked up by (geography index,
 * iteration index) in the level's declared lists — the result of the engine's aggregate (GROUP BY
 * group, sex, finest age), after stability truncation.
 *
 * <p>Guarantee expected of implementations: {@link #counts} returns the exact counts of the group,
 * or {@code null} when the group has no persons (treated as all zeros), and is a pure lookup.
 */
@FunctionalInterface
public interface LevelCounts {

  /** The exact counts of the group, or null if it is empty. */
  GroupCounts counts(int geography, int iteration);

  /**
   * Counts from a map keyed by group. Keys outside the level's declared universe are ignored: only
   * declared groups are tabulated, and the presence of undeclared data must not change the output.
   *
   * @throws IllegalArgumentException if a key belongs to another level
   */
  static LevelCounts fromMap(PopulationLevel level, Map<PopulationGroup, GroupCounts> counts) {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(counts, "counts");
    Map<String, Integer> geo = level.geographyIndex();
    Map<String, Integer> iter = level.iterationIndex();
    Map<Long, GroupCounts> byIndex = new HashMap<>();
    for (Map.Entry<PopulationGroup, GroupCounts> e : counts.entrySet()) {
      PopulationGroup g = e.getKey();
      if (!g.level().equals(level.name())) {
        throw new IllegalArgumentException("group " + g + " is not of level " + level.name());
      }
      Integer gi = geo.get(g.geography());
      Integer ci = iter.get(g.iteration());
      if (gi != null && ci != null) {
        byIndex.put(((long) gi << 32) | ci, Objects.requireNonNull(e.getValue(), "counts of " + g));
      }
    }
    return (g, c) -> byIndex.get(((long) g << 32) | c);
  }
}
