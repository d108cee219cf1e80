package org.dpsql.jdbc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/**
 * One backend of the time-series tests (embedded H2, PostgreSQL, Trino's memory connector): its
 * direct connection, its dpsql URL and the name of the test's {@code trips} table there (in a
 * fresh schema on PostgreSQL and Trino). PostgreSQL and Trino are skipped unless
 * DPSQL_TEST_PG_URL / DPSQL_TEST_TRINO_URL name servers.
 */
record SeriesBackend(String name, String directUrl, Properties login, String dpsqlUrl,
    String schema) {

  /** {@code name} is {@code h2}, {@code postgresql} or {@code trino}. */
  static SeriesBackend of(String name) {
    String schema = "dpsql_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    Properties login = new Properties();
    switch (name) {
      case "h2" -> {
        String url = "jdbc:h2:mem:ts" + UUID.randomUUID().toString().replace("-", "")
            + ";DB_CLOSE_DELAY=-1";
        return new SeriesBackend(name, url, login, "jdbc:dpsql:" + url.substring(5), null);
      }
      case "postgresql" -> {
        String url = System.getenv("DPSQL_TEST_PG_URL");
        Assumptions.assumeTrue(url != null, "DPSQL_TEST_PG_URL is not set: PostgreSQL skipped");
        login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_PG_USER", "postgres"));
        login.setProperty("password", System.getenv().getOrDefault("DPSQL_TEST_PG_PASSWORD", ""));
        return new SeriesBackend(name, url, login, "jdbc:dpsql:" + url.substring(5)
            + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema, schema);
      }
      default -> {
        String url = System.getenv("DPSQL_TEST_TRINO_URL");
        Assumptions.assumeTrue(url != null, "DPSQL_TEST_TRINO_URL is not set: Trino skipped");
        url = url.replaceAll("/+$", "");
        login.setProperty("user", System.getenv().getOrDefault("DPSQL_TEST_TRINO_USER", "dpsql"));
        return new SeriesBackend(name, url, login, "jdbc:dpsql:" + url.substring(5) + "/memory/"
            + schema, schema);
      }
    }
  }

  Connection direct() throws SQLException {
    return DriverManager.getConnection(directUrl, login);
  }

  String table() {
    return schema == null ? "trips" : (name.equals("trino") ? "memory." : "") + schema + ".trips";
  }

  /** Creates the test's schema, if the backend has one. */
  void createSchema(Statement st) throws SQLException {
    if (schema != null) {
      st.execute("CREATE SCHEMA " + (name.equals("trino") ? "memory." : "") + schema);
    }
  }

  /** Drops the table and the schema (and shuts an H2 database down). */
  void drop() throws SQLException {
    try (Connection c = direct(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE " + table());
      if (schema != null) {
        st.execute("DROP SCHEMA " + (name.equals("trino") ? "memory." : "") + schema);
      }
      if (name.equals("h2")) {
        st.execute("SHUTDOWN");
      }
    }
  }


  /**
   * Creates the backend's {@code trips} table with 2,000 trips of 2,000 riders at random minutes
   * of the {@code hours} hours from 2025-01-01, each of kind a, b or c ({@code seed} fixes them),
   * and returns the counts per hour and kind.
   */
  long[][] loadKindedTrips(int hours, long seed) throws SQLException {
    long[][] truth = new long[hours][3];
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
    java.time.LocalDateTime start = java.time.LocalDateTime.of(2025, 1, 1, 0, 0);
    try (Connection c = direct(); Statement st = c.createStatement()) {
      createSchema(st);
      st.execute("CREATE TABLE " + table() + " (trip_id BIGINT, rider_id INTEGER, "
          + "pickup_at TIMESTAMP, kind VARCHAR(1))");
      java.util.List<String> values = new java.util.ArrayList<>();
      for (int id = 0; id < 2000; id++) {
        long minute = rnd.nextLong(hours * 60L);
        int kind = rnd.nextInt(3);
        truth[(int) (minute / 60)][kind]++;
        java.time.LocalDateTime at = start.plusMinutes(minute);
        values.add("(" + id + ", " + id + ", TIMESTAMP '" + at.toLocalDate() + " "
            + at.toLocalTime() + ":00', '" + "abc".charAt(kind) + "')");
      }
      for (int from = 0; from < values.size(); from += 1000) {
        st.execute("INSERT INTO " + table() + " VALUES "
            + String.join(", ", values.subList(from, Math.min(values.size(), from + 1000))));
      }
    }
    return truth;
  }


  /**
   * Asserts that dpsql answers {@code q} (a statement with {@code %s} for the table) on {@code
   * dpsql}, where the table is {@code trips}, as the backend answers it on {@code direct},
   * rounded to whole units.
   */
  void assertAnsweredAsBackend(Connection dpsql, Connection direct, String q)
      throws SQLException {
    String dp = String.format(q, "trips");
    org.junit.jupiter.api.Assertions.assertEquals(
        ResultRows.rounded(direct, String.format(q, table())), ResultRows.rounded(dpsql, dp),
        name() + ": " + dp);
  }

  /**
   * Asserts that the {@code PREFIX(pickup_at)} family of {@code trips} on dpsql connection {@code c}
   * returns one row per hour whose (rounded) value is the running total of {@code truth}.
   */
  static void assertPrefixesAreRunningTotals(Connection c, long[] truth) throws SQLException {
    java.util.List<java.util.List<Object>> prefixes = ResultRows.rounded(c,
        "SELECT * FROM TABLE(DPSQL.WORKLOAD('trips', 'PREFIX(pickup_at)'))");
    org.junit.jupiter.api.Assertions.assertEquals(truth.length, prefixes.size());
    long running = 0;
    for (int h = 0; h < truth.length; h++) {
      running += truth[h];
      org.junit.jupiter.api.Assertions.assertEquals(running,
          ((Number) prefixes.get(h).get(1)).longValue(), "prefix " + h);
    }
  }

  /** A dpsql connection with {@code policy} and noise seed {@code seed}. */
  Connection connect(Path policy, long seed) throws SQLException {
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", Long.toString(seed));
    return DriverManager.getConnection(dpsqlUrl, p);
  }

  /** The same, keeping its releases in {@code releases} (a ledger store, as the server does). */
  Connection connect(Path policy, long seed, org.dpsql.session.ReleaseSource releases)
      throws SQLException {
    Properties p = new Properties();
    p.putAll(login);
    p.setProperty("policy", policy.toString());
    p.setProperty("seed", Long.toString(seed));
    return new DpsqlDriver(org.dpsql.session.AccountantSource.PER_CONNECTION, releases)
        .connect(dpsqlUrl, p);
  }
}
