package org.dpsql.rewrite;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.dpsql.errors.SqlStates;
import org.dpsql.matrix.SparseWorkload;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;
import org.dpsql.sql.AggregateKind;
import org.dpsql.sql.AggregateQuery;
import org.dpsql.sql.OutputItem;
import org.dpsql.sql.WorkloadQuery;

/**
 * A batch of private aggregates rewritten as linear queries over data vectors (seed 001 §1): the
 * cells are the cross product of the policy domains of every column the batch groups or filters
 * on; each distinct measurement (COUNT(*), COUNT(col), SUM(col)) has one data vector over those
 * cells, measured with one pushed-down GROUP BY; each released number is a 0/1 combination of one
 * data vector's cells (AVG is SUM over COUNT of the same cells).
 *
 * <p>Guarantee: for rows whose cell columns lie in the policy domain, each query's exact answer
 * {@code Σ_{cells in row} x_cell} equals the backend's own answer to that aggregate (see {@link
 * CellPredicate}); a filter that would make this false is refused at construction (XDP03).
 */
public final class WorkloadPlan {

  /** Where one released value comes from: a row of a measurement's workload. */
  public record Source(int measurement, int row) {}

  /** One result row of one part: its group cell and, per output, the source(s) of its value. */
  public record ResultRow(int part, int groupCell, Source[] value, Source[] count) {}

  private final WorkloadQuery query;
  private final CellDomain cells;
  private final List<Measurement> measurements;
  private final List<SparseWorkload> workloads;
  private final List<ResultRow> results;
  private final List<CellDomain> partGroups;
  private final List<ReleasedCells> partReleased;

  private WorkloadPlan(WorkloadQuery query, CellDomain cells, List<Measurement> measurements,
      List<SparseWorkload> workloads, List<ResultRow> results, List<CellDomain> partGroups,
      List<ReleasedCells> partReleased) {
    this.partReleased = List.copyOf(partReleased);
    this.query = query;
    this.cells = cells;
    this.measurements = List.copyOf(measurements);
    this.workloads = List.copyOf(workloads);
    this.results = List.copyOf(results);
    this.partGroups = List.copyOf(partGroups);
  }

  /**
   * Rewrites a workload for the given statement parameters (filters may use them).
   *
   * @throws SQLException XDP03 when a filter cannot be evaluated exactly on the cells
   */
  public static WorkloadPlan of(WorkloadQuery query, List<Object> parameters) throws SQLException {
    return of(query, parameters, CellDomain.MAX_CELLS);
  }

  /**
   * The number of cells of the workload's data vectors (the product of the policy domain sizes of
   * the columns it groups or filters on), computed without building the plan; saturates at {@link
   * Long#MAX_VALUE}.
   *
   * @throws SQLException XDP03 when a filtered column has no public domain
   */
  public static long cellCount(WorkloadQuery query) throws SQLException {
    long n = 1;
    for (ColumnPolicy c : cellColumns(query)) {
      n = c.domainSize() == 0 ? 0 : (n > Long.MAX_VALUE / c.domainSize() ? Long.MAX_VALUE
          : n * c.domainSize());
    }
    return n;
  }

  /** The columns of the workload's cells, in policy column order. */
  private static List<ColumnPolicy> cellColumns(WorkloadQuery query) throws SQLException {
    TablePolicy table = query.table();
    Set<ColumnPolicy> touched = new LinkedHashSet<>();
    for (AggregateQuery part : query.parts()) {
      for (ColumnPolicy c : part.groupBy()) {
        touched.add(base(part, c));
      }
      for (OutputItem o : part.outputs()) {
        if (o.isGroupKey()) {
          touched.add(base(part, o.column()));
        }
      }
      for (PublicJoin j : part.joins()) {
        touched.add(j.key()); // the join drops the rows of keys without a public row
      }
      if (part.where() != null) {
        for (String name : FilterColumns.of(part.where())) {
          ColumnPolicy c = base(part, part.column(name).orElseThrow());
          if (!c.hasDomain()) {
            throw SqlStates.notSupported("column " + c.name() + " is filtered in a workload but has "
                + "no public domain in the policy (values, or min/max/bin): workload queries are "
                + "sums of cells, and cells come from domains. Filter on columns with a domain");
          }
          touched.add(c);
        }
      }
    }
    // cells in policy column order, so equal column sets give equal data vectors
    List<ColumnPolicy> cellColumns = new ArrayList<>();
    for (ColumnPolicy c : table.columns().values()) {
      if (touched.contains(c)) {
        cellColumns.add(c);
      }
    }
    return cellColumns;
  }

