package org.dpsql.adaptive;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded synthetic census-like person table for tests and benchmarks of SafeTab: each person has
 * a county (which determines a state and the nation: 3 geography levels), a sex, an age in years
 * (0–115) and 1–6 distinct detailed race codes. The characteristic iterations are, for {@code D}
 * detailed codes and {@code R} regions of {@code D/R} consecutive codes, "code d Alone", "code d
 * Alone or in Combination" (AOIC), "region r Alone", "region r AOIC" — 2D + 2R iterations, listed
 * in that order (the order {@link StabilityTruncation} keeps the first Δ of). A person with k ≥ 2
 * codes is in up to 2k iterations (4 with one code), so Δ = 8 truncates the (rare) persons with 5
 * or 6 codes spread over several regions.
 *
 * <p>Guarantees: a pure function of its parameters and seed (SplittableRandom; this is test data,
 * not noise); persons are stored column-wise (about 13 bytes each) so 5,000,000 persons take about
 * 70 MB. County sizes follow a Zipf law (a few large counties, many small ones), race codes a Zipf
 * law, race multiplicity 1/2/3/4/5/6 with probabilities 0.85/0.10/0.03/0.01/0.006/0.004, ages
 * uniform on 0–89 (97%) and 90–115 (3%). Immutable.
 */
public final class SyntheticCensus {
  /** Geography level of the nation (one unit). */
  public static final int NATION = 0;

  /** Geography level of the states. */
  public static final int STATE = 1;

  /** Geography level of the counties. */
  public static final int COUNTY = 2;

  /** The largest age. */
  public static final int MAX_AGE = 115;

  private final int states;
  private final int[] stateOfCounty;
  private final List<CharacteristicIteration> iterations;
  private final int[][] iterationsCovering; // race code → iterations whose range covers it
  private final int[] county;
  private final byte[] sex;
  private final byte[] age;
  private final int[] raceStart; // person i's codes are raceCodes[raceStart[i] .. raceStart[i+1])
  private final short[] raceCodes;

  private SyntheticCensus(
      int states,
      int[] stateOfCounty,
      List<CharacteristicIteration> iterations,
      int detailedCodes,
      int[] county,
      byte[] sex,
      byte[] age,
      int[] raceStart,
      short[] raceCodes) {
    this.states = states;
    this.stateOfCounty = stateOfCounty;
    this.iterations = iterations;
    this.county = county;
    this.sex = sex;
    this.age = age;
    this.raceStart = raceStart;
    this.raceCodes = raceCodes;
    List<List<Integer>> covering = new ArrayList<>();
    for (int c = 0; c < detailedCodes; c++) {
      covering.add(new ArrayList<>());
    }
    for (int j = 0; j < iterations.size(); j++) {
      CharacteristicIteration it = iterations.get(j);
      for (int c = it.lowCode(); c <= it.highCode(); c++) {
        covering.get(c).add(j);
      }
    }
    iterationsCovering = new int[detailedCodes][];
    for (int c = 0; c < detailedCodes; c++) {
      iterationsCovering[c] = covering.get(c).stream().mapToInt(Integer::intValue).toArray();
    }
  }

