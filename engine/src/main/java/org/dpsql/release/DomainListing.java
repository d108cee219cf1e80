package org.dpsql.release;

import java.util.ArrayList;
import java.util.List;
import org.dpsql.rewrite.MeasurementPlan;
import org.dpsql.rewrite.ReleasedCells;

/**
 * The answer of a statement that asks for the values of group keys and no aggregate ({@code
 * SELECT DISTINCT c}, {@code SELECT c ... GROUP BY c}) when every key has a domain the policy
 * declares: the domain's cells that the statement's own filter may contain, in domain order, then
 * ORDER BY / OFFSET / FETCH.
 *
 * <p>Privacy: the rows are a function of the statement, its parameters and the policy only
 * (through {@link ReleasedCells}, the rule every release of cells follows); no data is read, so
 * nothing is measured and nothing is charged. It is the domain, not the values that occur: a
 * declared value no row has is listed too, as a GROUP BY of the same keys with COUNT(*) lists it
 * with its noisy count.
 */
public final class DomainListing {
  private DomainListing() {}

  /** The listed cells of {@code plan} (a query of group keys only) with {@code parameters}. */
  public static ResultTable answer(MeasurementPlan plan, List<Object> parameters) {
    if (!plan.query().listsDomain()) {
      throw new IllegalArgumentException("not a domain listing: " + plan.query().outputs());
    }
    ReleasedCells listed = ReleasedCells.of(plan, parameters);
    List<ResultColumn> columns = PrivateAnswer.columns(plan);
    List<Object[]> rows = new ArrayList<>(listed.count());
    for (int cell = 0; cell < plan.cells().size(); cell++) {
      if (!listed.released(cell)) {
        continue;
      }
      Object[] keys = plan.cells().keysOf(cell);
      Object[] row = new Object[columns.size()];
      for (int o = 0; o < row.length; o++) {
        int key = plan.query().groupBy().indexOf(plan.query().outputs().get(o).column());
        row[o] = PrivateAnswer.convert(keys[key], columns.get(o));
      }
      rows.add(row);
    }
    return new ResultTable(columns, PrivateAnswer.postProcess(plan, columns, rows));
  }

  /**
   * The listed groups of a workload plan whose parts are all listings (a series over a time
   * column's bins, {@code SELECT DISTINCT DATE_TRUNC('month', t)}): the groups the plan returns
   * ({@link org.dpsql.rewrite.WorkloadPlan#results()}, decided by the same cell rule), no value
   * measured.
   */
  public static ResultTable answer(org.dpsql.rewrite.WorkloadPlan plan) {
    if (!plan.query().listsDomain() || !plan.measurements().isEmpty()) {
      throw new IllegalArgumentException("not a domain listing: " + plan.query().outputs());
    }
    ResultTable t = WorkloadAnswer.build(plan, new double[0][], null);
    if (plan.query().parts().size() != 1) {
      return t;
    }
    org.dpsql.sql.AggregateQuery q = plan.query().parts().get(0);
    return PrivateAnswer.conform(t, t.columns(), q.offset(), q.fetch());
  }

  /** EXPLAIN's lines of a workload listing (see {@link #answer(org.dpsql.rewrite.WorkloadPlan)}). */
  public static List<String> describe(org.dpsql.rewrite.WorkloadPlan plan) {
    java.util.Set<String> keys = new java.util.LinkedHashSet<>();
    plan.query().parts().forEach(p -> p.groupBy().forEach(c -> keys.add(c.name())));
    return List.of("domain listing of " + String.join(", ", keys) + " over "
            + plan.query().table().name() + ": the policy's declared values, not read from the data",
        "values: " + plan.results().size() + " listed",
        "cost: none (nothing is measured and no backend statement runs)");
  }

  /** EXPLAIN's lines: what is listed, from where, and that nothing is measured or charged. */
  public static List<String> describe(MeasurementPlan plan, List<Object> parameters) {
    ReleasedCells listed = ReleasedCells.of(plan, parameters);
    String keys = String.join(", ", plan.query().groupBy().stream()
        .map(org.dpsql.policy.ColumnPolicy::name).toList());
    return List.of("domain listing of " + keys + " over " + plan.query().table().name()
            + ": the policy's declared values, not read from the data",
        "values: " + listed.count() + " listed of " + listed.size() + " in the policy domain"
            + (listed.excluded() == 0 ? "" : ", " + listed.excluded() + " excluded by the "
                + "statement's own filter (decided from the filter and the domains)"),
        "cost: none (nothing is measured and no backend statement runs)");
  }
}
