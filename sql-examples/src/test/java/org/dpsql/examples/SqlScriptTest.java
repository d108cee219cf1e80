package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlScriptTest {

  @Test
  void narrationBelongsToTheNextStatement() {
    SqlScript script =
        SqlScript.parse(
            "t.sql",
            String.join(
                "\n",
                "-- First paragraph.",
                "--",
                "-- Second paragraph.",
                "SELECT COUNT(*) FROM TRIPS;",
                "",
                "-- About the second statement.",
                "SELECT STATE, COUNT(*)",
                "  FROM TRIPS",
                "  GROUP BY STATE;"));
    assertEquals("t.sql", script.name());
    assertEquals(2, script.statements().size());
    SqlScript.Statement first = script.statements().get(0);
    assertEquals(List.of("First paragraph.", "", "Second paragraph."), first.narration());
    assertEquals("SELECT COUNT(*) FROM TRIPS", first.sql());
    assertEquals(4, first.line());
    SqlScript.Statement second = script.statements().get(1);
    assertEquals(List.of("About the second statement."), second.narration());
    assertEquals("SELECT STATE, COUNT(*)\n  FROM TRIPS\n  GROUP BY STATE", second.sql());
    assertEquals(7, second.line());
    assertTrue(script.epilogue().isEmpty());
  }

  @Test
  void truthAnnotationIsNotNarration() {
    SqlScript script =
        SqlScript.parse(
            "t.sql",
            String.join(
                "\n",
                "-- Bounded count.",
                "-- truth: SELECT SUM(LEAST(N, 10))",
                "-- truth:   FROM (SELECT COUNT(*) AS N FROM TRIPS GROUP BY RIDER_ID);",
                "SELECT COUNT(*) FROM TRIPS;"));
    SqlScript.Statement statement = script.statements().get(0);
    assertEquals(List.of("Bounded count."), statement.narration());
    assertEquals(
        "SELECT SUM(LEAST(N, 10)) FROM (SELECT COUNT(*) AS N FROM TRIPS GROUP BY RIDER_ID)",
        statement.truth());
    assertEquals(statement.truth(), statement.truthSql());
    assertFalse(statement.expectsError());
  }

  @Test
  void groupsSelectedAnnotationMarksItsStatementOnly() {
    SqlScript script = SqlScript.parse("t.sql", String.join("\n",
        "-- Top zones.",
        "-- groups: selected",
        "SELECT ZONE, COUNT(*) FROM TRIPS GROUP BY ZONE;",
        "SELECT STATE, COUNT(*) FROM TRIPS GROUP BY STATE;"));
    assertTrue(script.statements().get(0).groupsSelected());
    assertEquals(List.of("Top zones."), script.statements().get(0).narration());
    assertFalse(script.statements().get(1).groupsSelected());
  }

  @Test
  void withoutTruthTheStatementMinusHintsIsTheTruth() {
    SqlScript script =
        SqlScript.parse("t.sql", "SELECT /*+ DP(rho='0.05') */ STATE, COUNT(*) FROM TRIPS GROUP BY STATE;");
    SqlScript.Statement statement = script.statements().get(0);
    assertNull(statement.truth());
    assertEquals("SELECT STATE, COUNT(*) FROM TRIPS GROUP BY STATE", statement.truthSql());
  }

  @Test
  void truthNoneTurnsTheComparisonOff() {
    SqlScript script = SqlScript.parse("t.sql", "-- truth: none\nSELECT COUNT(*) FROM TRIPS;");
    assertNull(script.statements().get(0).truthSql());
  }

  @Test
  void expectErrorWithAndWithoutSqlState() {
    SqlScript script =
        SqlScript.parse(
            "t.sql",
            String.join(
                "\n",
                "-- Raw rows are refused.",
                "-- expect-error: XDP02",
                "SELECT * FROM TRIPS;",
                "-- expect-error:",
                "DELETE FROM TRIPS;",
                "SELECT 1;"));
    List<SqlScript.Statement> statements = script.statements();
    assertEquals("XDP02", statements.get(0).expectedError());
    assertTrue(statements.get(0).expectsError());
    assertEquals(List.of("Raw rows are refused."), statements.get(0).narration());
    assertEquals("", statements.get(1).expectedError());
    assertTrue(statements.get(1).expectsError());
    assertFalse(statements.get(2).expectsError());
  }

  @Test
  void semicolonsInsideStringsIdentifiersAndCommentsDoNotEndAStatement() {
    SqlScript script =
        SqlScript.parse(
            "t.sql",
            String.join(
                "\n",
                "SELECT COUNT(*) FROM TRIPS WHERE COUNTY = 'a;b' AND STATE = 'it''s;';",
                "SELECT \"odd;name\" FROM COUNTIES;",
                "SELECT 1 /* one; */ + 1 -- two; three",
                "  FROM COUNTIES;"));
    List<SqlScript.Statement> statements = script.statements();
    assertEquals(3, statements.size());
    assertEquals("SELECT COUNT(*) FROM TRIPS WHERE COUNTY = 'a;b' AND STATE = 'it''s;'", statements.get(0).sql());
    assertEquals("SELECT \"odd;name\" FROM COUNTIES", statements.get(1).sql());
    assertEquals("SELECT 1 /* one; */ + 1 -- two; three\n  FROM COUNTIES", statements.get(2).sql());
  }

  @Test
  void severalStatementsOnOneLineAndALastOneWithoutSemicolon() {
    SqlScript script = SqlScript.parse("t.sql", "SELECT 1; SELECT 2;;\nSELECT 3");
    assertEquals(
        List.of("SELECT 1", "SELECT 2", "SELECT 3"),
        script.statements().stream().map(SqlScript.Statement::sql).toList());
  }

  @Test
  void narrationAfterTheLastStatementIsTheEpilogue() {
    SqlScript script = SqlScript.parse("t.sql", "SELECT 1;\n\n-- The end.\n--  * indented\n");
    assertEquals(List.of("The end.", " * indented"), script.epilogue());
  }

  @Test
  void windowsLineEndingsAreFine() {
    SqlScript script = SqlScript.parse("t.sql", "-- Hello.\r\nSELECT 1\r\nFROM X;\r\n");
    assertEquals(List.of("Hello."), script.statements().get(0).narration());
    assertEquals("SELECT 1\nFROM X", script.statements().get(0).sql());
  }

  @Test
  void annotationWithoutStatementIsAnError() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SqlScript.parse("t.sql", "SELECT 1;\n-- expect-error: XDP02\n"));
    assertTrue(e.getMessage().startsWith("t.sql:2"), e.getMessage());
  }

  @Test
  void stripHintsLeavesStringsAlone() {
    assertEquals(
        "SELECT COUNT(*) FROM T WHERE C = '/*+ x */'",
        SqlScript.stripHints("SELECT /*+ DP(epsilon='1') */ COUNT(*) FROM T WHERE C = '/*+ x */'"));
    assertEquals("SELECT A FROM T", SqlScript.stripHints("SELECT/*+ DP(rho='1') */A FROM T"));
    assertEquals("SELECT /* plain comment */ A FROM T", SqlScript.stripHints("SELECT /* plain comment */ A FROM T"));
  }
}
