package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {

  @Test
  void alignsTextLeftAndNumbersRight() {
    TextTable table = new TextTable(List.of("STATE", "TRIP_COUNT"));
    table.addRow(List.of("NY", 70441L));
    table.addRow(Arrays.asList("California", null));
    String expected =
        String.join(
            "\n",
            "+------------+------------+",
            "| STATE      | TRIP_COUNT |",
            "+------------+------------+",
            "| NY         |      70441 |",
            "| California |       NULL |",
            "+------------+------------+",
            "(2 rows)",
            "");
    assertEquals(expected, table.render());
  }

  @Test
  void oneRowAndNoRows() {
    TextTable one = new TextTable(List.of("N")).addRow(List.of(1));
    assertTrue(one.render().endsWith("(1 row)\n"));
    String none = new TextTable(List.of("N")).render();
    assertEquals("+---+\n| N |\n+---+\n(0 rows)\n", none);
  }

  @Test
  void leavesOutRowsBeyondTheLimitAndSaysSo() {
    TextTable table = new TextTable(List.of("HOUR"));
    for (int h = 0; h < 24; h++) {
      table.addRow(List.of(h));
    }
    String text = table.render(5);
    assertTrue(text.contains("|    4 |"), text);
    assertTrue(!text.contains("|    5 |"), text);
    assertTrue(text.endsWith("(24 rows, the last 19 are not shown)\n"), text);
    assertEquals(24, table.rowCount());
  }

  @Test
  void formatsNumbersForPeople() {
    assertEquals("NULL", TextTable.format(null));
    assertEquals("42", TextTable.format(42));
    assertEquals("-7", TextTable.format(-7L));
    assertEquals("12.50", TextTable.format(new BigDecimal("12.50")));
    assertEquals("2719", TextTable.format(new BigDecimal("2719.000")));
    assertEquals("25.82", TextTable.format(new BigDecimal("25.817615450000")));
    assertEquals("3.14", TextTable.format(Math.PI));
    assertEquals("34", TextTable.format(34.0));
    assertEquals("0", TextTable.format(0.0));
    assertEquals("0.02", TextTable.format(0.02));
    assertEquals("0.538", TextTable.format(0.5379999999999998));
    assertEquals("1.00e-09", TextTable.format(1e-9));
    assertEquals("NaN", TextTable.format(Double.NaN));
    assertEquals("CARD", TextTable.format("CARD"));
  }

  @Test
  void shortensLongAndMultiLineText() {
    TextTable table = new TextTable(List.of("STATEMENT"));
    table.addRow(List.of("SELECT\nCOUNT(*) FROM TRIPS " + "x".repeat(100)));
    String line = table.render().split("\n")[3];
    assertTrue(line.startsWith("| SELECT COUNT(*) FROM TRIPS x"), line);
    assertTrue(line.endsWith("... |"), line);
    assertEquals(TextTable.MAX_CELL_WIDTH + 4, line.length());
  }

  @Test
  void tableOfAQueryResult() {
    QueryResult result =
        new QueryResult(List.of("A", "B"), List.of(List.of("x", 1.5), List.of("yy", 10.25)));
    String text = TextTable.of(result).render();
    assertTrue(text.contains("| x  |  1.50 |"), text);
    assertTrue(text.contains("| yy | 10.25 |"), text);
  }

  @Test
  void rejectsRowsOfTheWrongWidth() {
    TextTable table = new TextTable(List.of("A", "B"));
    assertThrows(IllegalArgumentException.class, () -> table.addRow(List.of(1)));
    assertThrows(IllegalArgumentException.class, () -> new TextTable(List.of()));
  }
}
