package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.AnsiSqlDialect;
import org.junit.jupiter.api.Test;

/** Constant subtrees folded into literals; everything else left as written. */
class ConstantFoldingTest {
  private static final LenientParser PARSER = new LenientParser(Casing.TO_UPPER);

  private static String folded(String where) throws Exception {
    SqlNode n = ConstantFolding.fold(PARSER.parse("SELECT COUNT(*) FROM T WHERE " + where));
    String sql = n.toSqlString(AnsiSqlDialect.DEFAULT).getSql().replace("\n", " ").replace('`', '"');
    return sql.substring(sql.indexOf("WHERE ") + 6);
  }

  @Test
  void datesAndTimestampsPlusOrMinusIntervals() throws Exception {
    assertEquals("\"D\" >= DATE '2025-12-01'",
        folded("D >= DATE '2025-12-31' - INTERVAL '30' DAY"));
    assertEquals("\"D\" < DATE '2025-03-31'",
        folded("D < DATE '2025-01-31' + INTERVAL '2' MONTH"));
    assertEquals("\"D\" < DATE '2025-02-28'", // the month's end, as SQL clamps it
        folded("D < DATE '2025-01-31' + INTERVAL '1' MONTH"));
    assertEquals("\"T\" >= TIMESTAMP '2025-03-01 22:00:00'",
        folded("T >= TIMESTAMP '2025-03-02 00:00:00' - INTERVAL '2' HOUR"));
    assertEquals("\"D\" >= DATE '2025-02-22'",
        folded("D >= INTERVAL '7' DAY + DATE '2025-02-15'"));
    // an hour interval on a DATE is not folded (its type is left to the validator)
    assertEquals("\"D\" >= DATE '2025-02-15' - INTERVAL '2' HOUR",
        folded("D >= DATE '2025-02-15' - INTERVAL '2' HOUR"));
  }

  @Test
  void exactArithmetic() throws Exception {
    assertEquals("\"X\" > 60000", folded("X > 1000 * 60"));
    assertEquals("\"X\" > 3", folded("X > 7 / 2"));
    assertEquals("\"X\" > - 3", folded("X > 1 - 4"));
    assertEquals("\"X\" > 0.30", folded("X > 0.10 + 0.20"));
    assertEquals("\"X\" > 7 / 0", folded("X > 7 / 0"));
    assertEquals("\"X\" > \"Y\" * 60", folded("X > Y * 60"));
    assertEquals("\"X\" > 0.5 / 2", folded("X > 0.5 / 2"));
  }

  @Test
  void castsOfLiterals() throws Exception {
    assertEquals("\"D\" >= DATE '2025-03-01'", folded("D >= CAST('2025-03-01' AS DATE)"));
    assertEquals("\"T\" >= TIMESTAMP '2025-03-01 00:00:00'",
        folded("T >= CAST('2025-03-01' AS TIMESTAMP)"));
    assertEquals("\"P\" = 'CARD'", folded("P = CAST('CARD' AS VARCHAR)"));
    assertEquals("\"H\" BETWEEN ASYMMETRIC 8 AND 20",
        folded("H BETWEEN CAST(8 AS INTEGER) AND CAST('20' AS INT)"));
    assertEquals("\"P\" = CAST('CARD' AS VARCHAR(2))", folded("P = CAST('CARD' AS VARCHAR(2))"));
    assertEquals("\"D\" >= CAST('yesterday' AS DATE)", folded("D >= CAST('yesterday' AS DATE)"));
    assertEquals("\"H\" = CAST(1.5 AS INTEGER)", folded("H = CAST(1.5 AS INTEGER)"));
  }

  @Test
  void ordinalsStayOrdinals() throws Exception {
    SqlNode n = ConstantFolding.fold(PARSER.parse("SELECT A, COUNT(*) FROM T GROUP BY 1 + 0"));
    assertEquals("SELECT \"A\", COUNT(*) FROM \"T\" GROUP BY 1 + 0",
        n.toSqlString(AnsiSqlDialect.DEFAULT).getSql().replace("\n", " ").replace('`', '"'));
  }
}
