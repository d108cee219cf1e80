package org.dpsql.adaptive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;

/**
 * A {@link SyntheticCensus} loaded into a fresh in-memory H2 database, for tests of {@code
 * DPSQL.ADAPTIVE_TABLE}: {@code PERSONS(PID, NATION, STATE, COUNTY, SEX, AGE)} (sex 0 → 'M', 1 →
 * 'F') and the mapping table {@code PERSON_ITERATION(PID, ITERATION)} with one row per person and
 * characteristic iteration (all of them, untruncated), plus a policy file declaring an adaptive
 * table {@code DHC} over them.
 */
public final class CensusDatabase implements AutoCloseable {
  /** The sex labels, by the census's sex index. */
  public static final List<String> SEXES = List.of("M", "F");

  /** A level of the test policy: its geography level (or −1 for none) and parameters. */
  public record Level(String name, String column, int geographyLevel, String budget,
      int stability, List<String> totalOnly) {}

  public final String url;
  public final Connection direct;
  public final SyntheticCensus census;
  private Path policyFile;

  private CensusDatabase(String url, Connection direct, SyntheticCensus census) {
    this.url = url;
    this.direct = direct;
    this.census = census;
  }

  /** Loads the census (batched inserts); {@code primaryKey}: PID is the persons' primary key. */
  public static CensusDatabase create(SyntheticCensus census, boolean primaryKey)
      throws SQLException {
    String url = "jdbc:h2:mem:c" + UUID.randomUUID().toString().replace("-", "")
        + ";DB_CLOSE_DELAY=-1";
    Connection c = DriverManager.getConnection(url);
    load(c, census, primaryKey);
    return new CensusDatabase(url, c, census);
  }

  /**
   * Loads the census into the current schema of {@code c} (another backend, e.g. PostgreSQL); the
   * caller drops the schema. {@link #close} then only deletes the policy file.
   */
  public static CensusDatabase loadInto(String url, Connection c, SyntheticCensus census,
      boolean primaryKey) throws SQLException {
    load(c, census, primaryKey);
    return new CensusDatabase(url, c, census);
  }

  /** Creates and fills PERSONS and PERSON_ITERATION on {@code c}. */
  public static void load(Connection c, SyntheticCensus census, boolean primaryKey)
      throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE PERSONS (PID INT" + (primaryKey ? " PRIMARY KEY" : " NOT NULL")
          + ", NATION VARCHAR(4), STATE VARCHAR(4), COUNTY VARCHAR(6), SEX VARCHAR(1), AGE INT)");
      st.execute("CREATE TABLE PERSON_ITERATION (PID INT NOT NULL, ITERATION VARCHAR(12))");
      if (!primaryKey) {
        st.execute("CREATE INDEX PERSONS_PID ON PERSONS(PID)"); // H2 joins by nested loops
      }
    }
    List<String> states = census.geographies(SyntheticCensus.STATE);
    List<String> counties = census.geographies(SyntheticCensus.COUNTY);
    List<String> codes = census.iterationCodes();
    boolean auto = c.getAutoCommit();
    c.setAutoCommit(false);
    try (PreparedStatement p = c.prepareStatement("INSERT INTO PERSONS VALUES (?,?,?,?,?,?)");
        PreparedStatement m = c.prepareStatement("INSERT INTO PERSON_ITERATION VALUES (?,?)")) {
      int[] its = new int[32];
      int pending = 0;
      for (int i = 0; i < census.personCount(); i++) {
        p.setInt(1, i);
        p.setString(2, "US");
        p.setString(3, states.get(census.geographyOf(i, SyntheticCensus.STATE)));
        p.setString(4, counties.get(census.geographyOf(i, SyntheticCensus.COUNTY)));
        p.setString(5, SEXES.get(census.sexOf(i)));
        p.setInt(6, census.ageOf(i));
        p.addBatch();
        int n = census.iterationsOf(i, its);
        for (int k = 0; k < n; k++) {
          m.setInt(1, i);
          m.setString(2, codes.get(its[k]));
          m.addBatch();
        }
        if (++pending == 5000) {
          p.executeBatch();
          m.executeBatch();
          pending = 0;
        }
      }
      p.executeBatch();
      m.executeBatch();
      c.commit();
    } finally {
      c.setAutoCommit(auto);
    }
  }

  /** A scalar from the backend directly (the truth). */
  public long exact(String sql) throws SQLException {
    try (Statement st = direct.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Runs statements on the backend directly. */
  public void execute(String... sql) throws SQLException {
    try (Statement st = direct.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }

  /**
   * The YAML of adaptive table {@code name} over this census: all iterations at every level, Census
   * age bins (max age 115), the given mechanism, γ and thresholds.
   */
  public String adaptiveYaml(String name, String mechanism, String gamma, long[] thresholds,
      List<Level> levels, List<String> extraGeographies) {
    String budgetKey = mechanism.equals("geometric") ? "epsilon" : "rho";
    StringBuilder b = new StringBuilder();
    b.append("  ").append(name).append(":\n")
        .append("    persons: {table: PERSONS, person: PID, sex: SEX, age: AGE}\n")
        .append("    iterations: {table: PERSON_ITERATION, person: PID, iteration: ITERATION}\n")
        .append("    mechanism: ").append(mechanism).append('\n')
        .append("    gamma: ").append(gamma).append('\n')
        .append("    thresholds: [").append(thresholds[0]).append(", ").append(thresholds[1])
        .append(", ").append(thresholds[2]).append("]\n")
        .append("    sexes: [M, F]\n")
        .append("    ages: {max: 115, bins: census}\n")
        .append("    levels:\n");
    boolean first = true;
    for (Level l : levels) {
      b.append("      ").append(l.name()).append(":\n");
      if (l.column() != null) {
        List<String> geos = new java.util.ArrayList<>(census.geographies(l.geographyLevel()));
        if (l.geographyLevel() == SyntheticCensus.COUNTY && extraGeographies != null) {
          geos.addAll(extraGeographies);
        }
        b.append("        geography: ").append(l.column()).append('\n')
            .append("        geographies: [").append(String.join(", ", geos)).append("]\n");
      }
      b.append("        iterations: ").append(first
              ? "&its [" + String.join(", ", census.iterationCodes()) + "]" : "*its").append('\n')
          .append("        budget: {").append(budgetKey).append(": ").append(l.budget())
          .append("}\n")
          .append("        stability: ").append(l.stability()).append('\n');
      first = false;
      if (!l.totalOnly().isEmpty()) {
        b.append("        total_only: [").append(String.join(", ", l.totalOnly())).append("]\n");
      }
    }
    return b.toString();
  }

  /** Writes a policy file: allow_seed, the budget YAML, no tables, and the adaptive tables. */
  public Path writePolicy(String budgetYaml, String adaptiveTablesYaml) throws IOException {
    if (policyFile == null) {
      policyFile = Files.createTempFile("dpsql-adaptive", ".yaml");
    }
    Files.writeString(policyFile, "allow_seed: true\n" + budgetYaml + "tables: {}\n"
        + "adaptive_tables:\n" + adaptiveTablesYaml);
    return policyFile;
  }

  /** The policy file last written. */
  public String writePolicyPath() {
    return policyFile.toString();
  }

  @Override
  public void close() throws SQLException, IOException {
    if (url.startsWith("jdbc:h2:")) {
      try (Statement st = direct.createStatement()) {
        st.execute("SHUTDOWN");
      } catch (SQLException ignored) {
        // already closed
      }
    }
    if (policyFile != null) {
      Files.deleteIfExists(policyFile);
    }
  }
}
