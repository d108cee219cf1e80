package org.dpsql.policy;

import java.util.Locale;

/**
 * How a private table's contribution bound ({@code max_rows_per_unit}) is enforced (policy key
 * {@code bounding}). Both keep at most k rows per privacy unit in every aggregate, so both give
 * the same sensitivity and the same privacy guarantee; they trade accuracy against speed.
 */
public enum Bounding {
  /**
   * Default. For each query, the backend keeps a uniform random subset of at most k of each unit's
   * rows among those that pass the query's filter: no row outside the filter uses up a unit's k.
   * On Trino, counts and sums are bounded by scaling a heavy unit's filtered rows to k instead
   * (same sensitivity, see {@code org.dpsql.backend.ScaledBoundingSql}).
   */
  PER_QUERY,
  /**
   * Once per connection and table, the backend materialises a uniform random subset of at most k
   * rows per unit (a temporary table); every query of the connection then filters and aggregates
   * that bounded snapshot. Much faster on large tables, but a filtered query may see fewer of a
   * heavy unit's rows than {@link #PER_QUERY}, and rows added to the table after the snapshot are
   * not seen by that connection. Needs the right to create temporary tables in the backend.
   */
  SNAPSHOT;

  /** The name as written in the policy. */
  public String policyName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
