package org.dpsql.release;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.mechanism.RandomBits;
import org.dpsql.policy.Clamp;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;
import org.dpsql.rewrite.Measurement;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.ReleasedCells;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.OutputItem;
import org.dpsql.sql.SortKey;

/**
 * Turns the exact measurements of a plan into the released result table: adds noise to every cell
 * of every measurement (zeros included), then derives each output column by post-processing only
 * (AVG = noisy SUM / noisy COUNT, clamped into the bounds; confidence intervals from the exact
 * noise distribution; ORDER BY / OFFSET / FETCH on the noisy table).
 *
 * <p>Output types: group keys keep the column's kind (integer bins and integer categorical values
 * as BIGINT, other numbers as DECIMAL, text as VARCHAR); COUNT is BIGINT and may be negative (the
 * noise is unbiased, and left so); SUM is BIGINT for integer columns, otherwise DECIMAL at the
 * measurement's resolution; AVG is DOUBLE and NULL when the noisy count is not positive. With a
 * {@code ci} in the hint, each aggregate {@code X} is followed by {@code X_LOW} and {@code X_HIGH}:
 * for COUNT and SUM, value ± the noise's {@code ci}-quantile of |noise| (exact coverage); for AVG,
 * the range of ratios over the SUM and COUNT intervals at confidence (1+ci)/2 each (coverage ≥ ci by
 * the union bound, ignoring the clamp bias).
 */
public final class PrivateAnswer {
  private PrivateAnswer() {}

  /** The result columns of a plan (needs no data: used to describe prepared statements). */
  public static List<ResultColumn> columns(MeasurementPlan plan) {
    List<ResultColumn> cols = new ArrayList<>();
    Double ci = plan.query().hint().ci();
    for (OutputItem o : plan.query().outputs()) {
      ResultColumn c = column(o);
      cols.add(c);
      if (!o.isGroupKey() && ci != null) {
        cols.add(c.withLabel(o.label() + "_LOW"));
        cols.add(c.withLabel(o.label() + "_HIGH"));
      }
    }
    return cols;
  }

  /** The result column of a group key (its domain's kind) or of an aggregate. */
  static ResultColumn column(OutputItem o) {
    if (o.isGroupKey()) {
      ColumnPolicy c = o.column();
      if (c.hasPrivateKeys()) {
        return PartitionRelease.keyColumn(o.label(), c);
      }
      if (c.categorical().isPresent()) {
        List<Object> values = c.categorical().get().values();
        // dates and date-times: the values of an expression of a time column's bins
        if (values.stream().allMatch(v -> v instanceof java.time.LocalDate)) {
          return ResultColumn.date(o.label(), false);
        }
        if (values.stream().allMatch(v -> v instanceof java.time.LocalDateTime)) {
          return ResultColumn.timestamp(o.label(), false);
        }
        boolean numeric = values.stream().allMatch(v -> v instanceof BigDecimal);
        if (!numeric) {
          return ResultColumn.varchar(o.label(), false);
        }
        return ColumnPolicy.isIntegerType(c.sqlType()) ? ResultColumn.bigint(o.label(), false)
            : ResultColumn.decimal(o.label(), maxScale(c.categorical().get().values()), false);
      }
      OrderedDomain d = c.ordered().orElseThrow();
      if (ColumnPolicy.isIntegerType(c.sqlType()) && Measurement.isWhole(d.min()) && Measurement.isWhole(d.bin())) {
        return ResultColumn.bigint(o.label(), false);
      }
      return ResultColumn.decimal(o.label(), Math.max(0, Math.max(d.min().scale(), d.bin().scale())),
          false);
    }
    return switch (o.aggregate()) {
      case COUNT_STAR, COUNT, COUNT_DISTINCT_UNIT, COUNT_DISTINCT ->
          ResultColumn.bigint(o.label(), false);
      case SUM -> {
        Measurement m = Measurement.sum(o.column());
        yield m.resolution().compareTo(BigDecimal.ONE) == 0
            && ColumnPolicy.isIntegerType(o.column().sqlType())
            ? ResultColumn.bigint(o.label(), false)
            : ResultColumn.decimal(o.label(), Math.max(0, m.resolution().scale()), false);
      }
      case AVG -> ResultColumn.doubles(o.label(), true);
      case QUANTILE -> ResultColumn.doubles(o.label(), false);
    };
  }

