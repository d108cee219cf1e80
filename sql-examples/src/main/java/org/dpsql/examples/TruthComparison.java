package org.dpsql.examples;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A noisy (DP) answer set side by side with the true answer, cell by cell.
 *
 * <p>Both results start with the same {@code k} group-key columns, followed by the value columns
 * in the same order. In the noisy result a value column {@code X} may be followed by confidence
 * bounds {@code X_LOW} and {@code X_HIGH}. Rows are joined on the keys: the noisy result drives
 * (dpsql returns every cell of the policy domain, zeros included), and a cell missing from the
 * true result is a group without rows, whose true COUNT or SUM is 0 and whose AVG is undefined.
 *
 * <p>Per value column this gives the absolute error of each cell, the root mean squared error
 * (RMSE) over the cells, and, with confidence bounds, how many true values the intervals caught.
 */
public final class TruthComparison {

  /**
   * Error summary of one value column.
   *
   * @param column the noisy column's label
   * @param cells cells with both a noisy and a true value
   * @param rmse root mean squared error over those cells
   * @param maxAbsError largest absolute error
   * @param meanAbsTruth mean absolute true value (the scale the error should be judged against)
   * @param intervals cells with a confidence interval (0 without {@code ci})
   * @param covered cells whose interval contains the true value
   */
  public record ColumnError(
      String column,
      int cells,
      double rmse,
      double maxAbsError,
      double meanAbsTruth,
      int intervals,
      int covered) {}

  /** How the noisy columns map to values: value index to noisy column, and its bounds if any. */
  private record ValueColumn(String label, int noisy, int low, int high) {}

  private final TextTable table;
  private final List<ColumnError> errors;
  private final List<String> notes;
  private final int missingGroups;

  private TruthComparison(TextTable table, List<ColumnError> errors, List<String> notes,
      int missingGroups) {
    this.missingGroups = missingGroups;
    this.table = table;
    this.errors = List.copyOf(errors);
    this.notes = List.copyOf(notes);
  }

  /**
   * Joins {@code noisy} and {@code truth}.
   *
   * @param keyCount number of leading group-key columns in both results
   * @param zeroWhenEmpty per value column: whether a missing or NULL true value means 0 (COUNT,
   *     SUM) rather than "undefined" (AVG); shorter lists default to undefined
   * @throws IllegalArgumentException if the two results do not have the same shape
   */
  public static TruthComparison compare(
      QueryResult noisy, QueryResult truth, int keyCount, List<Boolean> zeroWhenEmpty) {
    List<ValueColumn> values = valueColumns(noisy, keyCount);
    int truthValues = truth.width() - keyCount;
    if (keyCount > noisy.width() || truthValues < 0 || truthValues != values.size()) {
      throw new IllegalArgumentException(
          "the answer has "
              + keyCount
              + " key and "
              + values.size()
              + " value columns, but the true result has "
              + truth.width()
              + " columns in all; they cannot be matched");
    }
    Map<List<String>, List<Object>> truthByKey = new HashMap<>();
    for (List<Object> row : truth.rows()) {
      List<String> key = key(row, keyCount);
      if (truthByKey.put(key, row) != null) {
        throw new IllegalArgumentException("the true result has the group " + key + " twice");
      }
    }

    List<String> headers = new ArrayList<>(noisy.columns().subList(0, keyCount));
    boolean single = values.size() == 1;
    for (ValueColumn value : values) {
      headers.add(value.label);
      if (value.low >= 0) {
        headers.add(noisy.columns().get(value.low));
        headers.add(noisy.columns().get(value.high));
      }
      headers.add(single ? "true" : value.label + " true");
      headers.add(single ? "|error|" : value.label + " |error|");
      if (value.low >= 0) {
        headers.add(single ? "in CI" : value.label + " in CI");
      }
    }
    TextTable table = new TextTable(headers);

    int n = values.size();
    int[] cells = new int[n];
    double[] squares = new double[n];
    double[] maxAbs = new double[n];
    double[] sumAbsTruth = new double[n];
    int[] intervals = new int[n];
    int[] covered = new int[n];
    Set<List<String>> seen = new LinkedHashSet<>();
    for (List<Object> row : noisy.rows()) {
      List<String> key = key(row, keyCount);
      seen.add(key);
      List<Object> truthRow = truthByKey.get(key);
      List<Object> out = new ArrayList<>(row.subList(0, keyCount));
      for (int v = 0; v < n; v++) {
        ValueColumn value = values.get(v);
        boolean zero = v < zeroWhenEmpty.size() && Boolean.TRUE.equals(zeroWhenEmpty.get(v));
        Double trueValue = truthRow == null ? null : toDouble(truthRow.get(keyCount + v));
        if (trueValue == null && zero) {
          trueValue = 0.0;
        }
        Double noisyValue = toDouble(row.get(value.noisy));
        Double error =
            trueValue == null || noisyValue == null ? null : Math.abs(noisyValue - trueValue);
        out.add(row.get(value.noisy));
        if (value.low >= 0) {
          out.add(row.get(value.low));
          out.add(row.get(value.high));
        }
        out.add(trueValue == null ? null : displayTruth(truthRow, keyCount + v, trueValue));
        out.add(error != null && isInteger(row.get(value.noisy)) && error == Math.rint(error)
            ? (Object) error.longValue() : error);
        if (error != null) {
          cells[v]++;
          squares[v] += error * error;
          maxAbs[v] = Math.max(maxAbs[v], error);
          sumAbsTruth[v] += Math.abs(trueValue);
        }
        if (value.low >= 0) {
          Double low = toDouble(row.get(value.low));
          Double high = toDouble(row.get(value.high));
          String inside = null;
          if (trueValue != null && low != null && high != null) {
            intervals[v]++;
            boolean in = low <= trueValue && trueValue <= high;
            if (in) {
              covered[v]++;
            }
            inside = in ? "yes" : "no";
          }
          out.add(inside);
        }
      }
      table.addRow(out);
    }

    List<ColumnError> errors = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      double rmse = cells[v] == 0 ? Double.NaN : Math.sqrt(squares[v] / cells[v]);
      double meanTruth = cells[v] == 0 ? Double.NaN : sumAbsTruth[v] / cells[v];
      errors.add(
          new ColumnError(values.get(v).label, cells[v], rmse, maxAbs[v], meanTruth, intervals[v], covered[v]));
    }
    List<String> notes = new ArrayList<>();
    List<List<String>> missing = new ArrayList<>();
    for (List<String> key : truthByKey.keySet()) {
      if (!seen.contains(key)) {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) { // always the last note
      notes.add(
          missing.size()
              + " group(s) of the true result are missing from the answer, e.g. "
              + missing.get(0)
              + ": every cell of the policy domain should be returned");
    }
    return new TruthComparison(table, errors, notes, missing.size());
  }

