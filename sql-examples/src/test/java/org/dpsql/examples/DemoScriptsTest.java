package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Checks the demo scripts without the dpsql driver: they parse, their refusals name contract
 * SQLStates, and every answered query and truth query runs on plain H2 with matching shapes.
 */
class DemoScriptsTest {

  private static final Set<String> CONTRACT_STATES = Set.of("XDP01", "XDP02", "XDP03", "XDP04", "XDP05");
  private static Connection h2;
  private static List<SqlScript> scripts;

  @BeforeAll
  static void setUp() throws SQLException, IOException {
    h2 = DriverManager.getConnection("jdbc:h2:mem:demo-scripts-test;DB_CLOSE_DELAY=-1");
    DemoData.generate(h2, DemoData.Config.ofTrips(5_000));
    scripts = ScriptLocator.load(null).scripts();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement statement = h2.createStatement()) {
      statement.execute("DROP ALL OBJECTS");
    }
    h2.close();
  }

  @Test
  void threeToSixNumberedScripts() {
    assertTrue(scripts.size() >= 3 && scripts.size() <= 8, scripts.size() + " scripts");
    for (SqlScript script : scripts) {
      assertTrue(script.name().matches("\\d\\d-[a-z0-9-]+\\.sql"), script.name());
      assertFalse(script.statements().isEmpty(), script.name());
    }
  }

  @Test
  void refusalsNameContractStatesAndCoverTheLesson() {
    Set<String> shown = new HashSet<>();
    for (SqlScript script : scripts) {
      for (SqlScript.Statement statement : script.statements()) {
        if (statement.expectsError()) {
          assertTrue(CONTRACT_STATES.contains(statement.expectedError()), where(script, statement));
          shown.add(statement.expectedError());
        }
      }
    }
    assertEquals(Set.of("XDP01", "XDP02", "XDP03", "XDP05"), shown);
  }

  @Test
  void everyPrivateQueryAndItsTruthRunOnTheBackend() {
    List<String> failures = new ArrayList<>();
    for (SqlScript script : scripts) {
      for (SqlScript.Statement statement : script.statements()) {
        QueryShape shape = QueryShape.of(statement.sql());
        boolean privateQuery = shape.isSelect() && shape.readsAnyOf(DemoRunner.PRIVATE_TABLES);
        if (!privateQuery || statement.expectsError() || statement.truthSql() == null) {
          continue;
        }
        try {
          int plainWidth = width(SqlScript.stripHints(statement.sql()));
          int truthWidth = width(statement.truthSql());
          if (plainWidth != truthWidth) {
            failures.add(where(script, statement) + ": truth has " + truthWidth + " columns, query " + plainWidth);
          }
          if (shape.selectItems().size() != plainWidth) {
            failures.add(where(script, statement) + ": shape misread");
          }
        } catch (SQLException e) {
          failures.add(where(script, statement) + ": " + e.getMessage());
        }
      }
    }
    if (!failures.isEmpty()) {
      fail(String.join("\n", failures));
    }
  }

  @Test
  void publicQueriesRunOnTheBackend() throws SQLException {
    for (SqlScript script : scripts) {
      for (SqlScript.Statement statement : script.statements()) {
        QueryShape shape = QueryShape.of(statement.sql());
        if (shape.isSelect() && shape.readsAnyOf(List.of(DemoData.COUNTIES_TABLE))) {
          assertTrue(width(statement.sql()) > 0, where(script, statement));
        }
      }
    }
  }

  @Test
  void theRepeatedQueriesAreIdentical() {
    List<String> sql = new ArrayList<>();
    for (SqlScript script : scripts) {
      for (SqlScript.Statement statement : script.statements()) {
        sql.add(statement.sql());
      }
    }
    long repeats = sql.stream().filter(s -> s.equals("SELECT COUNT(*) AS TRIP_COUNT FROM TRIPS")).count();
    assertEquals(3, repeats, "asked once, repeated in script 1 and script 5 for free");
  }

  private static int width(String sql) throws SQLException {
    try (Statement statement = h2.createStatement();
        ResultSet resultSet = statement.executeQuery(sql)) {
      return resultSet.getMetaData().getColumnCount();
    }
  }

  private static String where(SqlScript script, SqlScript.Statement statement) {
    return script.name() + ":" + statement.line();
  }
}
