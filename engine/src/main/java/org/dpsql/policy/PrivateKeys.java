package org.dpsql.policy;

/**
 * A column declared {@code keys: private}: a group key whose values nobody lists in advance
 * (product names, zip codes, URLs). A {@code GROUP BY} over it releases only keys chosen
 * privately (see {@code org.dpsql.release.PartitionSelection}): each unit is first bounded to
 * {@code maxGroupsPerUnit} groups of the statement, chosen at random among its own groups.
 *
 * <p>Guarantees: {@code maxGroupsPerUnit} is between 1 and {@link #MAX_GROUPS_PER_UNIT}.
 */
public record PrivateKeys(int maxGroupsPerUnit) {
  /** The largest {@code max_groups_per_unit} a policy may declare. */
  public static final int MAX_GROUPS_PER_UNIT = 1000;

  /** Checks the bound. */
  public PrivateKeys {
    if (maxGroupsPerUnit < 1 || maxGroupsPerUnit > MAX_GROUPS_PER_UNIT) {
      throw new IllegalArgumentException("max_groups_per_unit must be between 1 and "
          + MAX_GROUPS_PER_UNIT + ", got " + maxGroupsPerUnit);
    }
  }
}
