package org.dpsql.adaptive;

import java.util.Objects;

/**
 * One output row of SafeTab: a noisy count of a population group — its total, or one Sex × Age cell
 * at the detail level chosen for the group — with its 95% margin of error.
 *
 * <p>Guarantees: {@code noisyCount} is an integer that may be negative; rows are <em>not</em>
 * mutually consistent (cells need not sum to a total, a state need not equal the sum of its
 * counties), by design of the algorithm. {@code marginOfError95} is exact: the true count lies in
 * {@code [noisyCount − moe, noisyCount + moe]} with probability at least 95% under the exact noise
 * distribution. {@code sex} and {@code ageBin} are null for totals.
 *
 * @param group the population group
 * @param detail the detail level chosen for the group
 * @param sex the sex label, or null for a total
 * @param ageBin the age bin label, or null for a total
 * @param noisyCount the released count
 * @param marginOfError95 the exact 95% margin of error
 */
public record TabulatedCount(
    PopulationGroup group,
    DetailLevel detail,
    String sex,
    String ageBin,
    long noisyCount,
    long marginOfError95) {

  /** Validates the components. */
  public TabulatedCount {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(detail, "detail");
    if (detail.isSexByAge() != (sex != null) || (sex == null) != (ageBin == null)) {
      throw new IllegalArgumentException(
          "a "
              + detail
              + " row must "
              + (detail.isSexByAge() ? "" : "not ")
              + "have sex and age bin");
    }
    if (marginOfError95 < 0) {
      throw new IllegalArgumentException("margin of error must be >= 0, got " + marginOfError95);
    }
  }

  /** Whether this row is a total (not a Sex × Age cell). */
  public boolean isTotal() {
    return sex == null;
  }
}