  /**
   * Adds noise to the exact measurements and builds the released rows of every cell of the plan.
   */
  public static ResultTable release(MeasurementPlan plan, long[][] exact, NoisePlan noise,
      RandomBits random) {
    return release(plan, exact, noise, random, ReleasedCells.all(plan.cells().size()));
  }

  /**
   * Adds noise to the exact measurements of every cell (those the filter excludes too, so the
   * noise of each returned cell is drawn exactly as in a release of them all) and builds the rows
   * of the cells {@code released} returns.
   */
  public static ResultTable release(MeasurementPlan plan, long[][] exact, NoisePlan noise,
      RandomBits random, ReleasedCells released) {
    int cells = plan.cells().size();
    List<Measurement> ms = plan.measurements();
    long[][] noisy = new long[ms.size()][cells];
    for (int m = 0; m < ms.size(); m++) {
      NoiseMechanism mech = noise.perMeasurement().get(m);
      for (int cell = 0; cell < cells; cell++) {
        noisy[m][cell] = mech.release(exact[m][cell], random);
      }
    }
    RowBuilder rows = new RowBuilder(plan, noise);
    List<Object[]> out = new ArrayList<>(released.count());
    long[] values = new long[ms.size()];
    for (int cell = 0; cell < cells; cell++) {
      if (!released.released(cell)) {
        continue;
      }
      Object[] keys = plan.cells().keysOf(cell);
      for (int m = 0; m < ms.size(); m++) {
        values[m] = noisy[m][cell];
      }
      out.add(rows.row(i -> keys[i], values));
    }
    return new ResultTable(rows.columns(), postProcess(plan, rows.columns(), out));
  }

  /**
   * Builds released rows of a plan from each group's keys and noisy measurements: group keys in
   * their result types, each aggregate read from its measurement (AVG as noisy SUM / noisy COUNT,
   * clamped into the bounds), and with a {@code ci} the interval columns.
   */
  static final class RowBuilder {
    private final MeasurementPlan plan;
    private final List<ResultColumn> columns;
    private final List<OutputItem> outputs;
    private final Double ci;
    private final long[] margin;
    private final long[] marginHalf;
    /** Per output: its index in GROUP BY (a key), or the measurement it reads (the sum for AVG). */
    private final int[] primary;
    /** Per AVG output: the measurement of its count. */
    private final int[] count;

    RowBuilder(MeasurementPlan plan, NoisePlan noise) {
      this.plan = plan;
      this.columns = PrivateAnswer.columns(plan);
      this.outputs = plan.query().outputs();
      this.ci = plan.query().hint().ci();
      List<Measurement> ms = plan.measurements();
      margin = new long[ms.size()];
      marginHalf = new long[ms.size()];
      if (ci != null) {
        for (int m = 0; m < ms.size(); m++) {
          margin[m] = noise.perMeasurement().get(m).marginAbs(ci);
          marginHalf[m] = noise.perMeasurement().get(m).marginAbs((1 + ci) / 2);
        }
      }
      primary = new int[outputs.size()];
      count = new int[outputs.size()];
      for (int o = 0; o < outputs.size(); o++) {
        OutputItem item = outputs.get(o);
        if (item.isGroupKey()) {
          primary[o] = plan.query().groupBy().indexOf(item.column());
          continue;
        }
        primary[o] = plan.indexOf(plan.measurementOf(item));
        if (item.aggregate() == AggregateKind.AVG) {
          count[o] = plan.indexOf(Measurement.count(item.column()));
        }
      }
    }

    List<ResultColumn> columns() {
      return columns;
    }

