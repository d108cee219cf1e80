package org.dpsql.adaptive;

import java.util.Objects;

/**
 * A race/ethnicity characteristic iteration (Haney et al., Section 1): a race group — the range of
 * race codes {@code [lowCode, highCode]} — with either "Alone" (every race code of the person lies
 * in the group) or "Alone or in Combination" (some race code does).
 *
 * <p>Guarantee: immutable; {@link #contains} is a function of one person's race codes only.
 *
 * @param code the iteration code, e.g. {@code "R03-AOIC"}
 * @param lowCode the lowest race code of the group
 * @param highCode the highest race code of the group, ≥ lowCode
 * @param alone true for "Alone", false for "Alone or in Combination"
 */
public record CharacteristicIteration(String code, int lowCode, int highCode, boolean alone) {

  /** Validates the components. */
  public CharacteristicIteration {
    Objects.requireNonNull(code, "code");
    if (highCode < lowCode) {
      throw new IllegalArgumentException(
          "iteration "
              + code
              + " has an empty race code range ["
              + lowCode
              + ", "
              + highCode
              + "]");
    }
  }

  /** Whether a race code is in the group's range. */
  public boolean covers(int raceCode) {
    return raceCode >= lowCode && raceCode <= highCode;
  }

  /**
   * Whether a person with these race codes (at least one) belongs to the iteration.
   *
   * @throws IllegalArgumentException if no race code is given
   */
  public boolean contains(int[] raceCodes) {
    if (raceCodes.length == 0) {
      throw new IllegalArgumentException("a person has at least one race code");
    }
    for (int r : raceCodes) {
      boolean in = covers(r);
      if (alone && !in) {
        return false;
      }
      if (!alone && in) {
        return true;
      }
    }
    return alone;
  }
}
