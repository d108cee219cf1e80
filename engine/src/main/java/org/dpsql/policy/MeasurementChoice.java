package org.dpsql.policy;

import java.util.Locale;

/**
 * Where the exact, bounded measurement of a private query is computed (policy key {@code
 * measurement}). Every choice bounds each unit to the same {@code max_rows_per_unit} rows (and
 * {@code max_groups_per_unit} groups) chosen from its own rows alone, so every choice has the same
 * sensitivity and the same privacy guarantee; they differ in speed and in where the rows are read.
 */
public enum MeasurementChoice {
  /**
   * Default: {@link #STREAMING} for an embedded H2 database (an in-memory or file URL, running in
   * dpsql's own JVM, whose rows never leave the process), {@link #PUSH_DOWN} for every other
   * backend (PostgreSQL, Trino, H2 over TCP).
   */
  AUTO,
  /** The backend filters, bounds and aggregates in one SQL statement; only aggregates return. */
  PUSH_DOWN,
  /**
   * The backend filters; dpsql reads the filtered rows once, forward only, bounds each unit in
   * the JVM and aggregates. Refused (XDP04) for Trino.
   */
  STREAMING;

  /** The name as written in the policy. */
  public String policyName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The choice a policy names ({@code auto}, {@code push_down}, {@code streaming}), or null. */
  public static MeasurementChoice ofPolicyName(String name) {
    for (MeasurementChoice c : values()) {
      if (c.policyName().equals(name)) {
        return c;
      }
    }
    return null;
  }
}