    /**
     * One released row: {@code key.apply(i)} is the value of the i-th GROUP BY column (a
     * declared cell's key as {@code CellDomain.keysOf} gives it, or a private key's backend value),
     * {@code noisy[m]} the noisy value of measurement m.
     */
    Object[] row(java.util.function.IntFunction<Object> key, long[] noisy) {
      List<Measurement> ms = plan.measurements();
      Object[] row = new Object[columns.size()];
      int col = 0;
      for (int o = 0; o < outputs.size(); o++) {
        OutputItem item = outputs.get(o);
        ResultColumn rc = columns.get(col);
        if (item.isGroupKey()) {
          row[col++] = convert(key.apply(primary[o]), rc);
        } else if (item.aggregate() == AggregateKind.AVG) {
          int si = primary[o];
          int ni = count[o];
          Measurement sum = ms.get(si);
          Clamp bounds = Measurement.bounds(item.column());
          row[col++] = average(noisy[si], noisy[ni], sum.resolution(), bounds);
          if (ci != null) {
            double[] range = averageRange(noisy[si], marginHalf[si], noisy[ni],
                marginHalf[ni], sum.resolution(), bounds);
            row[col++] = range[0];
            row[col++] = range[1];
          }
        } else {
          int mi = primary[o];
          long v = noisy[mi];
          row[col++] = scaled(v, ms.get(mi), rc);
          if (ci != null) {
            row[col++] = scaled(v - margin[mi], ms.get(mi), rc);
            row[col++] = scaled(v + margin[mi], ms.get(mi), rc);
          }
        }
      }
      return row;
    }
  }

  /**
   * The released table of a plan whose every aggregate is {@code COUNT(*)}, from one real estimate
   * per cell (e.g. from a spatial synopsis), for the cells {@code released} returns: keys as usual, counts rounded to the nearest integer
   * (post-processing), then ORDER BY / OFFSET / FETCH.
   */
  public static ResultTable estimates(MeasurementPlan plan, double[] perCell,
      ReleasedCells released) {
    List<ResultColumn> columns = columns(plan);
    List<OutputItem> outputs = plan.query().outputs();
    List<Object[]> rows = new ArrayList<>(perCell.length);
    for (int cell = 0; cell < perCell.length; cell++) {
      if (!released.released(cell)) {
        continue;
      }
      Object[] keys = plan.cells().keysOf(cell);
      Object[] row = new Object[columns.size()];
      for (int o = 0; o < outputs.size(); o++) {
        OutputItem item = outputs.get(o);
        if (item.isGroupKey()) {
          row[o] = convert(keys[plan.query().groupBy().indexOf(item.column())], columns.get(o));
        } else if (item.aggregate() == AggregateKind.COUNT_STAR) {
          row[o] = Math.round(perCell[cell]);
        } else {
          throw new IllegalArgumentException("only COUNT(*) has per-cell estimates: " + item);
        }
      }
      rows.add(row);
    }
    return new ResultTable(columns, postProcess(plan, columns, rows));
  }

  /**
   * A workload-style answer (DOUBLE estimates, see {@link WorkloadAnswer}) in the column types of a
   * single query: counts and integer sums rounded to the nearest integer, decimal sums to their
   * scale (post-processing of the estimates), then OFFSET / FETCH.
   */
  public static ResultTable conform(ResultTable estimates, List<ResultColumn> columns, Long offset,
      Long fetch) {
    List<Object[]> rows = new ArrayList<>();
    for (Object[] r : estimates.rows()) {
      Object[] out = new Object[columns.size()];
      for (int i = 0; i < out.length; i++) {
        Object v = r[i];
        ResultColumn c = columns.get(i);
        if (v instanceof Double d && c.jdbcType() == Types.BIGINT) {
          v = Math.round(d);
        } else if (v instanceof Double d && c.jdbcType() == Types.DECIMAL) {
          v = BigDecimal.valueOf(d).setScale(c.scale(), RoundingMode.HALF_EVEN);
        }
        out[i] = v;
      }
      rows.add(out);
    }
    long from = offset == null ? 0 : Math.min(offset, rows.size());
    long to = fetch == null ? rows.size() : Math.min(rows.size(), from + fetch);
    return new ResultTable(columns, rows.subList((int) from, (int) to));
  }

