package org.dpsql.bench;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.dpsql.adaptive.MoeCalibration;
import org.dpsql.adaptive.SyntheticCensus;
import org.dpsql.backend.AdaptiveMeasurement;
import org.dpsql.policy.AdaptiveTablePolicy;
import org.dpsql.policy.PolicyLoader;

/**
 * SafeTab through JDBC at census-like scale (seed 002, issue 8): a synthetic census ({@link
 * SyntheticCensus}) of {@code --persons} persons (default 5,000,000) with 3 geography levels (1
 * nation / 50 states / 3,000 counties) and 200 characteristic iterations (80 detailed race codes,
 * 20 regions; Alone and Alone-or-in-Combination), loaded into an H2 file database ({@code
 * PERSONS(PID PRIMARY KEY, NATION, STATE, COUNTY, SEX, AGE)} and the mapping table {@code
 * PERSON_ITERATION(PID, ITERATION)}, batched inserts), then the whole tabulation
 *
 * <pre>SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))</pre>
 *
 * <p>through {@code DriverManager} with Δ = 8 at every level, geometric noise, level budgets for
 * Step-2 MOE targets 6 / 6 / 11 (as {@code SafeTabBench}), γ = 0.1, θ = (50, 500, 5000), Census
 * Age4/Age9/Age23 bins. Prints the load time, the time of the release through dpsql (all rows read
 * by the client), the backend aggregation alone (the pushed-down GROUP BY — one statement, since the
 * three levels declare the same iterations and Δ — run again through {@link AdaptiveMeasurement}
 * on a direct connection), rows by detail level and the peak heap.
 *
 * <p>Run (from the repository root, after {@code mvn -o -q compile -pl engine}): {@code java
 * -Xmx6g -cp engine/target/classes:<engine dependencies>:<this class>
 * org.dpsql.bench.SafeTabJdbcBench [--persons N] [--dir /tmp/dpsql-safetab] [--backend JDBC-URL --user U --password P]}
 * ({@code --backend} e.g. {@code jdbc:postgresql://localhost/dpsql_bench?reWriteBatchedInserts=true}
 * instead of the H2 file database). The database is
 * reused when it exists with the same size. Timings on a shared 2-core machine are upper bounds.
 */
public final class SafeTabJdbcBench {
  private SafeTabJdbcBench() {}

  public static void main(String[] args) throws Exception {
    int persons = 5_000_000;
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "dpsql-safetab");
    String backend = null;
    Properties backendProps = new Properties();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--persons" -> persons = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--backend" -> backend = args[++i];
        case "--user" -> backendProps.setProperty("user", args[++i]);
        case "--password" -> backendProps.setProperty("password", args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    System.out.printf("cores available: %d, max heap %.2f GiB%n",
        Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() / (double) (1L << 30));
    Files.createDirectories(dir);
    String backendUrl = backend != null ? backend
        : "jdbc:h2:file:" + dir.resolve("census_" + persons).toAbsolutePath()
            + ";CACHE_SIZE=1048576";

    long g0 = System.nanoTime();
    SyntheticCensus census = SyntheticCensus.generate(persons, 50, 3000, 80, 20, 20_200_402L);
    long g1 = System.nanoTime();
    System.out.printf("generated %s in %.2f s%n", census, (g1 - g0) / 1e9);

    HeapPeak.reset();
    try (Connection direct = DriverManager.getConnection(backendUrl, backendProps)) {
      if (!loaded(direct, persons)) {
        long l0 = System.nanoTime();
        long rows = load(direct, census);
        long l1 = System.nanoTime();
        System.out.printf("loaded %,d rows into %s in %.2f s; peak heap %.2f GiB%n", rows,
            backendUrl, (l1 - l0) / 1e9, HeapPeak.gib());
      } else {
        System.out.printf("reusing the database %s%n", backendUrl);
      }

      Path policy = Files.createTempFile("safetab-bench", ".yaml");
      Files.writeString(policy, policyYaml(census));
      Properties p = new Properties();
      p.putAll(backendProps);
      p.setProperty("policy", policy.toString());
      String dpsqlUrl = "jdbc:dpsql:" + backendUrl.substring("jdbc:".length());

      HeapPeak.reset();
      long t0 = System.nanoTime();
      long rows = 0;
      Map<String, Long> byDetail = new TreeMap<>();
      long negative = 0;
      try (Connection c = DriverManager.getConnection(dpsqlUrl, p);
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT * FROM TABLE(DPSQL.ADAPTIVE_TABLE('DHC'))")) {
        long t1 = System.nanoTime();
        while (rs.next()) {
          rows++;
          byDetail.merge(rs.getString(1) + " " + rs.getString(4), 1L, Long::sum);
          negative += rs.getLong(8) < 0 ? 1 : 0;
        }
        long t2 = System.nanoTime();
        System.out.printf("DPSQL.ADAPTIVE_TABLE through JDBC: %.2f s to the first row, %.2f s in "
            + "all (connect + aggregate + charge + noise + read %,d rows, %,d negative); peak heap "
            + "%.2f GiB%n", (t1 - t0) / 1e9, (t2 - t0) / 1e9, rows, negative, HeapPeak.gib());
      }
      System.out.println("rows by level and detail: " + byDetail);

      HeapPeak.reset();
      AdaptiveTablePolicy table = PolicyLoader.load(policy.toString(), direct)
          .adaptiveTable("DHC").orElseThrow();
      var dialect = SqlDialectFactoryImpl.INSTANCE.create(direct.getMetaData());
      long a0 = System.nanoTime();
      Map<String, AdaptiveMeasurement.Counts> counts =
          AdaptiveMeasurement.measure(direct, dialect, table);
      long a1 = System.nanoTime();
      for (Map.Entry<String, AdaptiveMeasurement.Counts> e : counts.entrySet()) {
        System.out.printf("level %s: %,d memberships after truncation (statement of %,d result "
            + "rows)%n", e.getKey(), e.getValue().memberships(), e.getValue().backendRows());
      }
      System.out.printf("backend aggregation alone (the levels share one statement: same "
          + "iterations and Δ): %.2f s; peak heap %.2f GiB%n", (a1 - a0) / 1e9, HeapPeak.gib());
      Files.deleteIfExists(policy);
    }
  }

