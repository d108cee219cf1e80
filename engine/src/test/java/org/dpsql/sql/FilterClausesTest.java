package org.dpsql.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.dialect.AnsiSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.junit.jupiter.api.Test;

/** The conditional aggregates {@link FilterClauses} writes for {@code FILTER (WHERE ...)}. */
class FilterClausesTest {
  private final LenientParser parser = new LenientParser(Casing.TO_UPPER);

  private String rewritten(String sql) throws SqlParseException {
    SqlNode node = FilterClauses.rewrite(parser.parse(sql));
    return node.toSqlString(AnsiSqlDialect.DEFAULT).getSql().replaceAll("\\s+", " ")
        .replace("`", "\"");
  }

  @Test
  void averagesAndVariancesTakeTheFilteredValuesOnly() throws SqlParseException {
    assertEquals("SELECT AVG(CASE WHEN \"P\" = 'APP' THEN \"F\" ELSE NULL END) FROM \"T\"",
        rewritten("SELECT AVG(F) FILTER (WHERE P = 'APP') FROM T"));
    assertEquals("SELECT STDDEV_POP(CASE WHEN \"A\" > 3 THEN \"F\" ELSE NULL END), "
        + "VAR_SAMP(CASE WHEN \"A\" > 3 THEN \"F\" ELSE NULL END) FROM \"T\"",
        rewritten("SELECT STDDEV_POP(F) FILTER (WHERE A > 3), VAR_SAMP(F) FILTER (WHERE A > 3) "
            + "FROM T"));
  }

  @Test
  void countsAndSumsBecomeConditionalSums() throws SqlParseException {
    assertEquals("SELECT SUM(CASE WHEN \"P\" = 'APP' THEN 1 ELSE 0 END), "
        + "SUM(CASE WHEN \"P\" = 'APP' THEN \"F\" ELSE 0 END) FROM \"T\"",
        rewritten("SELECT COUNT(*) FILTER (WHERE P = 'APP'), SUM(F) FILTER (WHERE P = 'APP') "
            + "FROM T"));
  }

  @Test
  void aggregatesWithoutAConditionalFormAreLeftAsWritten() throws SqlParseException {
    for (String sql : new String[] {
        "SELECT COUNT(DISTINCT U) FILTER (WHERE P = 'APP') FROM T",
        "SELECT MAX(F) FILTER (WHERE P = 'APP') FROM T"}) {
      assertEquals(parser.parse(sql).toSqlString(AnsiSqlDialect.DEFAULT).getSql()
          .replaceAll("\\s+", " ").replace("`", "\""), rewritten(sql));
    }
  }
}