  /** As {@link #of(WorkloadQuery, List)}, with at most {@code maxCells} cells (else XDP03). */
  public static WorkloadPlan of(WorkloadQuery query, List<Object> parameters, int maxCells)
      throws SQLException {
    List<ColumnPolicy> cellColumns = cellColumns(query);
    CellDomain cells = new CellDomain(cellColumns, maxCells);

    List<Measurement> measurements = new ArrayList<>();
    List<List<int[]>> rowsByMeasurement = new ArrayList<>();
    List<ResultRow> results = new ArrayList<>();
    List<CellDomain> partGroups = new ArrayList<>();
    List<ReleasedCells> partReleased = new ArrayList<>();
    for (int p = 0; p < query.parts().size(); p++) {
      AggregateQuery part = query.parts().get(p);
      List<PublicJoin.Derived> derived = new ArrayList<>();
      part.joins().forEach(j -> derived.addAll(j.derived()));
      boolean[] mask = CellPredicate.compile(part.where(), cells, parameters, derived).mask();
      for (PublicJoin j : part.joins()) {
        keepMatched(cells, j, mask);
      }
      CellDomain groups = new CellDomain(part.groupBy(), maxCells);
      partGroups.add(groups);
      int[][] groupRows = groupRows(cells, groups, mask, part);
      // the groups the part's filter may contain (ReleasedCells: a public function of the
      // statement and the domains); a query without GROUP BY returns its one row
      ReleasedCells released = ReleasedCells.ofGroups(groupRows, !part.groupBy().isEmpty(),
          cells, groups, query.table());
      partReleased.add(released);
      List<Integer> kept = new ArrayList<>();
      for (int g = 0; g < groups.size(); g++) {
        if (released.released(g)) {
          kept.add(g);
        }
      }
      List<OutputItem> outs = part.outputs();
      // the measurement rows of this part, added once per measurement
      List<Measurement> partMeasurements = new ArrayList<>();
      for (OutputItem o : outs) {
        if (o.isGroupKey()) {
          continue;
        }
        for (Measurement m : measurementsOf(o)) {
          if (!partMeasurements.contains(m)) {
            partMeasurements.add(m);
          }
        }
      }
      int[] firstRow = new int[partMeasurements.size()];
      int[] measurementIndex = new int[partMeasurements.size()];
      for (int i = 0; i < partMeasurements.size(); i++) {
        Measurement m = partMeasurements.get(i);
        int mi = measurements.indexOf(m);
        if (mi < 0) {
          measurements.add(m);
          rowsByMeasurement.add(new ArrayList<>());
          mi = measurements.size() - 1;
        }
        measurementIndex[i] = mi;
        List<int[]> rows = rowsByMeasurement.get(mi);
        firstRow[i] = rows.size();
        for (int g : kept) {
          rows.add(groupRows[g]);
        }
      }
      for (int k = 0; k < kept.size(); k++) {
        int g = kept.get(k);
        Source[] value = new Source[outs.size()];
        Source[] count = new Source[outs.size()];
        for (int o = 0; o < outs.size(); o++) {
          OutputItem item = outs.get(o);
          if (item.isGroupKey()) {
            continue;
          }
          List<Measurement> ms = measurementsOf(item);
          int i = partMeasurements.indexOf(ms.get(0));
          value[o] = new Source(measurementIndex[i], firstRow[i] + k);
          if (ms.size() > 1) {
            int j = partMeasurements.indexOf(ms.get(1));
            count[o] = new Source(measurementIndex[j], firstRow[j] + k);
          }
        }
        results.add(new ResultRow(p, g, value, count));
      }
    }
    List<SparseWorkload> workloads = new ArrayList<>();
    for (List<int[]> rows : rowsByMeasurement) {
      workloads.add(new SparseWorkload(cells.size(), rows.toArray(new int[0][])));
    }
    return new WorkloadPlan(query, cells, measurements, workloads, results, partGroups,
        partReleased);
  }

  /** The private column a query's column is measured through: its join key for a public column. */
  private static ColumnPolicy base(AggregateQuery part, ColumnPolicy c) {
    return part.derived(c).map(PublicJoin.Derived::key).orElse(c);
  }

  /** Clears the mask of the cells whose join key has no row in the public table. */
  private static void keepMatched(CellDomain cells, PublicJoin join, boolean[] mask) {
    boolean[] matched = join.matched();
    int index = cells.columns().indexOf(join.key());
    int stride = 1;
    for (int i = cells.columns().size() - 1; i > index; i--) {
      stride *= cells.columns().get(i).domainSize();
    }
    int size = matched.length;
    for (int cell = 0; cell < mask.length; cell++) {
      if (!matched[(cell / stride) % size]) {
        mask[cell] = false;
      }
    }
  }

