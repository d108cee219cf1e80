package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.parser.SqlParseException;
import org.junit.jupiter.api.Test;

/** The SQL habits of consoles and BI tools that {@link LenientParser} accepts. */
class LenientParserTest {
  private final LenientParser upper = new LenientParser(Casing.TO_UPPER);

  @Test
  void typeWordsUsedAsNamesAreQuotedAsTheBackendFoldsThem() {
    assertEquals("SELECT d AS \"DATE\", \"DATE\" FROM t GROUP BY \"DATE\"",
        upper.quoteTypeWordsUsedAsNames("SELECT d AS date, date FROM t GROUP BY date"));
    assertEquals("select \"date\" from t",
        new LenientParser(Casing.TO_LOWER).quoteTypeWordsUsedAsNames("select DATE from t"));
  }

  @Test
  void typeWordsUsedAsTypesStayAsTheyAre() {
    for (String sql : new String[] {
        "SELECT CAST(x AS DATE), CAST(y AS TIMESTAMP WITH TIME ZONE) FROM t",
        "SELECT x FROM t WHERE d >= DATE '2024-01-01' AND ts < TIMESTAMP '2024-01-01 00:00:00'",
        "SELECT x::date, date(x), 'date' AS s, \"date\" FROM t -- date\n",
        "SELECT CURRENT_DATE, d /* a date */ FROM t"}) {
      assertEquals(sql, upper.quoteTypeWordsUsedAsNames(sql));
    }
  }

  @Test
  void keywordsCommonAsNamesParse() throws SqlParseException {
    upper.parse("SELECT state AS year, COUNT(*) AS month, SUM(fare) AS value, AVG(fare) AS date, "
        + "hour, count(*) AS count FROM trips GROUP BY state, hour");
    upper.parse("select `region`, count(*) as `count` from `trips` group by `region` limit 5");
    upper.parse("SELECT x FROM t ORDER BY 1 OFFSET 5 ROWS FETCH NEXT 10 ROWS ONLY");
    assertThrows(SqlParseException.class, () -> upper.parse("SELEC 1"));
  }
}
