package org.dpsql.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The table keys bounding and answer_range: parsing, defaults, errors, and survival of validation. */
class TableOptionsTest {
  private static final String BUDGET = "budget:\n  accounting: pure\n  per_connection: {epsilon: 1}\n"
      + "  default_query: {epsilon: 0.1}\n";

  private static String policy(String extra) {
    return BUDGET + "tables:\n  TRIPS:\n    privacy_unit: RIDER_ID\n    max_rows_per_unit: 3\n" + extra
        + "    columns:\n      ORIGIN: {values: [N, S]}\n";
  }

  @Test
  void defaultsArePerQueryBoundingAndNoRange() throws SQLException {
    TablePolicy t = PolicyLoader.parse(policy(""), "p.yaml").table("TRIPS").orElseThrow();
    assertEquals(Bounding.PER_QUERY, t.bounding());
    assertNull(t.answerRange());
  }

  @Test
  void parsedValuesSurviveTheSchemaCheck() throws SQLException {
    try (H2Backend db = new H2Backend()) {
      Policy p = PolicyLoader.validate(PolicyLoader.parse(
          policy("    bounding: snapshot\n    answer_range: [0, 500]\n"), "p.yaml"), db.connection);
      TablePolicy t = p.table("trips").orElseThrow();
      assertEquals(Bounding.SNAPSHOT, t.bounding());
      assertEquals(new AnswerRange(0, 500), t.answerRange());
      assertEquals(500, t.answerRange().n());
    }
  }

  @Test
  void badValuesAreXdp04WithTheKey() {
    for (String bad : new String[] {"    bounding: sometimes\n", "    answer_range: [5, 5]\n",
        "    answer_range: [0]\n", "    answer_range: [0, 1.5]\n", "    answer_range: [0, 1000000]\n"}) {
      SQLException e = assertThrows(SQLException.class, () -> PolicyLoader.parse(policy(bad), "p.yaml"), bad);
      assertEquals("XDP04", e.getSQLState());
      String key = bad.trim().split(":")[0];
      assertTrue(e.getMessage().contains("tables.TRIPS." + key), e.getMessage());
    }
  }
}
