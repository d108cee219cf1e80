package org.dpsql.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * A private join through dpsql against the exact join sent to H2 directly: {@code TRIPS}
 * (1,000,000 rows) joined with {@code RIDERS} (100,000 rows, primary key {@code RIDER_ID}) on the
 * shared unit, grouped by a column of each table, with a sum. dpsql bounds each rider to k = 10
 * rows of the join after the join (a window over the join's rows), so the ratio is the cost of
 * that bounding over the bare join and aggregation.
 *
 * <p>Data: trips per rider are skewed (rider {@code r} takes {@code 1 + (r * 7) % 19} trips, most
 * within the bound, a few above it, cut or topped up to exactly a million with 100 riders), 4
 * states, 24 hours, 3 plans, fares 0..99.
 *
 * <p>Each round runs both statements once, back to back; the statement text changes every round
 * ({@code t.FARE >= -round}, true of every row), so dpsql measures anew instead of returning the
 * release of the previous round. Printed: the median of each and the median of the per-round
 * ratios. Usage: {@code java -cp bench/target/benchmarks.jar org.dpsql.bench.PrivateJoinBench
 * [warmup [measured]]} (defaults 2, 9). Run by hand only.
 */
public final class PrivateJoinBench {
  static final int TRIPS = 1_000_000;
  static final int RIDERS = 100_000;

  private PrivateJoinBench() {}

  public static void main(String[] args) throws Exception {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    int measured = args.length > 1 ? Integer.parseInt(args[1]) : 9;
    String url = "jdbc:h2:mem:joinbench;DB_CLOSE_DELAY=-1";
    try (Connection direct = DriverManager.getConnection(url)) {
      load(direct);
      Path policy = Files.createTempFile("dpsql-join-bench", ".yaml");
      policy.toFile().deleteOnExit();
      Files.writeString(policy, "budget:\n  accounting: zcdp\n  per_connection: {rho: 1000}\n"
          + "  default_query: {rho: 0.01}\ntables:\n"
          + "  TRIPS:\n    privacy_unit: RIDER_ID\n    unit: rider\n    max_rows_per_unit: 10\n"
          + "    columns:\n      STATE: {values: [NY, CA, TX, IL]}\n"
          + "      HR: {min: 0, max: 23, bin: 1}\n      FARE: {clamp: [0, 100]}\n"
          + "  RIDERS:\n    privacy_unit: RIDER_ID\n    unit: rider\n    max_rows_per_unit: 1\n"
          + "    columns:\n      PLAN: {values: [basic, plus, pass]}\n");
      Properties p = new Properties();
      p.setProperty("policy", policy.toString());
      try (Connection dp = DriverManager.getConnection("jdbc:dpsql:" + url.substring(5), p)) {
        RoundTimes t = RoundTimes.of(direct, dp, warmup, measured, round -> "SELECT t.STATE, "
            + "r.PLAN, COUNT(*) AS n, SUM(t.FARE) AS s FROM TRIPS t JOIN RIDERS r ON t.RIDER_ID = "
            + "r.RIDER_ID WHERE t.FARE >= -" + round + " GROUP BY t.STATE, r.PLAN");
        System.out.printf("private join, %,d trips x %,d riders, H2 in memory, %d warm-up + %d "
            + "measured rounds, %d cores%n", TRIPS, RIDERS, warmup, measured,
            Runtime.getRuntime().availableProcessors());
        System.out.println(t.summary("H2"));
      }
      try (Statement st = direct.createStatement()) {
        st.execute("SHUTDOWN");
      }
    }
  }

  private static void load(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE RIDERS (RIDER_ID INT PRIMARY KEY, PLAN VARCHAR(8) NOT NULL)");
      st.execute("INSERT INTO RIDERS SELECT X, CASE MOD(X * 31, 3) WHEN 0 THEN 'basic' "
          + "WHEN 1 THEN 'plus' ELSE 'pass' END FROM SYSTEM_RANGE(0, " + (RIDERS - 1) + ")");
      // riders' trip counts 1..19 (most within the bound 10); the rest to 100 heavy riders
      st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
          + "STATE VARCHAR(2) NOT NULL, HR INT NOT NULL, FARE INT NOT NULL)");
      st.execute("INSERT INTO TRIPS SELECT ROW_NUMBER() OVER (), r.X, "
          + "CASE MOD(r.X + k.X, 4) WHEN 0 THEN 'NY' WHEN 1 THEN 'CA' WHEN 2 THEN 'TX' ELSE 'IL' "
          + "END, MOD(r.X * 7 + k.X * 5, 24), MOD(r.X * 13 + k.X * 17, 100) "
          + "FROM SYSTEM_RANGE(0, " + (RIDERS - 1) + ") r JOIN SYSTEM_RANGE(1, 19) k "
          + "ON k.X <= 1 + MOD(r.X * 7, 19)");
      long n;
      try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM TRIPS")) {
        rs.next();
        n = rs.getLong(1);
      }
      long rest = TRIPS - n;
      if (rest < 0) {
        st.execute("DELETE FROM TRIPS WHERE TRIP_ID > " + TRIPS);
      } else if (rest > 0) {
        st.execute("INSERT INTO TRIPS SELECT " + n + " + X, MOD(X, 100), 'NY', MOD(X, 24), "
            + "MOD(X, 100) FROM SYSTEM_RANGE(1, " + rest + ")");
      }
      st.execute("CREATE INDEX TRIPS_RIDER ON TRIPS(RIDER_ID)");
    }
  }

}
