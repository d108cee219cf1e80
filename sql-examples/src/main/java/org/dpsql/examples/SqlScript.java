package org.dpsql.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A demo script: SQL statements, each with the narration and annotations written above it.
 *
 * <p>Format:
 *
 * <ul>
 *   <li>Statements end with {@code ;}. A semicolon inside a string literal ({@code 'a;b'}), a quoted
 *       identifier or a comment does not end a statement. The last statement may omit it.
 *   <li>Comment lines ({@code -- text}) between statements are narration, printed before the next
 *       statement. A bare {@code --} is an empty narration line. Narration after the last statement
 *       is the script's epilogue.
 *   <li>{@code -- truth: <SQL>} gives the query that computes the true answer directly on the
 *       backend (repeat the annotation to continue a long query on the next line); {@code -- truth:
 *       none} turns the comparison off. Without it, the statement itself minus its {@code /*+ ... *}{@code /}
 *       hints is the truth query.
 *   <li>{@code -- expect-error: XDP02} says the statement must be refused with that SQLState;
 *       {@code -- expect-error:} alone accepts any refusal.
 *   <li>{@code -- groups: selected} says the answer's groups are a subset of the true ones (groups
 *       over a {@code keys: private} column, selected privately, or a noisy top-n): true groups
 *       missing from the answer are expected, not a problem.
 *   <li>Comments inside a statement (after its first word) are part of the SQL.
 * </ul>
 */
public final class SqlScript {

  private static final String TRUTH = "truth:";
  private static final String EXPECT_ERROR = "expect-error:";
  private static final String GROUPS_SELECTED = "groups: selected";

  /**
   * One statement of a script.
   *
   * @param line 1-based line where the statement starts
   * @param narration comment lines written above it, without the leading {@code --}
   * @param sql the statement, trimmed, without the closing semicolon
   * @param truth the {@code -- truth:} query, or {@code null} if none was given
   * @param expectedError {@code null} if the statement must succeed; the expected SQLState, or the
   *     empty string for "any refusal", if it must be refused
   * @param groupsSelected whether the answer may lack some of the true groups ({@code -- groups:
   *     selected})
   */
  public record Statement(int line, List<String> narration, String sql, String truth,
      String expectedError, boolean groupsSelected) {

    public Statement {
      narration = List.copyOf(narration);
    }

    /** Whether the statement must be refused. */
    public boolean expectsError() {
      return expectedError != null;
    }

    /**
     * The query whose result is the true answer: the {@code -- truth:} query if given, else the
     * statement without its hints; {@code null} after {@code -- truth: none}.
     */
    public String truthSql() {
      if (truth == null) {
        return stripHints(sql);
      }
      return truth.equalsIgnoreCase("none") ? null : truth;
    }
  }

  private final String name;
  private final List<Statement> statements;
  private final List<String> epilogue;

  private SqlScript(String name, List<Statement> statements, List<String> epilogue) {
    this.name = name;
    this.statements = List.copyOf(statements);
    this.epilogue = List.copyOf(epilogue);
  }

  /** The script's name, usually its file name. */
  public String name() {
    return name;
  }

  public List<Statement> statements() {
    return statements;
  }

  /** Narration after the last statement. */
  public List<String> epilogue() {
    return epilogue;
  }

  /** Reads and parses a UTF-8 script file. */
  public static SqlScript read(Path file) throws IOException {
    return parse(file.getFileName().toString(), Files.readString(file, StandardCharsets.UTF_8));
  }

  /**
   * Parses script text.
   *
   * @throws IllegalArgumentException if an annotation is not followed by a statement
   */
  public static SqlScript parse(String name, String text) {
    return new Parser(name, text).parse();
  }

  /**
   * Removes optimizer hints ({@code /*+ ... *}{@code /}) outside string literals, and the blank
   * that followed each.
   */
  public static String stripHints(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = closingQuote(sql, i);
        out.append(sql, i, end);
        i = end;
      } else if (sql.startsWith("/*+", i)) {
        int close = sql.indexOf("*/", i + 3);
        i = close < 0 ? n : close + 2;
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        if (out.length() > 0 && !Character.isWhitespace(out.charAt(out.length() - 1)) && i < n) {
          out.append(' ');
        }
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString().trim();
  }

  /** Index just after the quote closing the one at {@code start} (doubled quotes are escapes). */
  private static int closingQuote(String text, int start) {
    char quote = text.charAt(start);
    int i = start + 1;
    while (i < text.length()) {
      if (text.charAt(i) == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return text.length();
  }

  /** Single-pass scanner over the script text. */
  private static final class Parser {
    private final String name;
    private final String text;
    private int pos;
    private int line = 1;

    private final List<Statement> statements = new ArrayList<>();
    private List<String> narration = new ArrayList<>();
    private StringBuilder truth;
    private String expectedError;
    private boolean groupsSelected;
    private int annotationLine;

    Parser(String name, String text) {
      this.name = name;
      this.text = text.replace("\r\n", "\n").replace('\r', '\n');
    }

    SqlScript parse() {
      while (true) {
        skipWhitespace();
        if (pos >= text.length()) {
          break;
        }
        if (text.startsWith("--", pos)) {
          comment(readToEndOfLine().substring(2));
        } else {
          statement();
        }
      }
      if (truth != null || expectedError != null || groupsSelected) {
        throw new IllegalArgumentException(
            name + ":" + annotationLine + ": annotation without a statement after it");
      }
      return new SqlScript(name, statements, trimTrailingBlanks(narration));
    }

    private void comment(String body) {
      String trimmed = body.strip();
      String lower = trimmed.toLowerCase(Locale.ROOT);
      if (lower.startsWith(TRUTH)) {
        String query = withoutSemicolon(trimmed.substring(TRUTH.length()).strip());
        truth = truth == null ? new StringBuilder(query) : truth.append(' ').append(query);
        annotationLine = line;
      } else if (lower.startsWith(EXPECT_ERROR)) {
        expectedError = trimmed.substring(EXPECT_ERROR.length()).strip();
        annotationLine = line;
      } else if (lower.equals(GROUPS_SELECTED)) {
        groupsSelected = true;
        annotationLine = line;
      } else {
        String textLine = body.startsWith(" ") ? body.substring(1) : body;
        narration.add(textLine.stripTrailing());
      }
    }

    private void statement() {
      int startLine = line;
      StringBuilder sql = new StringBuilder();
      boolean ended = false;
      while (pos < text.length() && !ended) {
        char c = text.charAt(pos);
        if (c == '\'' || c == '"') {
          int end = closingQuote(text, pos);
          copy(sql, end);
        } else if (text.startsWith("--", pos)) {
          int end = text.indexOf('\n', pos);
          copy(sql, end < 0 ? text.length() : end);
        } else if (text.startsWith("/*", pos)) {
          int close = text.indexOf("*/", pos + 2);
          copy(sql, close < 0 ? text.length() : close + 2);
        } else if (c == ';') {
          pos++;
          ended = true;
        } else {
          copy(sql, pos + 1);
        }
      }
      String body = sql.toString().strip();
      if (body.isEmpty()) {
        return; // a lone semicolon
      }
      statements.add(
          new Statement(
              startLine,
              trimTrailingBlanks(narration),
              body,
              truth == null ? null : truth.toString(),
              expectedError,
              groupsSelected));
      narration = new ArrayList<>();
      truth = null;
      expectedError = null;
      groupsSelected = false;
    }

    private void copy(StringBuilder sql, int end) {
      for (int i = pos; i < end; i++) {
        if (text.charAt(i) == '\n') {
          line++;
        }
      }
      sql.append(text, pos, end);
      pos = end;
    }

    private void skipWhitespace() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        if (text.charAt(pos) == '\n') {
          line++;
        }
        pos++;
      }
    }

    private String readToEndOfLine() {
      int end = text.indexOf('\n', pos);
      if (end < 0) {
        end = text.length();
      }
      String result = text.substring(pos, end);
      pos = end;
      return result;
    }

    private static String withoutSemicolon(String query) {
      String q = query;
      while (q.endsWith(";")) {
        q = q.substring(0, q.length() - 1).stripTrailing();
      }
      return q;
    }

    private static List<String> trimTrailingBlanks(List<String> lines) {
      int end = lines.size();
      while (end > 0 && lines.get(end - 1).isBlank()) {
        end--;
      }
      int start = 0;
      while (start < end && lines.get(start).isBlank()) {
        start++;
      }
      return new ArrayList<>(lines.subList(start, end));
    }
  }
}
