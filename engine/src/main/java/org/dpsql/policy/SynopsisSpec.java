package org.dpsql.policy;

import java.util.Objects;

/**
 * A synopsis the data owner publishes (policy section {@code synopses:}): one named {@code
 * DPSQL.WORKLOAD} family over a private table, released once with the owner's own budget and then
 * answering every covered query of every analyst for free.
 *
 * <p>Guarantees: every field is non-blank; {@code budget} is in the policy's accounting (checked by
 * the parser); {@code mechanism} is {@code auto} unless the owner named one. The budget is spent
 * once per release, not per analyst: the release is stored (see {@link Policy#synopsisStore()})
 * and reused across connections and restarts.
 */
public record SynopsisSpec(
    String name, String table, String workload, BudgetAmount budget, String mechanism) {

  /** Checks the fields. */
  public SynopsisSpec {
    Objects.requireNonNull(budget, "budget");
    for (String s : new String[] {name, table, workload, mechanism}) {
      if (s == null || s.isBlank()) {
        throw new IllegalArgumentException("synopsis fields must not be blank");
      }
    }
  }
}
