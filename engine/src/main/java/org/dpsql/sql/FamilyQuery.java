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
    DpHint hint, Output output) {

  /**
   * What the statement returns (option {@code output}): the family's queries, one row each (the
   * default), or the released synopsis's cell estimates, one row per cell, for families whose
   * answer set is too large to return (all ranges over 8,760 hourly cells have 38 million).
   * Either way the same synopsis is released, once.
   */
  public enum Output {
    /** One row per query of the family. */
    QUERIES,
    /** One row per cell of the columns' domains: the synopsis {@code x̂}. */
    CELLS
  }

  /** A family returning its queries. */
  public FamilyQuery(TablePolicy table, Family family, List<ColumnPolicy> columns, int k,
      DpHint hint) {
    this(table, family, columns, k, hint, Output.QUERIES);
  }

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
    java.util.Objects.requireNonNull(output, "output");
  }

  /** A readable form, e.g. {@code ALL_RANGES(AGE)} or {@code MARGINALS(A, B, C; 2)}. */
  public String describe() {
    String cols = String.join(", ", columns.stream().map(ColumnPolicy::name).toList());
    return family + "(" + cols
        + (family == Family.MARGINALS || family == Family.RANGE_MARGINALS ? "; " + k : "") + ")";
  }
}
