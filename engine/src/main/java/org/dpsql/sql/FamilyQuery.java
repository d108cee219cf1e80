package org.dpsql.sql;

import java.util.List;
import org.dpsql.policy.ColumnPolicy;
import org.dpsql.policy.TablePolicy;

/**
 * A named workload family over policy columns of one private table, asked for with {@code SELECT *
 * FROM TABLE(DPSQL.WORKLOAD('table', 'FAMILY(col, ...; k)', 'options'))} (contract §5): all of its
 * COUNT(*) queries are answered jointly with one charge. Cells are the cross product of the
 * columns' policy domains, in the order the columns are named; ranges follow each domain's order.
 */
public record FamilyQuery(TablePolicy table, Family family, List<ColumnPolicy> columns, int k,
    DpHint hint) {

  /** The families of the contract. */
  public enum Family {
    /** Every cell. */
    IDENTITY,
    /** Prefixes {@code [first, i]} of one ordered column. */
    PREFIX,
    /** Every range {@code [a, b]} of each column; ranges of several columns are rectangles. */
    ALL_RANGES,
    /** All {@code k}-way marginals of the columns. */
    MARGINALS,
    /** All {@code k}-way range-marginals of the columns. */
    RANGE_MARGINALS
  }

  public FamilyQuery {
    columns = List.copyOf(columns);
  }

  /** A readable form, e.g. {@code ALL_RANGES(AGE)} or {@code MARGINALS(A, B, C; 2)}. */
  public String describe() {
    String cols = String.join(", ", columns.stream().map(ColumnPolicy::name).toList());
    return family + "(" + cols
        + (family == Family.MARGINALS || family == Family.RANGE_MARGINALS ? "; " + k : "") + ")";
  }
}
