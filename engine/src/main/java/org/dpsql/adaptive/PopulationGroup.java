package org.dpsql.adaptive;

import java.util.Objects;

/**
 * A population group (g, c) of one level: a geographic entity and a race/ethnicity characteristic
 * iteration (Haney et al., Section 1).
 *
 * <p>Guarantee: immutable value; all components non-null.
 *
 * @param level the name of the {@link PopulationLevel}
 * @param geography the geographic entity's identifier
 * @param iteration the characteristic iteration code
 */
public record PopulationGroup(String level, String geography, String iteration) {
  /** Validates that no component is null. */
  public PopulationGroup {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(geography, "geography");
    Objects.requireNonNull(iteration, "iteration");
  }
}
