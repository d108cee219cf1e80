package org.dpsql.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Backend failures during a measurement: the backend's message withheld, the cause told. */
class SqlStatesTest {
  private static final String ADVICE = "Check the types of the filter's literals and parameters. ";

  @Test
  void aFailureIsReportedWithItsStateAndWithoutTheBackendsMessage() {
    SQLException e = SqlStates.backendFailureWithheld("could not evaluate this private query",
        new SQLException("Data conversion error converting 'Alice Smith'", "22018", 22018), ADVICE);
    assertEquals("22018", e.getSQLState());
    assertFalse(e.getMessage().contains("Alice"), e.getMessage());
    assertTrue(e.getMessage().contains(ADVICE) && e.getMessage().endsWith("Nothing was charged."),
        e.getMessage());
    SQLException unset = new SQLException("parameter 1 is not set", "07001");
    assertSame(unset, SqlStates.backendFailureWithheld("x", unset, ADVICE));
  }

  @Test
  void runningOutOfResourcesIsSaidWithClass53() {
    // Trino's driver: no SQLState, the error code of EXCEEDED_LOCAL_MEMORY_LIMIT
    SQLException trino = new SQLException("Query failed (#20261126_175058_01617_izarf): Query "
        + "exceeded per-node memory limit of 1GB [Allocated: 1012.11MB]", null, 131079);
    SQLException e = SqlStates.backendFailureWithheld("could not evaluate this private query",
        trino, ADVICE);
    assertEquals("53000", e.getSQLState());
    assertTrue(e.getMessage().contains("ran out of resources") && e.getMessage().contains("131079")
        && e.getMessage().contains("query.max-memory-per-node"), e.getMessage());
    assertFalse(e.getMessage().contains("1012.11MB") || e.getMessage().contains(ADVICE),
        e.getMessage());
    // PostgreSQL's out of memory keeps its state
    SQLException pg = SqlStates.backendFailureWithheld("could not evaluate this private query",
        new SQLException("out of memory", "53200"), ADVICE);
    assertEquals("53200", pg.getSQLState());
    assertTrue(pg.getMessage().contains("ran out of resources"), pg.getMessage());
    // another Trino failure (a user error, code 1..) stays withheld as before
    SQLException other = SqlStates.backendFailureWithheld("could not evaluate this private query",
        new SQLException("Query failed (#q): Division by zero", null, 8), ADVICE);
    assertEquals("HY000", other.getSQLState());
    assertTrue(other.getMessage().contains(ADVICE), other.getMessage());
  }
}
