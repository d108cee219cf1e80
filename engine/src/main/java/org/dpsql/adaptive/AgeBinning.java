package org.dpsql.adaptive;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A partition of the finest age categories into contiguous age bins, e.g. the Census Age4, Age9 and
 * Age23 binnings of SafeTab's Sex × Age tables. Finest categories are indices {@code 0 …
 * finestCount−1} (single years of age, or any finer binning the engine groups by), each described
 * by the lowest age in years it contains.
 *
 * <p>Guarantees: immutable; every finest category maps to exactly one bin ({@link #binOf}), bins
 * are contiguous, non-empty and ordered, so a person is counted in exactly one cell of a Sex × Age
 * table — which is what makes the cells of one group disjoint (degree 1 parallel composition).
 */
public final class AgeBinning {
  /** Lower ages (years) of the Census Age4 bins: under 18, 18–44, 45–64, 65+. */
  public static final List<Integer> AGE4_LOWER_YEARS = List.of(0, 18, 45, 65);

  /**
   * Lower ages of the Census Age9 bins: &lt;5, 5–17, 18–24, 25–34, 35–44, 45–54, 55–64, 65–74, 75+.
   */
  public static final List<Integer> AGE9_LOWER_YEARS = List.of(0, 5, 18, 25, 35, 45, 55, 65, 75);

  /** Lower ages of the Census Age23 bins (&lt;5, 5–9, …, 20, 21, 22–24, …, 85+). */
  public static final List<Integer> AGE23_LOWER_YEARS =
      List.of(
          0, 5, 10, 15, 18, 20, 21, 22, 25, 30, 35, 40, 45, 50, 55, 60, 62, 65, 67, 70, 75, 80, 85);

  private final String name;
  private final int[] binOfFinest;
  private final List<String> labels;

  private AgeBinning(String name, int[] binOfFinest, List<String> labels) {
    this.name = name;
    this.binOfFinest = binOfFinest;
    this.labels = labels;
  }

  /**
   * The binning with bins starting at {@code binLowerYears}, over finest categories starting at
   * {@code finestLowerYears}. Bin labels are {@code "a-b"} in years, the last one {@code "a+"}.
   *
   * @param name the binning's name, e.g. {@code "Age4"}
   * @param finestLowerYears the lowest age of each finest category, strictly increasing from 0
   * @param binLowerYears the lowest age of each bin, strictly increasing from 0; each must be the
   *     lower age of some finest category (the binning must be a coarsening of the finest one)
   * @throws IllegalArgumentException if the bounds are not as described
   */
  public static AgeBinning ofYears(
      String name, List<Integer> finestLowerYears, List<Integer> binLowerYears) {
    Objects.requireNonNull(name, "name");
    requireIncreasingFromZero(finestLowerYears, "finest age categories");
    requireIncreasingFromZero(binLowerYears, "age bins of " + name);
    int[] map = new int[finestLowerYears.size()];
    int bin = 0;
    for (int f = 0; f < map.length; f++) {
      int lower = finestLowerYears.get(f);
      if (bin + 1 < binLowerYears.size() && lower >= binLowerYears.get(bin + 1)) {
        bin++;
        if (lower != binLowerYears.get(bin)) {
          throw new IllegalArgumentException(
              "age bin of "
                  + name
                  + " starting at "
                  + binLowerYears.get(bin)
                  + " does not start at a finest age category boundary");
        }
      }
      map[f] = bin;
    }
    if (bin != binLowerYears.size() - 1) {
      throw new IllegalArgumentException(
          "age bins of "
              + name
              + " from "
              + binLowerYears.get(bin + 1)
              + " contain no finest age category");
    }
    String[] labels = new String[binLowerYears.size()];
    for (int b = 0; b < labels.length; b++) {
      int lo = binLowerYears.get(b);
      labels[b] = b + 1 < labels.length ? lo + "-" + (binLowerYears.get(b + 1) - 1) : lo + "+";
    }
    return new AgeBinning(name, map, List.of(labels));
  }

  /** Finest categories of single years 0, 1, …, {@code maxAge} (the last one is "maxAge+"). */
  public static List<Integer> singleYears(int maxAge) {
    if (maxAge < 0) {
      throw new IllegalArgumentException("maxAge must be >= 0, got " + maxAge);
    }
    Integer[] years = new Integer[maxAge + 1];
    for (int i = 0; i <= maxAge; i++) {
      years[i] = i;
    }
    return List.of(years);
  }

  /** The Census Age4 binning over the given finest categories. */
  public static AgeBinning censusAge4(List<Integer> finestLowerYears) {
    return ofYears("Age4", finestLowerYears, AGE4_LOWER_YEARS);
  }

  /** The Census Age9 binning over the given finest categories. */
  public static AgeBinning censusAge9(List<Integer> finestLowerYears) {
    return ofYears("Age9", finestLowerYears, AGE9_LOWER_YEARS);
  }

  /** The Census Age23 binning over the given finest categories. */
  public static AgeBinning censusAge23(List<Integer> finestLowerYears) {
    return ofYears("Age23", finestLowerYears, AGE23_LOWER_YEARS);
  }

  /** The Census binnings Age4, Age9 and Age23 (coarse to fine) over the finest categories. */
  public static List<AgeBinning> census(List<Integer> finestLowerYears) {
    return List.of(censusAge4(finestLowerYears), censusAge9(finestLowerYears),
        censusAge23(finestLowerYears));
  }

  /** The binning's name. */
  public String name() {
    return name;
  }

  /** The number of finest age categories it is defined over. */
  public int finestCount() {
    return binOfFinest.length;
  }

  /** The number of bins. */
  public int binCount() {
    return labels.size();
  }

  /** The bin labels, in order. */
  public List<String> labels() {
    return labels;
  }

  /**
   * The bin of a finest age category.
   *
   * @throws IndexOutOfBoundsException if the category is out of range
   */
  public int binOf(int finestCategory) {
    return binOfFinest[finestCategory];
  }

  private static void requireIncreasingFromZero(List<Integer> years, String what) {
    Objects.requireNonNull(years, what);
    if (years.isEmpty() || years.get(0) != 0) {
      throw new IllegalArgumentException(what + " must start at age 0, got " + years);
    }
    for (int i = 1; i < years.size(); i++) {
      if (years.get(i) <= years.get(i - 1)) {
        throw new IllegalArgumentException(
            what + " must have strictly increasing lower ages, got " + years);
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AgeBinning b
        && name.equals(b.name)
        && Arrays.equals(binOfFinest, b.binOfFinest)
        && labels.equals(b.labels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, Arrays.hashCode(binOfFinest), labels);
  }

  @Override
  public String toString() {
    return name + labels;
  }
}
