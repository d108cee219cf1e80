package org.dpsql.examples;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Prints rows as an aligned plain-text (ASCII) table, like a SQL shell does:
 *
 * <pre>
 * +-------+------------+
 * | STATE | TRIP_COUNT |
 * +-------+------------+
 * | NY    |      70441 |
 * | CA    |      61302 |
 * +-------+------------+
 * (2 rows)
 * </pre>
 *
 * <p>Numbers are right-aligned, everything else left-aligned; {@code null} prints as {@code NULL}.
 * Long text is shortened so that one wide value cannot wreck the layout.
 */
public final class TextTable {

  /** Longest cell text printed; longer values are cut and end in "...". */
  public static final int MAX_CELL_WIDTH = 60;

  private final List<String> headers;
  private final List<List<Object>> rows = new ArrayList<>();

  public TextTable(List<String> headers) {
    if (headers.isEmpty()) {
      throw new IllegalArgumentException("a table needs at least one column");
    }
    this.headers = List.copyOf(headers);
  }

  /** A table of a whole query result. */
  public static TextTable of(QueryResult result) {
    TextTable table = new TextTable(result.columns());
    for (List<Object> row : result.rows()) {
      table.addRow(row);
    }
    return table;
  }

  /** Appends a row; it must have one value per column. */
  public TextTable addRow(List<?> values) {
    if (values.size() != headers.size()) {
      throw new IllegalArgumentException(
          "row has " + values.size() + " values, table has " + headers.size() + " columns");
    }
    rows.add(Collections.unmodifiableList(new ArrayList<>(values)));
    return this;
  }

  public int rowCount() {
    return rows.size();
  }

  public List<String> headers() {
    return headers;
  }

  /** All rows, with a closing line giving the row count. */
  public String render() {
    return render(Integer.MAX_VALUE);
  }

  /**
   * At most {@code maxRows} rows; if some are left out, the closing line says how many. The lines
   * end with {@code \n}.
   */
  public String render(int maxRows) {
    int shown = Math.min(Math.max(0, maxRows), rows.size());
    int width = headers.size();
    String[][] cells = new String[shown][width];
    boolean[] numeric = new boolean[width];
    int[] widths = new int[width];
    for (int c = 0; c < width; c++) {
      widths[c] = shorten(headers.get(c)).length();
      numeric[c] = isNumericColumn(c);
    }
    for (int r = 0; r < shown; r++) {
      for (int c = 0; c < width; c++) {
        cells[r][c] = shorten(format(rows.get(r).get(c)));
        widths[c] = Math.max(widths[c], cells[r][c].length());
      }
    }
    StringBuilder out = new StringBuilder();
    String rule = rule(widths);
    out.append(rule);
    appendLine(out, headers.stream().map(TextTable::shorten).toArray(String[]::new), widths, numeric);
    out.append(rule);
    for (int r = 0; r < shown; r++) {
      appendLine(out, cells[r], widths, numeric);
    }
    if (shown > 0) {
      out.append(rule);
    }
    int hidden = rows.size() - shown;
    if (hidden > 0) {
      out.append("(").append(rows.size()).append(" rows, the last ").append(hidden)
          .append(hidden == 1 ? " is" : " are").append(" not shown)\n");
    } else {
      out.append("(").append(rows.size()).append(rows.size() == 1 ? " row)\n" : " rows)\n");
    }
    return out.toString();
  }

  @Override
  public String toString() {
    return render();
  }

  /**
   * The text of one value: whole numbers without decimals; other numbers with 2 decimals when at
   * least 1 in size, smaller ones with up to 6 decimals; exact decimals with 1 or 2 places as they
   * are (12.50 stays 12.50).
   */
  public static String format(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short
        || value instanceof Byte || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof BigDecimal decimal) {
      if (decimal.signum() == 0 || decimal.stripTrailingZeros().scale() <= 0) {
        return decimal.toBigInteger().toString();
      }
      if (decimal.scale() <= 2) {
        return decimal.toPlainString();
      }
      return formatDouble(decimal.doubleValue());
    }
    if (value instanceof Number number) {
      return formatDouble(number.doubleValue());
    }
    return value.toString();
  }

  private static String formatDouble(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return Double.toString(d);
    }
    if (d == 0) {
      return "0";
    }
    double abs = Math.abs(d);
    if (abs >= 1e15) {
      return String.format(Locale.ROOT, "%.6g", d);
    }
    if (d == Math.rint(d)) {
      return Long.toString((long) d);
    }
    if (abs >= 1) {
      return String.format(Locale.ROOT, "%.2f", d);
    }
    if (abs >= 1e-4) {
      return new BigDecimal(String.format(Locale.ROOT, "%.6f", d)).stripTrailingZeros().toPlainString();
    }
    return String.format(Locale.ROOT, "%.3g", d);
  }

  private boolean isNumericColumn(int column) {
    boolean any = false;
    for (List<Object> row : rows) {
      Object value = row.get(column);
      if (value == null) {
        continue;
      }
      if (!(value instanceof Number)) {
        return false;
      }
      any = true;
    }
    return any;
  }

  private static String shorten(String text) {
    String oneLine = text.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    if (oneLine.length() <= MAX_CELL_WIDTH) {
      return oneLine;
    }
    return oneLine.substring(0, MAX_CELL_WIDTH - 3) + "...";
  }

  private static String rule(int[] widths) {
    StringBuilder line = new StringBuilder("+");
    for (int w : widths) {
      line.append("-".repeat(w + 2)).append('+');
    }
    return line.append('\n').toString();
  }

  private static void appendLine(StringBuilder out, String[] cells, int[] widths, boolean[] numeric) {
    out.append('|');
    for (int c = 0; c < cells.length; c++) {
      String cell = cells[c];
      String pad = " ".repeat(widths[c] - cell.length());
      out.append(' ');
      if (numeric[c]) {
        out.append(pad).append(cell);
      } else {
        out.append(cell).append(pad);
      }
      out.append(" |");
    }
    out.append('\n');
  }
}