  /** The number of true groups the answer lacks (also reported in {@link #notes()}). */
  public int missingGroups() {
    return missingGroups;
  }

  /** {@link #notes()} without the one about true groups the answer lacks. */
  public List<String> notesBesidesMissingGroups() {
    return missingGroups == 0 ? notes : notes.subList(0, notes.size() - 1);
  }

  /** The noisy answer with the true value and the absolute error next to each noisy value. */
  public TextTable table() {
    return table;
  }

  public List<ColumnError> errors() {
    return errors;
  }

  /** Problems found while joining (e.g. true groups the answer lacks); empty if none. */
  public List<String> notes() {
    return notes;
  }

  /** One or two plain-English lines per value column: RMSE, scale, interval coverage. */
  public List<String> summary() {
    List<String> lines = new ArrayList<>();
    for (ColumnError e : errors) {
      if (e.cells() == 0) {
        lines.add(e.column() + ": no cell has a defined true value to compare with");
        continue;
      }
      StringBuilder line = new StringBuilder(e.column()).append(": ");
      if (e.cells() == 1) {
        line.append("error ").append(TextTable.format(e.rmse()));
      } else {
        line.append("RMSE ")
            .append(TextTable.format(e.rmse()))
            .append(" over ")
            .append(e.cells())
            .append(" cells (largest |error| ")
            .append(TextTable.format(e.maxAbsError()))
            .append(')');
      }
      if (e.meanAbsTruth() > 0) {
        line.append(e.cells() == 1 ? ", that is " : ", about ")
            .append(percent(e.rmse() / e.meanAbsTruth()))
            .append(e.cells() == 1 ? " of the true value " : " of the typical true value ")
            .append(TextTable.format(e.meanAbsTruth()));
      }
      lines.add(line.toString());
      if (e.intervals() > 0) {
        lines.add(
            "  the true value is inside the confidence interval in "
                + e.covered()
                + " of "
                + e.intervals()
                + " cells");
      }
    }
    return lines;
  }

  /** A fraction as a percentage with two significant digits or so: 0.031%, 2.4%, 216%. */
  static String percent(double fraction) {
    double p = 100 * fraction;
    String digits;
    if (p >= 10) {
      digits = String.format(Locale.ROOT, "%.0f", p);
    } else if (p >= 1) {
      digits = String.format(Locale.ROOT, "%.1f", p);
    } else if (p >= 0.01) {
      digits = String.format(Locale.ROOT, "%.2g", p);
    } else {
      return "less than 0.01%";
    }
    return digits + "%";
  }

  /** Noisy value columns after the keys; {@code X_LOW}/{@code X_HIGH} attach to the X before them. */
  private static List<ValueColumn> valueColumns(QueryResult noisy, int keyCount) {
    List<ValueColumn> values = new ArrayList<>();
    List<String> columns = noisy.columns();
    int i = keyCount;
    while (i < columns.size()) {
      String label = columns.get(i);
      if (i + 2 < columns.size()
          && columns.get(i + 1).equalsIgnoreCase(label + "_LOW")
          && columns.get(i + 2).equalsIgnoreCase(label + "_HIGH")) {
        values.add(new ValueColumn(label, i, i + 1, i + 2));
        i += 3;
      } else {
        values.add(new ValueColumn(label, i, -1, -1));
        i++;
      }
    }
    return values;
  }

  /** Join key: keys as text, numbers normalised so that 8, 8L, 8.0 and 8.00 all match. */
  static List<String> key(List<Object> row, int keyCount) {
    List<String> key = new ArrayList<>(keyCount);
    for (int i = 0; i < keyCount; i++) {
      Object value = row.get(i);
      if (value == null) {
        key.add(null);
      } else if (value instanceof Number number) {
        BigDecimal decimal =
            number instanceof BigDecimal d ? d : new BigDecimal(number.toString());
        key.add(decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString());
      } else {
        key.add(value.toString().strip());
      }
    }
    return key;
  }

  /** The true value as the backend returned it when it has one, else the number we derived. */
  private static Object displayTruth(List<Object> truthRow, int index, double value) {
    if (truthRow != null && truthRow.get(index) instanceof Number number) {
      return number;
    }
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Object) (long) value : value;
  }

  private static boolean isInteger(Object value) {
    return value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof BigInteger
        || value instanceof BigDecimal d && d.scale() <= 0;
  }

  static Double toDouble(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Number number) {
      return number.doubleValue();
    }
    try {
      return Double.parseDouble(value.toString().strip());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
