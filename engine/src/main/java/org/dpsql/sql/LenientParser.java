package org.dpsql.sql;

import java.sql.SQLException;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Parses SQL the way BI tools and analysts write it: Calcite's Babel grammar (a superset of the
 * standard one: {@code LIMIT}/{@code OFFSET}, {@code ::} casts, {@code DATE_TRUNC}, words such as
 * {@code count}, {@code hour}, {@code date}, {@code year}, {@code value} as column names and
 * aliases) with the lenient conformance ({@code GROUP BY} ordinals and select aliases). Identifiers
 * are quoted with double quotes; a statement that does not parse so and contains back-ticks is
 * parsed again with MySQL's back-tick quoting.
 *
 * <p>Guarantees: unquoted identifiers fold like the backend's (upper case for H2, lower case for
 * PostgreSQL), so SQL written back for the backend names the same objects; a statement either
 * parses to one {@link SqlNode} or fails with a {@link SqlParseException}.
 */
public final class LenientParser {
  private final SqlParser.Config doubleQuoted;
  private final SqlParser.Config backTicked;

  /** A parser whose unquoted identifiers fold as {@code unquotedCasing} (the backend's). */
  public LenientParser(Casing unquotedCasing) {
    this.doubleQuoted = SqlParser.config()
        .withParserFactory(SqlBabelParserImpl.FACTORY)
        .withUnquotedCasing(unquotedCasing)
        .withQuotedCasing(Casing.UNCHANGED)
        .withCaseSensitive(false)
        .withConformance(SqlConformanceEnum.BABEL);
    this.backTicked = doubleQuoted.withQuoting(Quoting.BACK_TICK);
  }

  /** Parses one statement. */
  public SqlNode parse(String sql) throws SqlParseException {
    try {
      return SqlParser.create(sql, doubleQuoted).parseStmt();
    } catch (SqlParseException e) {
      if (sql.indexOf('`') < 0) {
        throw e;
      }
      try {
        return SqlParser.create(sql, backTicked).parseStmt();
      } catch (SqlParseException ignored) {
        throw e; // the first message is about the usual quoting
      }
    }
  }

  /** Parses one statement; a syntax error is a {@code 42000} {@link SQLException}. */
  public SqlNode parseOrThrow(String sql) throws SQLException {
    try {
      return parse(sql);
    } catch (SqlParseException e) {
      throw new SQLException("SQL syntax error: " + e.getMessage(), "42000", e);
    }
  }
}
