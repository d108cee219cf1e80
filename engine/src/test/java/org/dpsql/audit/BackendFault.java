package org.dpsql.audit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deliberate privacy bug, simulated by rewriting the SQL that dpsql sends to the backend (the
 * pushed-down measurement, or the statement whose rows a streamed measurement bounds in the JVM):
 * the engine, its planner, its noise and its accounting run unchanged, but the step that bounds
 * a unit's influence is removed or undone. Each fault is a bug an engine of
 * this kind can really have (the list: bounding off, clamp ignored, a unit counted twice
 * through a join, which is the same as calibrating to half the sensitivity).
 *
 * <p>Only {@link FaultyBackendDriver} applies faults, and only on the test class path: no policy,
 * connection property or SQL statement can reach them.
 */
enum BackendFault {
  /**
   * Contribution bounding (and SafeTab's Δ truncation) off: the {@code DPSQL_RN <= k} filter
   * that keeps at most k rows (or Δ iterations) per unit keeps them all; in a streamed
   * measurement, every row arrives as a unit of its own ({@code RANDOM_UUID()} instead of the
   * unit), so the JVM's reservoir bounds nothing.
   */
  BOUNDING_OFF("bounding off (every row of a unit counted)",
      Pattern.compile("(\"DPSQL_RN\")\\s*<=\\s*\\d+"), "$1 <= 2147483647",
      Pattern.compile("^SELECT (.+?) AS (\"DPSQL_U\")"), "SELECT RANDOM_UUID() AS $2"),

  /**
   * Group bounding off: the {@code DPSQL_GROUP <= m} filter that keeps each unit's rows in at most
   * {@code max_groups_per_unit} groups (of a GROUP BY over private keys) keeps every group; in a
   * streamed measurement, each (unit, private key) pair arrives as a unit of its own, so each unit
   * keeps k rows in every one of its groups.
   */
  GROUPS_UNBOUNDED("group bounding off (a unit counted in all its groups)",
      Pattern.compile("(\"DPSQL_GROUP\")\\s*<=\\s*\\d+"), "$1 <= 2147483647",
      Pattern.compile("^SELECT (.+?) AS (\"DPSQL_U\")(.*), (\"[A-Za-z0-9_]+\") AS (\"K\\d+\")"
          + "(?!.*AS \"K\\d)"),
      "SELECT CAST($1 AS VARCHAR) || '/' || CAST($4 AS VARCHAR) AS $2$3, $4 AS $5"),

  /**
   * Clamping ignored: the {@code CASE WHEN v < lo THEN lo WHEN v > hi THEN hi ELSE v END} around
   * summed values loses its two clamping branches, so a value outside {@code [lo, hi]} is summed
   * as it is (the same expression in both strategies).
   */
  CLAMP_IGNORED("clamp ignored (values summed unclamped)",
      Pattern.compile("WHEN (\"[A-Za-z0-9_]+\") [<>] (-?[0-9.]+(?:E[-+]?[0-9]+)?) THEN \\2 "), "",
      null, null),

  /**
   * Bounding by scaling off ({@code ScaledBoundingSql}, the per-query bounding dpsql writes for
   * Trino): the {@code DPSQL_N <= k} test that leaves units of at most k rows unscaled passes for
   * every unit, so a heavy unit is counted in full.
   */
  SCALING_OFF("bounding by scaling off (heavy units counted in full)",
      Pattern.compile("(\"DPSQL_N\")\\s*<=\\s*\\d+"), "$1 <= 2147483647", null, null),

  /**
   * A unit counted twice through a join: the bounded rows are joined with a two-row table
   * before they are aggregated, so every kept row, and so every unit, counts twice; in a
   * streamed measurement every row arrives twice, under two copies of its unit, each bounded
   * to k. Equivalent to noise calibrated to half the real sensitivity.
   */
  COUNTED_TWICE("unit counted twice (bounded rows joined with a 2-row table)",
      Pattern.compile("(\\) \"DPSQL_B\") WHERE "),
      "$1 CROSS JOIN (SELECT 1 AS \"DPSQL_C\" UNION ALL SELECT 2) \"DPSQL_TWICE\" WHERE ",
      Pattern.compile("^SELECT (.+?) AS (\"DPSQL_U\")(.*?) FROM (.+?) WHERE "),
      "SELECT CAST($1 AS VARCHAR) || \"DPSQL_TWICE\".\"DPSQL_C\" AS $2$3 FROM $4 CROSS JOIN "
          + "(SELECT 'a' AS \"DPSQL_C\" UNION ALL SELECT 'b') \"DPSQL_TWICE\" WHERE "),

  /**
   * A reservoir that keeps k + 1 rows (streamed measurements only): one row of every unit
   * arrives under a unit of its own ({@code unit || '+'} for the unit's first row in the stream,
   * numbered by a window), so the JVM keeps that row and k more of the unit's rows: k + 1 rows
   * of every unit with more than k, the sensitivity of k + 1 against noise calibrated to k.
   * (The engine's own reservoir with k + 1 slots is tested against the exact law of its kept
   * rows in {@code StreamingMeasurementTest}; this fault brings the same bug to the end-to-end
   * audit without a switch in production code.)
   */
  RESERVOIR_K_PLUS_1("reservoir keeps k + 1 rows (one row of each unit split off)",
      null, null,
      Pattern.compile("^SELECT (.+?) AS (\"DPSQL_U\")"),
      "SELECT CASE WHEN ROW_NUMBER() OVER (PARTITION BY $1 ORDER BY $1) = 1 THEN CAST($1 AS "
          + "VARCHAR) || '+' ELSE CAST($1 AS VARCHAR) END AS $2");

  private final String description;
  private final Pattern pattern;
  private final String replacement;
  private final Pattern streamedPattern;
  private final String streamedReplacement;

  /**
   * A fault with its rewrite of the pushed-down statement ({@code pattern}, {@code replacement})
   * and of the statement whose rows are streamed into the JVM ({@code streamedPattern}, {@code
   * streamedReplacement}); either may be null.
   */
  BackendFault(String description, Pattern pattern, String replacement, Pattern streamedPattern,
      String streamedReplacement) {
    this.description = description;
    this.pattern = pattern;
    this.replacement = replacement;
    this.streamedPattern = streamedPattern;
    this.streamedReplacement = streamedReplacement;
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
    if (pattern != null) {
      Matcher m = pattern.matcher(sql);
      if (m.find()) {
        return m.replaceAll(replacement);
      }
    }
    if (streamedPattern != null && sql.contains("\"DPSQL_U\"")) {
      Matcher m = streamedPattern.matcher(sql);
      if (m.find()) {
        return m.replaceFirst(streamedReplacement);
      }
    }
    return sql;
  }
}
