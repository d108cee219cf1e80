package org.dpsql.hierarchy;

/**
 * How much one privacy unit (user) contributes to the counted records (trips): at most {@code
 * maxRecords} records, all in distinct finest cells (leaves) if {@code distinct}. Enforcing the
 * bound (contribution bounding) is the caller's job; the privacy guarantees of this package hold
 * only for data that respects it.
 *
 * <p>Guarantee ({@link #squaredL2Sensitivity}): the squared L2 sensitivity of one level's vector of
 * node counts (Section 4.1, "Different Privacy Types and Sensitivities"):
 *
 * <table>
 *   <caption>squared L2 sensitivity of a level, m = maxRecords</caption>
 *   <tr><th></th><th>bounded (substitution)</th><th>unbounded (add/remove)</th></tr>
 *   <tr><td>leaf level, distinct records</td><td>2m</td><td>m</td></tr>
 *   <tr><td>any other case</td><td>2m²</td><td>m²</td></tr>
 * </table>
 *
 * <p>Deviation from the paper, on the safe side: the paper states {@code 2m} / {@code m} for every
 * level when the records are distinct. That holds for the leaves only: distinct leaves can share an
 * ancestor, so at a coarser level all {@code m} records may fall into one node and change it by
 * {@code m}. For {@code m = 1} (the paper's experiments) both agree. The root count under
 * unbounded DP changes by at most {@code m}: squared sensitivity {@code m²}.
 */
public record Contribution(int maxRecords, boolean distinct) {

  /** One record per unit (the paper's experiments). */
  public static final Contribution ONE = new Contribution(1, true);

  /**
   * @throws IllegalArgumentException if {@code maxRecords < 1}
   */
  public Contribution {
    if (maxRecords < 1) {
      throw new IllegalArgumentException("maxRecords must be >= 1: " + maxRecords);
    }
  }

  /**
   * Squared L2 sensitivity of the vector of counts of one tree level (see the class table).
   *
   * @param leafLevel whether the level is the leaf level {@code T}
   */
  public long squaredL2Sensitivity(Neighbouring neighbouring, boolean leafLevel) {
    long m = maxRecords;
    long perSide = leafLevel && distinct ? m : Math.multiplyExact(m, m);
    return neighbouring == Neighbouring.BOUNDED ? 2 * perSide : perSide;
  }

  /** Squared L2 (= squared absolute) sensitivity of the total under unbounded DP: {@code m²}. */
  public long squaredRootSensitivity() {
    return Math.multiplyExact((long) maxRecords, maxRecords);
  }

  /**
   * Number of leaf cells one unit can change (for histogram mechanisms such as {@link
   * StabilityHistogram}): {@code 2m} under bounded, {@code m} under unbounded DP.
   */
  public long cellsChanged(Neighbouring neighbouring) {
    return neighbouring == Neighbouring.BOUNDED ? 2L * maxRecords : maxRecords;
  }
}
