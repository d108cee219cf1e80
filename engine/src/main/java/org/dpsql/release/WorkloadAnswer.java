package org.dpsql.release;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dpsql.policy.Clamp;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.WorkloadPlan;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.OutputItem;
import org.dpsql.sql.SortKey;
import org.dpsql.sql.WorkloadQuery;

/**
 * Builds the result table of a workload from the estimated answers of its linear queries (post
 * processing only: it never sees exact values in a release).
 *
 * <p>Output types: group keys as for single queries ({@link PrivateAnswer}), nullable (a key not in
 * a row's grouping set is NULL); COUNT and SUM are DOUBLE — least-squares estimates, unbiased,
 * consistent with each other, not rounded (except InfTDA's roll-ups, whose counts are integral:
 * BIGINT, see {@link #integralCounts}); AVG is SUM/COUNT, clamped into the column's bounds, and
 * NULL when the estimated count is below 1. With a {@code ci}, each aggregate {@code X} is followed
 * by {@code X_LOW} and {@code X_HIGH}: estimate ± z·(standard error), the normal interval of the
 * estimate (for AVG, the ratio of the SUM and COUNT intervals at (1+ci)/2 each).
 */
public final class WorkloadAnswer {
  private WorkloadAnswer() {}

  /** The result columns (no data needed). */
  public static List<ResultColumn> columns(WorkloadQuery query) {
    List<ResultColumn> cols = new ArrayList<>();
    Double ci = query.hint().ci();
    for (OutputItem o : query.outputs()) {
      ResultColumn c;
      if (o.isGroupKey()) {
        ResultColumn k = PrivateAnswer.column(o);
        c = new ResultColumn(k.label(), k.jdbcType(), k.typeName(), k.javaClass(), k.precision(),
            k.scale(), true);
      } else {
        c = ResultColumn.doubles(o.label(), o.aggregate() == AggregateKind.AVG);
      }
      cols.add(c);
      if (!o.isGroupKey() && ci != null) {
        cols.add(c.withLabel(o.label() + "_LOW"));
        cols.add(c.withLabel(o.label() + "_HIGH"));
      }
    }
    return cols;
  }

  /**
   * The result columns of a workload released by InfTDA (counts of rows over a hierarchy's
   * roll-up, see {@code org.dpsql.hierarchy.TopDownMechanism}): its counts are integral and
   * non-negative, so they are BIGINT; group keys as in {@link #columns(WorkloadQuery)}.
   */
  public static List<ResultColumn> integralCounts(WorkloadQuery query) {
    List<ResultColumn> cols = new ArrayList<>(columns(query));
    int col = 0;
    for (OutputItem o : query.outputs()) {
      if (!o.isGroupKey() && o.aggregate() == AggregateKind.COUNT_STAR) {
        cols.set(col, ResultColumn.bigint(o.label(), cols.get(col).nullable()));
      }
      col += o.isGroupKey() || query.hint().ci() == null ? 1 : 3;
    }
    return cols;
  }

