package org.dpsql.examples;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The little the runner needs to know about a statement's shape, read from its text: is it a
 * SELECT, which tables it reads, and which of its output columns are group keys and which are
 * aggregates.
 *
 * <p>This is a lexical reading for the demo's simple SQL surface, not a parser: string literals
 * and comments are masked, then the top-level select list is split at commas. The leading items
 * that are not aggregate calls are the group keys.
 */
public final class QueryShape {

  private static final Pattern AGGREGATE =
      Pattern.compile("^(COUNT|SUM|AVG|MIN|MAX|MEDIAN|STDDEV\\w*|VAR\\w*|PERCENTILE\\w*)\\s*\\(");
  private static final Pattern FIRST_WORD = Pattern.compile("^\\s*(\\w+)");

  private final String masked;
  private final boolean select;
  private final List<String> selectItems;

  private QueryShape(String masked, boolean select, List<String> selectItems) {
    this.masked = masked;
    this.select = select;
    this.selectItems = List.copyOf(selectItems);
  }

  /** Reads the shape of {@code sql}. */
  public static QueryShape of(String sql) {
    String masked = mask(sql).toUpperCase(Locale.ROOT);
    Matcher first = FIRST_WORD.matcher(masked);
    boolean select = first.find() && first.group(1).equals("SELECT");
    List<String> items = select ? selectList(masked) : List.of();
    return new QueryShape(masked, select, items);
  }

  /** Whether the statement is a query (starts with SELECT). */
  public boolean isSelect() {
    return select;
  }

  /** Whether a FROM or JOIN clause names one of {@code tables} (optionally schema-qualified). */
  public boolean readsAnyOf(Collection<String> tables) {
    for (String table : tables) {
      Pattern reads =
          Pattern.compile(
              "\\b(FROM|JOIN)\\s+(\"?\\w+\"?\\s*\\.\\s*)?\"?"
                  + Pattern.quote(table.toUpperCase(Locale.ROOT))
                  + "\"?(?![\\w\"])");
      if (reads.matcher(masked).find()) {
        return true;
      }
    }
    return false;
  }

  /** The top-level select items, upper-cased, with literals and comments blanked out. */
  public List<String> selectItems() {
    return selectItems;
  }

  /** Number of leading select items that are not aggregates: the group keys. */
  public int keyCount() {
    int keys = 0;
    while (keys < selectItems.size() && aggregateOf(selectItems.get(keys)) == null) {
      keys++;
    }
    return keys;
  }

  /**
   * For each select item after the keys: the aggregate function name ({@code COUNT}, {@code SUM},
   * {@code AVG}, ...), or the empty string if the item is not an aggregate call.
   */
  public List<String> aggregates() {
    List<String> result = new ArrayList<>();
    for (int i = keyCount(); i < selectItems.size(); i++) {
      String aggregate = aggregateOf(selectItems.get(i));
      result.add(aggregate == null ? "" : aggregate);
    }
    return result;
  }

  /**
   * Whether the true value of the {@code valueIndex}-th aggregate is 0 for a group without rows
   * (COUNT and SUM), rather than undefined (AVG and the others).
   */
  public boolean zeroWhenEmpty(int valueIndex) {
    List<String> aggregates = aggregates();
    if (valueIndex < 0 || valueIndex >= aggregates.size()) {
      return false;
    }
    String aggregate = aggregates.get(valueIndex);
    return aggregate.equals("COUNT") || aggregate.equals("SUM");
  }

  private static String aggregateOf(String item) {
    Matcher matcher = AGGREGATE.matcher(item.strip());
    return matcher.find() ? matcher.group(1) : null;
  }

  /** Items between the first top-level SELECT and its FROM (or the end), split at top-level commas. */
  private static List<String> selectList(String masked) {
    int start = masked.indexOf("SELECT") + "SELECT".length();
    int depth = 0;
    List<String> items = new ArrayList<>();
    int itemStart = start;
    for (int i = start; i < masked.length(); i++) {
      char c = masked.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (depth == 0 && c == ',') {
        items.add(masked.substring(itemStart, i).strip());
        itemStart = i + 1;
      } else if (depth == 0 && isKeywordAt(masked, i, "FROM")) {
        items.add(masked.substring(itemStart, i).strip());
        return withoutDistinct(items);
      }
    }
    items.add(masked.substring(itemStart).strip());
    return withoutDistinct(items);
  }

  private static List<String> withoutDistinct(List<String> items) {
    if (!items.isEmpty()) {
      String first = items.get(0);
      for (String modifier : new String[] {"DISTINCT ", "ALL "}) {
        if (first.startsWith(modifier)) {
          items.set(0, first.substring(modifier.length()).strip());
        }
      }
    }
    items.removeIf(String::isEmpty);
    return items;
  }

  private static boolean isKeywordAt(String text, int i, String keyword) {
    if (!text.startsWith(keyword, i)) {
      return false;
    }
    boolean before = i == 0 || !isWordChar(text.charAt(i - 1));
    int end = i + keyword.length();
    boolean after = end >= text.length() || !isWordChar(text.charAt(end));
    return before && after;
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /**
   * Replaces the content of string literals and comments (hints included) with blanks; quoted
   * identifiers are kept, so {@code "HOUR"} stays readable.
   */
  static String mask(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'') {
        int end = i + 1;
        while (end < n) {
          if (sql.charAt(end) == '\'') {
            if (end + 1 < n && sql.charAt(end + 1) == '\'') {
              end += 2;
              continue;
            }
            end++;
            break;
          }
          end++;
        }
        out.append('\'').append(" ".repeat(Math.max(0, end - i - 2)));
        if (end - i >= 2) {
          out.append('\'');
        }
        i = end;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        end = end < 0 ? n : end;
        out.append(" ".repeat(end - i));
        i = end;
      } else if (sql.startsWith("/*", i)) {
        int close = sql.indexOf("*/", i + 2);
        int end = close < 0 ? n : close + 2;
        out.append(" ".repeat(end - i));
        i = end;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
