package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.apache.calcite.sql.SqlDialectFactoryImpl;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.dpsql.backend.BackendCatalog;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.Policy;
import org.dpsql.policy.PolicyLoader;
import org.dpsql.policy.TablePolicy;

/**
 * The fixture of the release rules' tests: a policy over a small in-memory H2 database (no rows:
 * rules are checked before anything is measured), and a front end over it, so that each rule is
 * tested on its own inputs and on the statements that reach it through the one path.
 *
 * <p>{@code TRIPS} (private, unit {@code RIDER_ID}): {@code STATE}, {@code COUNTY}, {@code
 * PAYMENT} with listed values, {@code AGE} and {@code HOUR} with min/max/bin, {@code CODE} with
 * listed integer values (no bounds), {@code FARE} and {@code DISTANCE_KM} clamped (no domain),
 * {@code PICKUP_AT} a time column, {@code ZONE} and {@code SHIFT} with private keys, {@code NOTE}
 * outside the policy. {@code RIDERS} private on the same unit; {@code STATES} (unique {@code
 * CODE}) and {@code COUNTIES} public.
 */
final class ReleaseRules {
  private ReleaseRules() {}

  private static final String POLICY = "budget:\n  accounting: zcdp\n"
      + "  per_connection: {rho: 1000.0, delta: 1e-9}\n"
      + "  default_query: {rho: 0.1, delta: 1e-12}\n"
      + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    unit: rider\n"
      + "    max_rows_per_unit: 5\n"
      + "    columns:\n"
      + "      STATE: {values: [NY, CA, TX, IL]}\n"
      + "      COUNTY: {values: [Kings, Queens, Cook, Harris, Alameda]}\n"
      + "      PAYMENT: {values: [CARD, CASH, APP]}\n"
      + "      AGE: {min: 16, max: 90, bin: 1}\n"
      + "      HOUR: {min: 0, max: 23, bin: 1}\n"
      + "      FARE: {clamp: [0, 100]}\n"
      + "      DISTANCE_KM: {clamp: [0, 50]}\n"
      + "      PICKUP_AT: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}\n"
      + "      ZONE: {keys: private, max_groups_per_unit: 2}\n"
      + "      SHIFT: {keys: private, max_groups_per_unit: 2}\n"
      + "      CODE: {values: [1, 2, 3]}\n"
      + "  RIDERS:\n    privacy_unit: RIDER_ID\n    unit: rider\n    max_rows_per_unit: 1\n"
      + "    columns:\n      PLAN: {values: [basic, plus, pass]}\n"
      + "  COUNTIES: {public: true}\n  STATES: {public: true}\n";

  /** The database, policy and front end, made once for all the rules' tests. */
  private static final class Shared {
    static final Connection BACKEND;
    static final Policy POLICY;
    static final FrontEnd FRONT_END;

    static {
      try {
        BACKEND = DriverManager.getConnection("jdbc:h2:mem:rules"
            + UUID.randomUUID().toString().replace("-", ""));
        try (Statement st = BACKEND.createStatement()) {
          st.execute("CREATE TABLE TRIPS (TRIP_ID BIGINT PRIMARY KEY, RIDER_ID INT NOT NULL, "
              + "STATE VARCHAR(2), COUNTY VARCHAR(20), PAYMENT VARCHAR(4), AGE INT, "
              + "\"HOUR\" INT, FARE DECIMAL(8,2), DISTANCE_KM DOUBLE, PICKUP_AT TIMESTAMP, "
              + "ZONE VARCHAR(12), SHIFT INT, CODE INT, NOTE VARCHAR(10))");
          st.execute("CREATE TABLE RIDERS (RIDER_ID INT PRIMARY KEY, PLAN VARCHAR(8))");
          st.execute("CREATE TABLE COUNTIES (COUNTY VARCHAR(20), STATE VARCHAR(2), "
              + "POPULATION INT)");
          st.execute("INSERT INTO COUNTIES VALUES ('Kings', 'NY', 2600000), "
              + "('Queens', 'NY', 2300000)");
          st.execute("CREATE TABLE STATES (CODE VARCHAR(2) PRIMARY KEY, NAME VARCHAR(20), "
              + "POP INT)");
          st.execute("INSERT INTO STATES VALUES ('NY', 'New York', 19), ('CA', 'California', "
              + "39), ('TX', 'Texas', 30), ('IL', 'Illinois', 13)");
        }
        POLICY = PolicyLoader.validate(PolicyLoader.parse(ReleaseRules.POLICY, "rules"),
            BACKEND);
        FRONT_END = new FrontEnd(POLICY, BackendCatalog.read(BACKEND, POLICY),
            BACKEND.getSchema(), SqlDialectFactoryImpl.INSTANCE.create(BACKEND.getMetaData()),
            PublicRows.over(BACKEND));
      } catch (SQLException e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  /** The policy of private table {@code TRIPS}. */
  static TablePolicy trips() {
    return Shared.POLICY.table("TRIPS").orElseThrow();
  }

  /** The policy of column {@code name} of {@code TRIPS}. */
  static ColumnPolicy column(String name) {
    return trips().column(name).orElseThrow();
  }

  /**
   * A new front end over the fixture's database whose reads of public rows (lookups, evaluations
   * of derived columns) go through {@code reader}.
   */
  static FrontEnd frontEnd(FrontEnd.PublicRowReader reader) throws SQLException {
    return new FrontEnd(Shared.POLICY, BackendCatalog.read(Shared.BACKEND, Shared.POLICY),
        Shared.BACKEND.getSchema(), SqlDialectFactoryImpl.INSTANCE.create(
            Shared.BACKEND.getMetaData()), reader);
  }

  /** Reads public rows of the fixture's database. */
  static FrontEnd.PublicRowReader publicRows() {
    return PublicRows.over(Shared.BACKEND);
  }

  /** {@code sql} as the front end analyses it. */
  static AnalyzedStatement analyze(String sql) throws SQLException {
    synchronized (Shared.FRONT_END) {
      return Shared.FRONT_END.analyze(sql);
    }
  }

  /** An expression parsed as the canonical statement writes it (quoted identifiers). */
  static SqlNode expression(String sql) {
    try {
      return SqlParser.create(sql).parseExpression();
    } catch (SqlParseException e) {
      throw new AssertionError(e);
    }
  }

  /** Something that a rule refuses. */
  @FunctionalInterface
  interface Check {
    void run() throws SQLException;
  }

  /** Asserts that {@code check} is refused with {@code sqlState} and a message with each fragment. */
  static void assertRefused(String sqlState, Check check, String... fragments) {
    SQLException e = assertThrows(SQLException.class, check::run);
    assertEquals(sqlState, e.getSQLState(), e.getMessage());
    for (String f : fragments) {
      assertTrue(e.getMessage().contains(f), "'" + f + "' in: " + e.getMessage());
    }
  }

  /** Asserts that the front end refuses {@code sql} with {@code sqlState} and the fragments. */
  static void assertRefused(String sqlState, String sql, String... fragments) {
    assertRefused(sqlState, () -> analyze(sql), fragments);
  }
}
