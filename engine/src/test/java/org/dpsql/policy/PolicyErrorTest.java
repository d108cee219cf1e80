package org.dpsql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every refusal is XDP04 and names the file, the key path and the reason. */
class PolicyErrorTest {
  static final String BUDGET =
      "budget: {accounting: zcdp, per_connection: {rho: 0.5}, default_query: {rho: 0.05}}\n";

  @TempDir Path dir;
  H2Backend h2;
  Path file;

  @BeforeEach
  void open() throws SQLException {
    h2 = new H2Backend();
    file = dir.resolve("p.yaml");
  }

  @AfterEach
  void close() throws SQLException {
    if (h2 != null) {
      h2.close();
    }
  }

  /** A policy with the standard budget and these lines under {@code tables:}. */
  static String withTables(String... lines) {
    StringBuilder b = new StringBuilder(BUDGET).append("tables:\n");
    for (String l : lines) {
      b.append("  ").append(l).append('\n');
    }
    return b.toString();
  }

  /** A policy whose TRIPS table has these lines under {@code columns:}. */
  static String withColumns(String... lines) {
    StringBuilder b = new StringBuilder(BUDGET).append("tables:\n")
        .append("  trips:\n    privacy_unit: rider_id\n    max_rows_per_unit: 3\n    columns:\n");
    for (String l : lines) {
      b.append("      ").append(l).append('\n');
    }
    return b.toString();
  }

  /** A policy with this budget section and one public table. */
  static String withBudget(String accounting, String perConnection, String defaultQuery) {
    return "budget:\n  accounting: " + accounting + "\n  per_connection: " + perConnection
        + "\n  default_query: " + defaultQuery + "\ntables:\n  zones: {public: true}\n";
  }

  private SQLException refused(String yaml) throws Exception {
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    SQLException e = assertThrows(SQLException.class,
        () -> PolicyLoader.load(file.toString(), h2.connection));
    assertEquals("XDP04", e.getSQLState(), e.getMessage());
    assertTrue(e.getMessage().startsWith("policy " + file + ": "), e.getMessage());
    return e;
  }

  /** Asserts the load fails with {@code policy <file>: <path>: <reason...>}. */
  private void assertRefused(String yaml, String path, String... reasonParts) throws Exception {
    String message = refused(yaml).getMessage();
    assertTrue(message.startsWith("policy " + file + ": " + path + ": "),
        "expected key path " + path + " in: " + message);
    for (String part : reasonParts) {
      assertTrue(message.contains(part), "expected '" + part + "' in: " + message);
    }
  }

  @Test
  void timeDomains() throws Exception {
    assertRefused(withColumns("trip_day: {min: 2024-01-03, max: 2024-12-31, bin: 1 week}"),
        "tables.trips.columns.trip_day.min", "weeks start on Mondays", "2024-01-01");
    assertRefused(withColumns("trip_day: {min: 2024-01-01, max: 2024-12-31, bin: 2 days}"),
        "tables.trips.columns.trip_day.bin", "1 hour, 1 day, 1 week");
    assertRefused(withColumns("trip_day: {min: 2024-01-01, max: 2024-12-31, bin: 1 hour}"),
        "tables.trips.columns.trip_day.bin", "DATE column holds whole days");
    assertRefused(withColumns("age: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}"),
        "tables.trips.columns.age.min", "DATE or TIMESTAMP column");
    assertRefused(withColumns("trip_day: {min: 2024-01-01, max: 2024-02-30, bin: 1 day}"),
        "tables.trips.columns.trip_day.max", "must be a date");
    assertRefused(withColumns("trip_day: {min: 2024-01-01, max: 2024-12-31, bin: 1 day}",
        "state: {values: [NY]}").replace("    columns:", "    hierarchies: {H: [state, trip_day]}\n"
        + "    columns:"), "tables.trips.hierarchies.H[1]", "time domain");
  }

