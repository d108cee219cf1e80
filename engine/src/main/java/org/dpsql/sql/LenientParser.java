package org.dpsql.sql;

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
 * are quoted with double quotes; a statement that does not parse so is parsed again with the words
 * DATE, TIME and TIMESTAMP quoted where they are names (the grammar reserves them), and then, if
 * it contains back-ticks, with MySQL's back-tick quoting.
 *
 * <p>Guarantees: unquoted identifiers fold like the backend's (upper case for H2, lower case for
 * PostgreSQL), so SQL written back for the backend names the same objects; a statement either
 * parses to one {@link SqlNode} or fails with a {@link SqlParseException}.
 */
public final class LenientParser {
  private final SqlParser.Config doubleQuoted;
  private final SqlParser.Config backTicked;
  private final Casing unquotedCasing;

  /** A parser whose unquoted identifiers fold as {@code unquotedCasing} (the backend's). */
  public LenientParser(Casing unquotedCasing) {
    this.unquotedCasing = unquotedCasing;
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
      String keywordsQuoted = quoteTypeWordsUsedAsNames(sql);
      if (!keywordsQuoted.equals(sql)) {
        try {
          return SqlParser.create(keywordsQuoted, doubleQuoted).parseStmt();
        } catch (SqlParseException ignored) {
          // fall through to the other quoting
        }
      }
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

  /**
   * The index just after the string literal, quoted identifier or comment that starts at {@code i}
   * of {@code sql} (to its end if unterminated), or -1 when none starts there. A doubled quote
   * inside a literal is part of it.
   */
  static int endOfQuotedOrComment(String sql, int i) {
    int n = sql.length();
    char ch = sql.charAt(i);
    if (ch == '\'' || ch == '"' || ch == '`') {
      int j = i + 1;
      while (j < n) {
        if (sql.charAt(j) == ch) {
          if (j + 1 < n && sql.charAt(j + 1) == ch) {
            j += 2; // doubled quote inside the literal
            continue;
          }
          break;
        }
        j++;
      }
      return Math.min(n, j + 1);
    }
    if (ch == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
      int j = sql.indexOf('\n', i);
      return j < 0 ? n : j;
    }
    if (ch == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
      int j = sql.indexOf("*/", i + 2);
      return j < 0 ? n : j + 2;
    }
    return -1;
  }

  private static final java.util.Set<String> TYPE_WORDS = java.util.Set.of("DATE", "TIME",
      "TIMESTAMP");

  /**
   * {@code sql} with the words DATE, TIME and TIMESTAMP quoted where they are names (a column
   * called {@code date}, an alias {@code AS date}) rather than SQL's types: not before a string
   * literal ({@code DATE '2024-01-01'}) or a parenthesis (a function), not after {@code ::} or
   * after {@code AS} inside {@code CAST(...)}, not in {@code WITH TIME ZONE}. The quoted name is
   * spelled as the backend folds unquoted names, so it means what the unquoted word would.
   */
  String quoteTypeWordsUsedAsNames(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 8);
    java.util.ArrayDeque<Boolean> castParens = new java.util.ArrayDeque<>();
    String previousWord = "";
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char ch = sql.charAt(i);
      int skip = endOfQuotedOrComment(sql, i);
      if (skip >= 0) {
        out.append(sql, i, skip);
        if (ch == '\'' || ch == '"' || ch == '`') {
          previousWord = "";
        }
        i = skip;
      } else if (Character.isLetter(ch) || ch == '_') {
        int j = i;
        while (j < n && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
          j++;
        }
        String word = sql.substring(i, j);
        String upper = word.toUpperCase(java.util.Locale.ROOT);
        int k = j;
        while (k < n && Character.isWhitespace(sql.charAt(k))) {
          k++;
        }
        char next = k < n ? sql.charAt(k) : ' ';
        boolean afterCast = previousWord.equals("::")
            || (previousWord.equals("AS") && Boolean.TRUE.equals(castParens.peek()));
        boolean type = next == '\'' || next == '(' || afterCast
            || previousWord.equals("WITH") || previousWord.equals("WITHOUT")
            || (upper.equals("TIME") && sql.regionMatches(true, k, "ZONE", 0, 4));
        if (TYPE_WORDS.contains(upper) && !type) {
          String name = unquotedCasing == Casing.TO_LOWER ? word.toLowerCase(java.util.Locale.ROOT)
              : unquotedCasing == Casing.TO_UPPER ? upper : word;
          out.append('"').append(name).append('"');
        } else {
          out.append(word);
        }
        previousWord = upper;
        i = j;
      } else {
        if (ch == '(') {
          castParens.push(previousWord.equals("CAST") || previousWord.equals("TRY_CAST")
              || previousWord.equals("SAFE_CAST"));
        } else if (ch == ')' && !castParens.isEmpty()) {
          castParens.pop();
        }
        if (ch == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
          out.append("::");
          previousWord = "::";
          i += 2;
          continue;
        }
        if (!Character.isWhitespace(ch)) {
          previousWord = String.valueOf(ch);
        }
        out.append(ch);
        i++;
      }
    }
    return out.toString();
  }
}
