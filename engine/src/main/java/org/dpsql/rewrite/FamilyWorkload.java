package org.dpsql.rewrite;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.dpsql.errors.SqlStates;
import org.dpsql.matrix.PrefixWorkload;
import org.dpsql.matrix.UnionWorkload;
import org.dpsql.matrix.Workload;
import org.dpsql.matrix.Workloads;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.OrderedDomain;
import org.dpsql.policy.TimeDomain;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.FamilyQuery;

/**
 * A {@link FamilyQuery} as a closed-form workload over the COUNT(*) data vector of its columns'
 * cells (row-major in the order the columns are named), with a readable SQL-like description of
 * every query in the workload's row order. Ranges are never materialised for strategy selection.
 */
public final class FamilyWorkload {
  /** The most queries one family may release (each becomes a result row). */
  public static final long MAX_QUERIES = 5_000_000L;

  private final FamilyQuery query;
  private final CellDomain cells;
  private final Workload workload;

  private FamilyWorkload(FamilyQuery query, CellDomain cells, Workload workload) {
    this.query = query;
    this.cells = cells;
    this.workload = workload;
  }

  /** The workload of a family query. */
  public static FamilyWorkload of(FamilyQuery q) throws SQLException {
    CellDomain cells = new CellDomain(q.columns());
    int[] dims = q.columns().stream().mapToInt(ColumnPolicy::domainSize).toArray();
    Workload w = switch (q.family()) {
      case IDENTITY -> product(dims, allOf(dims.length), false);
      case PREFIX -> new PrefixWorkload(dims[0]);
      case ALL_RANGES -> product(dims, allOf(dims.length), true);
      case MARGINALS, RANGE_MARGINALS -> {
        List<Workload> parts = new ArrayList<>();
        for (int[] s : subsets(dims.length, q.k())) {
          parts.add(product(dims, s, q.family() == FamilyQuery.Family.RANGE_MARGINALS));
        }
        yield parts.size() == 1 ? parts.get(0) : new UnionWorkload(parts);
      }
    };
    if (q.output() == FamilyQuery.Output.QUERIES && w.queries() > MAX_QUERIES) {
      throw SqlStates.notSupported(q.describe() + " has " + w.queries() + " queries, more than "
          + MAX_QUERIES + " result rows: add the option 'output=cells' to release it as a "
          + "synopsis and return its " + cells.size() + " cell estimates (every later range, "
          + "prefix or marginal query over these columns is then answered from it for free), or "
          + "use fewer or coarser columns");
    }
    return new FamilyWorkload(q, cells, w);
  }

  public FamilyQuery query() {
    return query;
  }

  public CellDomain cells() {
    return cells;
  }

  public Workload workload() {
    return workload;
  }

  /** The plan that measures the COUNT(*) data vector over the cells (no filter). */
  public MeasurementPlan measurementPlan() {
    AggregateQuery whole = new AggregateQuery(query.table(), cells.columns(), List.of(), null,
        query.hint(), List.of(), null, null);
    return new MeasurementPlan(whole, cells, List.of(Measurement.countStar()));
  }

  /** A description of every query, in the row order of {@link #workload()}. */
  public List<String> descriptions() {
    List<ColumnPolicy> cols = query.columns();
    int d = cols.size();
    return switch (query.family()) {
      case IDENTITY -> productDescriptions(allOf(d), false);
      case PREFIX -> {
        List<String> out = new ArrayList<>();
        ColumnPolicy c = cols.get(0);
        for (int i = 0; i < c.domainSize(); i++) {
          out.add(range(c, 0, i));
        }
        yield out;
      }
      case ALL_RANGES -> productDescriptions(allOf(d), true);
      case MARGINALS, RANGE_MARGINALS -> {
        List<String> out = new ArrayList<>();
        for (int[] s : subsets(d, query.k())) {
          out.addAll(productDescriptions(s, query.family() == FamilyQuery.Family.RANGE_MARGINALS));
        }
        yield out;
      }
    };
  }

  /**
   * A description of every cell, in cell order (the rows of {@code output=cells}): the
   * conjunction of each column's condition selecting the cell's value or bin.
   */
  public List<String> cellDescriptions() {
    return productDescriptions(allOf(query.columns().size()), false);
  }

  /** The rows a statement returns: {@link #descriptions()} or {@link #cellDescriptions()}. */
  public List<String> rowDescriptions() {
    return query.output() == FamilyQuery.Output.CELLS ? cellDescriptions() : descriptions();
  }

