package org.dpsql.sql;

import java.util.List;
import org.dpsql.policy.TablePolicy;

/**
 * Several private aggregate queries over one table answered jointly, with one charge: the branches
 * of a {@code UNION ALL}, or the grouping sets of a {@code GROUP BY ROLLUP / CUBE / GROUPING SETS}
 * (contract §4). Each part is an {@link AggregateQuery}; its result rows follow the previous part's.
 *
 * <p>For grouping sets, every part has the same outputs and its own {@code groupBy} (the grouping
 * set); a group-key output whose column is not in a part's set is released as NULL, as SQL does.
 * For a union, part {@code i} is branch {@code i}; all parts have the same number of outputs and
 * the columns of the result are named after the first part.
 */
public record WorkloadQuery(Shape shape, TablePolicy table, List<AggregateQuery> parts, DpHint hint,
    List<SortKey> orderBy) {

  /** Where the parts came from. */
  public enum Shape { UNION_ALL, GROUPING_SETS }

  public WorkloadQuery {
    parts = List.copyOf(parts);
    orderBy = List.copyOf(orderBy);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a workload needs at least one query");
    }
  }

  /**
   * Whether every part asks for group keys of declared domains only ({@link
   * AggregateQuery#listsDomain()}): the answer is the domain's groups, free.
   */
  public boolean listsDomain() {
    return parts.stream().allMatch(AggregateQuery::listsDomain);
  }

  /** The outputs (columns) of the result: those of the first part. */
  public List<OutputItem> outputs() {
    return parts.get(0).outputs();
  }
}
