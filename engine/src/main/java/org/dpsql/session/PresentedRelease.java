package org.dpsql.session;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.release.ResultColumn;
import org.dpsql.release.ResultTable;
import org.dpsql.sql.OutputItem;
import org.dpsql.sql.SortKey;

/**
 * A statement's result computed from the rows of the release that answers it ({@link
 * org.dpsql.sql.AnalyzedStatement.Released}): the outputs it picks, under its names, its rows
 * sorted and cut as it asks. Pure post-processing of released rows: nothing is measured or
 * charged here.
 *
 * <p>An aggregate output of a release occupies three columns when the release carries confidence
 * intervals (the estimate, {@code _LOW}, {@code _HIGH}), a group key one; the picked columns keep
 * that layout under the statement's labels.
 */
final class PresentedRelease {
  private final List<Integer> positions; // per statement output: its first column in the release
  private final List<Integer> widths;
  private final List<ResultColumn> columns;
  private final List<SortKey> orderBy;
  private final Long offset;
  private final Long fetch;

  /**
   * How a statement with {@code outputs} (in order, with its labels) shows the release whose
   * outputs are {@code releaseOutputs} and whose columns are {@code releaseColumns}; output
   * {@code i} shows release output {@code pick.get(i)}.
   */
  PresentedRelease(List<OutputItem> releaseOutputs, List<ResultColumn> releaseColumns,
      boolean intervals, List<OutputItem> outputs, List<Integer> pick, List<SortKey> orderBy,
      Long offset, Long fetch) {
    int[] start = new int[releaseOutputs.size()];
    int[] width = new int[releaseOutputs.size()];
    int p = 0;
    for (int j = 0; j < start.length; j++) {
      start[j] = p;
      width[j] = releaseOutputs.get(j).isGroupKey() || !intervals ? 1 : 3;
      p += width[j];
    }
    this.positions = new ArrayList<>();
    this.widths = new ArrayList<>();
    this.columns = new ArrayList<>();
    for (int i = 0; i < outputs.size(); i++) {
      int j = pick.get(i);
      String label = outputs.get(i).label();
      positions.add(start[j]);
      widths.add(width[j]);
      columns.add(releaseColumns.get(start[j]).withLabel(label));
      if (width[j] == 3) {
        columns.add(releaseColumns.get(start[j] + 1).withLabel(label + "_LOW"));
        columns.add(releaseColumns.get(start[j] + 2).withLabel(label + "_HIGH"));
      }
    }
    this.orderBy = List.copyOf(orderBy);
    this.offset = offset;
    this.fetch = fetch;
  }

  /** The statement's result columns. */
  List<ResultColumn> columns() {
    return List.copyOf(columns);
  }

  /** The statement's rows from the release's {@code released} rows. */
  ResultTable answer(ResultTable released) {
    List<Object[]> rows = new ArrayList<>(released.rows().size());
    for (Object[] r : released.rows()) {
      Object[] out = new Object[columns.size()];
      int c = 0;
      for (int i = 0; i < positions.size(); i++) {
        for (int k = 0; k < widths.get(i); k++) {
          out[c++] = r[positions.get(i) + k];
        }
      }
      rows.add(out);
    }
    if (!orderBy.isEmpty()) {
      int[] first = new int[positions.size()];
      for (int i = 1; i < first.length; i++) {
        first[i] = first[i - 1] + widths.get(i - 1);
      }
      rows.sort(SortKey.rowOrder(orderBy, i -> first[i])); // stable: ties keep the release's order
    }
    int from = (int) Math.min(offset == null ? 0 : offset, rows.size());
    long to = fetch == null ? rows.size() : Math.min(rows.size(), from + fetch);
    return new ResultTable(columns(), new ArrayList<>(rows.subList(from, (int) to)));
  }
}