  private List<String> productDescriptions(int[] subset, boolean ranges) {
    List<String> out = new ArrayList<>();
    out.add("");
    List<ColumnPolicy> cols = query.columns();
    for (int a = 0; a < cols.size(); a++) {
      boolean in = false;
      for (int s : subset) {
        in |= s == a;
      }
      if (!in) {
        continue; // summed over: one row, no condition
      }
      ColumnPolicy c = cols.get(a);
      List<String> factor = new ArrayList<>();
      int n = c.domainSize();
      for (int i = 0; i < n; i++) {
        if (!ranges) {
          factor.add(range(c, i, i));
        } else {
          for (int j = i; j < n; j++) {
            factor.add(range(c, i, j));
          }
        }
      }
      List<String> next = new ArrayList<>(out.size() * factor.size());
      for (String prefix : out) {
        for (String f : factor) {
          next.add(prefix.isEmpty() ? f : prefix + " AND " + f);
        }
      }
      out = next;
    }
    if (out.size() == 1 && out.get(0).isEmpty()) {
      return List.of("all rows");
    }
    return out;
  }

  /** The condition selecting cells {@code a..b} of a column. */
  static String range(ColumnPolicy c, int a, int b) {
    if (c.categorical().isPresent()) {
      List<Object> values = c.categorical().get().values();
      if (a == b) {
        return c.name() + " = " + literal(values.get(a));
      }
      List<String> in = new ArrayList<>();
      for (int i = a; i <= b; i++) {
        in.add(literal(values.get(i)));
      }
      return c.name() + " IN (" + String.join(", ", in) + ")";
    }
    if (c.time().isPresent()) {
      return timeRange(c, c.time().get(), a, b);
    }
    OrderedDomain d = c.ordered().orElseThrow();
    BigDecimal lo = d.lowerEdge(a);
    BigDecimal next = d.lowerEdge(b).add(d.bin());
    boolean last = next.compareTo(d.max()) > 0;
    boolean integer = ColumnPolicy.isIntegerType(c.sqlType())
        && d.min().stripTrailingZeros().scale() <= 0 && d.bin().stripTrailingZeros().scale() <= 0;
    if (integer) {
      BigDecimal hi = last ? d.max() : next.subtract(BigDecimal.ONE);
      return lo.compareTo(hi) == 0 ? c.name() + " = " + lo.toPlainString()
          : c.name() + " BETWEEN " + lo.toPlainString() + " AND " + hi.toPlainString();
    }
    return c.name() + " >= " + lo.toPlainString() + " AND " + c.name()
        + (last ? " <= " + d.max().toPlainString() : " < " + next.toPlainString());
  }

  /**
   * The condition selecting bins {@code a..b} of a time column, as SQL the relational front end
   * accepts on it: {@code PICKUP_AT >= TIMESTAMP '2025-03-01 00:00:00' AND PICKUP_AT < TIMESTAMP
   * '2025-03-08 00:00:00'} (the bins' start and the next bin's start); a DATE column in day bins
   * by its dates ({@code = DATE '2025-03-01'}, {@code BETWEEN}).
   */
  static String timeRange(ColumnPolicy c, TimeDomain d, int a, int b) {
    boolean date = c.sqlType() == java.sql.Types.DATE;
    LocalDateTime lo = d.binStart(a);
    LocalDateTime next = b + 1 < d.cells() ? d.binStart(b + 1) : d.end();
    if (date && d.unit() == TimeDomain.Unit.DAY) {
      LocalDate last = next.toLocalDate().minusDays(1);
      return a == b ? c.name() + " = DATE '" + lo.toLocalDate() + "'"
          : c.name() + " BETWEEN DATE '" + lo.toLocalDate() + "' AND DATE '" + last + "'";
    }
    return c.name() + " >= " + timeLiteral(lo, date) + " AND " + c.name() + " < "
        + timeLiteral(next, date);
  }

  private static String timeLiteral(LocalDateTime t, boolean date) {
    return date ? "DATE '" + t.toLocalDate() + "'"
        : "TIMESTAMP '" + t.toLocalDate() + " " + String.format("%02d:%02d:%02d", t.getHour(),
            t.getMinute(), t.getSecond()) + "'";
  }

  private static String literal(Object v) {
    return v instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(v);
  }

  private static Workload product(int[] dims, int[] subset, boolean ranges) {
    return ranges ? Workloads.rangeMarginal(dims, subset) : Workloads.marginal(dims, subset);
  }

  private static int[] allOf(int d) {
    int[] s = new int[d];
    for (int i = 0; i < d; i++) {
      s[i] = i;
    }
    return s;
  }

  private static List<int[]> subsets(int d, int k) {
    return Workloads.subsets(d, k);
  }
}