  /**
   * Generates a census.
   *
   * @param persons number of persons ≥ 0
   * @param states number of states ≥ 1
   * @param counties number of counties ≥ states (each state gets at least one)
   * @param detailedCodes number of detailed race codes D ≥ 8, ≤ 32767
   * @param regions number of regions R ≥ 1 dividing D
   * @param seed the seed
   * @throws IllegalArgumentException if a parameter is out of range
   */
  public static SyntheticCensus generate(
      int persons, int states, int counties, int detailedCodes, int regions, long seed) {
    if (persons < 0 || states < 1 || counties < states) {
      throw new IllegalArgumentException(
          "need persons >= 0, states >= 1, counties >= states; got "
              + persons
              + ", "
              + states
              + ", "
              + counties);
    }
    if (detailedCodes < 8
        || detailedCodes > Short.MAX_VALUE
        || regions < 1
        || detailedCodes % regions != 0) {
      throw new IllegalArgumentException(
          "need 8 <= detailed codes <= 32767 and regions dividing them; got "
              + detailedCodes
              + ", "
              + regions);
    }
    SplittableRandom rng = new SplittableRandom(seed);
    int[] stateOfCounty = new int[counties];
    for (int c = 0; c < counties; c++) {
      stateOfCounty[c] = c < states ? c : rng.nextInt(states);
    }
    double[] countyCdf = zipfCdf(counties, 1.0, 5);
    double[] codeCdf = zipfCdf(detailedCodes, 1.1, 1);
    int[] county = new int[persons];
    byte[] sex = new byte[persons];
    byte[] age = new byte[persons];
    int[] raceStart = new int[persons + 1];
    short[] codes = new short[Math.max(16, persons + persons / 3)];
    int used = 0;
    int[] mine = new int[6];
    for (int i = 0; i < persons; i++) {
      county[i] = draw(countyCdf, rng);
      sex[i] = (byte) rng.nextInt(2);
      age[i] = (byte) (rng.nextDouble() < 0.97 ? rng.nextInt(90) : 90 + rng.nextInt(MAX_AGE - 89));
      double u = rng.nextDouble();
      int k = u < 0.85 ? 1 : u < 0.95 ? 2 : u < 0.98 ? 3 : u < 0.99 ? 4 : u < 0.996 ? 5 : 6;
      int n = 0;
      while (n < k) {
        int c = draw(codeCdf, rng);
        boolean dup = false;
        for (int j = 0; j < n; j++) {
          dup |= mine[j] == c;
        }
        if (!dup) {
          mine[n++] = c;
        }
      }
      if (used + k > codes.length) {
        codes = Arrays.copyOf(codes, codes.length + codes.length / 2 + 4);
      }
      for (int j = 0; j < k; j++) {
        codes[used++] = (short) mine[j];
      }
      raceStart[i + 1] = used;
    }
    return new SyntheticCensus(
        states,
        stateOfCounty,
        iterationsFor(detailedCodes, regions),
        detailedCodes,
        county,
        sex,
        age,
        raceStart,
        Arrays.copyOf(codes, used));
  }

  /** The iterations of D detailed codes and R regions, in the documented order. */
  static List<CharacteristicIteration> iterationsFor(int detailedCodes, int regions) {
    List<CharacteristicIteration> its = new ArrayList<>(2 * (detailedCodes + regions));
    for (int d = 0; d < detailedCodes; d++) {
      its.add(new CharacteristicIteration(String.format("D%04d-A", d), d, d, true));
      its.add(new CharacteristicIteration(String.format("D%04d-AOIC", d), d, d, false));
    }
    int width = detailedCodes / regions;
    for (int r = 0; r < regions; r++) {
      its.add(
          new CharacteristicIteration(
              String.format("R%03d-A", r), r * width, (r + 1) * width - 1, true));
      its.add(
          new CharacteristicIteration(
              String.format("R%03d-AOIC", r), r * width, (r + 1) * width - 1, false));
    }
    return List.copyOf(its);
  }

  /**
   * This census with one more person appended (for neighbouring-dataset tests).
   *
   * @throws IllegalArgumentException if an attribute is out of range
   */
  public SyntheticCensus withPerson(int countyId, int sexId, int ageYears, int... codes) {
    if (countyId < 0
        || countyId >= stateOfCounty.length
        || sexId < 0
        || sexId > 1
        || ageYears < 0
        || ageYears > MAX_AGE
        || codes.length == 0) {
      throw new IllegalArgumentException("person attributes out of range");
    }
    for (int c : codes) {
      if (c < 0 || c >= iterationsCovering.length) {
        throw new IllegalArgumentException("race code out of range: " + c);
      }
    }
    int n = county.length;
    int[] raceStart2 = Arrays.copyOf(raceStart, n + 2);
    short[] codes2 = Arrays.copyOf(raceCodes, raceCodes.length + codes.length);
    for (int j = 0; j < codes.length; j++) {
      codes2[raceCodes.length + j] = (short) codes[j];
    }
    raceStart2[n + 1] = codes2.length;
    int[] county2 = Arrays.copyOf(county, n + 1);
    county2[n] = countyId;
    byte[] sex2 = Arrays.copyOf(sex, n + 1);
    sex2[n] = (byte) sexId;
    byte[] age2 = Arrays.copyOf(age, n + 1);
    age2[n] = (byte) ageYears;
    return new SyntheticCensus(
        states,
        stateOfCounty,
        iterations,
        iterationsCovering.length,
        county2,
        sex2,
        age2,
        raceStart2,
        codes2);
  }