  /**
   * The released table: {@code answers[m][row]} is the estimate of row {@code row} of measurement
   * {@code m}'s workload, in measurement units (counts, or sums in resolution steps);
   * {@code stdErrors} the same shape (may be null when no {@code ci} was asked for).
   */
  public static ResultTable build(WorkloadPlan plan, double[][] answers, double[][] stdErrors) {
    WorkloadQuery query = plan.query();
    List<ResultColumn> columns = columns(query);
    Double ci = query.hint().ci();
    double z = ci == null ? 0 : normalQuantile((1 + ci) / 2);
    double zHalf = ci == null ? 0 : normalQuantile((1 + (1 + ci) / 2) / 2);
    List<Measurement> ms = plan.measurements();
    List<Object[]> rows = new ArrayList<>();
    for (WorkloadPlan.ResultRow r : plan.results()) {
      AggregateQuery part = query.parts().get(r.part());
      Object[] keys = plan.partGroups().get(r.part()).keysOf(r.groupCell());
      Object[] row = new Object[columns.size()];
      int col = 0;
      for (int o = 0; o < part.outputs().size(); o++) {
        OutputItem item = part.outputs().get(o);
        ResultColumn rc = columns.get(col);
        if (item.isGroupKey()) {
          int k = part.groupBy().indexOf(item.column());
          row[col++] = k < 0 ? null : PrivateAnswer.convert(keys[k], rc);
          continue;
        }
        WorkloadPlan.Source v = r.value()[o];
        double value = answers[v.measurement()][v.row()];
        double unit = ms.get(v.measurement()).resolution().doubleValue();
        if (item.aggregate() == AggregateKind.AVG) {
          WorkloadPlan.Source n = r.count()[o];
          double count = answers[n.measurement()][n.row()];
          Clamp bounds = Measurement.bounds(item.column());
          row[col++] = average(value * unit, count, bounds);
          if (ci != null) {
            double sm = zHalf * stdErrors[v.measurement()][v.row()] * unit;
            double nm = zHalf * stdErrors[n.measurement()][n.row()];
            double[] range = averageRange(value * unit, sm, count, nm, bounds);
            row[col++] = range[0];
            row[col++] = range[1];
          }
        } else {
          row[col++] = value * unit;
          if (ci != null) {
            double m = z * stdErrors[v.measurement()][v.row()] * unit;
            row[col++] = value * unit - m;
            row[col++] = value * unit + m;
          }
        }
      }
      rows.add(row);
    }
    return new ResultTable(columns, sort(query, columns, rows));
  }

  private static List<Object[]> sort(WorkloadQuery query, List<ResultColumn> columns,
      List<Object[]> rows) {
    if (query.orderBy().isEmpty()) {
      return rows;
    }
    int[] position = new int[query.outputs().size()];
    int p = 0;
    for (int i = 0; i < position.length; i++) {
      position[i] = p;
      p += query.outputs().get(i).isGroupKey() || query.hint().ci() == null ? 1 : 3;
    }
    Comparator<Object[]> cmp = null;
    for (SortKey k : query.orderBy()) {
      int pos = position[k.outputIndex()];
      @SuppressWarnings({"unchecked", "rawtypes"})
      Comparator<Object[]> c = Comparator.comparing((Object[] r) -> (Comparable) r[pos],
          Comparator.nullsFirst(Comparator.<Comparable>naturalOrder()));
      if (k.descending()) {
        c = c.reversed();
      }
      cmp = cmp == null ? c : cmp.thenComparing(c);
    }
    List<Object[]> out = new ArrayList<>(rows);
    out.sort(cmp);
    return out;
  }

  private static Double average(double sum, double count, Clamp bounds) {
    if (!(count >= 1)) {
      return null;
    }
    double avg = sum / count;
    return Math.min(bounds.hi().doubleValue(), Math.max(bounds.lo().doubleValue(), avg));
  }

  private static double[] averageRange(double sum, double sumMargin, double count,
      double countMargin, Clamp bounds) {
    double blo = bounds.lo().doubleValue();
    double bhi = bounds.hi().doubleValue();
    double cLo = count - countMargin;
    double cHi = count + countMargin;
    if (cLo < 1) {
      return new double[] {blo, bhi};
    }
    double sLo = sum - sumMargin;
    double sHi = sum + sumMargin;
    double lo = Math.min(Math.min(sLo / cLo, sLo / cHi), Math.min(sHi / cLo, sHi / cHi));
    double hi = Math.max(Math.max(sLo / cLo, sLo / cHi), Math.max(sHi / cLo, sHi / cHi));
    return new double[] {Math.min(bhi, Math.max(blo, lo)), Math.min(bhi, Math.max(blo, hi))};
  }

  /** The standard normal quantile {@code Φ⁻¹(p)} (Commons Math). */
  public static double normalQuantile(double p) {
    return new org.apache.commons.math3.distribution.NormalDistribution(null, 0, 1)
        .inverseCumulativeProbability(p);
  }
}
