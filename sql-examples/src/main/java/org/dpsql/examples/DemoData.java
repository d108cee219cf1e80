package org.dpsql.examples;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates the demo data set: one year (2025) of synthetic ride-hailing trips in four US states.
 *
 * <p>Three tables are (re)created in the target database:
 *
 * <ul>
 *   <li>{@code TRIPS} (private; the privacy unit is {@code RIDER_ID}): {@code TRIP_ID BIGINT} primary
 *       key, {@code RIDER_ID INT}, {@code STATE}, {@code COUNTY}, {@code PAYMENT} (CARD, CASH, APP),
 *       {@code "HOUR"} (0–23; {@code HOUR} is a keyword in H2 and in SQL, so it is quoted), {@code AGE}
 *       (16–90, constant per rider), {@code FARE DECIMAL(8,2)}, {@code DISTANCE_KM DOUBLE} and
 *       {@code PICKUP_AT TIMESTAMP} (in 2025, in the trip's {@code HOUR}) and {@code PICKUP_ZONE}
 *       (one of 60 zones of the trip's county, {@code "Kings Z07"}, a few popular and many rare:
 *       zone i is drawn with weight 1/i^1.1).
 *   <li>{@code COUNTIES} (public): {@code COUNTY}, {@code STATE}, {@code POPULATION}, {@code
 *       AREA_KM2}.
 * </ul>
 *
 * <p>The shape is meant to make the lessons of the demo visible:
 *
 * <ul>
 *   <li>Trips per rider are skewed: about 62% of riders take 1–5 trips, most others 6–10 (commuters),
 *       and about one rider in a thousand is a heavy rider with 50–300 trips. The policy's contribution
 *       bound ({@code max_rows_per_unit: 10}) covers everyone except the heavy riders, whose extra trips
 *       are what a DP count leaves out.
 *   <li>Fares follow distance and time, with rush-hour surges and a few outliers up to 900 (cleaning
 *       fees, intercity rides), so the policy's {@code FARE} clamp of [0, 100] matters for sums.
 *   <li>Trips by hour have morning and evening rush peaks; older riders pay cash more often.
 *   <li>Commutes happen on weekdays, other rides on any day, and rides grow through the year (the
 *       last month has about 1.5 times the trips of the first), so daily and monthly series show a
 *       weekly rhythm and a trend.
 * </ul>
 *
 * <p>Generation is deterministic: the same {@link Config} always gives the same rows. The random
 * numbers here are for data generation only, never for privacy noise.
 */
public final class DemoData {

  /** Default number of trips. */
  public static final int DEFAULT_TRIPS = 200_000;
  /** Default seed of the generator. */
  public static final long DEFAULT_SEED = 20_240_601L;
  /** Trips per rider the default rider count aims at. */
  public static final int TRIPS_PER_RIDER = 5;

  /** The private table. */
  public static final String TRIPS = "TRIPS";
  /** The private table of riders, one row per rider of {@code TRIPS}. */
  public static final String RIDERS = "RIDERS";
  /** Subscription plans, in policy order. */
  public static final List<String> PLANS = List.of("basic", "plus", "pass");
  /** First and last sign-up year. */
  public static final int FIRST_SIGNUP = 2018;
  public static final int LAST_SIGNUP = 2025;
  /** The public table. */
  public static final String COUNTIES_TABLE = "COUNTIES";

  /** Payment methods, in policy order. */
  public static final List<String> PAYMENTS = List.of("CARD", "CASH", "APP");

  /** Lowest and highest age. */
  public static final int MIN_AGE = 16;
  public static final int MAX_AGE = 90;

  /** Occasional riders take 1..5 trips, regular riders up to 10, heavy riders 50..300. */
  public static final int OCCASIONAL_MAX = 5;
  public static final int REGULAR_MAX = 10;
  public static final int HEAVY_MIN = 50;
  public static final int HEAVY_MAX = 300;
  /** Largest fare, reached only by the rare outliers. */
  public static final double MAX_FARE = 900.0;

  /**
   * One county: its public facts, its share of all trips and the median trip length there.
   *
   * @param tripWeight relative share of riders living (and mostly riding) in the county
   * @param medianKm median trip distance in the county (dense city centres have short trips)
   */
  public record County(
      String name, String state, int population, double areaKm2, double tripWeight, double medianKm) {}

  /** The geography, states in policy order and counties grouped by state (names unique). */
  public static final List<County> COUNTIES =
      List.of(
          new County("New York", "NY", 1_694_251, 59.1, 14, 3.2),
          new County("Kings", "NY", 2_736_074, 180.0, 9, 4.5),
          new County("Queens", "NY", 2_405_464, 281.1, 7, 6.5),
          new County("Bronx", "NY", 1_472_654, 109.0, 4, 4.8),
          new County("Richmond", "NY", 495_747, 151.5, 1, 7.0),
          new County("Los Angeles", "CA", 10_014_009, 10_510.0, 14, 9.0),
          new County("San Diego", "CA", 3_298_634, 10_895.0, 5, 8.5),
          new County("Alameda", "CA", 1_682_353, 1_914.0, 4, 7.0),
          new County("San Francisco", "CA", 873_965, 121.4, 8, 3.8),
          new County("Harris", "TX", 4_731_145, 4_412.0, 8, 10.0),
          new County("Dallas", "TX", 2_613_539, 2_261.0, 6, 9.5),
          new County("Travis", "TX", 1_290_188, 2_647.0, 4, 8.0),
          new County("Cook", "IL", 5_275_541, 2_448.0, 12, 5.5),
          new County("DuPage", "IL", 932_877, 849.0, 2, 9.0),
          new County("Lake", "IL", 714_342, 1_149.0, 2, 10.0));

  /** States in policy order. */
  public static final List<String> STATES = List.of("NY", "CA", "TX", "IL");

  /** Relative trip volume per hour for commuters: morning and evening rush. */
  private static final double[] COMMUTE_HOURS = {
    1, 0.5, 0.3, 0.3, 0.6, 2, 5, 10, 12, 7, 4, 4, 5, 4, 4, 6, 9, 11, 9, 6, 4, 3, 2, 1.5
  };
  /** Relative trip volume per hour for leisure rides: afternoons, evenings and nights out. */
  private static final double[] LEISURE_HOURS = {
    3, 2.5, 2, 1, 0.6, 0.6, 1.5, 3, 4, 4, 4, 5, 6, 5, 5, 5, 6, 7, 8, 8, 8, 7, 6, 4.5
  };
  /** Relative frequency of 1, 2, 3, 4, 5 trips for occasional riders. */
  private static final double[] OCCASIONAL_TRIPS = {22, 22, 20, 18, 18};

  /** Share of riders who are occasional (1–5 trips); the others, except the heavy ones, take 6–10. */
  private static final double OCCASIONAL_SHARE = 0.62;
  /** Share of riders who are heavy riders (50–300 trips). */
  private static final double HEAVY_SHARE = 0.001;
  /** Share of trips with an outlier fare (cleaning fee, intercity ride). */
  private static final double OUTLIER_SHARE = 0.0006;

  private static final int BATCH = 5_000;

  private DemoData() {}

  /**
   * What to generate.
   *
   * @param trips exact number of trips (rows of {@code TRIPS})
   * @param riders exact number of distinct riders; must allow 1–10 trips per ordinary rider
   * @param seed seed of the (non-private) data generator
   */
  public record Config(int trips, int riders, long seed) {
    public Config {
      if (trips < 1) {
        throw new IllegalArgumentException("trips must be at least 1, got " + trips);
      }
      if (riders < 1 || riders > trips) {
        throw new IllegalArgumentException(
            "riders must be between 1 and the number of trips (" + trips + "), got " + riders);
      }
      if ((long) riders * HEAVY_MAX < trips) {
        throw new IllegalArgumentException(
            riders + " riders cannot take " + trips + " trips; use at least " + (trips / HEAVY_MAX + 1));
      }
    }

    /** {@code trips} trips by about {@code trips / 5} riders, default seed. */
    public static Config ofTrips(int trips) {
      return new Config(trips, Math.max(1, trips / TRIPS_PER_RIDER), DEFAULT_SEED);
    }

    /** The default data set: 200,000 trips by 40,000 riders. */
    public static Config defaults() {
      return ofTrips(DEFAULT_TRIPS);
    }
  }

  /** What was generated. */
  public record Summary(int trips, int riders, int heavyRiders, long millis) {}

  /** Generates into the database at {@code jdbcUrl} (a plain backend URL such as {@code jdbc:h2:mem:x}). */
  public static Summary generate(String jdbcUrl, Config config) throws SQLException {
    try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
      return generate(connection, config);
    }
  }

  /**
   * Drops and recreates {@code TRIPS} and {@code COUNTIES} on {@code connection} and fills them,
   * committing every few thousand rows. Leaves the connection's auto-commit mode as it found it.
   */
  public static Summary generate(Connection connection, Config config) throws SQLException {
    long start = System.nanoTime();
    boolean autoCommit = connection.getAutoCommit();
    try {
      createTables(connection);
      connection.setAutoCommit(false);
      insertCounties(connection);
      SplittableRandom random = new SplittableRandom(config.seed());
      int[] tripsPerRider = tripsPerRider(config, random);
      int heavy = 0;
      for (int n : tripsPerRider) {
        if (n >= HEAVY_MIN) {
          heavy++;
        }
      }
      insertTrips(connection, tripsPerRider, random, new SplittableRandom(config.seed() ^ PICKUP_STREAM),
          new SplittableRandom(config.seed() ^ ZONES_STREAM));
      insertRiders(connection, tripsPerRider, new SplittableRandom(config.seed() ^ RIDERS_STREAM));
      connection.commit();
      long millis = (System.nanoTime() - start) / 1_000_000;
      return new Summary(config.trips(), config.riders(), heavy, millis);
    } catch (SQLException | RuntimeException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /** The counties of one state, in policy order. */
  public static List<County> countiesOf(String state) {
    List<County> result = new ArrayList<>();
    for (County county : COUNTIES) {
      if (county.state().equals(state)) {
        result.add(county);
      }
    }
    return result;
  }

  private static void createTables(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS TRIPS");
      statement.execute("DROP TABLE IF EXISTS COUNTIES");
      statement.execute("DROP TABLE IF EXISTS RIDERS");
      statement.execute(
          "CREATE TABLE RIDERS ("
              + "RIDER_ID INT PRIMARY KEY, "
              + "SIGNUP_YEAR INT NOT NULL, "
              + "PLAN VARCHAR(8) NOT NULL)");
      statement.execute(
          "CREATE TABLE TRIPS ("
              + "TRIP_ID BIGINT PRIMARY KEY, "
              + "RIDER_ID INT NOT NULL, "
              + "STATE VARCHAR(2) NOT NULL, "
              + "COUNTY VARCHAR(32) NOT NULL, "
              + "PAYMENT VARCHAR(4) NOT NULL, "
              + "\"HOUR\" INT NOT NULL, "
              + "AGE INT NOT NULL, "
              + "FARE DECIMAL(8,2) NOT NULL, "
              + "DISTANCE_KM DOUBLE NOT NULL, "
              + "PICKUP_AT TIMESTAMP NOT NULL, "
              + "PICKUP_ZONE VARCHAR(24) NOT NULL)");
      statement.execute(
          "CREATE TABLE COUNTIES ("
              + "COUNTY VARCHAR(32) PRIMARY KEY, "
              + "STATE VARCHAR(2) NOT NULL, "
              + "POPULATION INT NOT NULL, "
              + "AREA_KM2 DOUBLE NOT NULL)");
    }
  }

  private static void insertCounties(Connection connection) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO COUNTIES VALUES (?, ?, ?, ?)")) {
      for (County county : COUNTIES) {
        insert.setString(1, county.name());
        insert.setString(2, county.state());
        insert.setInt(3, county.population());
        insert.setDouble(4, county.areaKm2());
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  /**
   * Draws how many trips each rider takes, then nudges ordinary riders by one trip at a time until
   * the total is exactly {@code config.trips()}. Ordinary riders stay within 1..10 trips and heavy
   * riders within 50..300, so the promised shape survives the adjustment.
   */
  static int[] tripsPerRider(Config config, SplittableRandom random) {
    int riders = config.riders();
    int trips = config.trips();
    int heavyRiders = (int) Math.round(riders * HEAVY_SHARE);
    if (heavyRiders == 0 && (long) HEAVY_MIN + riders - 1 <= trips) {
      heavyRiders = 1; // even a small data set has someone who rides every day
    }
    // more heavy riders if ordinary ones (at most 10 trips) cannot absorb the trips, fewer if too few trips
    while (heavyRiders < riders && maxTrips(riders, heavyRiders) < trips) {
      heavyRiders++;
    }
    while (heavyRiders > 0 && minTrips(riders, heavyRiders) > trips) {
      heavyRiders--;
    }
    if (minTrips(riders, heavyRiders) > trips || maxTrips(riders, heavyRiders) < trips) {
      throw new IllegalArgumentException(
          riders + " riders cannot take exactly " + trips + " trips (ordinary riders take 1-"
              + REGULAR_MAX + ", heavy riders " + HEAVY_MIN + "-" + HEAVY_MAX + "); choose about "
              + Math.max(1, trips / TRIPS_PER_RIDER) + " riders");
    }
    boolean[] heavy = new boolean[riders];
    int chosen = 0;
    while (chosen < heavyRiders) {
      int i = random.nextInt(riders);
      if (!heavy[i]) {
        heavy[i] = true;
        chosen++;
      }
    }
    int[] counts = new int[riders];
    long total = 0;
    for (int i = 0; i < riders; i++) {
      if (heavy[i]) {
        double extra = -70.0 * Math.log(1.0 - random.nextDouble()); // exponential, mean 70
        counts[i] = (int) Math.min(HEAVY_MAX, HEAVY_MIN + Math.floor(extra));
      } else if (random.nextDouble() < OCCASIONAL_SHARE) {
        counts[i] = 1 + pick(OCCASIONAL_TRIPS, random);
      } else {
        counts[i] = OCCASIONAL_MAX + 1 + random.nextInt(REGULAR_MAX - OCCASIONAL_MAX);
      }
      total += counts[i];
    }
    long diff = trips - total;
    // random nudges first (keeps the distribution smooth), then a deterministic sweep that always ends
    long attempts = 4 * Math.abs(diff) + 4L * riders;
    while (diff != 0 && attempts-- > 0) {
      diff -= nudge(counts, heavy, random.nextInt(riders), diff > 0, false);
    }
    for (boolean allowHeavy : new boolean[] {false, true}) {
      for (int i = 0; diff != 0 && i < riders; i++) {
        while (diff != 0) {
          int step = nudge(counts, heavy, i, diff > 0, allowHeavy);
          if (step == 0) {
            break;
          }
          diff -= step;
        }
      }
    }
    if (diff != 0) {
      throw new IllegalStateException("could not spread " + trips + " trips over " + riders + " riders");
    }
    return counts;
  }

  private static long minTrips(int riders, int heavyRiders) {
    return (long) (riders - heavyRiders) + (long) heavyRiders * HEAVY_MIN;
  }

  private static long maxTrips(int riders, int heavyRiders) {
    return (long) (riders - heavyRiders) * REGULAR_MAX + (long) heavyRiders * HEAVY_MAX;
  }

  /** Adds (up) or removes one trip of rider {@code i} if its tier allows; returns +1, -1 or 0. */
  private static int nudge(int[] counts, boolean[] heavy, int i, boolean up, boolean allowHeavy) {
    if (heavy[i] && !allowHeavy) {
      return 0;
    }
    int low = heavy[i] ? HEAVY_MIN : 1;
    int high = heavy[i] ? HEAVY_MAX : REGULAR_MAX;
    if (up && counts[i] < high) {
      counts[i]++;
      return 1;
    }
    if (!up && counts[i] > low) {
      counts[i]--;
      return -1;
    }
    return 0;
  }

  /**
   * Inserts the trips; {@code days} draws the pick-up instants and {@code zones} the pick-up zones,
   * each a stream of its own, so that adding them left every other column as it was.
   */
  private static void insertTrips(Connection connection, int[] tripsPerRider, SplittableRandom random,
      SplittableRandom days, SplittableRandom zones) throws SQLException {
    double[] countyWeights = new double[COUNTIES.size()];
    for (int c = 0; c < countyWeights.length; c++) {
      countyWeights[c] = COUNTIES.get(c).tripWeight();
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO TRIPS VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      long tripId = 0;
      int pending = 0;
      for (int r = 0; r < tripsPerRider.length; r++) {
        Rider rider = Rider.draw(r + 1, tripsPerRider[r], countyWeights, random);
        for (int t = 0; t < rider.trips; t++) {
          County county = COUNTIES.get(rider.tripCounty(countyWeights, random));
          boolean commute = random.nextDouble() < (rider.commuter ? 0.8 : 0.25);
          int hour = pick(commute ? COMMUTE_HOURS : LEISURE_HOURS, random);
          double km = distance(county, random);
          insert.setLong(1, ++tripId);
          insert.setInt(2, rider.id);
          insert.setString(3, county.state());
          insert.setString(4, county.name());
          insert.setString(5, rider.payment(random));
          insert.setInt(6, hour);
          insert.setInt(7, rider.age);
          insert.setBigDecimal(8, fare(km, hour, county, random));
          insert.setDouble(9, km);
          insert.setObject(10, pickup(commute, hour, days));
          insert.setString(11, county.name() + String.format(" Z%02d", pick(ZONE_WEIGHTS, zones) + 1));
          insert.addBatch();
          if (++pending == BATCH) {
            insert.executeBatch();
            connection.commit(); // H2 is much slower with one huge transaction
            pending = 0;
          }
        }
      }
      if (pending > 0) {
        insert.executeBatch();
      }
    }
  }

  /** Mixes the seed of the pick-up zones' random stream. */
  private static final long ZONES_STREAM = 0x9E3779B97F4A7C15L;

  /** Zone i (from 1) of a county is drawn with weight 1/i^1.1: a few busy zones, a long tail. */
  private static final double[] ZONE_WEIGHTS = new double[60];

  static {
    for (int i = 0; i < ZONE_WEIGHTS.length; i++) {
      ZONE_WEIGHTS[i] = 1 / Math.pow(i + 1, 1.1);
    }
  }

  /** Mixes the seed of the riders' random stream. */
  private static final long RIDERS_STREAM = 0x2545F4914F6CDD1DL;

  /**
   * Inserts one row per rider (ids 1..riders, as in {@code TRIPS}), drawn from a stream of its own
   * so that the trips are as they were without it. Riders with more trips signed up earlier and
   * more often hold the pass: occasional riders 15 % pass and 25 % plus, regular riders 45 % and
   * 30 %, heavy riders 80 % and 15 %.
   */
  private static void insertRiders(Connection connection, int[] tripsPerRider,
      SplittableRandom random) throws SQLException {
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO RIDERS VALUES (?, ?, ?)")) {
      int pending = 0;
      for (int r = 0; r < tripsPerRider.length; r++) {
        int trips = tripsPerRider[r];
        double pass = trips >= HEAVY_MIN ? 0.80 : trips > OCCASIONAL_MAX ? 0.45 : 0.15;
        double plus = trips >= HEAVY_MIN ? 0.15 : trips > OCCASIONAL_MAX ? 0.30 : 0.25;
        double u = random.nextDouble();
        String plan = u < pass ? "pass" : u < pass + plus ? "plus" : "basic";
        // newer riders are more numerous; frequent riders tend to have joined earlier
        int years = LAST_SIGNUP - FIRST_SIGNUP + 1;
        int back = Math.min(years - 1, (int) Math.floor(-Math.log(1.0 - random.nextDouble())
            * (trips > OCCASIONAL_MAX ? 3.0 : 1.8)));
        insert.setInt(1, r + 1);
        insert.setInt(2, LAST_SIGNUP - back);
        insert.setString(3, plan);
        insert.addBatch();
        if (++pending == BATCH) {
          insert.executeBatch();
          pending = 0;
        }
      }
      if (pending > 0) {
        insert.executeBatch();
      }
    }
  }

  /** Mixes the seed of the pick-up instants' random stream. */
  private static final long PICKUP_STREAM = 0x5DEECE66DL;

  /** The first day of the demo year. */
  public static final LocalDate FIRST_DAY = LocalDate.of(2025, 1, 1);

  /**
   * A pick-up instant in 2025 in hour {@code hour}: a day drawn with a linear growth through the
   * year (weight 1 on 1 January to 1.5 on 31 December, by rejection), a weekday for commutes, and a
   * uniform minute.
   */
  static LocalDateTime pickup(boolean commute, int hour, SplittableRandom random) {
    int daysInYear = FIRST_DAY.lengthOfYear();
    while (true) {
      int d = random.nextInt(daysInYear);
      LocalDate day = FIRST_DAY.plusDays(d);
      if (commute && day.getDayOfWeek().getValue() >= 6) {
        continue;
      }
      if (random.nextDouble() * 1.5 > 1.0 + 0.5 * d / (daysInYear - 1.0)) {
        continue;
      }
      return day.atTime(hour, random.nextInt(60));
    }
  }

  /** Trip length in km: log-normal around the county's median, plus some airport runs. */
  private static double distance(County county, SplittableRandom random) {
    double km;
    if (random.nextDouble() < 0.03) {
      km = 18 + 42 * random.nextDouble(); // airport / suburb runs, some beyond the 50 km clamp
    } else {
      km = county.medianKm() * Math.exp(0.65 * gaussian(random));
    }
    km = Math.max(0.4, Math.min(120.0, km));
    return Math.round(km * 100) / 100.0;
  }

  /** Fare in dollars: base + distance + time, rush-hour surge, tolls, and rare outliers. */
  private static BigDecimal fare(double km, int hour, County county, SplittableRandom random) {
    double fare;
    if (random.nextDouble() < OUTLIER_SHARE) {
      fare = 150 + (MAX_FARE - 150) * random.nextDouble();
    } else {
      boolean rush = (hour >= 7 && hour <= 9) || (hour >= 16 && hour <= 19);
      double minutes = 3 + km * (rush ? 2.8 : 2.0);
      fare = 2.55 + 1.45 * km + 0.32 * minutes;
      if (rush && random.nextDouble() < 0.25) {
        fare *= 1.2 + 0.8 * random.nextDouble();
      }
      if (km > 15 && random.nextDouble() < 0.2) {
        fare += 6.55; // bridge or highway toll
      }
      fare = Math.max(county.state().equals("NY") ? 8.0 : 7.0, fare);
    }
    long cents = Math.round(Math.min(MAX_FARE, fare) * 100);
    return BigDecimal.valueOf(cents, 2);
  }

  /** Index drawn with probability proportional to {@code weights}. */
  private static int pick(double[] weights, SplittableRandom random) {
    double total = 0;
    for (double w : weights) {
      total += w;
    }
    double u = random.nextDouble() * total;
    for (int i = 0; i < weights.length; i++) {
      u -= weights[i];
      if (u < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** Standard normal draw (Box–Muller); good enough for synthetic data. */
  private static double gaussian(SplittableRandom random) {
    double u = 1.0 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** One rider's fixed traits: home county, age, preferred payment, commuter or not. */
  private static final class Rider {
    final int id;
    final int trips;
    final int home;
    final int age;
    final boolean commuter;
    final String preferredPayment;

    private Rider(int id, int trips, int home, int age, boolean commuter, String preferredPayment) {
      this.id = id;
      this.trips = trips;
      this.home = home;
      this.age = age;
      this.commuter = commuter;
      this.preferredPayment = preferredPayment;
    }

    static Rider draw(int id, int trips, double[] countyWeights, SplittableRandom random) {
      boolean commuter = trips > OCCASIONAL_MAX;
      double a;
      if (commuter) {
        a = 38 + 10 * gaussian(random);
      } else if (random.nextDouble() < 0.7) {
        a = 31 + 9 * gaussian(random);
      } else {
        a = 52 + 16 * gaussian(random);
      }
      int age = (int) Math.max(MIN_AGE, Math.min(MAX_AGE, Math.round(a)));
      double cash = age < 21 ? 0.20 : age >= 65 ? 0.30 : 0.07;
      double app = age < 40 ? 0.45 : age < 65 ? 0.30 : 0.12;
      double u = random.nextDouble();
      String payment = u < cash ? "CASH" : u < cash + app ? "APP" : "CARD";
      return new Rider(id, trips, pick(countyWeights, random), age, commuter, payment);
    }

    /** Mostly the home county, sometimes elsewhere in the state, rarely another state. */
    int tripCounty(double[] countyWeights, SplittableRandom random) {
      double u = random.nextDouble();
      if (u < 0.85) {
        return home;
      }
      if (u < 0.97) {
        String state = COUNTIES.get(home).state();
        double[] sameState = new double[countyWeights.length];
        for (int c = 0; c < sameState.length; c++) {
          sameState[c] = COUNTIES.get(c).state().equals(state) ? countyWeights[c] : 0;
        }
        return pick(sameState, random);
      }
      return pick(countyWeights, random);
    }

    /** The preferred payment most of the time. */
    String payment(SplittableRandom random) {
      if (random.nextDouble() < 0.85) {
        return preferredPayment;
      }
      return PAYMENTS.get(random.nextInt(PAYMENTS.size()));
    }
  }
}