  private static boolean loaded(Connection c, int persons) {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM PERSONS")) {
      rs.next();
      return rs.getLong(1) == persons;
    } catch (Exception e) {
      return false;
    }
  }

  private static long load(Connection c, SyntheticCensus census) throws Exception {
    try (Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS PERSONS");
      st.execute("DROP TABLE IF EXISTS PERSON_ITERATION");
      st.execute("CREATE TABLE PERSONS (PID INT PRIMARY KEY, NATION VARCHAR(4), STATE "
          + "VARCHAR(4), COUNTY VARCHAR(6), SEX VARCHAR(1), AGE INT)");
      st.execute("CREATE TABLE PERSON_ITERATION (PID INT NOT NULL, ITERATION VARCHAR(12))");
    }
    List<String> states = census.geographies(SyntheticCensus.STATE);
    List<String> counties = census.geographies(SyntheticCensus.COUNTY);
    List<String> codes = census.iterationCodes();
    String[] sexes = {"M", "F"};
    long rows = 0;
    c.setAutoCommit(false);
    try (PreparedStatement p = c.prepareStatement("INSERT INTO PERSONS VALUES (?,?,?,?,?,?)");
        PreparedStatement m = c.prepareStatement("INSERT INTO PERSON_ITERATION VALUES (?,?)")) {
      int[] its = new int[32];
      for (int i = 0; i < census.personCount(); i++) {
        p.setInt(1, i);
        p.setString(2, "US");
        p.setString(3, states.get(census.geographyOf(i, SyntheticCensus.STATE)));
        p.setString(4, counties.get(census.geographyOf(i, SyntheticCensus.COUNTY)));
        p.setString(5, sexes[census.sexOf(i)]);
        p.setInt(6, census.ageOf(i));
        p.addBatch();
        rows++;
        int n = census.iterationsOf(i, its);
        for (int k = 0; k < n; k++) {
          m.setInt(1, i);
          m.setString(2, codes.get(its[k]));
          m.addBatch();
          rows++;
        }
        if (i % 10_000 == 9_999) {
          p.executeBatch();
          m.executeBatch();
          c.commit();
        }
      }
      p.executeBatch();
      m.executeBatch();
      c.commit();
    } finally {
      c.setAutoCommit(true);
    }
    if (!c.getMetaData().getDatabaseProductName().startsWith("H2")) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE INDEX PERSON_ITERATION_PID ON PERSON_ITERATION (PID)");
        st.execute("ANALYZE");
      }
    }
    return rows;
  }

  private static String policyYaml(SyntheticCensus census) {
    BigDecimal gamma = new BigDecimal("0.1");
    long[] moe = {6, 6, 11};
    String[] names = {"NATION", "STATE", "COUNTY"};
    String[] columns = {null, "STATE", "COUNTY"};
    int[] geoLevels = {SyntheticCensus.NATION, SyntheticCensus.STATE, SyntheticCensus.COUNTY};
    StringBuilder b = new StringBuilder("allow_seed: false\nbudget:\n  accounting: pure\n"
        + "  per_connection: {epsilon: 100}\n  default_query: {epsilon: 1}\ntables: {}\n"
        + "adaptive_tables:\n  DHC:\n"
        + "    persons: {table: PERSONS, person: PID, sex: SEX, age: AGE}\n"
        + "    iterations: {table: PERSON_ITERATION, person: PID, iteration: ITERATION}\n"
        + "    mechanism: geometric\n    gamma: 0.1\n    thresholds: [50, 500, 5000]\n"
        + "    sexes: [M, F]\n    ages: {max: 115, bins: census}\n    levels:\n");
    List<String> budgets = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      BigDecimal budget = MoeCalibration.levelBudget(
          MoeCalibration.exactGeometricEpsilon(moe[i]), 8, gamma, 3);
      budgets.add(budget.toPlainString());
      b.append("      ").append(names[i]).append(":\n");
      if (columns[i] != null) {
        b.append("        geography: ").append(columns[i]).append('\n')
            .append("        geographies: [")
            .append(String.join(", ", census.geographies(geoLevels[i]))).append("]\n");
      }
      b.append("        iterations: ").append(i == 0
          ? "&its [" + String.join(", ", census.iterationCodes()) + "]" : "*its").append('\n')
          .append("        budget: {epsilon: ").append(budget.toPlainString()).append("}\n")
          .append("        stability: 8\n");
    }
    System.out.println("level budgets (epsilon): " + budgets);
    return b.toString();
  }

}
