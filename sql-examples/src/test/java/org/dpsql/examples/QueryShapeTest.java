package org.dpsql.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryShapeTest {

  private static final List<String> PRIVATE = List.of("TRIPS");

  @Test
  void keysAreTheLeadingNonAggregates() {
    QueryShape shape =
        QueryShape.of(
            "SELECT /*+ DP(rho='0.1', ci='0.95') */ STATE, \"HOUR\", COUNT(*) AS N, SUM(FARE), AVG(FARE)"
                + " FROM TRIPS WHERE COUNTY IN ('a, b', 'c') GROUP BY STATE, \"HOUR\"");
    assertTrue(shape.isSelect());
    assertTrue(shape.readsAnyOf(PRIVATE));
    assertEquals(2, shape.keyCount());
    assertEquals(List.of("COUNT", "SUM", "AVG"), shape.aggregates());
    assertTrue(shape.zeroWhenEmpty(0));
    assertTrue(shape.zeroWhenEmpty(1));
    assertFalse(shape.zeroWhenEmpty(2));
  }

  @Test
  void noGroupByMeansNoKeys() {
    QueryShape shape = QueryShape.of("select count(*) as trip_count from trips");
    assertEquals(0, shape.keyCount());
    assertEquals(List.of("COUNT"), shape.aggregates());
    assertTrue(shape.readsAnyOf(PRIVATE));
  }

  @Test
  void publicAndSystemTablesAreNotPrivate() {
    assertFalse(QueryShape.of("SELECT * FROM DPSQL.BUDGET").readsAnyOf(PRIVATE));
    assertFalse(QueryShape.of("SELECT STATE, SUM(POPULATION) FROM COUNTIES GROUP BY STATE").readsAnyOf(PRIVATE));
    assertFalse(QueryShape.of("SELECT * FROM TRIPS_ARCHIVE").readsAnyOf(PRIVATE));
    assertTrue(QueryShape.of("SELECT COUNT(*) FROM PUBLIC.\"TRIPS\"").readsAnyOf(PRIVATE));
    assertFalse(QueryShape.of("SELECT 'FROM TRIPS' FROM COUNTIES").readsAnyOf(PRIVATE));
  }

  @Test
  void writesAreNotSelects() {
    QueryShape shape = QueryShape.of("DELETE FROM TRIPS WHERE FARE > 1000");
    assertFalse(shape.isSelect());
    assertTrue(shape.readsAnyOf(PRIVATE));
  }

  @Test
  void nestedParenthesesAndCommasStayInOneItem() {
    QueryShape shape =
        QueryShape.of("SELECT ROUND(SUM(POPULATION) / SUM(AREA_KM2), 1) AS D, COUNT(*) FROM COUNTIES");
    assertEquals(2, shape.selectItems().size());
    assertEquals(1, shape.keyCount());
  }
}
