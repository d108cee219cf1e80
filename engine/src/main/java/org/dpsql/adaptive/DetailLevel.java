package org.dpsql.adaptive;

/**
 * The statistics released for one population group by SafeTab's TabulatePopulationGroup (Algorithm
 * 2), chosen from the group's TotalOnly membership and its noisy step-1 total.
 *
 * <p>Guarantee: the choice is either data-independent ({@link #TOTAL_ONLY}) or a function of the
 * noisy step-1 total only (post-processing), so it is safe to publish with the counts.
 */
public enum DetailLevel {
  /** The group is declared TotalOnly: one noisy total with the whole group budget. */
  TOTAL_ONLY(-1),
  /** Noisy total &lt; θ1: one noisy total with the step-2 budget. */
  TOTAL(-1),
  /** θ1 ≤ noisy total &lt; θ2: Sex × the first (coarsest, e.g. Age4) age binning. */
  SEX_BY_AGE_COARSE(0),
  /** θ2 ≤ noisy total &lt; θ3: Sex × the second (e.g. Age9) age binning. */
  SEX_BY_AGE_MEDIUM(1),
  /** θ3 ≤ noisy total: Sex × the third (finest, e.g. Age23) age binning. */
  SEX_BY_AGE_FINE(2);

  private final int binningIndex;

  DetailLevel(int binningIndex) {
    this.binningIndex = binningIndex;
  }

  /** The index of the spec's age binning used, or −1 for a total. */
  public int binningIndex() {
    return binningIndex;
  }

  /** Whether a Sex × Age table (rather than a single total) is released. */
  public boolean isSexByAge() {
    return binningIndex >= 0;
  }

  /**
   * The adaptive choice of Algorithm 2 lines 18–32 for a noisy step-1 total: {@link #TOTAL} if it
   * is below θ1, else the first binning whose upper threshold it is below.
   */
  public static DetailLevel forNoisyTotal(long noisyTotal, long theta1, long theta2, long theta3) {
    if (noisyTotal < theta1) {
      return TOTAL;
    }
    if (noisyTotal < theta2) {
      return SEX_BY_AGE_COARSE;
    }
    if (noisyTotal < theta3) {
      return SEX_BY_AGE_MEDIUM;
    }
    return SEX_BY_AGE_FINE;
  }
}