  /** The number of persons. */
  public int personCount() {
    return county.length;
  }

  /** The characteristic iterations, in code order. */
  public List<CharacteristicIteration> iterations() {
    return iterations;
  }

  /** The iteration codes, in order. */
  public List<String> iterationCodes() {
    return iterations.stream().map(CharacteristicIteration::code).toList();
  }

  /** The number of geographic units at a level: 1, the states, the counties. */
  public int geographyCount(int geographyLevel) {
    return switch (geographyLevel) {
      case NATION -> 1;
      case STATE -> states;
      case COUNTY -> stateOfCounty.length;
      default ->
          throw new IllegalArgumentException(
              "geography level must be 0, 1 or 2, got " + geographyLevel);
    };
  }

  /** The identifiers of the geographic units of a level ("US", "S07", "C0123"). */
  public List<String> geographies(int geographyLevel) {
    int n = geographyCount(geographyLevel);
    List<String> ids = new ArrayList<>(n);
    for (int g = 0; g < n; g++) {
      ids.add(
          geographyLevel == NATION
              ? "US"
              : geographyLevel == STATE ? String.format("S%02d", g) : String.format("C%04d", g));
    }
    return ids;
  }

  /** A level over all units of a geography level × all iterations, without TotalOnly iterations. */
  public PopulationLevel populationLevel(
      String name, int geographyLevel, BigDecimal budget, int stability) {
    return PopulationLevel.of(
        name, budget, stability, geographies(geographyLevel), iterationCodes());
  }

  /** The index of a person's unit at a geography level. */
  public int geographyOf(int person, int geographyLevel) {
    int c = county[person];
    return switch (geographyLevel) {
      case NATION -> 0;
      case STATE -> stateOfCounty[c];
      case COUNTY -> c;
      default ->
          throw new IllegalArgumentException(
              "geography level must be 0, 1 or 2, got " + geographyLevel);
    };
  }

  /** A person's sex, 0 or 1. */
  public int sexOf(int person) {
    return sex[person];
  }

  /** A person's age in years. */
  public int ageOf(int person) {
    return age[person];
  }

  /** A person's race codes. */
  public int[] raceCodesOf(int person) {
    int[] r = new int[raceStart[person + 1] - raceStart[person]];
    for (int j = 0; j < r.length; j++) {
      r[j] = raceCodes[raceStart[person] + j];
    }
    return r;
  }

  /**
   * Writes the indices of the iterations the person belongs to into {@code out} in ascending order
   * and returns how many there are (at most max(4, 2 × codes) here; {@code out} needs room for
   * them).
   */
  public int iterationsOf(int person, int[] out) {
    int from = raceStart[person];
    int to = raceStart[person + 1];
    int n = 0;
    for (int k = from; k < to; k++) {
      for (int j : iterationsCovering[raceCodes[k]]) {
        boolean seen = false;
        for (int m = 0; m < n; m++) {
          seen |= out[m] == j;
        }
        if (seen) {
          continue;
        }
        CharacteristicIteration it = iterations.get(j);
        if (!it.alone() || allCovered(it, from, to)) {
          out[n++] = j;
        }
      }
    }
    Arrays.sort(out, 0, n);
    return n;
  }

  private boolean allCovered(CharacteristicIteration it, int from, int to) {
    for (int k = from; k < to; k++) {
      if (!it.covers(raceCodes[k])) {
        return false;
      }
    }
    return true;
  }

  private static double[] zipfCdf(int n, double exponent, double offset) {
    double[] cdf = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += Math.pow(i + offset, -exponent);
      cdf[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cdf[i] /= sum;
    }
    return cdf;
  }

  private static int draw(double[] cdf, SplittableRandom rng) {
    double u = rng.nextDouble();
    int i = Arrays.binarySearch(cdf, u);
    int k = i >= 0 ? i : -i - 1;
    return Math.min(k, cdf.length - 1);
  }

  @Override
  public String toString() {
    return "SyntheticCensus[persons="
        + county.length
        + ", states="
        + states
        + ", counties="
        + stateOfCounty.length
        + ", iterations="
        + iterations.size()
        + "]";
  }
}