  @Test
  void sharedUnits() throws Exception {
    String trips = "trips: {privacy_unit: rider_id, unit: rider, max_rows_per_unit: 3, "
        + "columns: {origin: {values: [N]}}}";
    assertRefused(withTables(trips, "zones: {privacy_unit: name, unit: rider, "
        + "max_rows_per_unit: 1, columns: {zone_id: {min: 0, max: 9}}}"),
        "tables.zones.unit", "shares the unit rider with TRIPS", "both numbers, or both text");
    assertRefused(withTables(trips, "zones: {privacy_unit: ROW, unit: rider, "
        + "columns: {zone_id: {min: 0, max: 9}}}"), "tables.zones.unit", "ROW");
    assertRefused(withTables(trips) + "units:\n  walker: {max_rows_per_unit: 2}\n",
        "units.walker", "no unit shared by two tables", "found on 0 tables");
    assertRefused(withTables(trips, "zones: {privacy_unit: zone_id, unit: rider, "
        + "max_rows_per_unit: 1, columns: {name: {values: [a]}}}")
        + "units:\n  rider: {max_rows_per_unit: 0}\n", "units.rider.max_rows_per_unit");
  }

  @Test
  void privateKeys() throws Exception {
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 3, "
        + "columns: {origin: {keys: public}}}"), "tables.trips.columns.origin.keys",
        "the only value is private");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 3, "
        + "columns: {origin: {keys: private, values: [N]}}}"),
        "tables.trips.columns.origin.values", "cannot be combined with keys: private");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 3, "
        + "columns: {origin: {max_groups_per_unit: 2}}}"),
        "tables.trips.columns.origin.max_groups_per_unit", "add keys: private");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 3, "
        + "columns: {origin: {keys: private, max_groups_per_unit: 0}}}"),
        "tables.trips.columns.origin.max_groups_per_unit");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 3, "
        + "columns: {origin: {keys: private, max_groups_per_unit: 5000}}}"),
        "tables.trips.columns.origin.max_groups_per_unit", "at most 1000");
  }

  @Test
  void ambiguousTableNamesTheCurrentSchemaThatLacksIt() throws Exception {
    try (java.sql.Statement st = h2.connection.createStatement()) {
      st.execute("CREATE SCHEMA IF NOT EXISTS SF1");
      st.execute("CREATE SCHEMA IF NOT EXISTS SF100");
      st.execute("CREATE TABLE IF NOT EXISTS SF1.LINES (K INT)");
      st.execute("CREATE TABLE IF NOT EXISTS SF100.LINES (K INT)");
    }
    // the current schema (PUBLIC) has no LINES: as a URL naming a schema that does not exist
    assertRefused(withTables("lines: {privacy_unit: ROW, columns: {k: {values: [1]}}}"),
        "tables.lines", "ambiguous", "SF1.LINES", "SF100.LINES",
        "current schema, PUBLIC, has no such table");
  }

  @Test
  void missingFile() {
    Path missing = dir.resolve("nope.yaml");
    SQLException e = assertThrows(SQLException.class,
        () -> PolicyLoader.load(missing.toString(), h2.connection));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().startsWith("policy " + missing + ": file not found"),
        e.getMessage());
  }

  @Test
  void noSourceGiven() {
    SQLException e = assertThrows(SQLException.class, () -> PolicyLoader.load(" ", h2.connection));
    assertEquals("XDP04", e.getSQLState());
    assertTrue(e.getMessage().contains("'policy' connection property"), e.getMessage());
  }

  @Test
  void yamlSyntaxErrorGivesLineAndColumn() throws Exception {
    String message = refused("allow_seed: false\nbudget: accounting: zcdp\n").getMessage();
    assertTrue(message.contains("line 2, column "), message);
    assertTrue(message.contains("mapping values are not allowed here"), message);
  }

  @Test
  void duplicateYamlKeyIsRefused() throws Exception {
    String message = refused(BUDGET + BUDGET + "tables: {}\n").getMessage();
    assertTrue(message.contains("line 2, column 1"), message);
    assertTrue(message.contains("duplicate key budget"), message);
  }

  @Test
  void emptyFile() throws Exception {
    assertTrue(refused("# nothing\n").getMessage().contains("the policy is empty"));
  }

  @Test
  void unknownTopLevelKey() throws Exception {
    assertRefused(withTables("zones: {public: true}") + "colour: red\n", "colour",
        "unknown key", "valid keys here: allow_seed, budget, tables");
  }

  @Test
  void typoKeyGetsSuggestion() throws Exception {
    assertRefused("budgte: {}\ntables: {}\n", "budgte", "unknown key (did you mean 'budget'?)");
    assertRefused(
        "budget: {accounting: zcdp, per_conection: {rho: 1}, default_query: {rho: 0.1}}\n"
            + "tables: {}\n",
        "budget.per_conection", "did you mean 'per_connection'?");
    assertRefused(withColumns("fare: {clmap: [0, 1]}"), "tables.trips.columns.fare.clmap",
        "did you mean 'clamp'?", "valid keys here: values, min, max, bin, clamp");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_row_per_unit: 2}"),
        "tables.trips.max_row_per_unit", "did you mean 'max_rows_per_unit'?");
  }

  @Test
  void unknownTable() throws Exception {
    assertRefused(withTables("trip: {public: true}"), "tables.trip",
        "no such table in the backend (did you mean 'TRIPS'?)", "PUBLIC.ZONES");
  }

  @Test
  void unknownColumn() throws Exception {
    assertRefused(withColumns("faer: {clamp: [0, 100]}"), "tables.trips.columns.faer",
        "no such column in backend table PUBLIC.TRIPS (did you mean 'FARE'?)",
        "(columns: ID, RIDER_ID, ORIGIN, AGE, FARE,");
  }

  @Test
  void privacyUnitMissingOrUnknown() throws Exception {
    assertRefused(withTables("trips: {max_rows_per_unit: 2}"), "tables.trips.privacy_unit",
        "missing");
    assertRefused(withTables("trips: {privacy_unit: ridr_id, max_rows_per_unit: 2}"),
        "tables.trips.privacy_unit",
        "no such column ridr_id in backend table PUBLIC.TRIPS (did you mean 'RIDER_ID'?)");
    assertRefused(withTables("trips: {privacy_unit: rider_id}"),
        "tables.trips.max_rows_per_unit", "missing");
  }

  @Test
  void maxRowsPerUnitMustBePositive() throws Exception {
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 0}"),
        "tables.trips.max_rows_per_unit", "must be a positive integer, got 0");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: -3}"),
        "tables.trips.max_rows_per_unit", "must be a positive integer, got -3");
    assertRefused(withTables("trips: {privacy_unit: rider_id, max_rows_per_unit: 2.5}"),
        "tables.trips.max_rows_per_unit", "must be a positive integer, got 2.5");
  }

  @Test
  void rowUnitWithMaxRowsFive() throws Exception {
    assertRefused(withTables("trips: {privacy_unit: ROW, max_rows_per_unit: 5}"),
        "tables.trips.max_rows_per_unit", "must be absent or 1 when privacy_unit is ROW", "5");
  }

  @Test
  void valuesAndMinTogether() throws Exception {
    assertRefused(withColumns("age: {values: [1, 2], min: 0, max: 9}"),
        "tables.trips.columns.age.min", "cannot be combined with values");
  }

  @Test
  void binMustBePositive() throws Exception {
    assertRefused(withColumns("age: {min: 0, max: 99, bin: -1}"),
        "tables.trips.columns.age.bin", "must be > 0, got -1");
    assertRefused(withColumns("age: {min: 0, max: 99, bin: 0}"),
        "tables.trips.columns.age.bin", "must be > 0, got 0");
  }

  @Test
  void minMustBeBelowMax() throws Exception {
    assertRefused(withColumns("age: {min: 5, max: 5}"), "tables.trips.columns.age.min",
        "must be < max, got min 5 and max 5");
    assertRefused(withColumns("age: {min: 10, max: 1}"), "tables.trips.columns.age.min",
        "must be < max");
  }

  @Test
  void clampLoAboveHi() throws Exception {
    assertRefused(withColumns("fare: {clamp: [100, 0]}"), "tables.trips.columns.fare.clamp",
        "lo must be <= hi, got [100, 0]");
  }

  @Test
  void clampOnVarcharColumn() throws Exception {
    assertRefused(withColumns("note: {clamp: [0, 1]}"), "tables.trips.columns.note.clamp",
        "needs a numeric column", "PUBLIC.TRIPS.NOTE is CHARACTER VARYING");
    assertRefused(withColumns("origin: {min: 0, max: 1}"), "tables.trips.columns.origin.min",
        "need a numeric column");
  }

  @Test
  void valueKindsMustMatchColumnType() throws Exception {
    assertRefused(withColumns("origin: {values: [N, 2]}"), "tables.trips.columns.origin.values[1]",
        "must be a string because PUBLIC.TRIPS.ORIGIN is CHARACTER VARYING", "quotes");
    assertRefused(withColumns("tract: {values: [1, two]}"), "tables.trips.columns.tract.values[1]",
        "must be a number because PUBLIC.TRIPS.TRACT is INTEGER", "'two'");
    assertRefused(withColumns("tract: {values: [1, 1.5]}"), "tables.trips.columns.tract.values[1]",
        "must be an integer");
    assertRefused(withColumns("origin: {values: [N, yes]}"),
        "tables.trips.columns.origin.values[1]",
        "must be a string", "boolean");
  }

  @Test
  void accountingUnknown() throws Exception {
    assertRefused(withBudget("zcpd", "{rho: 1}", "{rho: 0.1}"), "budget.accounting",
        "unknown accounting 'zcpd' (did you mean 'zcdp'?)", "pure, approx, zcdp");
  }

  @Test
  void epsilonMustBePositive() throws Exception {
    assertRefused(withBudget("pure", "{epsilon: 0}", "{epsilon: 0}"),
        "budget.per_connection.epsilon", "must be > 0, got 0");
    assertRefused(withBudget("approx", "{epsilon: 1, delta: 1e-6}", "{epsilon: -0.5, delta: 1e-7}"),
        "budget.default_query.epsilon", "must be > 0, got -0.5");
  }

  @Test
  void deltaMustBeBelowOne() throws Exception {
    assertRefused(withBudget("approx", "{epsilon: 1, delta: 1}", "{epsilon: 0.1, delta: 1e-7}"),
        "budget.per_connection.delta", "must be in (0, 1), got 1");
    assertRefused(withBudget("approx", "{epsilon: 1, delta: 0}", "{epsilon: 0.1, delta: 0}"),
        "budget.per_connection.delta", "must be in (0, 1), got 0");
    assertRefused(withBudget("zcdp", "{rho: 1, delta: 1.5}", "{rho: 0.1}"),
        "budget.per_connection.delta", "must be in (0, 1), got 1.5");
  }

  @Test
  void rhoUnderPure() throws Exception {
    assertRefused(withBudget("pure", "{epsilon: 1, rho: 0.5}", "{epsilon: 0.1}"),
        "budget.per_connection.rho", "not used under accounting: pure");
    assertRefused(withBudget("pure", "{epsilon: 1, delta: 1e-6}", "{epsilon: 0.1}"),
        "budget.per_connection.delta", "not used under accounting: pure");
  }

  @Test
  void defaultQueryAbovePerConnection() throws Exception {
    assertRefused(withBudget("zcdp", "{rho: 0.5}", "{rho: 0.6}"), "budget.default_query.rho",
        "must not exceed budget.per_connection.rho (0.5), got 0.6");
    assertRefused(withBudget("approx", "{epsilon: 1, delta: 1e-9}", "{epsilon: 1, delta: 1e-8}"),
        "budget.default_query.delta", "must not exceed budget.per_connection.delta");
  }

  @Test
  void hierarchyNamingAnUnlistedColumn() throws Exception {
    String yaml = withColumns("state: {values: [CA, NY]}", "county: {values: [A, B]}")
        + "    hierarchies:\n      geo: [state, county, tract]\n";
    assertRefused(yaml, "tables.trips.hierarchies.geo[2]", "tract is not a listed column",
        "list it under tables.trips.columns");
  }

  @Test
  void publicTableWithOtherKeys() throws Exception {
    assertRefused(withTables("zones: {public: true, privacy_unit: zone_id}"),
        "tables.zones.privacy_unit", "not allowed on a public table");
  }

  static Stream<Arguments> moreRules() {
    return Stream.of(
        Arguments.of(withBudget("zcdp", "{epsilon: 1}", "{rho: 0.1}"),
            "budget.per_connection.epsilon", "not used under accounting: zcdp"),
        Arguments.of(withBudget("approx", "{epsilon: 1}", "{epsilon: 0.1, delta: 1e-9}"),
            "budget.per_connection.delta", "missing; required under accounting: approx"),
        Arguments.of(withBudget("zcdp", "{rho: abc}", "{rho: 0.1}"),
            "budget.per_connection.rho", "must be a number, got 'abc'"),
        Arguments.of(withBudget("zcdp", "{rho: .inf}", "{rho: 0.1}"),
            "budget.per_connection.rho", "must be a finite number"),
        Arguments.of(withBudget("zcdp", "{rhoo: 1}", "{rho: 0.1}"),
            "budget.per_connection.rhoo", "did you mean 'rho'?"),
        Arguments.of("allow_seed: maybe\n" + withTables("zones: {public: true}"),
            "allow_seed", "must be true or false"),
        Arguments.of("allow_seed: false\nbudget: x\ntables: {}\n",
            "budget", "must be a mapping"),
        Arguments.of(withColumns("trip_day: {}"), "tables.trips.columns.trip_day",
            "no domain or bounds given"),
        Arguments.of(withColumns("age: {min: 0, max: 1e9, bin: 1}"),
            "tables.trips.columns.age.bin", "more than the limit of 10000000"),
        Arguments.of(withColumns("origin: {values: [N, S, N]}"),
            "tables.trips.columns.origin.values[2]", "duplicate value 'N'"),
        Arguments.of(withColumns("tract: {values: [1, '1.0']}"),
            "tables.trips.columns.tract.values[1]", "duplicate value"),
        Arguments.of(withColumns("origin: {values: []}"),
            "tables.trips.columns.origin.values", "at least one value"),
        Arguments.of(withColumns("age: {max: 5}"), "tables.trips.columns.age.min", "missing"),
        Arguments.of(withColumns("fare: {clamp: [0]}"), "tables.trips.columns.fare.clamp",
            "two numbers"),
        Arguments.of(withColumns("fare: {clamp: [0, 1]}") + "    hierarchies:\n      h: [fare]\n",
            "tables.trips.hierarchies.h[0]", "has no domain"),
        Arguments.of(withColumns("age: {min: 0, max: 9}", "AGE: {min: 0, max: 9}"),
            "tables.trips.columns.AGE", "same column as tables.trips.columns.age"),
        Arguments.of(withTables("zones: {public: true}", "ZONES: {public: true}"),
            "tables.ZONES", "same table as tables.zones"),
        Arguments.of(withTables("trips:"), "tables.trips", "needs settings"),
        Arguments.of(withTables("zones: {public: false}"), "tables.zones.privacy_unit",
            "missing"),
        Arguments.of(withColumns("paid: {values: [true, 'maybe']}"),
            "tables.trips.columns.paid.values[1]", "must be true or false"));
  }

  @ParameterizedTest
  @MethodSource("moreRules")
  void moreRulesAreEnforced(String yaml, String path, String reason) throws Exception {
    assertRefused(yaml, path, reason);
  }

  @Test
  void parseChecksFormatRulesWithoutBackend() {
    SQLException e = assertThrows(SQLException.class,
        () -> PolicyLoader.parse(withColumns("age: {min: 0, max: 99, bin: -1}"), "inline"));
    assertEquals("XDP04", e.getSQLState());
    assertEquals("policy inline: tables.trips.columns.age.bin: must be > 0, got -1",
        e.getMessage());
  }
}