  static List<Object[]> postProcess(MeasurementPlan plan, List<ResultColumn> columns,
      List<Object[]> rows) {
    List<Object[]> out = new ArrayList<>(rows);
    if (!plan.query().orderBy().isEmpty()) {
      // map output indexes to result column positions (ci columns shift them)
      int[] position = new int[plan.query().outputs().size()];
      int p = 0;
      for (int i = 0; i < position.length; i++) {
        position[i] = p;
        p += plan.query().outputs().get(i).isGroupKey() || plan.query().hint().ci() == null ? 1 : 3;
      }
      out.sort(SortKey.rowOrder(plan.query().orderBy(), i -> position[i])); // stable: ties keep
      // the domain order
    }
    long offset = plan.query().offset() == null ? 0 : plan.query().offset();
    long fetch = plan.query().fetch() == null ? Long.MAX_VALUE : plan.query().fetch();
    int from = (int) Math.min(offset, out.size());
    int to = (int) Math.min(out.size(), from + Math.min(fetch, Integer.MAX_VALUE));
    return out.subList(from, to);
  }

  private static Object scaled(long steps, Measurement m, ResultColumn rc) {
    if (rc.jdbcType() == Types.BIGINT) {
      return steps;
    }
    return BigDecimal.valueOf(steps).multiply(m.resolution()).setScale(rc.scale(), RoundingMode.HALF_EVEN);
  }

  private static Double average(long sumSteps, long count, BigDecimal resolution, Clamp bounds) {
    if (count <= 0) {
      return null;
    }
    double avg = BigDecimal.valueOf(sumSteps).multiply(resolution)
        .divide(BigDecimal.valueOf(count), MathContext.DECIMAL64).doubleValue();
    return Math.min(bounds.hi().doubleValue(), Math.max(bounds.lo().doubleValue(), avg));
  }

  private static double[] averageRange(long sum, long sumMargin, long count, long countMargin,
      BigDecimal resolution, Clamp bounds) {
    long cLo = count - countMargin;
    long cHi = count + countMargin;
    if (cLo <= 0) {
      return new double[] {bounds.lo().doubleValue(), bounds.hi().doubleValue()};
    }
    double r = resolution.doubleValue();
    double sLo = (sum - sumMargin) * r;
    double sHi = (sum + sumMargin) * r;
    double lo = Math.min(Math.min(sLo / cLo, sLo / cHi), Math.min(sHi / cLo, sHi / cHi));
    double hi = Math.max(Math.max(sLo / cLo, sLo / cHi), Math.max(sHi / cLo, sHi / cHi));
    double blo = bounds.lo().doubleValue();
    double bhi = bounds.hi().doubleValue();
    return new double[] {Math.min(bhi, Math.max(blo, lo)), Math.min(bhi, Math.max(blo, hi))};
  }

  static Object convert(Object key, ResultColumn rc) {
    if (key instanceof java.time.LocalDate d) {
      return java.sql.Date.valueOf(d);
    }
    if (key instanceof java.time.LocalDateTime t) {
      return java.sql.Timestamp.valueOf(t);
    }
    if (rc.jdbcType() == Types.BIGINT) {
      return key instanceof BigDecimal b ? b.longValueExact() : ((Number) key).longValue();
    }
    if (rc.jdbcType() == Types.DECIMAL) {
      return ((BigDecimal) key).setScale(rc.scale(), RoundingMode.HALF_EVEN);
    }
    if (rc.jdbcType() == Types.DOUBLE && key instanceof Number n) {
      return n.doubleValue(); // a private key of a non-integer numeric column
    }
    if (rc.jdbcType() == Types.VARCHAR && key != null && !(key instanceof String)) {
      return key.toString(); // a private key of a column without a numeric or time type
    }
    return key;
  }

  private static int maxScale(List<Object> values) {
    int s = 0;
    for (Object v : values) {
      s = Math.max(s, ((BigDecimal) v).stripTrailingZeros().scale());
    }
    return s;
  }
}
