package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parameters and clock calls found and written as typed literals. */
class StatementTemplateTest {
  private static final Instant NOW = Instant.parse("2025-03-08T21:15:42.123456Z");

  private static AnalyzedStatement.ParameterInfo type(int jdbc, String name) {
    return new AnalyzedStatement.ParameterInfo(jdbc, name, 0, 0);
  }

  @Test
  void placesOutsideQuotesAndComments() throws SQLException {
    StatementTemplate t = StatementTemplate.of("SELECT '?', \"?\" FROM T -- ?\n"
        + "WHERE A = ? /* ? CURRENT_DATE */ AND B < ? AND C = 'NOW()' AND D.NOW = 1");
    assertEquals(2, t.parameterCount());
    assertFalse(t.readsClock());
    String bound = t.bind(List.of(3, "x'y"), List.of(type(Types.INTEGER, "INTEGER"),
        type(Types.VARCHAR, "VARCHAR")), NOW).sql();
    assertEquals("SELECT '?', \"?\" FROM T -- ?\nWHERE A =  3  /* ? CURRENT_DATE */ AND B <  "
        + "'x''y'  AND C = 'NOW()' AND D.NOW = 1", bound);
  }

  @Test
  void typedLiterals() throws SQLException {
    StatementTemplate t = StatementTemplate.of("? ? ? ? ? ? ?");
    List<AnalyzedStatement.ParameterInfo> types = List.of(type(Types.DATE, "DATE"),
        type(Types.TIMESTAMP, "TIMESTAMP"), type(Types.DECIMAL, "DECIMAL"),
        type(Types.DOUBLE, "DOUBLE"), type(Types.BOOLEAN, "BOOLEAN"),
        type(Types.VARCHAR, "VARCHAR"), type(Types.INTEGER, "INTEGER"));
    StatementTemplate.Bound b = t.bind(Arrays.asList(LocalDate.of(2025, 3, 1),
        Timestamp.valueOf("2025-03-01 10:30:00.5"), new BigDecimal("1.50"), 0.1, true, null,
        -4), types, NOW);
    assertEquals(" DATE '2025-03-01'   TIMESTAMP '2025-03-01 10:30:00.5'   1.50   0.1   TRUE  "
        + " CAST(NULL AS VARCHAR)   -4 ", b.sql());
  }

  @Test
  void badValuesAreRefusedNamingTheParameter() {
    StatementTemplate t = StatementTemplate.of("A = ? AND B = ?");
    List<AnalyzedStatement.ParameterInfo> types = List.of(type(Types.INTEGER, "INTEGER"),
        type(Types.DATE, "DATE"));
    SQLException number = assertThrows(SQLException.class,
        () -> t.bind(List.of("ten", LocalDate.of(2025, 1, 1)), types, NOW));
    assertEquals("22018", number.getSQLState());
    assertTrue(number.getMessage().startsWith("parameter 1 "), number.getMessage());
    SQLException date = assertThrows(SQLException.class,
        () -> t.bind(List.of(1, Timestamp.valueOf("2025-01-01 10:00:00")), types, NOW));
    assertEquals("22007", date.getSQLState());
    assertTrue(date.getMessage().startsWith("parameter 2 "), date.getMessage());
    SQLException unset = assertThrows(SQLException.class,
        () -> t.bind(List.of(1, ParameterLiteral.UNSET), types, NOW));
    assertEquals("07001", unset.getSQLState());
    assertTrue(unset.getMessage().startsWith("parameter 2 "), unset.getMessage());
    SQLException fraction = assertThrows(SQLException.class,
        () -> t.bind(List.of(1.5, LocalDate.of(2025, 1, 1)), types, NOW));
    assertEquals("22018", fraction.getSQLState());
  }

  @Test
  void theClockIsReadOnceInUtc() throws SQLException {
    StatementTemplate t = StatementTemplate.of("CURRENT_DATE, current_timestamp, NOW(), "
        + "LOCALTIMESTAMP, CURRENT_TIMESTAMP(3), NOW");
    assertTrue(t.readsClock());
    assertEquals(0, t.parameterCount());
    StatementTemplate.Bound b = t.bind(List.of(), List.of(), NOW);
    assertEquals(" DATE '2025-03-08' ,  TIMESTAMP '2025-03-08 21:15:42' ,  TIMESTAMP "
        + "'2025-03-08 21:15:42' ,  TIMESTAMP '2025-03-08 21:15:42' ,  TIMESTAMP "
        + "'2025-03-08 21:15:42.123' , NOW", b.sql()); // a bare NOW is a name, not the function
    assertEquals(5, b.clocks().size());
  }

  @Test
  void aRefusalNamesTheParameterItQuotes() throws SQLException {
    StatementTemplate.Bound b = StatementTemplate.of("A = ? AND T >= ?").bind(
        List.of(3, Timestamp.valueOf("2025-03-01 10:30:00")),
        List.of(type(Types.INTEGER, "INTEGER"), type(Types.TIMESTAMP, "TIMESTAMP")), NOW);
    SQLException e = b.explain(new SQLException("the comparison with 2025-03-01 10:30:00 "
        + "splits a bin", "XDP03"));
    assertEquals("XDP03", e.getSQLState());
    assertTrue(e.getMessage().startsWith("parameter 2 (bound as TIMESTAMP "
        + "'2025-03-01 10:30:00'): the comparison"), e.getMessage());
  }
}
