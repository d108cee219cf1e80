package org.dpsql.audit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deliberate privacy bug, simulated by rewriting the SQL that dpsql pushes down to the backend:
 * the engine, its planner, its noise and its accounting run unchanged, but the step that bounds
 * a unit's influence inside the backend is removed or undone. Each fault is a bug an engine of
 * this kind can really have (the list: bounding off, clamp ignored, a unit counted twice
 * through a join, which is the same as calibrating to half the sensitivity).
 *
 * <p>Only {@link FaultyBackendDriver} applies faults, and only on the test class path: no policy,
 * connection property or SQL statement can reach them.
 */
enum BackendFault {
  /**
   * Contribution bounding (and SafeTab's Δ truncation) off: the {@code DPSQL_RN <= k} filter
   * that keeps at most k rows (or Δ iterations) per unit keeps them all.
   */
  BOUNDING_OFF("bounding off (every row of a unit counted)",
      Pattern.compile("(\"DPSQL_RN\")\\s*<=\\s*\\d+"), "$1 <= 2147483647"),

  /**
   * Group bounding off: the {@code DPSQL_GROUP <= m} filter that keeps each unit's rows in at most
   * {@code max_groups_per_unit} groups (of a GROUP BY over private keys) keeps every group.
   */
  GROUPS_UNBOUNDED("group bounding off (a unit counted in all its groups)",
      Pattern.compile("(\"DPSQL_GROUP\")\\s*<=\\s*\\d+"), "$1 <= 2147483647"),

  /**
   * Clamping ignored: the {@code CASE WHEN v < lo THEN lo WHEN v > hi THEN hi ELSE v END} around
   * summed values loses its two clamping branches, so a value outside {@code [lo, hi]} is summed
   * as it is.
   */
  CLAMP_IGNORED("clamp ignored (values summed unclamped)",
      Pattern.compile("WHEN (\"[A-Za-z0-9_]+\") [<>] (-?[0-9.]+(?:E[-+]?[0-9]+)?) THEN \\2 "), ""),

  /**
   * Bounding by scaling off ({@code ScaledBoundingSql}, the per-query bounding dpsql writes for
   * Trino): the {@code DPSQL_N <= k} test that leaves units of at most k rows unscaled passes for
   * every unit, so a heavy unit is counted in full.
   */
  SCALING_OFF("bounding by scaling off (heavy units counted in full)",
      Pattern.compile("(\"DPSQL_N\")\\s*<=\\s*\\d+"), "$1 <= 2147483647"),

  /**
   * A unit counted twice through a join: the bounded rows are joined with a two-row table
   * before they are aggregated, so every kept row, and so every unit, counts twice. Equivalent
   * to noise calibrated to half the real sensitivity.
   */
  COUNTED_TWICE("unit counted twice (bounded rows joined with a 2-row table)",
      Pattern.compile("(\\) \"DPSQL_B\") WHERE "),
      "$1 CROSS JOIN (SELECT 1 AS \"DPSQL_C\" UNION ALL SELECT 2) \"DPSQL_TWICE\" WHERE ");

  private final String description;
  private final Pattern pattern;
  private final String replacement;

  BackendFault(String description, Pattern pattern, String replacement) {
    this.description = description;
    this.pattern = pattern;
    this.replacement = replacement;
  }

  /**
   * Whether the path this fault breaks is written for Trino: the audit's H2 backends are then
   * presented to dpsql as Trino ({@link FaultyBackendDriver}), for the honest engine too, so that
   * dpsql writes its statements in the Trino dialect (bounding by scaling) and H2 runs them.
   */
  boolean asTrino() {
    return this == SCALING_OFF;
  }

  /** What the fault breaks, for reports. */
  String description() {
    return description;
  }

  /** {@code sql} with the fault applied; the same string when the fault does not apply to it. */
  String rewrite(String sql) {
    Matcher m = pattern.matcher(sql);
    return m.find() ? m.replaceAll(replacement) : sql;
  }
}
