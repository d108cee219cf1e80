package org.dpsql.policy;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.dpsql.adaptive.AdaptiveTabulationSpec;

/**
 * A SafeTab adaptive tabulation the data owner declares (policy section {@code adaptive_tables:}),
 * answered by {@code SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('NAME'))}: where the persons and their
 * characteristic iterations are in the backend, and every parameter of the algorithm ({@link
 * AdaptiveTabulationSpec}: levels with budgets, stabilities Δ, declared geographies and iterations,
 * TotalOnly sets, γ, θ1 &lt; θ2 &lt; θ3, sexes, the three age binnings, the mechanism Γ).
 *
 * <p>Guarantees: immutable; the spec was validated by the library (messages name the policy key);
 * {@code binLowerYears} are the three binnings' lower ages (coarse to fine) and {@code
 * finestLowerYears} their common refinement, so every binning of the spec is a coarsening of the
 * finest categories; ages outside {@code [0, maxAge]} belong to no category. After {@link
 * PolicyLoader#load} the tables and columns carry the backend's spellings, schemas and SQL types,
 * and every declared value of a numeric column is written in canonical decimal form (the spec's
 * geography, iteration and sex labels are then those canonical forms). One person is one privacy
 * unit: {@code personUnique} says whether the backend guarantees one row per person in the persons
 * table (primary key or unique index), otherwise the engine keeps one row per person itself.
 *
 * @param name the name the analyst calls it by, as written in the policy
 * @param persons the persons table
 * @param person the person identifier column of the persons table (the privacy unit)
 * @param sex the sex column of the persons table
 * @param age the age column (years) of the persons table
 * @param iterations the mapping table: one row per (person, characteristic iteration)
 * @param iterationPerson the person identifier column of the mapping table
 * @param iteration the iteration code column of the mapping table
 * @param geographyColumns for each level of the spec, in order, its geography column of the persons
 *     table, or null when the level has a single geographic unit (the whole table, e.g. the nation)
 * @param binLowerYears the lower ages of the bins of each of the spec's three binnings
 * @param finestLowerYears the lower ages of the finest age categories
 * @param maxAge the largest age counted
 * @param personUnique whether the backend guarantees one persons row per person
 * @param spec the tabulation's parameters
 */
public record AdaptiveTablePolicy(
    String name,
    Table persons,
    Column person,
    Column sex,
    Column age,
    Table iterations,
    Column iterationPerson,
    Column iteration,
    List<Column> geographyColumns,
    List<List<Integer>> binLowerYears,
    List<Integer> finestLowerYears,
    int maxAge,
    boolean personUnique,
    AdaptiveTabulationSpec spec) {

  /** A backend table: its schema (null before the schema check) and name. */
  public record Table(String schema, String name) {
    /** Checks the name. */
    public Table {
      Objects.requireNonNull(name, "name");
    }
  }

  /** A backend column: its name and {@link Types} code ({@link Types#OTHER} before the check). */
  public record Column(String name, int sqlType) {
    /** Checks the name. */
    public Column {
      Objects.requireNonNull(name, "name");
    }

    /** A column whose type is not known yet. */
    public static Column named(String name) {
      return new Column(name, Types.OTHER);
    }

    /** Whether the backend type is numeric. */
    public boolean numeric() {
      return ColumnPolicy.isNumericType(sqlType);
    }
  }

  /** Validates and copies. */
  public AdaptiveTablePolicy {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(persons, "persons");
    Objects.requireNonNull(person, "person");
    Objects.requireNonNull(sex, "sex");
    Objects.requireNonNull(age, "age");
    Objects.requireNonNull(iterations, "iterations");
    Objects.requireNonNull(iterationPerson, "iterationPerson");
    Objects.requireNonNull(iteration, "iteration");
    Objects.requireNonNull(spec, "spec");
    geographyColumns = java.util.Collections.unmodifiableList(new ArrayList<>(geographyColumns));
    if (geographyColumns.size() != spec.levels().size()) {
      throw new IllegalArgumentException("one geography column (or null) per level is needed");
    }
    List<List<Integer>> bins = new ArrayList<>();
    for (List<Integer> b : binLowerYears) {
      bins.add(List.copyOf(b));
    }
    binLowerYears = List.copyOf(bins);
    if (binLowerYears.size() != spec.ageBinnings().size()) {
      throw new IllegalArgumentException("one list of lower ages per age binning is needed");
    }
    finestLowerYears = List.copyOf(finestLowerYears);
    if (finestLowerYears.size() != spec.finestAgeCount()) {
      throw new IllegalArgumentException("the finest age categories do not match the spec");
    }
    if (maxAge < finestLowerYears.get(finestLowerYears.size() - 1)) {
      throw new IllegalArgumentException(
          "the largest age " + maxAge + " is below the last age category's lower age");
    }
  }

  /** The key of an adaptive table name: upper-cased, as {@link Policy#adaptiveTable} looks up. */
  static String key(String name) {
    return name.toUpperCase(java.util.Locale.ROOT);
  }

  /** The lowest and highest age (years) of bin {@code bin} of binning {@code binning}. */
  public int[] ageRange(int binning, int bin) {
    List<Integer> lower = binLowerYears.get(binning);
    int low = lower.get(bin);
    int high = bin + 1 < lower.size() ? lower.get(bin + 1) - 1 : maxAge;
    return new int[] {low, high};
  }
}
