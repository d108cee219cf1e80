package org.dpsql.sql;

import java.util.List;
import org.apache.calcite.sql.SqlNode;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * A private aggregate query, as the front end understood it: which private table, which policy
 * columns form the cells (group keys), which aggregates are asked for, the row filter, the privacy
 * hint and the post-processing (ORDER BY / OFFSET / FETCH) of the released table.
 *
 * <p>{@code where} refers to columns by bare name and may contain dynamic parameters; it has been
 * checked to use only policy columns and no subqueries.
 */
public record AggregateQuery(
    TablePolicy table,
    List<ColumnPolicy> groupBy,
    List<OutputItem> outputs,
    SqlNode where,
    DpHint hint,
    List<SortKey> orderBy,
    Long offset,
    Long fetch) {

  public AggregateQuery {
    groupBy = List.copyOf(groupBy);
    outputs = List.copyOf(outputs);
    orderBy = List.copyOf(orderBy);
  }
}