  /** The measurements an output needs: one, or SUM then COUNT(col) for AVG. */
  static List<Measurement> measurementsOf(OutputItem o) throws SQLException {
    AggregateKind k = o.aggregate();
    return switch (k) {
      case COUNT_STAR -> List.of(Measurement.countStar());
      case COUNT -> List.of(Measurement.count(o.column()));
      case SUM -> List.of(Measurement.sum(o.column()));
      case AVG -> List.of(Measurement.sum(o.column()), Measurement.count(o.column()));
      case COUNT_DISTINCT_UNIT, COUNT_DISTINCT -> throw SqlStates.notSupported(
          "COUNT(DISTINCT ...) is answered per query, not in workloads");
      case QUANTILE -> throw SqlStates.notSupported(
          "quantiles (PERCENTILE_CONT, MEDIAN, MIN, MAX) are answered per query, not in workloads");
    };
  }

  /**
   * For every group cell, the data cells selected by the mask whose group columns take that
   * group's values: the 0/1 query rows of a filtered GROUP BY.
   */
  private static int[][] groupRows(CellDomain cells, CellDomain groups, boolean[] mask,
      AggregateQuery part) {
    List<ColumnPolicy> cellCols = cells.columns();
    List<ColumnPolicy> groupCols = groups.columns();
    int[] position = new int[groupCols.size()]; // index of each group column among the cell columns
    int[][] valueOfKey = new int[groupCols.size()][]; // for a public column: its value per key cell
    for (int i = 0; i < groupCols.size(); i++) {
      Optional<PublicJoin.Derived> d = part.derived(groupCols.get(i));
      position[i] = cellCols.indexOf(d.isPresent() ? d.get().key() : groupCols.get(i));
      valueOfKey[i] = d.map(PublicJoin.Derived::valueOfKey).orElse(null);
    }
    int[] sizes = new int[cellCols.size()];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = cellCols.get(i).domainSize();
    }
    int[] counts = new int[groups.size()];
    int[] groupOf = new int[cells.size()];
    int[] coords = new int[sizes.length];
    for (int cell = 0; cell < cells.size(); cell++) {
      int g = 0;
      for (int i = 0; i < position.length; i++) {
        int v = coords[position[i]];
        if (valueOfKey[i] != null) {
          v = valueOfKey[i][v]; // -1 only for unmatched keys, which the mask excludes
        }
        g = g < 0 || v < 0 ? -1 : g * groupCols.get(i).domainSize() + v;
      }
      groupOf[cell] = g;
      if (mask[cell]) {
        counts[g]++;
      }
      for (int i = sizes.length - 1; i >= 0; i--) {
        if (++coords[i] < sizes[i]) {
          break;
        }
        coords[i] = 0;
      }
    }
    int[][] rows = new int[groups.size()][];
    for (int g = 0; g < rows.length; g++) {
      rows[g] = new int[counts[g]];
      counts[g] = 0;
    }
    for (int cell = 0; cell < cells.size(); cell++) {
      if (mask[cell]) {
        int g = groupOf[cell];
        rows[g][counts[g]++] = cell;
      }
    }
    return rows;
  }

  public WorkloadQuery query() {
    return query;
  }

  /** The cells of the data vectors: the cross product of the touched columns' domains. */
  public CellDomain cells() {
    return cells;
  }

  /** The distinct data vectors to measure, in the order of {@link #workloads()}. */
  public List<Measurement> measurements() {
    return measurements;
  }

  /** The linear queries on each measurement's data vector. */
  public List<SparseWorkload> workloads() {
    return workloads;
  }

  /** The result rows in release order (part by part, group cells in domain order). */
  public List<ResultRow> results() {
    return results;
  }

  /** The group cells of each part (a single cell for a part without GROUP BY). */
  public List<CellDomain> partGroups() {
    return partGroups;
  }

  /** The group cells each part returns (those its filter may contain, see ReleasedCells). */
  public List<ReleasedCells> partReleased() {
    return partReleased;
  }

  /**
   * The plan that measures the data vectors: every measurement grouped by all cell columns, with
   * no filter (filters are applied to the cells, not to the rows).
   */
  public MeasurementPlan measurementPlan() {
    AggregateQuery first = query.parts().get(0);
    AggregateQuery whole = new AggregateQuery(query.table(), cells.columns(), List.of(), null,
        first.hint(), List.of(), null, null);
    return new MeasurementPlan(whole, cells, measurements);
  }
}
